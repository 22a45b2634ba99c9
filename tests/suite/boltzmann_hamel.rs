//! `formulation = boltzmann_hamel` (Talamucci 2015, eq. 20, with the constraint correction)
//! against the Gibbs–Appell library models of the same systems (Benenti 9.1–9.3,
//! Talamucci 3.1–3.4): the generated `rhs` must agree to 1e-12 relative at random states
//! and random parameters. The models are the library's physics (`nonholo::*_model!`) with
//! the library models' speeds and `formulation = boltzmann_hamel`.
//!
//! The constraint correction (the term Talamucci's (16)–(17) omit) is checked here against
//! the oracle's `hamel_residual`, and inside the macro crate on the symbolic split
//! (`mechanics::boltzmann_hamel::tests`).

use crate::common;
use common::oracle::{hamel_residual, rel_err, System};
use common::rng::SplitMix64;
use common::systems as p;
use nonholo::models::{
    AssignedFront, AssignedSpin, CoaxialDisks, PendulumSkate, RollingDiskPendulum, Skate,
    VerticalDisk,
};
use nonholo::prelude::*;
use nonholo_test_models::boltzmann_hamel::*;

const STATES: usize = 50;
const TOL: f64 = 1e-12;

/// Both models of a pair with the same random parameters (struct literals: the fields
/// are the parameters).
macro_rules! pair {
    ($rng:expr, $a:ident, $b:ident, { $($f:ident : $lo:expr => $hi:expr),* $(,)? }) => {{
        $(let $f: f64 = $rng.uniform($lo, $hi);)*
        ($a { $($f),* }, $b { $($f),* })
    }};
}

/// Worst relative difference of the two `rhs` (and energies) over random states.
fn worst_rhs<A: Model, B: Model>(a: &A, b: &B, rng: &mut SplitMix64) -> f64 {
    assert_eq!(A::DIM, B::DIM);
    assert_eq!(B::FORMULATION, Formulation::BoltzmannHamel);
    let mut worst = 0.0f64;
    for _ in 0..STATES {
        let t = rng.uniform(0.0, 3.0);
        let state: Vec<f64> = (0..A::DIM).map(|_| rng.uniform(-1.2, 1.2)).collect();
        let (mut da, mut db) = (vec![0.0; A::DIM], vec![0.0; A::DIM]);
        a.rhs(t, &state, &mut da).expect("rhs (Gibbs–Appell)");
        b.rhs(t, &state, &mut db).expect("rhs (Boltzmann–Hamel)");
        worst = worst.max(rel_err(&db, &da));
        let (ea, eb) = (a.energy(t, &state).unwrap(), b.energy(t, &state).unwrap());
        worst = worst.max((ea - eb).abs() / ea.abs().max(1.0));
    }
    worst
}

/// Three parameter sets x 50 states; prints and checks the worst relative difference.
fn agree<A: Model, B: Model>(name: &str, seed: u64, make: impl Fn(&mut SplitMix64) -> (A, B)) {
    let mut rng = SplitMix64::new(seed);
    let mut worst = 0.0f64;
    for _ in 0..3 {
        let (a, b) = make(&mut rng);
        worst = worst.max(worst_rhs(&a, &b, &mut rng));
    }
    println!("{name}: Boltzmann–Hamel vs Gibbs–Appell rhs, worst relative difference {worst:.1e}");
    assert!(worst < TOL, "{name}: {worst:e}");
}

#[test]
fn benenti_9_1_skate() {
    agree("9.1", 101, |rng| {
        pair!(rng, Skate, SkateBh, {
            m: 0.5 => 2.0, inertia: 0.05 => 0.5, g: 9.81 => 9.81, alpha: -0.5 => 0.5, c: 0.0 => 0.5,
        })
    });
}

#[test]
fn benenti_9_2_vertical_disk() {
    agree("9.2", 102, |rng| {
        pair!(rng, VerticalDisk, VerticalDiskBh, {
            m: 0.5 => 2.0, a_inertia: 0.2 => 1.0, b_inertia: 0.1 => 0.5, r: 0.3 => 1.5,
            g: 9.81 => 9.81, alpha: -0.5 => 0.5,
        })
    });
}

#[test]
fn benenti_9_3_coaxial_disks() {
    agree("9.3", 103, |rng| {
        pair!(rng, CoaxialDisks, CoaxialDisksBh, {
            m: 0.5 => 2.0, a_inertia: 0.2 => 1.0, b_inertia: 0.1 => 0.5, r: 0.3 => 1.5, a: 0.5 => 2.5,
        })
    });
}

#[test]
fn talamucci_3_1_pendulum_on_a_skate() {
    agree("3.1", 201, |rng| {
        pair!(rng, PendulumSkate, PendulumSkateBh, {
            big_m: 2.0 => 6.0, i_c: 0.1 => 0.5, m_s: 2.0 => 4.0, m_d: 0.5 => 1.5, rho: 0.4 => 0.7,
            kappa: 0.3 => 0.6, kappa1: 0.8 => 1.2, kappa2: 0.2 => 0.4, g: 9.81 => 9.81,
            c_phi: 0.1 => 0.5, c_th1: 0.1 => 0.5,
        })
    });
}

#[test]
fn talamucci_3_2_assigned_front_motion() {
    agree("3.2", 202, |rng| {
        pair!(rng, AssignedFront, AssignedFrontBh, {
            big_m: 2.0 => 6.0, i_c: 0.1 => 0.5, m_s: 2.0 => 4.0, m_d: 0.5 => 1.5, rho: 0.4 => 0.7,
            kappa: 0.3 => 0.6, kappa1: 0.8 => 1.2, kappa2: 0.2 => 0.4, g: 9.81 => 9.81,
            c_th: 0.1 => 0.5, c_th1: 0.1 => 0.5, v0: 0.5 => 2.0, a_f: 0.1 => 0.5, omega: 0.5 => 2.0,
        })
    });
}

#[test]
fn talamucci_3_3_rolling_disk_with_pendulum() {
    agree("3.3", 203, |rng| {
        pair!(rng, RollingDiskPendulum, RollingDiskPendulumBh, {
            big_m: 1.0 => 3.0, r: 0.3 => 0.7, m_s: 2.0 => 4.0, m_d: 0.5 => 1.5,
            kappa: 0.3 => 0.6, kappa1: 0.8 => 1.2, kappa2: 0.2 => 0.4, g: 9.81 => 9.81,
            c_phi: 0.1 => 0.5, c_th1: 0.1 => 0.5, tau: -1.0 => 1.0,
        })
    });
}

#[test]
fn talamucci_3_4_assigned_disk_spin() {
    agree("3.4", 204, |rng| {
        pair!(rng, AssignedSpin, AssignedSpinBh, {
            big_m: 1.0 => 3.0, r: 0.3 => 0.7, m_s: 2.0 => 4.0, m_d: 0.5 => 1.5,
            kappa: 0.3 => 0.6, kappa1: 0.8 => 1.2, kappa2: 0.2 => 0.4, g: 9.81 => 9.81,
            c_phi: 0.1 => 0.5, c_th1: 0.1 => 0.5, w0: 1.0 => 3.0, a_s: 0.1 => 0.8, omega: 0.5 => 2.0,
        })
    });
}

#[test]
fn every_term_of_20_rheonomic() {
    agree("everything", 301, |rng| {
        pair!(rng, EverythingGa, EverythingBh, {
            m: 0.8 => 2.0, inertia: 0.2 => 0.8, k: 0.1 => 1.0, cd: 0.0 => 0.5,
        })
    });
}

#[test]
fn independent_velocities() {
    agree("independent", 302, |rng| {
        pair!(rng, IndependentSkateGa, IndependentSkateBh, {
            m: 0.8 => 2.0, inertia: 0.1 => 0.5, k: 0.1 => 1.0,
        })
    });
    assert_eq!(IndependentSkateBh::SPEEDS, &["dot(x)", "dot(theta)"]);
}

/// The generated 3.1 equations satisfy Talamucci's (17) only with the term (16)–(17) omit:
/// the oracle's `hamel_residual` (AD on a hand-written Lagrangian) is ~0 with it
/// (`complete = true`) and O(1) without it, at the generated accelerations.
#[test]
fn talamucci_3_1_needs_the_constraint_correction() {
    let mut rng = SplitMix64::new(211);
    let (mut with, mut without_min, mut without_max) = (0.0f64, f64::INFINITY, 0.0f64);
    for _ in 0..3 {
        let s = p::PendulumSkate::new(&mut rng);
        let r = &s.rider;
        let m = PendulumSkateBh {
            big_m: s.big_m,
            i_c: s.i_c,
            m_s: r.m_s,
            m_d: r.m_d,
            rho: s.rho,
            kappa: r.kappa,
            kappa1: r.kappa1,
            kappa2: r.kappa2,
            g: s.g,
            c_phi: s.c_phi,
            c_th1: s.c_th1,
        };
        for _ in 0..STATES {
            let t = rng.uniform(0.0, 3.0);
            let state: Vec<f64> = (0..PendulumSkateBh::DIM)
                .map(|_| rng.uniform(-1.2, 1.2))
                .collect();
            let mut d = vec![0.0; PendulumSkateBh::DIM];
            m.rhs(t, &state, &mut d).unwrap();
            let (q, z) = state.split_at(PendulumSkateBh::NQ);
            let zd = &d[PendulumSkateBh::NQ..];
            assert!(rel_err(&d[..PendulumSkateBh::NQ], &s.psi(t, q, z)) < TOL);
            let scale = 1.0 + zd.iter().fold(0.0f64, |a, x| a.max(x.abs()));
            let complete = hamel_residual(&s, t, q, z, zd, true);
            let literal = hamel_residual(&s, t, q, z, zd, false);
            let norm = |v: &[f64]| v.iter().fold(0.0f64, |a, x| a.max(x.abs())) / scale;
            with = with.max(norm(&complete));
            without_min = without_min.min(norm(&literal));
            without_max = without_max.max(norm(&literal));
        }
    }
    println!(
        "3.1: (17) residual with the correction {with:.1e}; without it {without_min:.1e} to {without_max:.1e}"
    );
    assert!(with < 1e-11, "{with:e}");
    assert!(
        without_min > 1e-6 && without_max > 1e-1,
        "{without_min:e} {without_max:e}"
    );
}

/// The equations text shows the split with the paper's equation numbers.
#[test]
fn equations_text_shows_the_split() {
    let text = PendulumSkateBh::EQUATIONS;
    for needle in [
        "Boltzmann–Hamel",
        "(15) A_Gamma",
        "(20) A_Gamma deta/dt + Q + Lambda + N + T + C + F = 0",
        "D_k(M)",
        "Q = K(eta) eta (quadratic in eta):",
        "Lambda (linear in eta)",
        "N (free of eta)",
        "C (constraint correction):",
        "F = - Gamma^T (extra forces):",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}
