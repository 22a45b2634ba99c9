//! The 3D layer against hand-derived scalar models: T, V and the constraints written by
//! hand must give the same equations (rhs at random states to 1e-12) and trajectories.

use crate::common;

use common::rng::SplitMix64;
use nonholo::prelude::*;
use nonholo_test_models::kinematics::*;

#[test]
fn rolling_disk_3d_equals_the_hand_derived_disk() {
    let a = Disk3d::new();
    let b = DiskByHand::new();
    println!("{}", Disk3d::EQUATIONS);
    let mut rng = SplitMix64::new(7);
    for _ in 0..20 {
        let s = rng.uniform_vec(Disk3d::DIM, -1.0, 1.0);
        let mut state = [0.0; Disk3d::DIM];
        state.copy_from_slice(&s);
        let (mut da, mut db) = ([0.0; Disk3d::DIM], [0.0; Disk3d::DIM]);
        a.rhs(0.0, &state, &mut da).unwrap();
        b.rhs(0.0, &state, &mut db).unwrap();
        for k in 0..Disk3d::DIM {
            assert!(
                (da[k] - db[k]).abs() <= 1e-12 * (1.0 + db[k].abs()),
                "{k}: {da:?} vs {db:?}"
            );
        }
        let (ea, eb) = (
            a.energy(0.0, &state).unwrap(),
            b.energy(0.0, &state).unwrap(),
        );
        assert!((ea - eb).abs() < 1e-12, "{ea} vs {eb}");
    }
}

#[test]
fn holonomic_pendulum_solves_its_configuration_and_keeps_it() {
    let p = CartesianPendulum::new();
    assert_eq!(
        CartesianPendulum::CONFIGURATION_CONSTRAINTS,
        &["x * x + y * y == l * l"]
    );
    assert_eq!(CartesianPendulum::CONFIGURATION_COORDINATES, &["y"]);
    assert_eq!(CartesianPendulum::NC, 1);
    // y from x by Newton: start below the pivot, land on the circle
    let mut q = [0.6, -1.0];
    p.solve_configuration(0.0, &mut q).unwrap();
    assert!((q[1] + (1.5f64 * 1.5 - 0.36).sqrt()).abs() < 1e-14, "{q:?}");
    // an inconsistent q is rejected by state_from_qdot
    let err = p
        .state_from_qdot(0.0, &[0.6, -1.0], &[0.1, 0.0])
        .unwrap_err();
    assert!(
        matches!(err, nonholo::Error::ConstraintViolated { .. }),
        "{err}"
    );
    // the swing: the polar pendulum's period relation through energy, drift bounded
    let qd = [0.3, -0.3 * q[0] / q[1]];
    let s0 = p.state_from_qdot(0.0, &q, &qd).unwrap();
    let tr = simulate(&p, &s0, 0.0..5.0, &Options::default()).unwrap();
    let e = tr.energy(&p).unwrap();
    let drift = e.iter().fold(0.0f64, |m, x| m.max((x - e[0]).abs()));
    assert!(drift < 1e-7, "energy drift {drift}");
    let f = tr.max_configuration_residual(&p).unwrap();
    assert!(f < 1e-7, "configuration residual {f}");
    // y is never integrated independently: dot(y) follows the constraint row
    assert!(tr.max_constraint_residual(&p).unwrap() < 1e-12);
}

/// rhs and energy of two models equal at random states.
fn same_equations<A: Model, B: Model>(a: &A, b: &B, seed: u64) {
    assert_eq!(A::DIM, B::DIM);
    let mut rng = SplitMix64::new(seed);
    for _ in 0..20 {
        let s = rng.uniform_vec(A::DIM, -1.0, 1.0);
        let (mut da, mut db) = (vec![0.0; A::DIM], vec![0.0; A::DIM]);
        a.rhs(0.0, &s, &mut da).unwrap();
        b.rhs(0.0, &s, &mut db).unwrap();
        for k in 0..A::DIM {
            assert!(
                (da[k] - db[k]).abs() <= 1e-12 * (1.0 + db[k].abs()),
                "{k}: {da:?} vs {db:?}"
            );
        }
        let (ea, eb) = (a.energy(0.0, &s).unwrap(), b.energy(0.0, &s).unwrap());
        assert!((ea - eb).abs() <= 1e-12 * (1.0 + eb.abs()), "{ea} vs {eb}");
    }
}

#[test]
fn top_and_sleigh_3d_equal_the_hand_derived_ones() {
    same_equations(&Top3d::new(), &TopByHand::new(), 11);
    same_equations(&Sleigh3d::new(), &SleighByHand::new(), 13);
}

#[test]
fn heavy_top_conserves_energy_and_both_momenta() {
    let top = Top3d::new();
    let (m, l, i1, i3) = (top.m, top.l, top.i1, top.i3);
    let momenta = |s: &[f64]| {
        let (th, psid, phid) = (s[1], s[3], s[5]);
        let w3 = psid * th.cos() + phid;
        let p_phi = i3 * w3;
        let p_psi = (i1 + m * l * l) * th.sin().powi(2) * psid + i3 * th.cos() * w3;
        (p_psi, p_phi)
    };
    // a fast top, tilted, precessing
    let s0 = [0.0, 0.5, 0.0, 1.0, 0.2, 60.0];
    let tr = simulate(&top, &s0, 0.0..3.0, &Options::default()).unwrap();
    let e = tr.energy(&top).unwrap();
    let (p0, f0) = momenta(&s0);
    let mut worst: f64 = 0.0;
    for i in 0..tr.len() {
        let s = tr.state(i).unwrap();
        let (p, f) = momenta(s);
        worst = worst
            .max((p - p0).abs() / p0.abs())
            .max((f - f0).abs() / f0.abs());
        worst = worst.max((e[i] - e[0]).abs() / e[0].abs());
    }
    assert!(worst < 1e-8, "relative drift {worst}");
}

/// q at `t1` of a run from the velocities `qd0` at `q0`.
fn q_at<M: Model>(m: &M, q0: &[f64], qd0: &[f64], t1: f64) -> Vec<f64> {
    let s0 = m.state_from_qdot(0.0, q0, qd0).unwrap();
    let opts = Options::default().rtol(1e-12).atol(1e-12);
    let tr = simulate(m, s0.as_ref(), 0.0..t1, &opts).unwrap();
    tr.last().unwrap().1[..M::NQ].to_vec()
}

#[test]
fn rolling_disk_3d_agrees_across_the_four_formulations() {
    let q0 = [0.1, -0.2, 0.3, 0.2, 0.0];
    let (yawd, leand, spind) = (0.4, -0.3, 3.0);
    let r = 0.5;
    let qd0 = [
        r * 0.3f64.cos() * spind,
        r * 0.3f64.sin() * spind,
        yawd,
        leand,
        spind,
    ];
    let reference = q_at(&nonholo::models::RollingDisk3d::new(), &q0, &qd0, 2.0);
    for (name, q) in [
        ("voronec", q_at(&DiskVoronec::new(), &q0, &qd0, 2.0)),
        ("boltzmann_hamel", q_at(&DiskHamel::new(), &q0, &qd0, 2.0)),
        ("multipliers", q_at(&DiskMultipliers::new(), &q0, &qd0, 2.0)),
    ] {
        for k in 0..5 {
            assert!(
                (q[k] - reference[k]).abs() < 1e-9,
                "{name} q[{k}]: {q:?} vs {reference:?}"
            );
        }
    }
}

/// Newton for the disk's centre: m a_C equals the horizontal contact force read off the
/// multipliers (sum over rows of lambda_a times the row's unit direction) at random
/// states; a_C by central differences along the flow.
#[test]
fn rolling_contact_reactions_are_the_multipliers() {
    let m = Disk3dReactions::new();
    let ga = Disk3d::new();
    assert!(Disk3dReactions::CONSTRAINTS
        .iter()
        .all(|c| c.contains("rolls disk")));
    println!("{:?}", Disk3dReactions::CONSTRAINTS);
    let center = |q: &[f64]| {
        let (x, y, yaw, lean) = (q[0], q[1], q[2], q[3]);
        [
            x + m.r * yaw.sin() * lean.sin(),
            y - m.r * yaw.cos() * lean.sin(),
            m.r * lean.cos(),
        ]
    };
    let h = 1e-4;
    let velocity = |q: &[f64], qd: &[f64]| {
        let qp: Vec<f64> = q.iter().zip(qd).map(|(a, b)| a + h * b).collect();
        let qm: Vec<f64> = q.iter().zip(qd).map(|(a, b)| a - h * b).collect();
        let (cp, cm) = (center(&qp), center(&qm));
        [0, 1, 2].map(|k| (cp[k] - cm[k]) / (2.0 * h))
    };
    let mut rng = SplitMix64::new(21);
    let mut worst = 0.0f64;
    for _ in 0..10 {
        let q = rng.uniform_vec(5, -0.8, 0.8);
        let z = rng.uniform_vec(3, -2.0, 2.0);
        let mut qd = [0.0; 5];
        ga.qdot(0.0, &q, &z, &mut qd).unwrap();
        let s: Vec<f64> = q.iter().chain(&qd).copied().collect();
        let mut f = [0.0; 10];
        m.rhs(0.0, &s, &mut f).unwrap();
        let sp: Vec<f64> = s.iter().zip(&f).map(|(a, b)| a + h * b).collect();
        let sm: Vec<f64> = s.iter().zip(&f).map(|(a, b)| a - h * b).collect();
        let (vp, vm) = (velocity(&sp[..5], &sp[5..]), velocity(&sm[..5], &sm[5..]));
        let accel = [0, 1].map(|k| (vp[k] - vm[k]) / (2.0 * h));
        let lambda = m.multipliers(0.0, &q, &qd).unwrap();
        let yaw = q[2];
        let mut force = [0.0; 2];
        for (a, text) in Disk3dReactions::CONSTRAINTS.iter().enumerate() {
            let e = if text.contains(".x ") {
                [yaw.cos(), yaw.sin()]
            } else {
                [-yaw.sin(), yaw.cos()]
            };
            force[0] += lambda[a] * e[0];
            force[1] += lambda[a] * e[1];
        }
        for k in 0..2 {
            let d = (m.m * accel[k] - force[k]).abs();
            worst = worst.max(d);
            assert!(
                d < 1e-5 * (1.0 + force[k].abs()),
                "{k}: m a = {}, contact force {}",
                m.m * accel[k],
                force[k]
            );
        }
    }
    println!("m a_C vs contact force from the multipliers: worst {worst:e}");
}

#[test]
fn a_disk_with_a_three_link_pendulum_agrees_across_formulations_and_keeps_its_energy() {
    let q0 = [0.1, -0.2, 0.3, 0.2, 0.0, 0.4, -0.3, 0.2];
    let (r, spind) = (0.5, 2.0);
    let qd0 = [
        r * 0.3f64.cos() * spind,
        r * 0.3f64.sin() * spind,
        0.4,
        -0.3,
        spind,
        0.5,
        -0.2,
        0.3,
    ];
    let reference = q_at(&DiskChain3::new(), &q0, &qd0, 1.0);
    let q = q_at(&DiskChain3Multipliers::new(), &q0, &qd0, 1.0);
    for k in 0..8 {
        assert!(
            (q[k] - reference[k]).abs() < 1e-9,
            "multipliers q[{k}]: {q:?} vs {reference:?}"
        );
    }
    let m = DiskChain3::new();
    let s0 = m.state_from_qdot(0.0, &q0, &qd0).unwrap();
    let opts = Options::default().rtol(1e-12).atol(1e-12);
    let tr = simulate(&m, s0.as_ref(), 0.0..1.0, &opts).unwrap();
    let e = tr.energy(&m).unwrap();
    let drift = e
        .iter()
        .fold(0.0f64, |w, x| w.max((x - e[0]).abs() / e[0].abs()));
    assert!(drift < 1e-9, "relative energy drift {drift}");
}
