//! The cross-validation matrix: every worked system through every formulation that applies
//! (Gibbs–Appell, Boltzmann–Hamel, Voronec, Lagrange multipliers), from the same (q, dot(q)),
//! must trace the same q(t) to 1e-9 over a few seconds.

use nonholo::prelude::*;
use nonholo_test_models::formulation_matrix::*;

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
    ($name:expr, $ga:ident, $bh:ident, $vo:ident, $mu:ident, $q0:expr, $qd0:expr, $t1:expr,
     $fixed:expr $(, $set:ident($val:expr))*) => {{
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

/// Every worked system with four formulations and a start `(q0, dot(q)0)`: `$check!(name,
/// GA, BH, Voronec, multipliers, q0, qd0, seconds to run, whether the constraints are fixed)`.
macro_rules! each_family {
    ($check:ident) => {{
        let th: f64 = 0.4;
        $check!(
            "Benenti 9.1 skate",
            SkateGa,
            SkateBh,
            SkateVo,
            SkateMu,
            [0.3, -0.2, th],
            [0.8 * th.cos(), 0.8 * th.sin(), 0.3],
            1.0,
            true
        );
        $check!(
            "Benenti 9.2 disk",
            DiskGa,
            DiskBh,
            DiskVo,
            DiskMu,
            [0.0, 0.0, 0.0, 0.3],
            [0.5 * 0.3f64.cos(), 0.5 * 0.3f64.sin(), 0.5, 0.4],
            3.0,
            true
        );
        $check!(
            "Benenti 9.3 disks",
            CoaxGa,
            CoaxBh,
            CoaxVo,
            CoaxMu,
            [0.0, 0.0, 0.0, 0.0, 0.2],
            [0.2f64.cos(), 0.2f64.sin(), 1.0, 1.5, 0.25],
            3.0,
            true
        );
        $check!(
            "Talamucci 3.1",
            BikeGa,
            BikeBh,
            BikeVo,
            BikeMu,
            [0.0, 0.0, 0.1, 0.1, -0.2],
            [1.0 * 0.1f64.cos(), 1.0 * 0.1f64.sin(), 0.0, 0.0, 0.3],
            1.0,
            true
        );
        let fr = FrontGa::default();
        let beta0 = -fr.a_f * fr.omega; // xfd sin(0) - yfd cos(0) at t = 0
        $check!(
            "Talamucci 3.2",
            FrontGa,
            FrontBh,
            FrontVo,
            FrontMu,
            [0.0, 0.05, 0.0],
            [-beta0 / (2.0 * fr.rho), 0.0, 0.1],
            2.0,
            false
        );
        $check!(
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
            1.0,
            true
        );
        let sp = SpinGa::default();
        let v0 = sp.r * (sp.w0 + sp.a_s * sp.omega);
        $check!(
            "Talamucci 3.4",
            SpinGa,
            SpinBh,
            SpinVo,
            SpinMu,
            [0.0, 0.0, 0.0, 0.02, 0.0],
            [v0, 0.0, 0.1, 0.0, 0.2],
            1.0,
            false
        );
        let q0 = [0.0, 0.0, 0.2, 0.1, 0.0, 0.3, -0.2, 0.1, 0.4];
        let mut qd0 = [0.0; 9];
        ChainGa::default()
            .qdot(0.0, &q0, &[0.3, 0.1, 3.0, 0.5, -0.4, 0.2, 0.6], &mut qd0)
            .expect("velocities");
        $check!(
            "spatial chain, 2 links",
            ChainGa,
            ChainBh,
            ChainVo,
            ChainMu,
            q0,
            qd0,
            1.0,
            true
        );
    }};
}

#[test]
fn every_system_every_formulation() {
    println!("max |q(t) - q_GibbsAppell(t)| over the run:");
    each_family!(check_row);
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

/// The emitted equations of this topic's models (`nonholo_test_models::formulation_matrix`)
/// against values recorded before the architecture and engine rewrites (`tests/golden/rhs.txt`;
/// `NONHOLO_BLESS=1 cargo test -p nonholo --test suite golden` records them anew). Rewrites
/// may reorder floating-point work, so rows must match to 1e-12 relative to the row's
/// largest entry.
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

/// `Contacts::reactions` at (t, q, dot(q)), through the model's own state.
fn reactions_at<M: Contacts>(m: &M, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64> {
    let state = m.state_from_qdot(t, q, qd).expect("state");
    let mut out = vec![0.0; M::NQ];
    m.reactions(t, state.as_ref(), &[], &mut out)
        .expect("reactions");
    out
}

/// The generalized reactions `R = A qdd + h - F` of every formulation equal the
/// multipliers' `C_qd^T lambda` at the same (t, q, dot(q)) along a run, and fixed ideal
/// constraints do no work (`R . dot(q) = 0`).
macro_rules! check_reactions {
    ($name:expr, $ga:ident, $bh:ident, $vo:ident, $mu:ident, $q0:expr, $qd0:expr, $t1:expr,
     $fixed:expr) => {{
        let (ga, bh, vo, mu) = (
            $ga::default(),
            $bh::default(),
            $vo::default(),
            $mu::default(),
        );
        let (q0, qd0): (&[f64], &[f64]) = (&$q0, &$qd0);
        let s0 = ga.state_from_qdot(0.0, q0, qd0).expect("consistent start");
        let opts = Options::default()
            .rtol(1e-10)
            .atol(1e-10)
            .sample_every(0.25);
        let run = simulate(&ga, s0.as_ref(), 0.0..$t1, &opts).expect("simulation");
        let n = <$ga as Model>::NQ;
        let mut worst = (0.0f64, 0.0f64);
        for i in 0..run.len() {
            let t = run.times()[i];
            let s = run.state(i).expect("sample");
            let mut qd = vec![0.0; n];
            ga.qdot(t, &s[..n], &s[n..], &mut qd).expect("qdot");
            let q = &s[..n];
            let r_mu = reactions_at(&mu, t, q, &qd);
            let scale = 1.0 + r_mu.iter().fold(0.0f64, |a, x| a.max(x.abs()));
            let others = [
                ("GA", reactions_at(&ga, t, q, &qd)),
                ("BH", reactions_at(&bh, t, q, &qd)),
                ("Voronec", reactions_at(&vo, t, q, &qd)),
            ];
            for (f, r) in &others {
                let d = diff(&r_mu, r) / scale;
                assert!(
                    d < 1e-10,
                    "{} {f}: reactions differ by {d:e} (relative)",
                    $name
                );
                worst.0 = worst.0.max(d);
            }
            let power: f64 = r_mu.iter().zip(&qd).map(|(r, v)| r * v).sum();
            if $fixed {
                assert!(power.abs() < 1e-10 * scale, "{}: R . qd = {power:e}", $name);
            }
            worst.1 = worst.1.max(power.abs() / scale);
        }
        println!(
            "{:>22}: reactions {:.1e}, |R . qd| {:.1e}",
            $name, worst.0, worst.1
        );
    }};
}

#[test]
fn reactions_agree_across_formulations_and_do_no_work() {
    each_family!(check_reactions);
}

/// The spatial chain's Voronec and Boltzmann–Hamel equations are solved by the
/// articulated-body algorithm, as Gibbs–Appell's are (their trajectories agree above).
#[test]
fn the_chain_takes_the_tree_in_every_first_method() {
    for equations in [ChainGa::EQUATIONS, ChainBh::EQUATIONS, ChainVo::EQUATIONS] {
        assert!(
            equations.contains("emitted: dz/dt by the articulated-body algorithm"),
            "{equations}"
        );
    }
}
