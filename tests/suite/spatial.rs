//! Spatial multibody systems, derived body by body (Kane's form of Lagrange's equations,
//! `mechanics::rigid` in the macro) and, where the bodies form a tree of joints, by the
//! articulated-body algorithm (`mechanics::recursive`): the spatial chain of `bench/spatial`
//! (a rolling disk with links hanging from its centre, each turned about two axes, whose rhs
//! is the articulated-body algorithm's) against SymPy's `KanesMethod` (`bench/python/bench_spatial_sympy.py`, `spatial_results.json`), its
//! energy along a run, and the mobile manipulator at rest, held and driven.

use nonholo::models::MobileManipulator;
use nonholo::prelude::*;
use nonholo_test_models::spatial::*;

/// `d state / dt` at `s[k] = 0.1 + 0.05 k` from SymPy's `KanesMethod` (N = 2, 3).
const SYMPY_2: [f64; 16] = [
    0.31852163779840353,
    0.06456753250839489,
    0.55,
    0.6,
    0.65,
    0.7000000000000001,
    0.75,
    0.8,
    0.85,
    -0.8006053046788051,
    3.434138075177785,
    -1.3251966428028896,
    -10.324439525739942,
    -4.639793587854429,
    -19.51437330831706,
    -24.007852875174713,
];
const SYMPY_3: [f64; 20] = [
    0.36752496669046564,
    0.07450099904814796,
    0.65,
    0.7000000000000001,
    0.75,
    0.8,
    0.85,
    0.9,
    0.9500000000000001,
    1.0,
    1.05,
    -1.0785839692375265,
    3.3095691508934797,
    -1.7755142895292957,
    -4.199882061224989,
    0.46612274420232397,
    -14.246829326301185,
    -16.701160706422968,
    -4.982772770169854,
    -7.310342187682716,
];

fn against_sympy<M: Model>(m: &M, expected: &[f64]) {
    let s: Vec<f64> = (0..M::DIM).map(|k| 0.1 + 0.05 * k as f64).collect();
    let mut d = vec![0.0; M::DIM];
    m.rhs(0.0, &s, &mut d).expect("rhs");
    let scale = expected.iter().fold(1.0f64, |a, x| a.max(x.abs()));
    for (k, (a, b)) in d.iter().zip(expected).enumerate() {
        assert!(
            (a - b).abs() <= 1e-12 * scale,
            "component {k}: {a} against SymPy's {b}"
        );
    }
}

#[test]
fn spatial_chains_match_sympy_kanes_method() {
    for (equations, joints) in [(Chain2::EQUATIONS, 4), (Chain3::EQUATIONS, 6)] {
        let route = format!("articulated-body algorithm (Featherstone 2008, table 7.1), {joints} joints on a root of 3 speeds");
        assert!(equations.contains(&route), "{equations}");
    }
    against_sympy(&Chain2::default(), &SYMPY_2);
    against_sympy(&Chain3::default(), &SYMPY_3);
}

/// A conservative system: the energy stays put along a tight DOP853 run.
#[test]
fn spatial_chain_conserves_energy() {
    let m = Chain3::default();
    let s0: Vec<f64> = (0..Chain3::DIM).map(|k| 0.1 + 0.05 * k as f64).collect();
    let opts = Options::default()
        .method(Method::Dop853)
        .rtol(1e-12)
        .atol(1e-12)
        .sample_every(0.1)
        // the flailing chain would lift the disk off the ground at 0.42 s: the equations
        // still conserve energy past that, which is what is checked here
        .contact_checks(false);
    let tr = simulate(&m, &s0, 0.0..2.0, &opts).expect("simulation");
    let e = tr.energy(&m).expect("energy");
    let drift = e.iter().map(|x| (x - e[0]).abs()).fold(0.0, f64::max) / e[0].abs();
    assert!(drift < 1e-9, "relative energy drift {drift:e}");
    let worst = tr
        .constraint_residuals(&m)
        .expect("residuals")
        .iter()
        .flatten()
        .fold(0.0f64, |a, x| a.max(x.abs()));
    assert!(worst < 1e-9, "constraint residual {worst:e}");
}

/// The mobile manipulator: at rest with the arm upright nothing moves; with the arm bent,
/// unpowered, it falls while the base rolls, and its energy with zero inputs is conserved.
#[test]
fn mobile_manipulator_energy_and_rest() {
    let m = MobileManipulator::default();
    let mut d = MobileManipulator::ZERO_STATE;
    m.rhs(0.0, &MobileManipulator::ZERO_STATE, &mut d)
        .expect("rhs");
    assert!(d.iter().all(|x| x.abs() < 1e-12), "{d:?}");
    let mut s0 = MobileManipulator::ZERO_STATE;
    s0[8] = 0.4; // shoulder q2
    s0[9] = 0.6; // elbow q3
    s0[13] = 2.0; // dot(phi_l)
    s0[14] = 2.5; // dot(phi_r)
    let opts = Options::default()
        .method(Method::Dop853)
        .rtol(1e-11)
        .atol(1e-11)
        .sample_every(0.05)
        // the falling arm makes the caster slip at 0.38 s; the equations' energy is checked
        .contact_checks(false);
    let tr = simulate(&m, &s0, 0.0..1.0, &opts).expect("simulation");
    let e = tr.energy(&m).expect("energy");
    let drift = e.iter().map(|x| (x - e[0]).abs()).fold(0.0, f64::max) / e[0].abs();
    assert!(drift < 1e-8, "relative energy drift {drift:e}");
    let (_, end) = tr.last().expect("states");
    let nq = MobileManipulator::NQ;
    let z0 = m.position("E", 0.0, &s0[..nq]).expect("E")[2];
    let z1 = m.position("E", 1.0, &end[..nq]).expect("E")[2];
    assert!(
        z1 < z0 - 0.2,
        "the unpowered arm falls: its end from {z0} to {z1} m high"
    );
}

/// The manipulator's arm linearized upright at rest (joint angles and rates kept, joint
/// torques as inputs): an inverted multiple pendulum, so some pole is unstable, and every
/// joint torque reaches the accelerations.
#[test]
fn mobile_manipulator_arm_linearizes() {
    let m = MobileManipulator::default();
    let joints = ["q1", "q2", "q3", "q4", "q5", "q6"];
    let rates = [
        "dot(q1)", "dot(q2)", "dot(q3)", "dot(q4)", "dot(q5)", "dot(q6)",
    ];
    let keep: Vec<&str> = joints.iter().chain(&rates).copied().collect();
    let spec = Linearize::new()
        .keep(&keep)
        .inputs(&["tau1", "tau2", "tau3", "tau4", "tau5", "tau6"]);
    let lin = linearize(&m, 0.0, &MobileManipulator::ZERO_STATE, &spec).expect("linearize");
    assert_eq!((lin.a.nrows(), lin.b.ncols()), (12, 6));
    let eig = lin.eigenvalues().expect("eigenvalues");
    assert!(eig.iter().any(|e| e.re > 1.0), "{eig:?}");
    for j in 0..6 {
        let reach = (6..12).map(|i| lin.b[(i, j)].abs()).fold(0.0, f64::max);
        assert!(reach > 1e-3, "torque {j} moves nothing");
    }
}
