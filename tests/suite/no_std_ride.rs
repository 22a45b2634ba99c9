//! The `no_std` rider of `ci/no_std` (the Whipple bicycle in `f32`, a 100 Hz sampled
//! controller stepping `rhs_u_generic` with `rk4_step_generic`), run here: it recovers from
//! a lean-rate kick and follows the `f64` closed loop of `simulate_controlled` with the
//! same gain to `f32` accuracy.

#[path = "../../ci/no_std/src/ride.rs"]
mod ride;

use nonholo::control::{discretize, dlqr};
use nonholo::models::WhippleBicycle;
use nonholo::nalgebra::{DMatrix, DVector};
use nonholo::prelude::*;

const NQ: usize = WhippleBicycle::NQ;

/// The bicycle upright at 3 m/s with a lean rate of 0.5 rad/s, and the 100 Hz LQR gain.
fn setup() -> (WhippleBicycle, [f64; 11], [f64; 4]) {
    let bike = WhippleBicycle::default();
    let mut x = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut x[..NQ]).unwrap();
    x[NQ + 1] = -3.0 / bike.r_r;
    let spec = Linearize::new()
        .keep(&["roll", "steer", "dot(roll)", "dot(steer)"])
        .inputs(&["t_steer"]);
    let lin = linearize(&bike, 0.0, &x, &spec).unwrap();
    let dt = 1.0 / f64::from(ride::RATE);
    let (ad, bd) = discretize(&lin.a, &lin.b, dt).unwrap();
    let q = DMatrix::from_diagonal(&DVector::from_vec(vec![100.0, 25.0, 1.0, 1.0]));
    let r = DMatrix::from_element(1, 1, 0.04);
    let k = dlqr(&ad, &bd, &q, &r).unwrap().k;
    x[NQ] = 0.5;
    (bike, x, [k[(0, 0)], k[(0, 1)], k[(0, 2)], k[(0, 3)]])
}

#[test]
fn f32_sampled_rider_recovers_and_follows_the_f64_closed_loop() {
    let (bike, x0, k) = setup();
    let periods = 5 * ride::RATE;
    let mut x32 = x0.map(|v| v as f32);
    let mut torques = vec![0.0f32; periods as usize];
    ride::ride_f32(&k.map(|v| v as f32), &mut x32, periods, &mut torques).unwrap();
    // the same controller in f64, DOP853 at 1e-10 between the control instants
    let mut lqr = |_t: f64, x: &[f64], u: &mut [f64]| {
        u[0] = 0.0;
        u[1] = -(k[0] * x[3] + k[1] * x[6] + k[2] * x[NQ] + k[3] * x[NQ + 2]);
        u[2] = 0.0;
    };
    let options = Options::default()
        .method(Method::Dop853)
        .control_period(1.0 / f64::from(ride::RATE));
    let tr = simulate_controlled(&bike, &mut lqr, &x0, 0.0..5.0, &options).unwrap();
    let (_, x64) = tr.last().unwrap();
    let t64 = tr.column("t_steer").unwrap();
    let worst_state = x32
        .iter()
        .zip(x64)
        .fold(0.0f64, |m, (a, b)| m.max((f64::from(*a) - b).abs()));
    // the torque of each period: the f64 run records the held u at its samples (every step)
    let peak = t64.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    println!(
        "f32 rider after 5 s: roll {:e}, |x32 - x64| {worst_state:e}, peak torque {peak:.3} N m \
         (f32 {:.3})",
        x32[3],
        torques.iter().fold(0.0f32, |m, x| m.max(x.abs()))
    );
    assert!(x32[3].abs() < 1e-3 && x32[6].abs() < 1e-3, "{x32:?}");
    // RK4 at 400 Hz in f32 against DOP853 at 1e-10 in f64
    assert!(worst_state < 1e-3, "{worst_state:e}");
    assert!(
        (f64::from(torques.iter().fold(0.0f32, |m, x| m.max(x.abs()))) - peak).abs()
            < 1e-3 * (1.0 + peak)
    );
}
