//! `#![no_std]`: a skate and the Whipple bicycle stepped by RK4 in `f64` and `f32`, and
//! the bicycle ridden by a sampled controller in `f32` ([`ride`]), with this crate's own
//! panic handler (so `std` anywhere in the graph is error E0152).
#![no_std]

use nonholo::prelude::*;

nonholonomic! {
    /// Skate (Benenti 2007, 9.1).
    pub struct Skate;
    parameters { m = 1.0, inertia = 0.1 }
    coordinates { x, y, theta }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2))
                   + 0.5 * inertia * dot(theta).powi(2);
    constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
    speeds { v = cos(theta) * dot(x) + sin(theta) * dot(y); w = dot(theta); }
}

/// One RK4 step of the skate in `f64`; `false` on an error.
pub fn step_skate(state: &mut [f64; 5], dt: f64) -> bool {
    nonholo::rk4_step(&Skate::default(), 0.0, state, dt).is_ok()
}

/// One RK4 step of the skate in `f32`, as on a microcontroller's FPU.
pub fn step_skate_f32(state: &mut [f32; 5], dt: f32) -> bool {
    let skate = SkateOf::<f32>::default();
    nonholo::rk4_step_generic(|t, x, d| skate.rhs_generic(t, x, d), 0.0, state, dt).is_ok()
}

/// One RK4 step of the Whipple bicycle (frames, bodies, rolling wheels) in `f32`.
pub fn step_bicycle_f32(state: &mut [f32; nonholo::models::WhippleBicycle::DIM], dt: f32) -> bool {
    let bike = nonholo::models::WhippleBicycleOf::<f32>::default();
    nonholo::rk4_step_generic(|t, x, d| bike.rhs_generic(t, x, d), 0.0, state, dt).is_ok()
}

pub mod ride;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
