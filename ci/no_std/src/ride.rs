//! A sampled-data rider for the Whipple bicycle in `f32`, as it would run on a
//! microcontroller: every `1 / RATE` s the controller reads the state, computes the steer
//! torque `u = -K [roll, steer, dot(roll), dot(steer)]` and holds it (zero-order hold)
//! while fixed RK4 substeps of `rhs_u_generic` advance the model. No heap, no `std`.
//!
//! Compiled into the `#![no_std]` check crate (CI builds it with its own panic handler) and
//! included by `tests/suite/no_std_ride.rs`, which runs it against the `f64` closed loop.

use nonholo::models::{WhippleBicycle, WhippleBicycleOf};
use nonholo::{Error, Model};

/// Controller rate [Hz] and RK4 substeps per control period.
pub const RATE: u32 = 100;
/// RK4 substeps per control period.
pub const SUBSTEPS: u32 = 4;
/// The state size.
pub const DIM: usize = WhippleBicycle::DIM;

/// Ride `periods` control periods from `state` with the gain `k` (on roll, steer and
/// their rates); the steer torque of every period goes to `torques` (as many as fit).
pub fn ride_f32(
    k: &[f32; 4],
    state: &mut [f32; DIM],
    periods: u32,
    torques: &mut [f32],
) -> Result<(), Error> {
    const NQ: usize = WhippleBicycle::NQ;
    let bike = WhippleBicycleOf::<f32>::default();
    let h = 1.0 / (RATE * SUBSTEPS) as f32;
    let mut t = 0.0f32;
    for p in 0..periods {
        let y = [state[3], state[6], state[NQ], state[NQ + 2]];
        let steer_torque = -(k[0] * y[0] + k[1] * y[1] + k[2] * y[2] + k[3] * y[3]);
        if let Some(slot) = torques.get_mut(p as usize) {
            *slot = steer_torque;
        }
        let u = [0.0, steer_torque, 0.0];
        for _ in 0..SUBSTEPS {
            nonholo::rk4_step_generic(|t, x, d| bike.rhs_u_generic(t, x, &u, d), t, state, h)?;
            t += h;
        }
    }
    Ok(())
}
