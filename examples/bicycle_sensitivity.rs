//! How the Whipple bicycle's wobble depends on its mass distribution: the derivative of
//! the lean after 2 s with respect to six parameters, by forward-mode automatic
//! differentiation through the integrator (the model in num-dual's `Dual64`, stepped by
//! `rk4_step_generic`), each checked against central differences of `f64` runs.
//!
//! `cargo run --release --features dual --example bicycle_sensitivity`
//!
//! The parameters are masses, inertias and mass-centre positions: they enter the dynamics
//! only, not the contact (pitch) constraint, so the upright initial state does not move
//! with them.
use nonholo::models::{WhippleBicycle, WhippleBicycleOf};
use nonholo::num_dual::Dual64;
use nonholo::prelude::*;
use nonholo::{rk4_step_generic, Scalar};

const DT: f64 = 1e-3;
const STEPS: usize = 2000;

/// The state after `STEPS` RK4 steps from `x0`, in any scalar.
fn ride<S: Scalar>(bike: &WhippleBicycleOf<S>, x0: [S; 11]) -> Result<[S; 11], Error> {
    let mut x = x0;
    for i in 0..STEPS {
        let t = S::from_f64(i as f64 * DT);
        rk4_step_generic(
            |t, s, d| bike.rhs_generic(t, s, d),
            t,
            &mut x,
            S::from_f64(DT),
        )?;
    }
    Ok(x)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bike = WhippleBicycle::default();
    // 4 m/s, just below the weave speed (4.29 m/s): a lean-rate kick of 0.5 rad/s.
    let mut x0 = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut x0[..WhippleBicycle::NQ])?;
    x0[WhippleBicycle::NQ] = 0.5;
    x0[WhippleBicycle::NQ + 1] = -4.0 / bike.r_r;
    let roll = 3; // coordinates: x, y, yaw, roll, pitch, th_r, steer, th_f
    let reference = ride(&bike, x0)?;
    println!(
        "lean after {} s: {:.6} rad (f64 RK4, dt = {DT})",
        STEPS as f64 * DT,
        reference[roll]
    );
    println!(
        "{:>6} {:>9} {:>16} {:>16} {:>9} {:>8}",
        "param", "value", "d lean/d p (AD)", "differences", "rel diff", "AD time"
    );
    for name in ["m_b", "x_b", "z_b", "i_bxx", "m_h", "m_f"] {
        let value = *bike
            .cast::<f64>()
            .parameter_mut(name)
            .ok_or("no such parameter")?;
        let start = std::time::Instant::now();
        let mut dual = bike.cast::<Dual64>();
        *dual.parameter_mut(name).ok_or("no such parameter")? = Dual64::from(value).derivative();
        let ad = ride(&dual, x0.map(Dual64::from))?[roll].eps;
        let time = start.elapsed();
        // Richardson-extrapolated central differences of f64 rides
        let at = |p: f64| -> Result<f64, Error> {
            let mut b = bike;
            *b.parameter_mut(name).expect("known parameter") = p;
            Ok(ride(&b, x0)?[roll])
        };
        let h = 1e-3 * value.abs().max(1.0);
        let d1 = (at(value + h)? - at(value - h)?) / (2.0 * h);
        let d2 = (at(value + h / 2.0)? - at(value - h / 2.0)?) / h;
        let fd = (4.0 * d2 - d1) / 3.0;
        let rel = (ad - fd).abs() / fd.abs().max(1e-12);
        println!(
            "{name:>6} {value:>9.4} {ad:>16.9e} {fd:>16.9e} {rel:>9.1e} {:>6.1} ms",
            time.as_secs_f64() * 1e3
        );
        if rel > 1e-6 {
            return Err(format!("{name}: AD and differences disagree by {rel:e}").into());
        }
    }
    Ok(())
}
