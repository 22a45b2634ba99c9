//! Implicit integrators (diffsol's BDF and ESDIRK34) with the exact Jacobian-vector
//! product: the same motion as the explicit method.

use nonholo::models::{PendulumSkate, VerticalDisk};
use nonholo::prelude::*;

fn final_state<M: Model>(m: &M, s0: &[f64], t1: f64, method: Method, tol: f64) -> Vec<f64> {
    let opts = Options::default()
        .method(method)
        .rtol(tol)
        .atol(tol)
        .sample_times(vec![t1]);
    let traj = simulate(m, s0, 0.0..t1, &opts).expect("simulation");
    traj.state(traj.len() - 1).expect("sample").to_vec()
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

#[test]
fn implicit_methods_reproduce_the_explicit_motion() {
    let disk = VerticalDisk::new().with_alpha(0.3);
    let s0 = [0.0, 0.0, 0.0, 0.4, 0.5, 1.1];
    let reference = final_state(&disk, &s0, 5.0, Method::Tsit45, 1e-12);
    for method in [Method::Bdf, Method::Esdirk34] {
        let s = final_state(&disk, &s0, 5.0, method, 1e-9);
        let d = max_diff(&s, &reference);
        println!("vertical disk, {method:?}: max |state - tsit45| = {d:.1e}");
        assert!(d < 1e-5, "{method:?}: {d:e}");
    }
    let bike = PendulumSkate::new().with_c_phi(0.5).with_c_th1(2.0);
    let s0 = bike
        .state_from_qdot(0.0, &[0.0, 0.0, 0.0, 0.05, 0.1], &[1.0, 0.0, 0.0, 0.0, 0.0])
        .unwrap();
    let reference = final_state(&bike, s0.as_ref(), 0.5, Method::Tsit45, 1e-12);
    for method in [Method::Bdf, Method::Esdirk34] {
        let s = final_state(&bike, s0.as_ref(), 0.5, method, 1e-9);
        let d = max_diff(&s, &reference);
        println!("pendulum skate, {method:?}: max |state - tsit45| = {d:.1e}");
        assert!(d < 1e-5, "{method:?}: {d:e}");
    }
}
