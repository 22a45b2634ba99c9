//! The generated right-hand sides against SymPy `physics.mechanics` (KanesMethod on
//! independently built rigid-body models, `bench/python/bench_sympy.py`), at the states
//! recorded in `bench/python/results.json` (each model's `checks`: `nonholo_state`,
//! `nonholo_rhs_from_sympy`).

use nonholo::models::{RollingDiskPendulum, VerticalDisk};
use nonholo::prelude::*;

fn check<M: Model>(m: &M, state: &[f64], sympy: &[f64]) {
    let mut d = vec![0.0; M::DIM];
    m.rhs(0.0, state, &mut d).unwrap();
    let scale = sympy.iter().fold(1.0f64, |a, x| a.max(x.abs()));
    for (a, b) in d.iter().zip(sympy) {
        assert!((a - b).abs() < 1e-13 * scale, "{d:?} vs {sympy:?}");
    }
}

#[test]
fn agrees_with_sympy_kane() {
    let s = [0.3, -0.2, 0.7, 0.4, 2.0, 0.8];
    check(
        &VerticalDisk::default(),
        &s,
        &[
            1.8421219880057702,
            0.778836684617301,
            2.0,
            0.8,
            1.205374054328566e-16,
            0.0,
        ],
    );
    let disk = VerticalDisk::default()
        .with_m(1.3)
        .with_a_inertia(0.7)
        .with_b_inertia(0.35)
        .with_r(0.8)
        .with_alpha(0.3);
    check(
        &disk,
        &s,
        &[
            1.4736975904046163,
            0.6230693476938409,
            2.0,
            0.8,
            1.8126716978708288,
            0.0,
        ],
    );
    check(
        &RollingDiskPendulum::default(),
        &[
            0.1,
            -0.2,
            0.3,
            0.4,
            0.05,
            -0.1,
            -0.20954123621089105,
            0.49625156230469913,
            0.2,
            -0.4,
        ],
        &[
            0.955336489125606,
            0.29552020666133955,
            0.2999999999999996,
            2.0000000000000004,
            0.2,
            -0.4,
            -0.8994746095741804,
            0.0298406344153445,
            -0.0021382609195858076,
            1.708210543895646,
        ],
    );
    let uni = RollingDiskPendulum::default()
        .with_m_d(1.2)
        .with_kappa(0.45)
        .with_c_phi(0.2)
        .with_c_th1(0.3)
        .with_tau(0.5);
    check(
        &uni,
        &[
            0.1,
            -0.2,
            0.3,
            0.4,
            0.05,
            -0.1,
            -0.2086025453266881,
            0.49625156230469913,
            0.2,
            -0.4,
        ],
        &[
            0.955336489125606,
            0.29552020666133955,
            0.30000000000000004,
            2.0,
            0.2,
            -0.4,
            -0.9556893898591499,
            0.09657486556346886,
            -0.13278104929294987,
            2.3881840185884444,
        ],
    );
}
