//! Benenti's second method (`formulation = multipliers`): the field D against the papers'
//! printed second-method systems (9.1, 9.2, 9.4) and the independent oracle at random
//! states on the constraint manifold, reaction forces against Newton's law, and
//! trajectories against the first method (Gibbs–Appell) for all eight worked systems.

use crate::common;
use common::oracle::{self, qdd_multipliers, System};
use common::rng::SplitMix64;
use common::systems as p;
use nonholo::models;
use nonholo::prelude::*;
use nonholo_test_models::multipliers::*;

/// Random consistent `(q, dot(q))`: random q and speeds, dot(q) = psi(q, z, t).
fn random_state<S: System>(sys: &S, rng: &mut SplitMix64) -> (f64, Vec<f64>, Vec<f64>) {
    let t = rng.uniform(0.0, 3.0);
    let q: Vec<f64> = (0..sys.nq()).map(|_| rng.uniform(-1.2, 1.2)).collect();
    let z: Vec<f64> = (0..sys.nz()).map(|_| rng.uniform(-1.2, 1.2)).collect();
    let qd = sys.psi(t, &q, &z);
    (t, q, qd)
}

fn check_field<M: Model, S: System>(
    name: &str,
    model: &M,
    sys: &S,
    printed: impl Fn(f64, &[f64], &[f64]) -> Vec<f64>,
    rng: &mut SplitMix64,
) {
    let (mut wp, mut wo) = (0.0f64, 0.0f64);
    for _ in 0..60 {
        let (t, q, qd) = random_state(sys, rng);
        let state: Vec<f64> = q.iter().chain(&qd).copied().collect();
        let mut d = vec![0.0; M::DIM];
        model.rhs(t, &state, &mut d).expect("rhs");
        wp = wp.max(oracle::rel_err(&d[M::NQ..], &printed(t, &q, &qd)));
        wo = wo.max(oracle::rel_err(
            &d[M::NQ..],
            &qdd_multipliers(sys, t, &q, &qd).0,
        ));
    }
    println!("{name}: second method vs print {wp:.1e}, vs oracle {wo:.1e}");
    assert!(wp < 1e-12 && wo < 1e-12);
}

#[test]
fn second_method_matches_benenti_and_the_oracle() {
    let mut rng = SplitMix64::new(31);
    let s = p::Skate::new(&mut rng);
    let m = SkateM::new()
        .with_m(s.m)
        .with_inertia(s.inertia)
        .with_g(s.g)
        .with_alpha(s.alpha)
        .with_c(s.c);
    check_field(
        "9.1",
        &m,
        &s,
        |t, q, qd| s.printed_second_method(t, q, qd),
        &mut rng,
    );
    let s = p::RollingDisk::new(&mut rng);
    let m = RollingDiskM::new(s.m, s.r, s.ia, s.ib, s.alpha, s.c, s.kspring);
    check_field(
        "9.2",
        &m,
        &s,
        |t, q, qd| s.printed_second_method(t, q, qd),
        &mut rng,
    );
    let s = p::ParallelPoints::new(&mut rng);
    let m = ParallelPointsM::new()
        .with_m1(s.m1)
        .with_m2(s.m2)
        .with_g(s.g);
    check_field(
        "9.4",
        &m,
        &s,
        |t, q, qd| s.printed_second_method(t, q, qd),
        &mut rng,
    );
    check_field(
        "9.4 inclined",
        &m,
        &s,
        |_, q, qd| s.printed_second_method_inclined(q, qd),
        &mut rng,
    );
}

#[test]
fn skate_reaction_is_the_centripetal_force() {
    // Newton on the skate (alpha = 0, no torque): the blade's lateral force makes the
    // centre turn with the blade, R = m v w (-sin theta, cos theta, 0), and does no work.
    let m = SkateM::new().with_m(1.7).with_inertia(0.3);
    let mut rng = SplitMix64::new(32);
    for _ in 0..50 {
        let (th, v, w) = (
            rng.uniform(-3.0, 3.0),
            rng.uniform(-2.0, 2.0),
            rng.uniform(-2.0, 2.0),
        );
        let q = [rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0), th];
        let qd = [v * th.cos(), v * th.sin(), w];
        let r = m.reaction_forces(0.0, &q, &qd).unwrap();
        let newton = [-m.m * v * w * th.sin(), m.m * v * w * th.cos(), 0.0];
        assert!(oracle::rel_err(&r, &newton) < 1e-13, "{r:?} vs {newton:?}");
        let power: f64 = r.iter().zip(&qd).map(|(a, b)| a * b).sum();
        assert!(power.abs() < 1e-13 * (1.0 + v.abs() * w.abs()));
    }
}

#[test]
fn state_off_the_constraint_is_an_error() {
    let m = SkateM::default();
    let err = simulate(
        &m,
        &[0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
        0.0..1.0,
        &Options::default(),
    )
    .unwrap_err();
    assert!(
        matches!(err.error, Error::ConstraintViolated { .. }),
        "{}",
        err.error
    );
    assert!(m
        .state_from_qdot(0.0, &[0.0, 0.0, 0.0], &[0.0, 1.0, 0.0])
        .is_err());
}

/// q(t) of two models from the same (q, dot(q)), sampled alike.
fn q_agreement<A: Model, B: Model>(a: &A, b: &B, q0: &[f64], qd0: &[f64], t1: f64) -> f64 {
    let opts = Options::default().rtol(1e-11).atol(1e-11).sample_every(0.2);
    let sa = a.state_from_qdot(0.0, q0, qd0).expect("a: consistent");
    let sb = b.state_from_qdot(0.0, q0, qd0).expect("b: consistent");
    let ta = simulate(a, sa.as_ref(), 0.0..t1, &opts).expect("a");
    let tb = simulate(b, sb.as_ref(), 0.0..t1, &opts).expect("b");
    assert_eq!(ta.len(), tb.len());
    let mut worst = 0.0f64;
    for i in 0..ta.len() {
        let (qa, qb) = (ta.q(i).unwrap_or_default(), tb.q(i).unwrap_or_default());
        for (x, y) in qa.iter().zip(qb) {
            worst = worst.max((x - y).abs());
        }
    }
    worst
}

#[test]
fn first_and_second_method_trajectories_agree() {
    let d1 = q_agreement(
        &models::PendulumSkate::default(),
        &PendulumSkateM::default(),
        &[0.0, 0.0, 0.0, 0.1, -0.2],
        &[1.0, 0.0, 0.0, 0.0, 0.3],
        1.0,
    );
    let s = models::AssignedSpin::default();
    let v = s.r * s.w0 + s.r * s.a_s * s.omega;
    let d2 = q_agreement(
        &s,
        &AssignedSpinM::default(),
        &[0.0, 0.0, 0.0, 0.02, 0.0],
        &[v, 0.0, 0.0, 0.0, 0.0],
        1.0,
    );
    let pts = models::ParallelPoints::default();
    let pm = ParallelPointsM::default();
    let d3 = q_agreement(&pts, &pm, &[0.0, 0.0, 1.0, 0.5], &[1.0, 0.4, 0.5, 0.2], 2.0);
    println!("GA vs multipliers: 3.1 {d1:.1e}, 3.4 {d2:.1e}, 9.4 {d3:.1e}");
    assert!(d1 < 1e-9 && d2 < 1e-9 && d3 < 1e-9);
}
