//! `nonholo::linearize` against closed forms: the simple pendulum, the Cartesian pendulum
//! under tilted gravity (the implicit-function elimination of a dependent coordinate),
//! the upright rolling disk's critical speed, the Chaplygin sleigh's straight motion,
//! exact Jacobians and input matrices of the library models against central differences,
//! the error cases, the eigenvalue solver on matrices that hang uncapped QR, and Routh's
//! sphere spinning upright (eigenvalues `+-a +- bi` of one modulus below its critical spin).

use crate::common;

use common::rng::SplitMix64;
use nonholo::models::{
    PendulumSkate, RollingDisk3d, RollingDiskPendulum, RouthSphere, Skate, VerticalDisk,
};
use nonholo::nalgebra::Complex;
use nonholo::prelude::*;
use nonholo::Linearization;
use nonholo_test_models::linearize::*;

/// `|a - b| <= tol (1 + |b|)`.
fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

/// Every entry of `lin.a` against `want` (row-major), to `tol` absolute; the worst difference.
fn assert_a(lin: &Linearization, want: &[&[f64]], tol: f64, what: &str) -> f64 {
    assert_eq!(lin.a.nrows(), want.len(), "{what}");
    let mut worst = 0.0f64;
    for (i, row) in want.iter().enumerate() {
        assert_eq!(lin.a.ncols(), row.len(), "{what}");
        for (j, w) in row.iter().enumerate() {
            let d = (lin.a[(i, j)] - w).abs();
            assert!(
                d <= tol,
                "{what}: A[{i}{j}] = {} want {w}\n{}",
                lin.a[(i, j)],
                lin.a
            );
            worst = worst.max(d);
        }
    }
    worst
}

// ---------------------------------------------------------------------------------------
// 1. The simple pendulum

#[test]
fn simple_pendulum_bottom_and_top() {
    let p = Pendulum::new();
    assert_eq!(Pendulum::SPEEDS, ["dot(theta)"]);
    let w2 = p.g / p.l;
    let spec = Linearize::new()
        .keep(&["theta", "dot(theta)"])
        .inputs(&["tau"]);
    let mut worst = 0.0f64;
    for (theta0, sign) in [(0.0, 1.0), (std::f64::consts::PI, -1.0)] {
        let lin = linearize(&p, 0.0, &[theta0, 0.0], &spec).unwrap();
        assert_eq!(lin.states, ["theta", "dot(theta)"]);
        assert_eq!(lin.inputs, ["tau"]);
        worst = worst.max(assert_a(
            &lin,
            &[&[0.0, 1.0], &[-w2 * theta0.cos(), 0.0]],
            1e-12,
            "pendulum",
        ));
        // B = [0, 1 / (m l^2)]
        assert_eq!(lin.b[(0, 0)], 0.0);
        assert!(close(lin.b[(1, 0)], 1.0 / (p.m * p.l * p.l), 1e-14));
        assert!(lin.max_residual() < 1e-14, "{:?}", lin.residual);
        // bottom: +- i sqrt(g/l); top: +- sqrt(g/l)
        let eig = lin.eigenvalues().unwrap();
        let root = w2.sqrt();
        let want = if sign > 0.0 {
            [(0.0, -root), (0.0, root)]
        } else {
            [(-root, 0.0), (root, 0.0)]
        };
        for (e, (re, im)) in eig.iter().zip(want) {
            let d = (e.re - re).abs().max((e.im - im).abs());
            assert!(d < 1e-12, "theta0 {theta0}: {eig:?} want {want:?}");
            worst = worst.max(d);
        }
        // second order: M = m l^2, C = 0, K = m g l cos(theta0)
        let (m, c, k) = lin.second_order().unwrap();
        assert!(close(m[(0, 0)], p.m * p.l * p.l, 1e-13));
        assert!(c[(0, 0)].abs() < 1e-13);
        assert!(close(k[(0, 0)], p.m * p.g * p.l * theta0.cos(), 1e-13));
    }
    println!("pendulum: worst |A - A_exact|, |eig - eig_exact| = {worst:e}");
}

// ---------------------------------------------------------------------------------------
// 2. The Cartesian pendulum: y is set by the length constraint

/// The hanging equilibrium of the tilted pendulum.
fn hanging(p: &TiltedPendulum) -> [f64; 3] {
    [p.l * p.alpha.sin(), -p.l * p.alpha.cos(), 0.0]
}

#[test]
fn cartesian_pendulum_eliminates_the_dependent_coordinate() {
    assert_eq!(TiltedPendulum::COORDINATES, ["x", "y"]);
    assert_eq!(TiltedPendulum::SPEEDS, ["dot(x)"]);
    assert_eq!(TiltedPendulum::CONFIGURATION_COORDINATES, ["y"]);
    let spec = Linearize::new().keep(&["x", "dot(x)"]);
    let (mut worst_a, mut worst_eig, mut worst_drift) = (0.0f64, 0.0f64, 0.0f64);
    for alpha in [0.0, 0.3, -0.7, 1.2] {
        let p = TiltedPendulum::new().with_alpha(alpha);
        let (g, l) = (p.g, p.l);
        let lin = linearize(&p, 0.0, &hanging(&p), &spec).unwrap();
        assert_eq!(lin.states, ["x", "dot(x)"]);
        // On the circle, with u = dot(x): T = m l^2 u^2 / (2 y^2), V'' = m g / (l cos^2 a),
        // M = m / cos^2 a, hence dot(u) = -(g / l) dx for every tilt.
        worst_a = worst_a.max(assert_a(
            &lin,
            &[&[0.0, 1.0], &[-g / l, 0.0]],
            1e-12,
            &format!("alpha {alpha}"),
        ));
        let eig = lin.eigenvalues().unwrap();
        let w = (g / l).sqrt();
        for (e, im) in eig.iter().zip([-w, w]) {
            let d = e.re.abs().max((e.im - im).abs());
            assert!(d < 1e-12, "alpha {alpha}: {eig:?}, want +-{w} i");
            worst_eig = worst_eig.max(d);
        }
        assert!(lin.max_residual() < 1e-13, "{:?}", lin.residual);
        assert!(lin.drift < 1e-14, "drift {}", lin.drift);
        worst_drift = worst_drift.max(lin.drift);
        // The elimination matters: the kept block of J alone (y frozen) has the frequency
        // sqrt(g/l) cos a. J is laid out [x, y, dot(x)].
        let j = &lin.jacobian;
        let (jxz, jzx) = (j[(0, 2)], j[(2, 0)]);
        assert_eq!(j[(0, 0)], 0.0);
        let frozen = (-jxz * jzx).sqrt();
        assert!(
            (frozen - w * alpha.cos()).abs() < 1e-12,
            "alpha {alpha}: frozen frequency {frozen}, want {}",
            w * alpha.cos()
        );
        if alpha != 0.0 {
            // the implicit-function term is really there: J[dot(x), y] S != 0
            assert!(j[(2, 1)].abs() > 0.1, "{j}");
        }
    }
    println!(
        "tilted pendulum: worst |A - A_exact| {worst_a:e}, |eig - eig_exact| {worst_eig:e}, drift {worst_drift:e}"
    );
}

#[test]
fn cartesian_pendulum_drift_off_equilibrium_is_the_curvature_term() {
    // A swinging state (not steady): A is the instantaneous Jacobian of the reduced field
    // (x' = u, u' = f_u(x, y(x), u)), and `drift` is no longer round-off. Since
    // Phi_q psi = 0 for every (q, u), differentiating along T gives
    // Phi_D (J_D T + S J_K T) = -Phi_qq(q', dq) with dq = (1, -x/y) for the x column and 0
    // for the u column: for Phi = x^2 + y^2 - l^2 the drift is |u| l^2 / |y|^3 exactly.
    let p = TiltedPendulum::new();
    let mut worst = 0.0f64;
    for (x, u) in [(0.9, 0.7), (-0.4, -1.3), (0.2, 0.0)] {
        let y = -(p.l * p.l - x * x).sqrt();
        let state = [x, y, u];
        let lin = linearize(&p, 0.0, &state, &Linearize::new()).unwrap();
        assert_eq!(lin.states, ["x", "dot(x)"]);
        let want = u.abs() * p.l * p.l / y.abs().powi(3);
        let d = (lin.drift - want).abs();
        assert!(d < 1e-13 * (1.0 + want), "drift {} want {want}", lin.drift);
        worst = worst.max(d);
        // the reduced A against central differences of the reduced field
        // x' = u, u' = rhs_u(x, y(x), u)
        let f = |x: f64, u: f64| {
            let mut d = [0.0; 3];
            let y = -(p.l * p.l - x * x).sqrt();
            p.rhs(0.0, &[x, y, u], &mut d).unwrap();
            d[2]
        };
        let h = 1e-5;
        let fd = [
            (f(x + h, u) - f(x - h, u)) / (2.0 * h),
            (f(x, u + h) - f(x, u - h)) / (2.0 * h),
        ];
        assert_eq!((lin.a[(0, 0)], lin.a[(0, 1)]), (0.0, 1.0));
        for (c, want) in fd.iter().enumerate() {
            let d = (lin.a[(1, c)] - want).abs();
            assert!(
                d < 1e-8 * (1.0 + want.abs()),
                "A[1{c}] {} fd {want}",
                lin.a[(1, c)]
            );
        }
    }
    println!("tilted pendulum off equilibrium: worst |drift - closed form| {worst:e}");
}

// ---------------------------------------------------------------------------------------
// 3. The thin rolling disk, upright: critical speed v^2 = g r / 3

/// Straight upright rolling at forward speed `v` (spin rate `v / r`).
fn rolling(disk: &RollingDisk3d, v: f64) -> [f64; RollingDisk3d::DIM] {
    let mut s = RollingDisk3d::ZERO_STATE;
    s[RollingDisk3d::NQ + 2] = v / disk.r; // dot(spin)
    s
}

const DISK_KEEP: [&str; 3] = ["lean", "dot(yaw)", "dot(lean)"];

fn disk_lin(disk: &RollingDisk3d, v: f64) -> Linearization {
    linearize(
        disk,
        0.0,
        &rolling(disk, v),
        &Linearize::new().keep(&DISK_KEEP),
    )
    .unwrap()
}

/// The sum of the principal 2x2 minors of a 3x3 `a`: the `s` coefficient of
/// `det(s I - a) = s^3 - tr s^2 + m2 s - det`, here `s (s^2 - lambda^2)`, so `-lambda^2`.
fn minors2(lin: &Linearization) -> f64 {
    let a = &lin.a;
    let mut m2 = 0.0;
    for i in 0..3 {
        for j in i + 1..3 {
            m2 += a[(i, i)] * a[(j, j)] - a[(i, j)] * a[(j, i)];
        }
    }
    m2
}

#[test]
fn rolling_disk_critical_speed() {
    let disk = RollingDisk3d::new();
    assert_eq!(
        RollingDisk3d::COORDINATES,
        ["x", "y", "yaw", "lean", "spin"]
    );
    assert_eq!(
        RollingDisk3d::SPEEDS,
        ["dot(yaw)", "dot(lean)", "dot(spin)"]
    );
    let (g, r) = (disk.g, disk.r);
    // lean and its rate alone: the yaw rate couples through the spin (gyroscopic and
    // centripetal terms), so dropping it is refused
    let err = linearize(
        &disk,
        0.0,
        &rolling(&disk, 1.0),
        &Linearize::new().keep(&["lean", "dot(lean)"]),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DroppedStateCouples {
                state: "dot(yaw)",
                ..
            }
        ),
        "{err}"
    );

    // thin disk, I = m r^2 / 4 (diameter), J = m r^2 / 2 (axle): the eigenvalues are
    // {0, +-sqrt(lambda^2)}, lambda^2 = 4 g / (5 r) - 12 Omega^2 / 5, Omega = v / r
    let v_crit = (g * r / 3.0).sqrt();
    let mut worst = 0.0f64;
    for v in [0.0, 0.5, 0.9 * v_crit, 1.1 * v_crit, 2.0, -3.0] {
        let lin = disk_lin(&disk, v);
        assert_eq!(lin.states, DISK_KEEP);
        assert!(lin.max_residual() < 1e-13, "{:?}", lin.residual);
        assert!(lin.coupling < 1e-12, "coupling {}", lin.coupling);
        let om = v / r;
        let lambda2 = 4.0 * g / (5.0 * r) - 12.0 * om * om / 5.0;
        let d = (minors2(&lin) + lambda2).abs();
        assert!(
            d < 1e-12 * (1.0 + lambda2.abs()),
            "v {v}: m2 {}",
            minors2(&lin)
        );
        worst = worst.max(d);
        let eig = lin.eigenvalues().unwrap();
        let root = lambda2.abs().sqrt();
        let want: [(f64, f64); 3] = if lambda2 > 0.0 {
            [(-root, 0.0), (0.0, 0.0), (root, 0.0)]
        } else {
            [(0.0, -root), (0.0, 0.0), (0.0, root)]
        };
        let mut used = [false; 3];
        for (re, im) in want {
            // nearest-neighbour matching, not sort order (the real parts may tie)
            let (k, d) = eig
                .iter()
                .enumerate()
                .filter(|(k, _)| !used[*k])
                .map(|(k, e)| (k, (e.re - re).hypot(e.im - im)))
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .unwrap();
            used[k] = true;
            assert!(d < 1e-11, "v {v}: {eig:?}, want {want:?}");
            worst = worst.max(d);
        }
        // unstable below the critical speed, neutrally stable above
        let max_re = eig.iter().fold(f64::MIN, |m, e| m.max(e.re));
        if v * v < v_crit * v_crit {
            assert!(max_re > 0.1, "v {v}: {eig:?}");
        } else {
            assert!(max_re.abs() < 1e-11, "v {v}: {eig:?}");
        }
    }
    // the product of the nonzero eigenvalues, -lambda^2, changes sign at v_crit
    let (mut lo, mut hi) = (0.5 * v_crit, 2.0 * v_crit);
    assert!(minors2(&disk_lin(&disk, lo)) < 0.0 && minors2(&disk_lin(&disk, hi)) > 0.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if minors2(&disk_lin(&disk, mid)) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let v2 = lo * lo;
    let rel = (v2 - g * r / 3.0).abs() / (g * r / 3.0);
    assert!(rel < 1e-9, "critical v^2 {v2}, want {}", g * r / 3.0);
    println!(
        "rolling disk: worst eigenvalue / minor difference {worst:e}; v_crit^2 {v2} (rel. error {rel:e})"
    );
}

// ---------------------------------------------------------------------------------------
// 4. The Chaplygin sleigh

#[test]
fn chaplygin_sleigh_straight_motion() {
    let s = Sleigh::new();
    assert_eq!(Sleigh::SPEEDS, ["v", "w"]);
    let mut worst = 0.0f64;
    for (v0, th0) in [(1.5, 0.0), (1.5, 0.8), (-0.7, 2.0)] {
        let state = [0.3, -0.2, th0, v0, 0.0];
        let sigma = -s.m * s.a * v0 / (s.i_c + s.m * s.a * s.a);
        // [v, w]: m v' = m a w^2, (i_c + m a^2) w' = -m a v w
        let lin = linearize(&s, 0.0, &state, &Linearize::new().keep(&["v", "w"])).unwrap();
        worst = worst.max(assert_a(
            &lin,
            &[&[0.0, 0.0], &[0.0, sigma]],
            1e-12,
            "sleigh [v, w]",
        ));
        // x, y and th are ignorable: no kept row depends on them
        assert!(lin.coupling < 1e-14, "coupling {}", lin.coupling);
        assert!(lin.max_residual() < 1e-14, "{:?}", lin.residual);
        let eig = lin.eigenvalues().unwrap();
        let mut want = [0.0, sigma];
        want.sort_by(f64::total_cmp);
        for (e, w) in eig.iter().zip(want) {
            let d = (e.re - w).abs().max(e.im.abs());
            assert!(d < 1e-12, "v0 {v0}: {eig:?} want {want:?}");
            worst = worst.max(d);
        }
        // [w] alone: v decouples at w = 0
        let lin = linearize(&s, 0.0, &state, &Linearize::new().keep(&["w"])).unwrap();
        worst = worst.max(assert_a(&lin, &[&[sigma]], 1e-12, "sleigh [w]"));
    }
    // turning (w != 0), v couples: dropping it is refused
    let err = linearize(
        &s,
        0.0,
        &[0.0, 0.0, 0.0, 1.0, 0.5],
        &Linearize::new().keep(&["w"]),
    )
    .unwrap_err();
    assert!(
        matches!(err, Error::DroppedStateCouples { state: "v", .. }),
        "{err}"
    );
    println!("sleigh: worst difference {worst:e}");
}

// ---------------------------------------------------------------------------------------
// 5. Exact J and B against central differences on the library models

/// The worst `|J - J_fd| / (1 + |J|)` over the entries, J from `linearize` (keep all)
/// and J_fd from central differences of `rhs`.
fn jacobian_vs_fd<M: Model>(model: &M, state: &[f64]) -> f64 {
    let n = M::DIM;
    let lin = linearize(model, 0.0, state, &Linearize::new()).unwrap();
    assert_eq!(lin.jacobian.nrows(), n);
    // nothing dependent, nothing dropped: a is J itself
    assert_eq!(lin.a, lin.jacobian);
    let mut worst = 0.0f64;
    let (mut fp, mut fm) = (vec![0.0; n], vec![0.0; n]);
    for j in 0..n {
        let h = 1e-5 * (1.0 + state[j].abs());
        let mut x = state.to_vec();
        x[j] = state[j] + h;
        model.rhs(0.0, &x, &mut fp).unwrap();
        x[j] = state[j] - h;
        model.rhs(0.0, &x, &mut fm).unwrap();
        for i in 0..n {
            let fd = (fp[i] - fm[i]) / (2.0 * h);
            let e = lin.jacobian[(i, j)];
            let d = (e - fd).abs() / (1.0 + e.abs());
            assert!(
                d < 1e-7,
                "{}: J[{i}][{j}] = {e}, central difference {fd}",
                M::EQUATIONS.lines().next().unwrap_or("")
            );
            worst = worst.max(d);
        }
    }
    worst
}

/// The worst `|B - B_fd| / (1 + |B|)` for the parameter `name`, the model rebuilt by
/// `with(p)`; B from `linearize` (keep all).
fn input_vs_fd<M: Model>(model: &M, state: &[f64], name: &str, with: impl Fn(f64) -> M) -> f64 {
    let n = M::DIM;
    let lin = linearize(model, 0.0, state, &Linearize::new().inputs(&[name])).unwrap();
    assert_eq!(lin.inputs, [name]);
    let k = M::PARAMETERS.iter().position(|p| *p == name).unwrap();
    let p0 = model.parameters()[k];
    let h = 1e-5 * (1.0 + p0.abs());
    let (mut fp, mut fm) = (vec![0.0; n], vec![0.0; n]);
    with(p0 + h).rhs(0.0, state, &mut fp).unwrap();
    with(p0 - h).rhs(0.0, state, &mut fm).unwrap();
    // the rebuilt model at p0 is the model itself
    assert_eq!(with(p0).parameters(), model.parameters());
    let mut worst = 0.0f64;
    for i in 0..n {
        let fd = (fp[i] - fm[i]) / (2.0 * h);
        let e = lin.b[(i, 0)];
        let d = (e - fd).abs() / (1.0 + e.abs());
        assert!(d < 1e-7, "d/d{name} row {i}: {e}, central difference {fd}");
        worst = worst.max(d);
    }
    // some input actually acts
    assert!(lin.b.amax() > 1e-3, "{name}: B = {}", lin.b);
    worst
}

#[test]
fn library_models_jacobian_and_inputs_match_central_differences() {
    let mut rng = SplitMix64::new(2024);
    let (mut wj, mut wb) = (0.0f64, 0.0f64);
    for _ in 0..5 {
        let m = Skate::new().with_alpha(0.2).with_c(0.3);
        let s = rng.uniform_vec(Skate::DIM, -1.0, 1.0);
        wj = wj.max(jacobian_vs_fd(&m, &s));
        wb = wb.max(input_vs_fd(&m, &s, "c", |p| m.with_c(p)));
        wb = wb.max(input_vs_fd(&m, &s, "alpha", |p| m.with_alpha(p)));

        let m = VerticalDisk::new().with_alpha(-0.3);
        let s = rng.uniform_vec(VerticalDisk::DIM, -1.0, 1.0);
        wj = wj.max(jacobian_vs_fd(&m, &s));
        wb = wb.max(input_vs_fd(&m, &s, "r", |p| m.with_r(p)));

        let m = PendulumSkate::new().with_c_phi(0.2).with_c_th1(0.1);
        let s = rng.uniform_vec(PendulumSkate::DIM, -1.0, 1.0);
        wj = wj.max(jacobian_vs_fd(&m, &s));
        wb = wb.max(input_vs_fd(&m, &s, "c_phi", |p| m.with_c_phi(p)));
        wb = wb.max(input_vs_fd(&m, &s, "c_th1", |p| m.with_c_th1(p)));
        wb = wb.max(input_vs_fd(&m, &s, "kappa", |p| m.with_kappa(p)));

        let m = RollingDiskPendulum::new().with_tau(0.4).with_c_phi(0.1);
        let s = rng.uniform_vec(RollingDiskPendulum::DIM, -1.0, 1.0);
        wj = wj.max(jacobian_vs_fd(&m, &s));
        wb = wb.max(input_vs_fd(&m, &s, "tau", |p| m.with_tau(p)));
        wb = wb.max(input_vs_fd(&m, &s, "c_phi", |p| m.with_c_phi(p)));
        wb = wb.max(input_vs_fd(&m, &s, "r", |p| m.with_r(p)));

        let m = RollingDisk3d::new();
        let s = rng.uniform_vec(RollingDisk3d::DIM, -1.0, 1.0);
        wj = wj.max(jacobian_vs_fd(&m, &s));
        wb = wb.max(input_vs_fd(&m, &s, "g", |p| m.with_g(p)));
    }
    println!("library models: worst relative |J - J_fd| {wj:e}, |B - B_fd| {wb:e}");
}

// ---------------------------------------------------------------------------------------
// 6. Errors

#[test]
fn errors_name_what_is_wrong() {
    let p = Pendulum::new();
    let x0 = [0.1, 0.0];
    // an unknown state
    let err = linearize(&p, 0.0, &x0, &Linearize::new().keep(&["theta", "omega"])).unwrap_err();
    match &err {
        Error::UnknownName { what, name, known } => {
            assert_eq!((*what, name.as_str()), ("states", "omega"));
            assert_eq!(known, &["theta", "dot(theta)"]);
        }
        e => panic!("{e}"),
    }
    // an unknown input
    let err = linearize(&p, 0.0, &x0, &Linearize::new().inputs(&["torque"])).unwrap_err();
    match &err {
        Error::UnknownName { what, name, known } => {
            assert_eq!((*what, name.as_str()), ("inputs or parameters", "torque"));
            assert_eq!(known, &["m", "l", "g", "tau"]);
        }
        e => panic!("{e}"),
    }
    // dropping the speed of a kept coordinate
    let err = linearize(&p, 0.0, &x0, &Linearize::new().keep(&["theta"])).unwrap_err();
    match &err {
        Error::DroppedStateCouples {
            state, coupling, ..
        } => {
            assert_eq!(*state, "dot(theta)");
            assert_eq!(*coupling, 1.0);
        }
        e => panic!("{e}"),
    }
    // keeping the dependent coordinate of a configuration constraint
    let tp = TiltedPendulum::new();
    let err = linearize(
        &tp,
        0.0,
        &hanging(&tp),
        &Linearize::new().keep(&["x", "y", "dot(x)"]),
    )
    .unwrap_err();
    match &err {
        Error::DependentCoordinates { coordinates, .. } => assert_eq!(coordinates, &["y"]),
        e => panic!("{e}"),
    }
    // a point where the constraint does not determine the dependent coordinate
    // (y = 0: Phi_y = 0) is refused, never a matrix
    let err = linearize(
        &tp,
        0.0,
        &[tp.l, 0.0, 0.0],
        &Linearize::new().keep(&["x", "dot(x)"]),
    )
    .unwrap_err();
    // (psi divides by Phi_y as well, so the field itself is singular there)
    assert!(
        matches!(
            err,
            Error::DependentCoordinates { .. } | Error::NonFinite { .. }
        ),
        "{err}"
    );
    // a wrong state length
    assert!(matches!(
        linearize(&p, 0.0, &[0.0], &Linearize::new()),
        Err(Error::Dimension { .. })
    ));
}

// ---------------------------------------------------------------------------------------
// The eigenvalue solver on matrices that hang an uncapped QR iteration

#[test]
fn eigenvalues_return_on_zero_and_companion_matrices() {
    // a DMatrix without naming nalgebra: resize a linearization's
    let template = linearize(&Pendulum::new(), 0.0, &[0.0, 0.0], &Linearize::new())
        .unwrap()
        .a;
    let mut zero = template.clone().resize(5, 5, 0.0);
    zero.fill(0.0);
    // nalgebra #611: the companion matrix of s^11 - c (its Schur form looped forever)
    let c = 1.7748092111017977;
    let mut comp = template.resize(11, 11, 0.0);
    comp.fill(0.0);
    comp[(0, 10)] = c;
    for i in 1..11 {
        comp[(i, i - 1)] = 1.0;
    }
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let z = nonholo::eigenvalues(&zero);
        let k = nonholo::eigenvalues(&comp);
        tx.send((z, k)).unwrap();
    });
    let (z, k) = rx
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("eigenvalues did not return within 120 s");
    let z = z.unwrap();
    assert_eq!(z.len(), 5);
    assert!(z.iter().all(|e| e.re == 0.0 && e.im == 0.0), "{z:?}");
    // converged (the exceptional shifts of LAPACK's dlahqr): the 11 roots of s^11 = c
    let ev = k.unwrap();
    assert_eq!(ev.len(), 11);
    let rho = c.powf(1.0 / 11.0);
    for e in &ev {
        let d = (e.norm() - rho).abs();
        assert!(d < 1e-12, "|{e}| = {} want {rho}", e.norm());
        let p = e.powu(11);
        assert!(
            (p.re - c).abs() < 1e-12 && p.im.abs() < 1e-12,
            "{e}^11 = {p}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// 7. Routh's sphere spinning upright: a quartet +-a +- bi of one modulus below the
// critical spin

/// Upright spin `w` about the vertical: everything zero but `dot(yaw)`.
fn routh_spin(w: f64) -> [f64; RouthSphere::DIM] {
    let mut s = [0.0; RouthSphere::DIM];
    s[RouthSphere::NQ] = w; // dot(yaw)
    s
}

const ROUTH_KEEP: [&str; 5] = ["roll", "pitch", "dot(yaw)", "dot(roll)", "dot(pitch)"];

fn routh_lin(ball: &RouthSphere, w: f64) -> Linearization {
    linearize(
        ball,
        0.0,
        &routh_spin(w),
        &Linearize::new().keep(&ROUTH_KEEP),
    )
    .unwrap()
}

/// `c3 - 2 sqrt(c1)` of `det(s I - A) = s (s^4 + c3 s^2 + c1)` (`c0 = c2 = c4 = 0`): the
/// quartic's roots in `s^2` coincide where it is 0; below, a quartet `+-a +- bi` gives
/// `-4 a^2 < 0`; above, `+-i w1, +-i w2` give `(w1 - w2)^2 > 0`.
fn routh_boundary(lin: &Linearization) -> f64 {
    let c = lin.characteristic_polynomial();
    c[3] - 2.0 * c[1].sqrt()
}

#[test]
fn routh_sphere_critical_spin() {
    let ball = RouthSphere::default();
    assert_eq!(RouthSphere::COORDINATES, ["x", "y", "yaw", "roll", "pitch"]);
    assert_eq!(RouthSphere::SPEEDS, ["dot(yaw)", "dot(roll)", "dot(pitch)"]);
    let (m, r, e, g) = (ball.m, ball.r, ball.e, ball.g);
    // Newton-Euler about G with the contact force at P, G - P = (e x, e y, r + e) for the
    // axis (x, y, 1), no slip v_G = omega x (G - P), linear in the tilt about the spin w:
    //   J x'' + K w y' - m g e x = 0,   J y'' - K w x' - m g e y = 0,
    // J = i_a + m (r + e)^2 (transverse, about the contact), K = i_c + m r (r + e).
    // With z = x + i y: J z'' - i K w z' - m g e z = 0, the sleeping top's equation, so the
    // tilt is unstable while K^2 w^2 < 4 J m g e.
    let (jt, kt, mge) = (
        ball.i_a + m * (r + e) * (r + e),
        ball.i_c + m * r * (r + e),
        m * g * e,
    );
    let w_crit = 2.0 * (jt * mge).sqrt() / kt;
    let (mut worst, mut nalgebra_failures) = (0.0f64, 0);
    for i in 1..=60 {
        let w = 0.5 * i as f64;
        let lin = routh_lin(&ball, w);
        assert_eq!(lin.states, ROUTH_KEEP);
        assert!(lin.max_residual() < 1e-12, "{:?}", lin.residual);
        assert!(lin.coupling < 1e-12, "coupling {}", lin.coupling);
        // what nalgebra's Schur form (100 n iterations), used before, makes of it
        let schur = nonholo::nalgebra::Schur::try_new(lin.a.clone(), f64::EPSILON, 500);
        nalgebra_failures += usize::from(schur.is_none());
        let ev = lin.eigenvalues().unwrap();
        // the roots of J s^2 - i K w s - m g e = 0 seen from the frame that yaws with the
        // ball (roll and pitch are measured in it), so shifted by -i w; their conjugates; 0
        let d = Complex::new(4.0 * jt * mge - kt * kt * w * w, 0.0).sqrt();
        let s1 = (Complex::new(0.0, kt * w) + d) / (2.0 * jt) - Complex::new(0.0, w);
        let s2 = (Complex::new(0.0, kt * w) - d) / (2.0 * jt) - Complex::new(0.0, w);
        let want = [s1, s2, s1.conj(), s2.conj(), Complex::new(0.0, 0.0)];
        let mut used = [false; 5];
        for z in want {
            // nearest-neighbour matching, not sort order (the real parts tie)
            let (k, d) = ev
                .iter()
                .enumerate()
                .filter(|(k, _)| !used[*k])
                .map(|(k, e)| (k, (e - z).norm()))
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .unwrap();
            used[k] = true;
            assert!(d < 1e-12 * lin.a.norm(), "w {w}: {ev:?}, want {want:?}");
            worst = worst.max(d);
        }
        // unstable below the critical spin, neutrally stable above
        let max_re = ev.iter().fold(f64::MIN, |m, e| m.max(e.re));
        if w < w_crit {
            assert!(max_re > 0.1, "w {w}: {ev:?}");
        } else {
            assert!(max_re.abs() < 1e-13 * lin.a.norm(), "w {w}: {ev:?}");
        }
    }
    // the critical spin from the model alone: where the characteristic polynomial's
    // quartic gets a double root in s^2 (bisection on the sign of routh_boundary)
    let (mut lo, mut hi) = (6.0, 6.5);
    assert!(routh_boundary(&routh_lin(&ball, lo)) < 0.0);
    assert!(routh_boundary(&routh_lin(&ball, hi)) > 0.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if routh_boundary(&routh_lin(&ball, mid)) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let rel = (lo - w_crit).abs() / w_crit;
    assert!(rel < 1e-9, "critical spin {lo}, want {w_crit}");
    println!(
        "Routh's sphere: worst eigenvalue difference {worst:e}; critical spin {lo} rad/s \
         (closed form {w_crit}, rel. error {rel:e}); nalgebra's Schur failed at \
         {nalgebra_failures} of 60 spins"
    );
}
