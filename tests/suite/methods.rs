//! The explicit methods on the papers' systems: DOP853 and Tsit45 give the same motion, and
//! DOP853 keeps the energy of the stationary ones.

use nonholo::models::{PendulumSkate, RollingDiskPendulum, VerticalDisk, WhippleBicycle};
use nonholo::prelude::*;

fn run<M: Model>(m: &M, s0: &[f64], t1: f64, method: Method) -> Trajectory {
    let o = Options::default().method(method).rtol(1e-12).atol(1e-12);
    simulate(m, s0, 0.0..t1, &o).expect("simulation")
}

/// Largest difference of the final states, relative to the state's size.
fn agree<M: Model>(name: &str, m: &M, s0: &[f64], t1: f64, tol: f64) {
    let (a, b) = (
        run(m, s0, t1, Method::Dop853),
        run(m, s0, t1, Method::Tsit45),
    );
    let ((ta, ya), (tb, yb)) = (a.last().unwrap(), b.last().unwrap());
    assert_eq!((ta, tb), (t1, t1));
    let size = ya.iter().fold(1.0f64, |s, x| s.max(x.abs()));
    let d = ya
        .iter()
        .zip(yb)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
        / size;
    let e = a.energy(m).unwrap();
    let drift = e.iter().map(|x| (x - e[0]).abs()).fold(0.0, f64::max) / e[0].abs();
    println!(
        "{name}: DOP853 {} steps, Tsit45 {}; final states differ by {d:.1e} (relative), \
         DOP853 energy drift {drift:.1e}",
        a.len() - 1,
        b.len() - 1
    );
    assert!(d < tol, "{name}: {d:e}");
    assert!(drift < 1e-10, "{name}: energy drift {drift:e}");
    assert!(
        3 * a.len() < b.len(),
        "{name}: DOP853 takes fewer steps at 1e-12"
    );
}

#[test]
fn dop853_and_tsit45_agree_on_the_papers_systems() {
    let disk = VerticalDisk::new();
    agree(
        "vertical disk",
        &disk,
        &[0.0, 0.0, 0.0, 0.4, 0.5, 1.1],
        5.0,
        1e-10,
    );
    let bike = PendulumSkate::new();
    let s0 = bike
        .state_from_qdot(0.0, &[0.0, 0.0, 0.0, 0.05, 0.1], &[1.0, 0.0, 0.0, 0.0, 0.0])
        .unwrap();
    agree("pendulum skate", &bike, s0.as_ref(), 1.0, 1e-10);
    let uni = RollingDiskPendulum::default();
    let s0 = uni
        .state_from_qdot(
            0.0,
            &[0.0, 0.0, 0.0, 0.0, 0.05, -0.1],
            &[1.0, 0.0, 0.0, 2.0, 0.0, 0.0],
        )
        .unwrap();
    agree("unicycle with rider", &uni, s0.as_ref(), 1.5, 1e-10);
    let whipple = WhippleBicycle::default();
    let mut s0 = WhippleBicycle::ZERO_STATE;
    whipple
        .solve_configuration(0.0, &mut s0[..WhippleBicycle::NQ])
        .unwrap();
    s0[WhippleBicycle::NQ] = 0.5;
    s0[WhippleBicycle::NQ + 1] = -5.0 / whipple.r_r;
    agree("Whipple bicycle", &whipple, &s0, 2.0, 1e-10);
}
