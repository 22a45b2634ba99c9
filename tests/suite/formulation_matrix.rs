//! The cross-validation matrix: every worked system through every formulation that applies
//! (Gibbs–Appell, Boltzmann–Hamel, Voronec, Lagrange multipliers), from the same (q, dot(q)),
//! must trace the same q(t) to 1e-9 over a few seconds.

use nonholo::prelude::*;

/// One model body, four formulations: `speeds` for the first two, `dependent` (or
/// nothing) for Voronec, no parametrization for the multipliers.
macro_rules! four_ways {
    ($ga:ident, $bh:ident, $vo:ident, $mu:ident,
     { $($common:tt)* }, { $($speeds:tt)* }, { $($dependent:tt)* }) => {
        nonholonomic! { pub struct $ga; $($common)* $($speeds)* }
        nonholonomic! { pub struct $bh; $($common)* $($speeds)* formulation = boltzmann_hamel; }
        nonholonomic! { pub struct $vo; $($common)* $($dependent)* formulation = voronec; }
        nonholonomic! { pub struct $mu; $($common)* formulation = multipliers; }
    };
    // A library model's physics (`nonholo::*_model!`) with the given sections.
    (@model $model:ident, $ga:ident, $bh:ident, $vo:ident, $mu:ident,
     { $($speeds:tt)* }, { $($dependent:tt)* }) => {
        nonholo::$model! { pub struct $ga; $($speeds)* }
        nonholo::$model! { pub struct $bh; $($speeds)* formulation = boltzmann_hamel; }
        nonholo::$model! { pub struct $vo; $($dependent)* formulation = voronec; }
        nonholo::$model! { pub struct $mu; formulation = multipliers; }
    };
}

four_ways!(SkateGa, SkateBh, SkateVo, SkateMu, {
    parameters { m = 1.3, inertia = 0.2, g = 9.81, alpha = 0.2, c = 0.1 }
    coordinates { x, y, theta }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
    potential_energy = -m * g * sin(alpha) * x;
    forces { theta: -c * dot(theta) }
    constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
}, { speeds { v = cos(theta) * dot(x) + sin(theta) * dot(y); w = dot(theta); } }, { dependent { y } });

four_ways!(DiskGa, DiskBh, DiskVo, DiskMu, {
    parameters { m = 1.0, a_inertia = 0.5, b_inertia = 0.25, r = 1.0, g = 9.81, alpha = 0.2, k = 0.3 }
    coordinates { x, y, theta, psi }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2))
        + 0.5 * (a_inertia * dot(theta).powi(2) + b_inertia * dot(psi).powi(2));
    potential_energy = -m * g * sin(alpha) * x + 0.5 * k * psi * psi;
    constraints {
        dot(x) - r * cos(psi) * dot(theta) == 0.0;
        dot(y) - r * sin(psi) * dot(theta) == 0.0;
    }
}, { speeds { z1 = dot(theta); z2 = dot(psi); } }, { dependent { x, y } });

four_ways!(CoaxGa, CoaxBh, CoaxVo, CoaxMu, {
    parameters { m = 1.0, a_inertia = 0.5, b_inertia = 0.25, r = 1.0, a = 2.0, c = 0.2 }
    coordinates { x, y, theta1, theta2, psi }
    kinetic_energy = m * (dot(x).powi(2) + dot(y).powi(2))
        + 0.5 * a_inertia * (dot(theta1).powi(2) + dot(theta2).powi(2))
        + (0.5 * m * a * a + b_inertia) * dot(psi).powi(2)
        + m * a * dot(psi) * (dot(x) * cos(psi) + dot(y) * sin(psi));
    forces { theta1: -c * dot(theta1), theta2: 0.3 - c * dot(theta2) }
    constraints {
        dot(x) - r * cos(psi) * dot(theta1) == 0.0;
        dot(y) - r * sin(psi) * dot(theta1) == 0.0;
        r * dot(theta1) + a * dot(psi) - r * dot(theta2) == 0.0;
    }
}, { speeds { z1 = dot(theta1); z2 = dot(theta2); } }, { dependent { x, y, psi } });

four_ways!(@model pendulum_skate_model, BikeGa, BikeBh, BikeVo, BikeMu,
    { speeds {
        eta1 = (cos(phi) * dot(x_c) + sin(phi) * dot(y_c)) / rho;
        eta2 = (-sin(phi) * dot(x_c) + cos(phi) * dot(y_c)) / rho;
        eta3 = dot(theta);
        eta4 = dot(theta1);
    } },
    { dependent { y_c } });

four_ways!(@model assigned_front_model, FrontGa, FrontBh, FrontVo, FrontMu,
    { speeds { eta1 = dot(theta); eta2 = dot(theta1); } },
    { dependent { phi } });

four_ways!(@model rolling_disk_pendulum_model, UniGa, UniBh, UniVo, UniMu,
    { speeds {
        eta1 = f2h * dot(phi) - i_d * sin(theta) * dot(phi1) - f1h * v_par;
        eta2 = i_d * dot(phi1) - i_d * sin(theta) * dot(phi);
        eta3 = dot(theta);
        eta4 = dot(theta1);
    } },
    { dependent { x_c, y_c } });

four_ways!(@model assigned_spin_model, SpinGa, SpinBh, SpinVo, SpinMu,
    { speeds {
        eta1 = f2h * dot(phi) - f1h * v_par - i_d * phi1d * sin(theta);
        eta2 = dot(theta);
        eta3 = dot(theta1);
    } },
    { dependent { x_c, y_c } });

// A spatial chain: a rolling disk with two links hanging from its centre, each turned
// about two axes (the body-wise Lagrange terms of `bench/spatial`'s family).
four_ways!(ChainGa, ChainBh, ChainVo, ChainMu, {
    parameters { m = 1.0, r = 0.5, g = 9.81, ml = 0.2, l = 0.3 }
    coordinates { x, y, yaw, lean, spin, a1, b1, a2, b2 }
    frame N;
    point O;
    frame L = N.rotate(z, yaw).rotate(x, lean);
    frame D = L.rotate(y, spin);
    point P = O + N[x, y, 0.0];
    point C = P + r * L.z;
    body disk { frame: D, center: C, mass: m,
                inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }
    frame K1 = L.rotate(x, a1).rotate(y, b1);
    point G1 = C - 0.5 * l * K1.z;
    point J1 = C - l * K1.z;
    body link1 { frame: K1, center: G1, mass: ml,
                 inertia: inertia(K1, ml * l * l / 12.0, ml * l * l / 12.0, 0.001 * ml * l * l) }
    frame K2 = K1.rotate(x, a2).rotate(y, b2);
    point G2 = J1 - 0.5 * l * K2.z;
    body link2 { frame: K2, center: G2, mass: ml,
                 inertia: inertia(K2, ml * l * l / 12.0, ml * l * l / 12.0, 0.001 * ml * l * l) }
    gravity = -g * N.z;
    plane ground { point: O, up: N.z }
    rolls disk on ground { center: C, axis: L.y, radius: r, contact: P }
}, { speeds {
    w_yaw = dot(yaw); w_lean = dot(lean); w_spin = dot(spin);
    w_a1 = dot(a1); w_b1 = dot(b1); w_a2 = dot(a2); w_b2 = dot(b2);
} }, { dependent { x, y } });

/// Benenti 9.4 (nonlinear): Boltzmann–Hamel does not apply.
mod parallel {
    nonholo::parallel_points_model! {
        pub struct Ga;
        velocities(rho, sigma, theta) {
            dot(x1) = rho * cos(theta); dot(y1) = rho * sin(theta);
            dot(x2) = sigma * cos(theta); dot(y2) = sigma * sin(theta);
        }
    }
    nonholo::parallel_points_model! { pub struct Vo; dependent { y2 } formulation = voronec; }
    nonholo::parallel_points_model! { pub struct Mu; formulation = multipliers; }
}

fn path<M: Model>(m: &M, q0: &[f64], qd0: &[f64], t1: f64) -> Vec<f64> {
    let s0 = m
        .state_from_qdot(0.0, q0, qd0)
        .expect("consistent initial velocities");
    let opts = Options::default()
        .rtol(1e-11)
        .atol(1e-11)
        .sample_every(0.25);
    let traj = simulate(m, s0.as_ref(), 0.0..t1, &opts).expect("simulation");
    (0..traj.len())
        .flat_map(|i| traj.q(i).unwrap_or_default().to_vec())
        .collect()
}

fn diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

fn row(name: &str, reference: &[f64], others: &[(&str, Vec<f64>)]) {
    let mut line = format!("{name:>22}:");
    for (f, p) in others {
        let d = diff(reference, p);
        line.push_str(&format!("  {f} {d:.1e}"));
        assert!(d < 1e-9, "{name} {f}: {d:e}");
    }
    println!("{line}");
}

/// Simulate the four variants (each `Default`, then the given setters) and compare.
macro_rules! check_row {
    ($name:expr, $ga:ident, $bh:ident, $vo:ident, $mu:ident, $q0:expr, $qd0:expr, $t1:expr
     $(, $set:ident($val:expr))*) => {{
        let (q0, qd0): (&[f64], &[f64]) = (&$q0, &$qd0);
        let reference = path(&$ga::default()$(.$set($val))*, q0, qd0, $t1);
        row(
            $name,
            &reference,
            &[
                ("BH", path(&$bh::default()$(.$set($val))*, q0, qd0, $t1)),
                ("Voronec", path(&$vo::default()$(.$set($val))*, q0, qd0, $t1)),
                ("multipliers", path(&$mu::default()$(.$set($val))*, q0, qd0, $t1)),
            ],
        );
    }};
}

#[test]
fn every_system_every_formulation() {
    println!("max |q(t) - q_GibbsAppell(t)| over the run:");
    let th: f64 = 0.4;
    check_row!(
        "Benenti 9.1 skate",
        SkateGa,
        SkateBh,
        SkateVo,
        SkateMu,
        [0.3, -0.2, th],
        [0.8 * th.cos(), 0.8 * th.sin(), 0.3],
        1.0
    );
    check_row!(
        "Benenti 9.2 disk",
        DiskGa,
        DiskBh,
        DiskVo,
        DiskMu,
        [0.0, 0.0, 0.0, 0.3],
        [0.5 * 0.3f64.cos(), 0.5 * 0.3f64.sin(), 0.5, 0.4],
        3.0
    );
    check_row!(
        "Benenti 9.3 disks",
        CoaxGa,
        CoaxBh,
        CoaxVo,
        CoaxMu,
        [0.0, 0.0, 0.0, 0.0, 0.2],
        [0.2f64.cos(), 0.2f64.sin(), 1.0, 1.5, 0.25],
        3.0
    );
    check_row!(
        "Talamucci 3.1",
        BikeGa,
        BikeBh,
        BikeVo,
        BikeMu,
        [0.0, 0.0, 0.1, 0.1, -0.2],
        [1.0 * 0.1f64.cos(), 1.0 * 0.1f64.sin(), 0.0, 0.0, 0.3],
        1.0
    );
    let fr = FrontGa::default();
    let beta0 = -fr.a_f * fr.omega; // xfd sin(0) - yfd cos(0) at t = 0
    check_row!(
        "Talamucci 3.2",
        FrontGa,
        FrontBh,
        FrontVo,
        FrontMu,
        [0.0, 0.05, 0.0],
        [-beta0 / (2.0 * fr.rho), 0.0, 0.1],
        2.0
    );
    check_row!(
        "Talamucci 3.3",
        UniGa,
        UniBh,
        UniVo,
        UniMu,
        [0.0, 0.0, 0.2, 0.0, 0.05, -0.1],
        [
            0.5 * 0.2f64.cos() * 2.0,
            0.5 * 0.2f64.sin() * 2.0,
            0.1,
            2.0,
            0.0,
            0.2
        ],
        1.0
    );
    let sp = SpinGa::default();
    let v0 = sp.r * (sp.w0 + sp.a_s * sp.omega);
    check_row!(
        "Talamucci 3.4",
        SpinGa,
        SpinBh,
        SpinVo,
        SpinMu,
        [0.0, 0.0, 0.0, 0.02, 0.0],
        [v0, 0.0, 0.1, 0.0, 0.2],
        1.0
    );
    let q0 = [0.0, 0.0, 0.2, 0.1, 0.0, 0.3, -0.2, 0.1, 0.4];
    let mut qd0 = [0.0; 9];
    ChainGa::default()
        .qdot(0.0, &q0, &[0.3, 0.1, 3.0, 0.5, -0.4, 0.2, 0.6], &mut qd0)
        .expect("velocities");
    check_row!(
        "spatial chain, 2 links",
        ChainGa,
        ChainBh,
        ChainVo,
        ChainMu,
        q0,
        qd0,
        1.0
    );
    // 9.4: nonlinear, no Boltzmann–Hamel.
    let (q0, qd0) = ([0.0, 0.0, 1.0, 0.5], [1.0, 0.4, 0.5, 0.2]);
    let reference = path(&parallel::Ga::default(), &q0, &qd0, 2.0);
    row(
        "Benenti 9.4 points",
        &reference,
        &[
            ("Voronec", path(&parallel::Vo::default(), &q0, &qd0, 2.0)),
            (
                "multipliers",
                path(&parallel::Mu::default(), &q0, &qd0, 2.0),
            ),
        ],
    );
}

use crate::common;

/// One model's `rhs`, `rhs_jvp` and `energy` at three fixed pseudo-random states: a row
/// per call (NaN where the call returns an error).
fn golden_rows<M: Model + Default>(name: &str, rows: &mut Vec<(String, Vec<f64>)>) {
    let m = M::default();
    let dim = M::DIM;
    let mut rng = common::rng::SplitMix64::new(0x601d);
    for k in 0..3 {
        let s = rng.uniform_vec(dim, -1.0, 1.0);
        let v = rng.uniform_vec(dim, -1.0, 1.0);
        let mut d = vec![f64::NAN; dim];
        if m.rhs(0.3, &s, &mut d).is_err() {
            d.fill(f64::NAN);
        }
        let mut j = vec![f64::NAN; dim];
        if m.rhs_jvp(0.3, &s, &v, &mut j).is_err() {
            j.fill(f64::NAN);
        }
        let e = m.energy(0.3, &s).unwrap_or(f64::NAN);
        rows.push((format!("{name}.{k}.rhs"), d));
        rows.push((format!("{name}.{k}.jvp"), j));
        rows.push((format!("{name}.{k}.energy"), vec![e]));
    }
}

/// The emitted equations of every model in this file against values recorded before the
/// architecture and engine rewrites (`tests/golden/rhs.txt`; `NONHOLO_BLESS=1 cargo test
/// --test formulation_matrix golden` records them anew). Rewrites may reorder floating-point
/// work, so rows must match to 1e-12 relative to the row's largest entry.
#[test]
fn golden_rhs_values_are_unchanged() {
    let mut rows = Vec::new();
    macro_rules! each {
        ($($m:ty),* $(,)?) => { $( golden_rows::<$m>(stringify!($m), &mut rows); )* };
    }
    each!(
        SkateGa,
        SkateBh,
        SkateVo,
        SkateMu,
        DiskGa,
        DiskBh,
        DiskVo,
        DiskMu,
        CoaxGa,
        CoaxBh,
        CoaxVo,
        CoaxMu,
        BikeGa,
        BikeBh,
        BikeVo,
        BikeMu,
        FrontGa,
        FrontBh,
        FrontVo,
        FrontMu,
        UniGa,
        UniBh,
        UniVo,
        UniMu,
        SpinGa,
        SpinBh,
        SpinVo,
        SpinMu,
        parallel::Ga,
        parallel::Vo,
        parallel::Mu,
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/rhs.txt");
    let text: String = rows
        .iter()
        .map(|(n, v)| {
            let vals: Vec<String> = v.iter().map(|x| format!("{x:e}")).collect();
            format!("{n} {}\n", vals.join(" "))
        })
        .collect();
    if std::env::var_os("NONHOLO_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(&path).expect("tests/golden/rhs.txt");
    let recorded: Vec<(&str, Vec<f64>)> = recorded
        .lines()
        .map(|l| {
            let mut it = l.split(' ');
            let n = it.next().unwrap();
            (n, it.map(|x| x.parse().unwrap()).collect())
        })
        .collect();
    assert_eq!(recorded.len(), rows.len(), "number of recorded rows");
    let mut worst = 0.0f64;
    for ((n, now), (rn, before)) in rows.iter().zip(&recorded) {
        assert_eq!(n, rn);
        assert_eq!(now.len(), before.len(), "{n}");
        let scale = before.iter().fold(1e-300f64, |a, x| a.max(x.abs()));
        for (a, b) in now.iter().zip(before) {
            if a.is_nan() || b.is_nan() {
                assert!(a.is_nan() && b.is_nan(), "{n}: {a} vs recorded {b}");
                continue;
            }
            let d = (a - b).abs() / scale;
            worst = worst.max(d);
            assert!(
                d <= 1e-12,
                "{n}: {a:e} vs recorded {b:e} ({d:.1e} relative)"
            );
        }
    }
    println!("{} rows, worst relative difference {worst:.1e}", rows.len());
}
