//! `Contacts::contact_loads_scalar`: the contact loads in any scalar. In `f64` they are
//! `contact_loads`; in dual numbers their derivative parts are the exact derivatives of the
//! loads with respect to the state and the inputs (checked against central differences
//! of `contact_loads`, Richardson-extrapolated); in hyper-dual numbers the second ones.
//! Every formulation: the disk with a two-link chain through Gibbs–Appell, Boltzmann–Hamel,
//! Voronec and the multipliers; the robot, the manipulator, the bicycle (pitch by its
//! configuration constraint), the rattleback and the tippe top (contacts on curved
//! surfaces) as the library derives them.

use nonholo::__private::Dual;
use nonholo::models::{DiffDriveRobot, MobileManipulator, Rattleback, TippeTop, WhippleBicycle};
use nonholo::prelude::*;
use nonholo::{ContactLoad, ContactLoadOf};
use nonholo_test_models::contact_forces::DiskAnchoredMu;
use nonholo_test_models::formulation_matrix::{ChainBh, ChainGa, ChainMu, ChainVo};
use num_dual::HyperDual64;

use super::common::rng::SplitMix64 as Rng;

/// The parts of a load a friction constraint reads.
fn parts<S: Scalar>(l: &ContactLoadOf<S>) -> [S; 6] {
    [
        l.normal,
        l.longitudinal,
        l.lateral,
        l.force[0],
        l.force[1],
        l.force[2],
    ]
}

fn loads_f64<M: Contacts>(m: &M, t: f64, x: &[f64], u: &[f64]) -> Vec<ContactLoad> {
    let mut out = vec![ContactLoad::ZERO; M::CONTACTS.len()];
    m.contact_loads(t, x, u, &mut out).expect("contact loads");
    out
}

/// `d/ds parts(loads(x + s v, u + s w))` at `s = 0` by central differences with
/// Richardson's extrapolation (error O(h^4)).
fn difference<M: Contacts>(m: &M, x: &[f64], u: &[f64], v: &[f64], w: &[f64]) -> Vec<[f64; 6]> {
    let at = |s: f64| {
        let xs: Vec<f64> = x.iter().zip(v).map(|(a, b)| a + s * b).collect();
        let us: Vec<f64> = u.iter().zip(w).map(|(a, b)| a + s * b).collect();
        loads_f64(m, 0.0, &xs, &us)
    };
    let d = |h: f64| {
        let (p, n) = (at(h), at(-h));
        p.iter()
            .zip(&n)
            .map(|(p, n)| {
                let (p, n) = (parts(p), parts(n));
                core::array::from_fn(|i| (p[i] - n[i]) / (2.0 * h))
            })
            .collect::<Vec<[f64; 6]>>()
    };
    let (d1, d2) = (d(2e-4), d(1e-4));
    d1.iter()
        .zip(&d2)
        .map(|(a, b)| core::array::from_fn(|i| (4.0 * b[i] - a[i]) / 3.0))
        .collect()
}

/// At `x`, `u` and along random directions: the f64 path gives `contact_loads` bit for
/// bit, dual numbers the differences' derivative (relative to the loads' scale), and
/// hyper-dual numbers the derivative of the dual ones. Returns the worst first-derivative
/// error relative to the scale.
fn check<M: Contacts>(m: &M, x: &[f64], u: &[f64], rng: &mut Rng) -> f64 {
    let k = M::CONTACTS.len();
    let direct = loads_f64(m, 0.0, x, u);
    let mut same = vec![ContactLoadOf::<f64>::zero(); k];
    m.contact_loads_scalar(0.0, x, u, &mut same).unwrap();
    // (NaN utilization without friction: compared as text)
    assert_eq!(
        format!("{same:?}"),
        format!("{direct:?}"),
        "the f64 path is contact_loads"
    );
    let scale = direct
        .iter()
        .map(|l| parts(l).iter().fold(0.0f64, |a, b| a.max(b.abs())))
        .fold(1.0f64, f64::max);
    let mut worst = 0.0f64;
    for _ in 0..3 {
        let v: Vec<f64> = x.iter().map(|_| rng.uniform(-1.0, 1.0)).collect();
        let w: Vec<f64> = u.iter().map(|_| rng.uniform(-1.0, 1.0)).collect();
        let xd: Vec<Dual> = x.iter().zip(&v).map(|(a, b)| Dual::new(*a, *b)).collect();
        let ud: Vec<Dual> = u.iter().zip(&w).map(|(a, b)| Dual::new(*a, *b)).collect();
        let mut ld = vec![ContactLoadOf::<Dual>::zero(); k];
        m.contact_loads_scalar(Dual::from_f64(0.0), &xd, &ud, &mut ld)
            .unwrap();
        let want = difference(m, x, u, &v, &w);
        for (c, (l, want)) in ld.iter().zip(&want).enumerate() {
            let (got, value) = (parts(l), parts(&direct[c]));
            for i in 0..6 {
                assert!(
                    (got[i].re - value[i]).abs() <= 1e-12 * scale,
                    "{}: value {i}: {} against {}",
                    M::CONTACTS[c],
                    got[i].re,
                    value[i]
                );
                let e = (got[i].eps - want[i]).abs() / scale;
                worst = worst.max(e);
                assert!(
                    e < 1e-7,
                    "{}: part {i}: {} against {} (scale {scale})",
                    M::CONTACTS[c],
                    got[i].eps,
                    want[i]
                );
            }
        }
        // the second derivative along (v, v): the hyper-dual's eps1eps2 against the dual
        // derivatives' central difference
        let hx: Vec<HyperDual64> = x
            .iter()
            .zip(&v)
            .map(|(a, b)| HyperDual64::new(*a, *b, *b, 0.0))
            .collect();
        let hu: Vec<HyperDual64> = u
            .iter()
            .zip(&w)
            .map(|(a, b)| HyperDual64::new(*a, *b, *b, 0.0))
            .collect();
        let mut lh = vec![ContactLoadOf::<HyperDual64>::zero(); k];
        m.contact_loads_scalar(HyperDual64::from(0.0), &hx, &hu, &mut lh)
            .unwrap();
        let first = |s: f64| {
            let xd: Vec<Dual> = x
                .iter()
                .zip(&v)
                .map(|(a, b)| Dual::new(a + s * b, *b))
                .collect();
            let ud: Vec<Dual> = u
                .iter()
                .zip(&w)
                .map(|(a, b)| Dual::new(a + s * b, *b))
                .collect();
            let mut ld = vec![ContactLoadOf::<Dual>::zero(); k];
            m.contact_loads_scalar(Dual::from_f64(0.0), &xd, &ud, &mut ld)
                .unwrap();
            ld
        };
        // Richardson-extrapolated central differences (error O(h^4))
        let d = |h: f64| {
            let (p, n) = (first(h), first(-h));
            (0..k)
                .map(|c| {
                    let (p, n) = (parts(&p[c]), parts(&n[c]));
                    core::array::from_fn(|i| (p[i].eps - n[i].eps) / (2.0 * h))
                })
                .collect::<Vec<[f64; 6]>>()
        };
        let (d1, d2) = (d(2e-4), d(1e-4));
        for c in 0..k {
            let got = parts(&lh[c]);
            for i in 0..6 {
                let want = (4.0 * d2[c][i] - d1[c][i]) / 3.0;
                assert!(
                    (got[i].eps1eps2 - want).abs() < 1e-7 * scale.max(want.abs()),
                    "{}: second derivative of part {i}: {} against {want}",
                    M::CONTACTS[c],
                    got[i].eps1eps2
                );
            }
        }
    }
    worst
}

/// A state of a first-method model: `q` near `q0` and random speeds.
fn first_method_state<M: Model>(q0: &[f64], spread: f64, speeds: f64, rng: &mut Rng) -> Vec<f64> {
    let mut x: Vec<f64> = q0
        .iter()
        .map(|q| q + rng.uniform(-spread, spread))
        .collect();
    x.extend((0..M::NZ).map(|_| rng.uniform(-speeds, speeds)));
    x
}

#[test]
fn loads_in_dual_numbers_carry_their_exact_derivatives() {
    let mut rng = Rng::new(0x51);
    let mut report = Vec::new();
    // the robot: three contacts, the castor anchored, two drive wheels sharing an axle
    let robot = DiffDriveRobot::default();
    for _ in 0..3 {
        let x =
            first_method_state::<DiffDriveRobot>(&[0.0; DiffDriveRobot::NQ], 0.5, 1.0, &mut rng);
        let u = [rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)];
        report.push(("robot", check(&robot, &x, &u, &mut rng)));
    }
    // the manipulator: ten bodies, eight inputs
    let arm = MobileManipulator::default();
    for _ in 0..2 {
        let x = first_method_state::<MobileManipulator>(
            &[0.0; MobileManipulator::NQ],
            0.4,
            0.8,
            &mut rng,
        );
        let u: Vec<f64> = (0..MobileManipulator::NU)
            .map(|_| rng.uniform(-2.0, 2.0))
            .collect();
        report.push(("manipulator", check(&arm, &x, &u, &mut rng)));
    }
    // the bicycle: pitch by its configuration constraint, front normal by the balance
    let bike = WhippleBicycle::default();
    let mut x = super::contact_forces::upright(&bike, 4.0, 0.3);
    x[3] += 0.05; // lean
    report.push(("bicycle", check(&bike, &x, &[0.5, -1.0, 2.0], &mut rng)));
    // the anchored disk with friction (one normal by the force balance alone)
    let disk = DiskAnchoredMu::default();
    let q = [0.1, -0.2, 0.4, 0.3, 1.0];
    let qd = [0.0, 0.0, 0.7, -0.4, 3.0];
    let mut x = q.to_vec();
    let (dx, dy) = (disk.r * qd[4] * q[2].cos(), disk.r * qd[4] * q[2].sin());
    let s = disk
        .state_from_qdot(0.0, &q, &[dx, dy, qd[2], qd[3], qd[4]])
        .unwrap();
    x.clear();
    x.extend_from_slice(&s);
    report.push(("disk", check(&disk, &x, &[], &mut rng)));
    // one system, four formulations (the chain's disk anchored by its coordinates)
    let q: Vec<f64> = (0..ChainGa::NQ).map(|_| rng.uniform(-0.4, 0.4)).collect();
    let mut qd: Vec<f64> = (0..ChainGa::NQ).map(|_| rng.uniform(-1.0, 1.0)).collect();
    // rolling: the contact P = (x, y) moves at r dot(spin) along the heading
    let r = ChainGa::default().r;
    qd[0] = r * qd[4] * q[2].cos();
    qd[1] = r * qd[4] * q[2].sin();
    let x = ChainGa::default().state_from_qdot(0.0, &q, &qd).unwrap();
    report.push(("chain GA", check(&ChainGa::default(), &x, &[], &mut rng)));
    let x = ChainBh::default().state_from_qdot(0.0, &q, &qd).unwrap();
    report.push(("chain BH", check(&ChainBh::default(), &x, &[], &mut rng)));
    let x = ChainVo::default().state_from_qdot(0.0, &q, &qd).unwrap();
    report.push((
        "chain Voronec",
        check(&ChainVo::default(), &x, &[], &mut rng),
    ));
    let x = ChainMu::default().state_from_qdot(0.0, &q, &qd).unwrap();
    report.push((
        "chain multipliers",
        check(&ChainMu::default(), &x, &[], &mut rng),
    ));
    // the rattleback: an ellipsoid, its height by a configuration constraint
    let rb = Rattleback::default();
    let q0 = Rattleback::ZERO_STATE;
    let mut x = q0.to_vec();
    for v in x.iter_mut().skip(Rattleback::NQ) {
        *v = rng.uniform(-0.5, 0.5);
    }
    report.push(("rattleback", check(&rb, &x, &[], &mut rng)));
    // the tippe top
    let top = TippeTop::default();
    let mut x = TippeTop::ZERO_STATE.to_vec();
    // tilted (at theta = 0 the Euler angles are singular)
    x[2..5].copy_from_slice(&[0.2, 0.5, 0.1]);
    for v in x.iter_mut().skip(TippeTop::NQ) {
        *v = rng.uniform(-2.0, 2.0);
    }
    report.push(("tippe top", check(&top, &x, &[], &mut rng)));
    println!("worst first-derivative errors (relative to the loads): {report:?}");
}
