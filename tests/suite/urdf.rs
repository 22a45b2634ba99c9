//! Robots from URDF files against Pinocchio and closed forms.
//!
//! - Forward dynamics of four robots of example-robot-data (three arms on fixed bases, a
//!   quadruped floating) at Pinocchio's random states
//!   (`tests/data/pinocchio_urdf.json`, written by `bench/pinocchio/urdf_reference.py`
//!   with `aba`, the URDF's damping applied, converted to our coordinates): 1e-10
//!   relative.
//! - The mobile manipulator of `tests/data/urdf/mobile_arm.urdf` rolling on its wheels:
//!   the differential drive's rates from its wheel radius and track, and its energy
//!   spent by the joints' damping along a ride.

use nonholo::prelude::*;
use nonholo_test_models::urdf::{Kinova, MobileArm, Solo12, Ur5, Xarm7};

fn reference() -> serde_json::Value {
    let text = include_str!("../data/pinocchio_urdf.json");
    serde_json::from_str(text).expect("the reference file is JSON")
}

fn numbers(v: &serde_json::Value) -> Vec<f64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

/// The largest error of `rhs_u`'s accelerations against Pinocchio's over the robot's
/// states, relative to the largest acceleration; the number of states compared.
fn against_pinocchio<M: Model>(model: &M, name: &str) -> (f64, usize) {
    let all = reference();
    let robot = all["robots"]
        .as_array()
        .expect("robots")
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no reference for {name}"));
    let coordinates: Vec<&str> = robot["coordinates"]
        .as_array()
        .expect("coordinates")
        .iter()
        .map(|c| c.as_str().expect("a name"))
        .collect();
    assert_eq!(coordinates.len(), M::NQ, "{name}: the coordinates");
    let index: Vec<usize> = coordinates
        .iter()
        .map(|c| {
            M::COORDINATES
                .iter()
                .position(|x| x == c)
                .unwrap_or_else(|| panic!("{name}: no coordinate {c}"))
        })
        .collect();
    let mut worst: f64 = 0.0;
    let states = robot["states"].as_array().expect("states");
    for s in states {
        let (q, qdot, qddot) = (numbers(&s["q"]), numbers(&s["qdot"]), numbers(&s["qddot"]));
        let mut x = vec![0.0; M::DIM];
        for (i, &k) in index.iter().enumerate() {
            x[k] = q[i];
            x[M::NQ + k] = qdot[i];
        }
        let mut u = vec![0.0; M::NU];
        for (joint, tau) in s["tau"].as_object().expect("tau") {
            let input = format!("{joint}_effort");
            let k = M::INPUTS
                .iter()
                .position(|x| *x == input)
                .unwrap_or_else(|| panic!("{name}: no input {input}"));
            u[k] = tau.as_f64().expect("a number");
        }
        let mut dx = vec![0.0; M::DIM];
        model.rhs_u(0.0, &x, &u, &mut dx).expect("rhs");
        let scale = qddot.iter().fold(1.0f64, |a, v| a.max(v.abs()));
        for (i, &k) in index.iter().enumerate() {
            worst = worst.max((dx[M::NQ + k] - qddot[i]).abs() / scale);
            // the speeds of a URDF model are dot(q): its first rows are the speeds
            assert_eq!(dx[k], qdot[i], "{name}: dq/dt of {}", coordinates[i]);
        }
    }
    (worst, states.len())
}

#[test]
fn arms_on_fixed_bases_match_pinocchio() {
    for (name, (err, n)) in [
        ("ur5", against_pinocchio(&Ur5::default(), "ur5")),
        ("xarm7", against_pinocchio(&Xarm7::default(), "xarm7")),
        ("kinova", against_pinocchio(&Kinova::default(), "kinova")),
    ] {
        assert_eq!(n, 4);
        assert!(err < 1e-10, "{name}: {err:e}");
    }
}

#[test]
fn floating_robots_match_pinocchio() {
    let (err, n) = against_pinocchio(&Solo12::default(), "solo12");
    assert!(n == 4 && err < 1e-10, "solo12: {err:e}");
}

/// Wheel radius and half track of `mobile_arm.urdf`.
const R: f64 = 0.05;
const HALF_TRACK: f64 = 0.2;

#[test]
fn the_differential_drive_rolls_as_its_radius_and_track_say() {
    let robot = MobileArm::default();
    assert_eq!(
        MobileArm::SPEEDS,
        [
            "dot(wheel_left_joint)",
            "dot(wheel_right_joint)",
            "dot(arm_joint)",
            "dot(lift_joint)",
            "dot(wrist_joint)"
        ]
    );
    let mut q = [0.0; MobileArm::NQ];
    q[2] = 0.7; // yaw
    q[5] = 0.3; // the arm turned
    let (wl, wr) = (3.0, 5.0);
    let z = [wl, wr, 0.4, 0.1, -0.2];
    let mut qdot = [0.0; MobileArm::NQ];
    robot.qdot(0.0, &q, &z, &mut qdot).expect("qdot");
    let v = R * (wl + wr) / 2.0;
    let yaw_rate = R * (wr - wl) / (2.0 * HALF_TRACK);
    let want = [v * 0.7f64.cos(), v * 0.7f64.sin(), yaw_rate];
    // the file writes pi/2 as 1.5707963: the axles lean 2.7e-8 rad, which moves each
    // contact sideways by r sin(2.7e-8) and the rates by about 1e-9 relative
    for k in 0..3 {
        assert!(
            (qdot[k] - want[k]).abs() < 1e-8 * want[k].abs(),
            "{k}: {} {}",
            qdot[k],
            want[k]
        );
    }
    // and back: the rates of a rolling motion give its speeds
    let state = robot.state_from_qdot(0.0, &q, &qdot).expect("consistent");
    for k in 0..5 {
        assert!((state[MobileArm::NQ + k] - z[k]).abs() < 1e-13);
    }
}

#[test]
fn the_mobile_arm_loses_its_energy_to_the_joints_damping() {
    // damping (N m s): wheels 0.01, the arm 0.5; the lift and wrist have none
    let damping = [0.0, 0.0, 0.0, 0.01, 0.01, 0.5, 0.0, 0.0];
    let robot = MobileArm::default();
    let q = [0.0, 0.0, 0.3, 0.0, 0.0, 0.5, 0.05, 0.2];
    let start = {
        let mut x = [0.0; MobileArm::DIM];
        x[..MobileArm::NQ].copy_from_slice(&q);
        x[MobileArm::NQ..].copy_from_slice(&[4.0, 2.0, 1.5, 0.2, -1.0]);
        x
    };
    let options = Options::default()
        .rtol(1e-11)
        .atol(1e-11)
        .sample_every(0.001);
    let ride = simulate(&robot, &start, 0.0..1.0, &options).expect("a ride");
    let mut spent = 0.0;
    let mut power_prev = None;
    let mut t_prev = 0.0;
    for i in 0..ride.len() {
        let (t, x) = (ride.times()[i], ride.state(i).expect("a sample"));
        let mut qdot = [0.0; MobileArm::NQ];
        robot
            .qdot(t, &x[..MobileArm::NQ], &x[MobileArm::NQ..], &mut qdot)
            .expect("qdot");
        let power: f64 = (0..MobileArm::NQ)
            .map(|k| damping[k] * qdot[k] * qdot[k])
            .sum();
        if let Some(p) = power_prev {
            spent += 0.5 * (p + power) * (t - t_prev);
        }
        power_prev = Some(power);
        t_prev = t;
    }
    let e0 = robot.energy(0.0, &start).expect("energy");
    let (t1, x1) = ride.last().expect("a ride");
    let e1 = robot.energy(t1, x1).expect("energy");
    assert!(spent > 0.1, "the arm's damping spends energy: {spent}");
    assert!(
        ((e0 - e1) - spent).abs() < 1e-5 * spent,
        "energy lost {} against the damping's work {spent}",
        e0 - e1
    );
}
