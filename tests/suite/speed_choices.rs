//! The same system written with different choices of speeds (quasi-velocities, Benenti's
//! parametric form, independent velocities with different dependent sets) must give the
//! same motion q(t); and stationary systems conserve energy over long runs.

use nonholo::models::{self, PendulumSkate, RollingDiskPendulum};
use nonholo::prelude::*;
use nonholo_test_models::speed_choices::*;

/// Simulate from the same (q, dot(q)) and sample q at common times.
fn q_path<M: Model>(m: &M, q0: &[f64], qd0: &[f64], t1: f64) -> Vec<Vec<f64>> {
    let s0 = m
        .state_from_qdot(0.0, q0, qd0)
        .expect("consistent initial velocities");
    let opts = Options::default()
        .rtol(1e-11)
        .atol(1e-11)
        .sample_every(0.25);
    let traj = simulate(m, s0.as_ref(), 0.0..t1, &opts).expect("simulation");
    (0..traj.len())
        .map(|i| traj.q(i).unwrap_or_default().to_vec())
        .collect()
}

fn max_diff(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .flat_map(|(x, y)| x.iter().zip(y).map(|(u, v)| (u - v).abs()))
        .fold(0.0, f64::max)
}

#[test]
fn skate_speed_choices_agree() {
    let q0 = [0.3, -0.2, 0.4];
    let qd0 = [0.8 * 0.4f64.cos(), 0.8 * 0.4f64.sin(), -0.6];
    let a = q_path(&SkateSpeeds::default(), &q0, &qd0, 5.0);
    let b = q_path(&SkateVelocities::default(), &q0, &qd0, 5.0);
    let ab = max_diff(&a, &b);
    // Independent velocities with a dependent dot(y) (or dot(x)) are singular where
    // cos(theta) (or sin(theta)) vanishes: compare over a second in which theta stays
    // away from those angles.
    let a = q_path(&SkateSpeeds::default(), &q0, &qd0, 1.0);
    let c = q_path(&SkateIndependentX::default(), &q0, &qd0, 1.0);
    let ac = max_diff(&a, &c);
    let q1 = [0.3, -0.2, 1.0];
    let qd1 = [0.8 * 1.0f64.cos(), 0.8 * 1.0f64.sin(), 0.3];
    let a = q_path(&SkateSpeeds::default(), &q1, &qd1, 1.0);
    let d = q_path(&SkateIndependentY::default(), &q1, &qd1, 1.0);
    let ad = max_diff(&a, &d);
    println!(
        "speeds vs velocities {ab:.1e}, vs independent(x) {ac:.1e}, vs independent(y) {ad:.1e}"
    );
    assert!(ab < 1e-9 && ac < 1e-9 && ad < 1e-9);
}

#[test]
fn rolling_disk_momenta_and_plain_speeds_agree() {
    let m1 = RollingDiskPendulum::default();
    let m2 = RollingDiskPlainSpeeds::default();
    let q0 = [0.0, 0.0, 0.2, 0.0, 0.15, -0.1];
    let (phid, phi1d) = (0.3, 4.0);
    let qd0 = [
        m1.r * 0.2f64.cos() * phi1d,
        m1.r * 0.2f64.sin() * phi1d,
        phid,
        phi1d,
        0.1,
        0.2,
    ];
    let a = q_path(&m1, &q0, &qd0, 3.0);
    let b = q_path(&m2, &q0, &qd0, 3.0);
    let diff = max_diff(&a, &b);
    println!("momenta vs plain speeds {diff:.1e}");
    assert!(diff < 1e-9);
}

fn energy_drift<M: Model>(m: &M, s0: &[f64], t1: f64) -> f64 {
    let traj = simulate(m, s0, 0.0..t1, &Options::default()).expect("simulation");
    let e = traj.energy(m).expect("energy");
    let r = traj.max_constraint_residual(m).expect("residual");
    assert!(r < 1e-10, "constraint residual {r:e}");
    e.iter().map(|x| (x - e[0]).abs()).fold(0.0, f64::max) / (1.0 + e[0].abs())
}

#[test]
fn stationary_systems_conserve_energy() {
    let skate = PendulumSkate::default();
    let s0 = skate
        .state_from_qdot(0.0, &[0.0, 0.0, 0.0, 0.1, -0.2], &[1.0, 0.0, 0.0, 0.0, 0.3])
        .unwrap();
    let d1 = energy_drift(&skate, s0.as_ref(), 20.0);
    let disk = RollingDiskPendulum::default();
    let s0 = disk
        .state_from_qdot(
            0.0,
            &[0.0, 0.0, 0.0, 0.0, 0.05, 0.0],
            &[2.0, 0.0, 0.0, 4.0, 0.0, 0.0],
        )
        .unwrap();
    let d2 = energy_drift(&disk, s0.as_ref(), 20.0);
    let pts = models::ParallelPoints::default();
    let d3 = energy_drift(&pts, &[0.0, 0.0, 1.0, 0.0, 1.0, -0.5, 0.8], 10.0);
    println!("relative energy drift over the run: pendulum skate {d1:.1e}, rolling disk {d2:.1e}, parallel points {d3:.1e}");
    assert!(d1 < 1e-8 && d2 < 1e-8 && d3 < 1e-8);
}

#[test]
fn nonlinear_constraint_parametric_and_independent_agree() {
    // dot(y2) = dot(x2) dot(y1) / dot(x1): regular while dot(x1) != 0 (gravity along x
    // keeps it growing from 1).
    let q0 = [0.0, 0.0, 1.0, 0.5];
    let qd0 = [1.0, 0.4, 0.5, 0.2];
    let a = q_path(&models::ParallelPoints::default(), &q0, &qd0, 2.0);
    let b = q_path(&ParallelPointsIndependent::default(), &q0, &qd0, 2.0);
    let diff = max_diff(&a, &b);
    println!("parametric vs independent (nonlinear) {diff:.1e}");
    assert!(diff < 1e-9);
}
