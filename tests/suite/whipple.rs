//! The Whipple bicycle (`models::WhippleBicycle`, written with frames, bodies and rolling
//! contacts) linearized upright against the benchmark of Meijaard et al. 2007: the
//! matrices M, C1, K0, K2 recovered from the exact `a` and `b` at several speeds, the
//! eigenvalues of Table 2, and the weave and capsize speeds.

// Table 2 is kept digit for digit as printed.
#![allow(clippy::excessive_precision)]

use crate::common;

use nonholo::models::WhippleBicycle;
use nonholo::prelude::*;
use nonholo::Linearization;
use nonholo_test_models::whipple::*;

/// The benchmark matrices as printed (14 decimals), from `tests/data/meijaard2007.json`.
struct Benchmark {
    m: [[f64; 2]; 2],
    c1: [[f64; 2]; 2],
    k0: [[f64; 2]; 2],
    k2: [[f64; 2]; 2],
}

fn matrix(json: &str, key: &str) -> [[f64; 2]; 2] {
    let start = json.find(&format!("\"{key}\": [")).expect(key) + key.len() + 4;
    let end = start + json[start..].find("]\n").unwrap() + 1;
    let nums: Vec<f64> = json[start..end]
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == 'e'))
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(nums.len(), 4, "{key}");
    [[nums[0], nums[1]], [nums[2], nums[3]]]
}

fn benchmark() -> Benchmark {
    let json = include_str!("../data/meijaard2007.json");
    Benchmark {
        m: matrix(json, "M"),
        c1: matrix(json, "C1"),
        k0: matrix(json, "K0"),
        k2: matrix(json, "K2"),
    }
}

/// Upright straight running at forward speed `v`: the configuration solved for pitch.
fn upright(bike: &WhippleBicycle, v: f64) -> [f64; WhippleBicycle::DIM] {
    let mut state = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut state[..WhippleBicycle::NQ])
        .unwrap();
    let rear = WhippleBicycle::NQ + 1; // speeds: dot(roll), dot(th_r), dot(steer)
    state[rear] = -v / bike.r_r;
    state
}

fn linearized(bike: &WhippleBicycle, v: f64) -> Linearization {
    let spec = Linearize::new()
        .keep(&["roll", "steer", "dot(roll)", "dot(steer)"])
        .inputs(&["t_roll", "t_steer"]);
    linearize(bike, 0.0, &upright(bike, v), &spec).unwrap()
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * (1.0 + b.abs())
}

#[test]
fn speeds_and_operating_point() {
    assert_eq!(
        WhippleBicycle::SPEEDS,
        ["dot(roll)", "dot(th_r)", "dot(steer)"]
    );
    let bike = WhippleBicycle::default();
    let s = upright(&bike, 5.0);
    // Meijaard's reference configuration is pitch 0
    assert!(s[4].abs() < 1e-15, "pitch {}", s[4]);
    let lin = linearized(&bike, 5.0);
    assert!(lin.max_residual() < 1e-12, "{:?}", lin.residual);
    assert!(lin.drift < 1e-12 && lin.coupling < 1e-12);
}

#[test]
fn benchmark_matrices() {
    let bike = WhippleBicycle::default();
    let bm = benchmark();
    let g = bike.g;
    let (m0, _, k_at0) = linearized(&bike, 0.0).second_order().unwrap();
    for v in [1.0, 2.5, 4.0, 6.0, 8.0] {
        let (m, c, k) = linearized(&bike, v).second_order().unwrap();
        for i in 0..2 {
            for j in 0..2 {
                assert!(
                    close(m[(i, j)], bm.m[i][j], 1e-12),
                    "M[{i}{j}] {} {}",
                    m[(i, j)],
                    bm.m[i][j]
                );
                assert!(close(m[(i, j)], m0[(i, j)], 1e-13));
                let c1 = c[(i, j)] / v;
                assert!(
                    close(c1, bm.c1[i][j], 1e-12),
                    "C1[{i}{j}] at {v}: {c1} {}",
                    bm.c1[i][j]
                );
                let k0 = k_at0[(i, j)] / g;
                assert!(
                    close(k0, bm.k0[i][j], 1e-12),
                    "K0[{i}{j}] {k0} {}",
                    bm.k0[i][j]
                );
                let k2 = (k[(i, j)] - k_at0[(i, j)]) / (v * v);
                assert!(
                    close(k2, bm.k2[i][j], 1e-12),
                    "K2[{i}{j}] at {v}: {k2} {}",
                    bm.k2[i][j]
                );
            }
        }
    }
}

/// Table 2 of Meijaard 2007 (transcribed in `../shared/design/linearization.md` §5):
/// speed, then the eigenvalues as (re, im) pairs, for v = 1..10 (capsize, weave pair, castor).
const TABLE_2: [(f64, [(f64, f64); 4]); 10] = [
    (
        1.0,
        [
            (-3.13423125066578, 0.0),
            (3.52696170990070, 0.80774027519930),
            (3.52696170990070, -0.80774027519930),
            (-7.11008014637442, 0.0),
        ],
    ),
    (
        2.0,
        [
            (-3.07158645641514, 0.0),
            (2.68234517512745, 1.68066296590675),
            (2.68234517512745, -1.68066296590675),
            (-8.67387984831735, 0.0),
        ],
    ),
    (
        3.0,
        [
            (-2.63366137253667, 0.0),
            (1.70675605663975, 2.31582447384325),
            (1.70675605663975, -2.31582447384325),
            (-10.35101467245920, 0.0),
        ],
    ),
    (
        4.0,
        [
            (-1.42944427361326, 0.0),
            (0.41325331521125, 3.07910818603206),
            (0.41325331521125, -3.07910818603206),
            (-12.15861426576450, 0.0),
        ],
    ),
    (
        5.0,
        [
            (-0.32286642900409, 0.0),
            (-0.77534188219585, 4.46486771378823),
            (-0.77534188219585, -4.46486771378823),
            (-14.07838969279820, 0.0),
        ],
    ),
    (
        6.0,
        [
            (-0.00406690076970, 0.0),
            (-1.52644486584142, 5.87673060598709),
            (-1.52644486584142, -5.87673060598709),
            (-16.08537123098030, 0.0),
        ],
    ),
    (
        7.0,
        [
            (0.10268170574766, 0.0),
            (-2.13875644258362, 7.19525913329805),
            (-2.13875644258362, -7.19525913329805),
            (-18.15788466125262, 0.0),
        ],
    ),
    (
        8.0,
        [
            (0.14327879765713, 0.0),
            (-2.69348683581097, 8.46037971396931),
            (-2.69348683581097, -8.46037971396931),
            (-20.27940894394569, 0.0),
        ],
    ),
    (
        9.0,
        [
            (0.15790184030917, 0.0),
            (-3.21675402252485, 9.69377351531791),
            (-3.21675402252485, -9.69377351531791),
            (-22.43788559040858, 0.0),
        ],
    ),
    (
        10.0,
        [
            (0.16105338653172, 0.0),
            (-3.72016840437287, 10.90681139476287),
            (-3.72016840437287, -10.90681139476287),
            (-24.62459635017404, 0.0),
        ],
    ),
];

#[test]
fn table_2_eigenvalues() {
    let bike = WhippleBicycle::default();
    let mut worst = 0.0f64;
    for (v, expected) in TABLE_2 {
        let eig = linearized(&bike, v).eigenvalues().unwrap();
        assert_eq!(eig.len(), 4);
        // nearest-neighbour assignment, not sort order
        for (re, im) in expected {
            let d = eig
                .iter()
                .map(|e| ((e.re - re).powi(2) + (e.im - im).powi(2)).sqrt())
                .fold(f64::INFINITY, f64::min);
            worst = worst.max(d);
            assert!(
                d < 1e-12,
                "v = {v}: {re} {im}i missing from {eig:?} (nearest {d:e})"
            );
        }
    }
    // v = 0: four real eigenvalues +-3.13164324790656, +-5.53094371765393
    let eig = linearized(&bike, 0.0).eigenvalues().unwrap();
    for want in [
        -5.53094371765393,
        -3.13164324790656,
        3.13164324790656,
        5.53094371765393,
    ] {
        let d = eig
            .iter()
            .map(|e| (e.re - want).abs() + e.im.abs())
            .fold(f64::INFINITY, f64::min);
        worst = worst.max(d);
        assert!(d < 1e-12, "v = 0: {want} missing from {eig:?}");
    }
    println!("worst eigenvalue difference from Table 2: {worst:e}");
}

/// Coefficients `a0..a4` of `det(M s^2 + C s + K)` at speed `v`.
fn characteristic(bike: &WhippleBicycle, v: f64) -> [f64; 5] {
    let (m, c, k) = linearized(bike, v).second_order().unwrap();
    let p = |i: usize, j: usize| [k[(i, j)], c[(i, j)], m[(i, j)]];
    let mul = |a: [f64; 3], b: [f64; 3]| {
        let mut r = [0.0; 5];
        for i in 0..3 {
            for j in 0..3 {
                r[i + j] += a[i] * b[j];
            }
        }
        r
    };
    let (d1, d2) = (mul(p(0, 0), p(1, 1)), mul(p(0, 1), p(1, 0)));
    [0, 1, 2, 3, 4].map(|i| d1[i] - d2[i])
}

fn bisect(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let flo = f(lo);
    assert!(flo * f(hi) < 0.0, "no sign change in [{lo}, {hi}]");
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if (f(mid) > 0.0) == (flo > 0.0) {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-15 {
            break;
        }
    }
    0.5 * (lo + hi)
}

#[test]
fn weave_and_capsize_speeds() {
    let bike = WhippleBicycle::default();
    // weave: the Hurwitz determinant a3 a2 a1 - a4 a1^2 - a0 a3^2 changes sign;
    // capsize: a0 = det K changes sign (a real eigenvalue through 0)
    let hurwitz = |v: f64| {
        let a = characteristic(&bike, v);
        a[3] * a[2] * a[1] - a[4] * a[1] * a[1] - a[0] * a[3] * a[3]
    };
    let weave = bisect(4.0, 5.0, hurwitz);
    let capsize = bisect(5.5, 6.5, |v| characteristic(&bike, v)[0]);
    println!("weave {weave:.14}, capsize {capsize:.14}");
    assert!((weave - 4.29238253634111).abs() < 1e-10, "weave {weave}");
    assert!(
        (capsize - 6.02426201538837).abs() < 1e-10,
        "capsize {capsize}"
    );
    // self-stable in between: every eigenvalue in the left half-plane
    for v in [4.4, 5.0, 5.9] {
        let eig = linearized(&bike, v).eigenvalues().unwrap();
        assert!(eig.iter().all(|e| e.re < 0.0), "v = {v}: {eig:?}");
    }
    for v in [4.1, 6.2] {
        let eig = linearized(&bike, v).eigenvalues().unwrap();
        assert!(eig.iter().any(|e| e.re > 0.0), "v = {v}: {eig:?}");
    }
}

/// Upright at speed `v` with a lean rate.
fn kicked(bike: &WhippleBicycle, v: f64, roll_rate: f64) -> [f64; WhippleBicycle::DIM] {
    let mut s = upright(bike, v);
    s[WhippleBicycle::NQ] = roll_rate;
    s
}

#[test]
fn ride_conserves_energy_and_constraints() {
    let bike = WhippleBicycle::default();
    for (v, tol) in [(5.0, 1e-10), (3.0, 1e-10), (3.0, 1e-12)] {
        let options = Options::default()
            .rtol(tol)
            .atol(tol)
            .sample_every(0.01)
            // fallen at a lean of 45 degrees (further on the frame passes through the
            // ground and the steer through 90 degrees, where the front contact degenerates)
            .stop_when(|_, s| std::f64::consts::FRAC_PI_4 - s[3].abs())
            // falling over at 3 m/s asks the ground to hold the rear wheel down before
            // 45 degrees; the equations' energy is what is checked
            .contact_checks(false);
        let tr = simulate(&bike, &kicked(&bike, v, 0.5), 0.0..5.0, &options).unwrap();
        let e = tr.energy(&bike).unwrap();
        let drift = e.iter().fold(0.0f64, |m, x| m.max((x - e[0]).abs())) / e[0].abs();
        let c = tr.max_constraint_residual(&bike).unwrap();
        let p = tr.max_configuration_residual(&bike).unwrap();
        println!(
            "v = {v}, tol {tol:e}: fell at {:?}, energy drift {drift:e}, |C| {c:e}, |pitch| {p:e}",
            tr.event_time()
        );
        assert!(c < 1e-12 && p < 1e-9, "v = {v}: constraints {c:e} {p:e}");
        assert!(drift < 100.0 * tol, "v = {v}: energy drift {drift:e}");
        assert_eq!(
            tr.event_time().is_none(),
            v == 5.0,
            "v = {v}: falls below the weave speed only"
        );
    }
}

#[test]
fn nonlinear_follows_linear_for_small_perturbations() {
    let bike = WhippleBicycle::default();
    let v = 5.0;
    let eps = 1e-6;
    let lin = linearized(&bike, v);
    let options = Options::default().rtol(1e-12).atol(1e-16).sample_every(0.1);
    let tr = simulate(&bike, &kicked(&bike, v, eps), 0.0..3.0, &options).unwrap();
    let y0 = nonholo::nalgebra::DVector::from_vec(vec![0.0, 0.0, eps, 0.0]);
    let mut worst = 0.0f64;
    for (i, t) in tr.times().iter().enumerate() {
        let y = (&lin.a * *t).exp() * &y0;
        let s = tr.state(i).unwrap();
        let nl = [s[3], s[6], s[8], s[10]]; // roll, steer, dot(roll), dot(steer)
        for k in 0..4 {
            worst = worst.max((nl[k] - y[k]).abs());
        }
    }
    println!("nonlinear vs exp(A t): worst difference {worst:e} (perturbation {eps:e})");
    assert!(worst < 1e-4 * eps, "{worst:e}");
}

/// Gibbs–Appell with the 3 independent speeds and the multipliers with all 8 velocities
/// integrate the same motion: q(2 s) from the same initial state to 1e-9.
#[test]
fn formulations_agree_on_a_ride() {
    let ga = WhippleBicycle::default();
    let mu = WhippleMultipliers::default();
    let s0 = kicked(&ga, 4.0, 0.3);
    let nq = WhippleBicycle::NQ;
    let mut qd = [0.0; WhippleBicycle::NQ];
    ga.qdot(0.0, &s0[..nq], &s0[nq..], &mut qd).unwrap();
    let m0 = mu.state_from_qdot(0.0, &s0[..nq], &qd).unwrap();
    let options = Options::default().rtol(1e-12).atol(1e-12);
    let a = simulate(&ga, &s0, 0.0..2.0, &options).unwrap();
    let b = simulate(&mu, &m0, 0.0..2.0, &options).unwrap();
    let (qa, qb) = (a.last().unwrap().1, b.last().unwrap().1);
    let worst = (0..nq).fold(0.0f64, |m, i| m.max((qa[i] - qb[i]).abs()));
    println!("q(2 s): Gibbs-Appell vs multipliers {worst:e}");
    assert!(worst < 1e-9, "{qa:?} {qb:?}");
}

/// Meijaard et al. 2007, Appendix A: the linearized matrices in closed form from the
/// benchmark parameters (the same parameter names as the model).
fn appendix_a(b: &WhippleBicycle) -> Benchmark {
    let (sl, cl) = (b.lam.sin(), b.lam.cos());
    // the whole bicycle
    let m_t = b.m_r + b.m_b + b.m_h + b.m_f;
    let x_t = (b.x_b * b.m_b + b.x_h * b.m_h + b.w * b.m_f) / m_t;
    let z_t = (-b.r_r * b.m_r + b.z_b * b.m_b + b.z_h * b.m_h - b.r_f * b.m_f) / m_t;
    let i_txx = b.i_rxx
        + b.i_bxx
        + b.i_hxx
        + b.i_fxx
        + b.m_r * b.r_r.powi(2)
        + b.m_b * b.z_b.powi(2)
        + b.m_h * b.z_h.powi(2)
        + b.m_f * b.r_f.powi(2);
    let i_txz =
        b.i_bxz + b.i_hxz - b.m_b * b.x_b * b.z_b - b.m_h * b.x_h * b.z_h + b.m_f * b.w * b.r_f;
    let i_tzz = b.i_rxx
        + b.i_bzz
        + b.i_hzz
        + b.i_fxx
        + b.m_b * b.x_b.powi(2)
        + b.m_h * b.x_h.powi(2)
        + b.m_f * b.w.powi(2);
    // the front assembly (fork and front wheel)
    let m_a = b.m_h + b.m_f;
    let x_a = (b.x_h * b.m_h + b.w * b.m_f) / m_a;
    let z_a = (b.z_h * b.m_h - b.r_f * b.m_f) / m_a;
    let i_axx = b.i_hxx + b.i_fxx + b.m_h * (b.z_h - z_a).powi(2) + b.m_f * (b.r_f + z_a).powi(2);
    let i_axz =
        b.i_hxz - b.m_h * (b.x_h - x_a) * (b.z_h - z_a) + b.m_f * (b.w - x_a) * (b.r_f + z_a);
    let i_azz = b.i_hzz + b.i_fxx + b.m_h * (b.x_h - x_a).powi(2) + b.m_f * (b.w - x_a).powi(2);
    let u_a = (x_a - b.w - b.c) * cl - z_a * sl;
    let i_all = m_a * u_a.powi(2) + i_axx * sl * sl + 2.0 * i_axz * sl * cl + i_azz * cl * cl;
    let i_alx = -m_a * u_a * z_a + i_axx * sl + i_axz * cl;
    let i_alz = m_a * u_a * x_a + i_axz * sl + i_azz * cl;
    let mu = b.c / b.w * cl;
    // gyroscopic coefficients of the wheels
    let (s_r, s_f) = (b.i_ryy / b.r_r, b.i_fyy / b.r_f);
    let s_t = s_r + s_f;
    let s_a = m_a * u_a + mu * m_t * x_t;
    let m_pd = i_alx + mu * i_txz;
    Benchmark {
        m: [
            [i_txx, m_pd],
            [m_pd, i_all + 2.0 * mu * i_alz + mu * mu * i_tzz],
        ],
        c1: [
            [0.0, mu * s_t + s_f * cl + i_txz / b.w * cl - mu * m_t * z_t],
            [
                -(mu * s_t + s_f * cl),
                i_alz / b.w * cl + mu * (s_a + i_tzz / b.w * cl),
            ],
        ],
        k0: [[m_t * z_t, -s_a], [-s_a, -s_a * sl]],
        k2: [
            [0.0, (s_t - m_t * z_t) / b.w * cl],
            [0.0, (s_a + s_f * sl) / b.w * cl],
        ],
    }
}

/// Random parameter sets (every parameter scaled by 0.9..1.1): M, C1, K0, K2 from the
/// linearized 3D model equal Appendix A's closed forms.
#[test]
fn random_parameters_against_appendix_a() {
    let mut rng = common::rng::SplitMix64::new(2007);
    let mut worst = 0.0f64;
    let mut set = 0;
    while set < 8 {
        let mut f = || rng.uniform(0.9, 1.1);
        let d = WhippleBicycle::default();
        let bike = d
            .with_w(d.w * f())
            .with_c(d.c * f())
            .with_lam(d.lam * f())
            .with_g(d.g * f())
            .with_r_r(d.r_r * f())
            .with_m_r(d.m_r * f())
            .with_i_rxx(d.i_rxx * f())
            .with_i_ryy(d.i_ryy * f())
            .with_x_b(d.x_b * f())
            .with_z_b(d.z_b * f())
            .with_m_b(d.m_b * f())
            .with_i_bxx(d.i_bxx * f())
            .with_i_byy(d.i_byy * f())
            .with_i_bzz(d.i_bzz * f())
            .with_i_bxz(d.i_bxz * f())
            .with_x_h(d.x_h * f())
            .with_z_h(d.z_h * f())
            .with_m_h(d.m_h * f())
            .with_i_hxx(d.i_hxx * f())
            .with_i_hyy(d.i_hyy * f())
            .with_i_hzz(d.i_hzz * f())
            .with_i_hxz(d.i_hxz * f())
            .with_r_f(d.r_f * f())
            .with_m_f(d.m_f * f())
            .with_i_fxx(d.i_fxx * f())
            .with_i_fyy(d.i_fyy * f());
        // a wheel's moment about its axle at most twice that about a diameter (a thin
        // disk's 2x, Meijaard's): thicker wheels; and moments a body can have (the
        // handlebar's are nearly a thin plate's, which scaling can break)
        let mut thick = || rng.uniform(0.9, 1.0);
        let bike = bike
            .with_i_ryy(2.0 * bike.i_rxx * thick())
            .with_i_fyy(2.0 * bike.i_fxx * thick());
        if bike.check_parameters().is_err() {
            continue;
        }
        set += 1;
        let want = appendix_a(&bike);
        let (m, _, k_at0) = linearized(&bike, 0.0).second_order().unwrap();
        let v = 3.0;
        let (_, c, k) = linearized(&bike, v).second_order().unwrap();
        for i in 0..2 {
            for j in 0..2 {
                let pairs = [
                    ("M", m[(i, j)], want.m[i][j]),
                    ("C1", c[(i, j)] / v, want.c1[i][j]),
                    ("K0", k_at0[(i, j)] / bike.g, want.k0[i][j]),
                    ("K2", (k[(i, j)] - k_at0[(i, j)]) / (v * v), want.k2[i][j]),
                ];
                for (name, got, exp) in pairs {
                    let d = (got - exp).abs() / (1.0 + exp.abs());
                    worst = worst.max(d);
                    assert!(
                        d < 1e-11,
                        "set {set}: {name}[{i}{j}] = {got}, Appendix A {exp}"
                    );
                }
            }
        }
    }
    println!("random parameter sets vs Appendix A: worst relative difference {worst:e}");
}
