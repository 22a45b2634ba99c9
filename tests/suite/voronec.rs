//! `formulation = voronec` (Talamucci's nonlinear rheonomic Voronec equations 19–21, and
//! their Čaplygin form) against the default Gibbs–Appell formulation on the same model
//! with the same independent velocities: the right-hand sides at random states (1e-12
//! relative) and q(t) over a couple of seconds (1e-9).
//!
//! Systems: Benenti 9.1–9.4 (9.4 with the nonlinear constraint solved for dot(y2)),
//! Talamucci 3.1 (two choices of the dependent velocity: the general and the Čaplygin
//! form), 3.2 and 3.4 (rheonomic), 3.3, and two synthetic systems that switch on every
//! term of eq. (21): a skate with a driven blade (dalpha/d dot(q) depending on t) and a
//! nonlinear rheonomic constraint whose alpha and T contain the dependent coordinate.

use crate::common::rng;

use nonholo::prelude::*;
use nonholo_test_models::voronec::*;
use rng::SplitMix64;

fn rel_err(a: &[f64], b: &[f64]) -> f64 {
    let num = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max);
    let den = b.iter().map(|y| y.abs()).fold(0.0, f64::max);
    num / den.max(1e-300)
}

/// The worst relative difference of the two right-hand sides (and energies) at `n` random states
/// (q, speeds and t uniform; `speed_ok` rejects states near a singularity of the chosen
/// dependent velocities).
fn compare_rhs<V: Model, G: Model>(
    v: &V,
    g: &G,
    seed: u64,
    n: usize,
    speed_ok: impl Fn(&[f64]) -> bool,
) -> f64 {
    assert_eq!(V::FORMULATION, Formulation::Voronec);
    assert_eq!(G::FORMULATION, Formulation::GibbsAppell);
    assert_eq!(V::SPEEDS, G::SPEEDS);
    assert_eq!(V::DIM, G::DIM);
    let mut rng = SplitMix64::new(seed);
    let mut worst = 0.0f64;
    let mut done = 0;
    while done < n {
        let t = rng.uniform(0.0, 3.0);
        let s: Vec<f64> = (0..V::DIM).map(|_| rng.uniform(-1.2, 1.2)).collect();
        if !speed_ok(&s) {
            continue;
        }
        let mut dv = vec![0.0; V::DIM];
        let mut dg = vec![0.0; G::DIM];
        v.rhs(t, &s, &mut dv).expect("voronec rhs");
        g.rhs(t, &s, &mut dg).expect("gibbs-appell rhs");
        worst = worst.max(rel_err(&dv, &dg));
        let (ev, eg) = (v.energy(t, &s).unwrap(), g.energy(t, &s).unwrap());
        worst = worst.max((ev - eg).abs() / eg.abs().max(1.0));
        done += 1;
    }
    worst
}

/// The largest difference of q(t), sampled every 0.25 over [0, t1], from the same state.
fn compare_paths<V: Model, G: Model>(v: &V, g: &G, s0: &[f64], t1: f64) -> f64 {
    let opts = Options::default()
        .rtol(1e-12)
        .atol(1e-12)
        .sample_every(0.25);
    let a = simulate(v, s0, 0.0..t1, &opts).expect("voronec simulation");
    let b = simulate(g, s0, 0.0..t1, &opts).expect("gibbs-appell simulation");
    assert_eq!(a.len(), b.len());
    let mut worst = 0.0f64;
    for i in 0..a.len() {
        let (qa, qb) = (a.q(i).unwrap(), b.q(i).unwrap());
        for (x, y) in qa.iter().zip(qb) {
            worst = worst.max((x - y).abs());
        }
    }
    worst
}

const N: usize = 50;
const RHS_TOL: f64 = 1e-12;
const PATH_TOL: f64 = 1e-9;

fn report(name: &str, rhs: f64, path: f64) {
    println!("{name:<40} rhs rel. {rhs:.1e}   q(t) {path:.1e}");
    assert!(rhs < RHS_TOL, "{name}: rhs differ by {rhs:e}");
    assert!(path < PATH_TOL, "{name}: q(t) differ by {path:e}");
}

fn is_chaplygin<M: Model>() -> bool {
    M::EQUATIONS.contains("Čaplygin system")
}

#[test]
fn benenti_9_1_skate() {
    let mut rng = SplitMix64::new(11);
    let (mut v, mut g) = (SkateV::default(), SkateG::default());
    (v.m, v.inertia, v.alpha, v.c) = (1.3, 0.2, rng.uniform(-0.5, 0.5), 0.15);
    (g.m, g.inertia, g.alpha, g.c) = (v.m, v.inertia, v.alpha, v.c);
    let rhs = compare_rhs(&v, &g, 1, N, |_| true);
    let path = compare_paths(&v, &g, &[0.1, -0.2, 0.3, 0.8, -0.4], 2.0);
    assert!(is_chaplygin::<SkateV>());
    report("Benenti 9.1 skate", rhs, path);
}

#[test]
fn benenti_9_2_vertical_disk() {
    let (mut v, mut g) = (VerticalDiskV::default(), VerticalDiskG::default());
    v.alpha = 0.3;
    g.alpha = 0.3;
    let rhs = compare_rhs(&v, &g, 2, N, |_| true);
    let path = compare_paths(&v, &g, &[0.0, 0.0, 0.2, 0.4, 1.5, -0.7], 2.0);
    // V = -m g sin(alpha) x contains the dependent x: the general form.
    assert!(!is_chaplygin::<VerticalDiskV>());
    report("Benenti 9.2 vertical disk", rhs, path);
}

#[test]
fn benenti_9_3_coaxial_disks() {
    let (v, g) = (CoaxialDisksV::default(), CoaxialDisksG::default());
    let rhs = compare_rhs(&v, &g, 3, N, |_| true);
    let path = compare_paths(&v, &g, &[0.0, 0.0, 0.1, -0.2, 0.3, 1.2, 0.4], 2.0);
    // T contains the dependent psi: the general form.
    assert!(!is_chaplygin::<CoaxialDisksV>());
    report("Benenti 9.3 co-axial disks", rhs, path);
}

#[test]
fn benenti_9_4_parallel_points_nonlinear() {
    let (v, g) = (ParallelPointsV::default(), ParallelPointsG::default());
    // dot(y2) = dot(x2) dot(y1) / dot(x1): keep dot(x1) (state[4]) away from 0.
    let rhs = compare_rhs(&v, &g, 4, N, |s| s[4].abs() > 0.3);
    let path = compare_paths(&v, &g, &[0.0, 0.0, 1.0, 0.5, 1.0, 0.4, 0.5], 2.0);
    assert!(is_chaplygin::<ParallelPointsV>());
    assert!(ParallelPointsV::EQUATIONS.contains("ddot("));
    report("Benenti 9.4 parallel points (nonlinear)", rhs, path);
}

#[test]
fn talamucci_3_1_pendulum_skate_general_form() {
    let (mut v, mut g) = (PendulumSkateV::default(), PendulumSkateG::default());
    (v.c_phi, v.c_th1) = (0.1, 0.05);
    (g.c_phi, g.c_th1) = (0.1, 0.05);
    // State [x_c, y_c, phi, theta, theta1, dot(x_c), dot(y_c), dot(theta), dot(theta1)].
    let rhs = compare_rhs(&v, &g, 5, N, |_| true);
    let path = compare_paths(&v, &g, &[0.0, 0.0, 0.2, 0.1, -0.2, 1.0, 0.1, 0.0, 0.3], 2.0);
    assert!(!is_chaplygin::<PendulumSkateV>());
    assert!(PendulumSkateV::EQUATIONS.contains("dependent q_(m+nu), nu = 1..1: (phi)"));
    report("Talamucci 3.1 pendulum skate (dot(phi))", rhs, path);
}

#[test]
fn talamucci_3_1_pendulum_skate_chaplygin_form() {
    let (mut v, mut g) = (PendulumSkateYV::default(), PendulumSkateYG::default());
    (v.c_phi, v.c_th1) = (0.1, 0.05);
    (g.c_phi, g.c_th1) = (0.1, 0.05);
    // State [x_c, y_c, phi, theta, theta1, dot(x_c), dot(phi), dot(theta), dot(theta1)].
    let rhs = compare_rhs(&v, &g, 6, N, |_| true);
    let path = compare_paths(&v, &g, &[0.0, 0.0, 0.2, 0.1, -0.2, 1.0, 0.3, 0.0, 0.3], 2.0);
    assert!(is_chaplygin::<PendulumSkateYV>());
    report("Talamucci 3.1 pendulum skate (dot(y_c))", rhs, path);
}

#[test]
fn talamucci_3_2_assigned_front_rheonomic() {
    let (mut v, mut g) = (AssignedFrontV::default(), AssignedFrontG::default());
    (v.c_th, v.c_th1) = (0.1, 0.05);
    (g.c_th, g.c_th1) = (0.1, 0.05);
    let rhs = compare_rhs(&v, &g, 7, N, |_| true);
    let path = compare_paths(&v, &g, &[0.1, 0.05, -0.1, 0.2, 0.1], 2.0);
    assert!(!is_chaplygin::<AssignedFrontV>());
    report("Talamucci 3.2 assigned front (rheonomic)", rhs, path);
}

#[test]
fn talamucci_3_3_rolling_disk_pendulum() {
    let (mut v, mut g) = (RollingDiskV::default(), RollingDiskG::default());
    (v.c_phi, v.c_th1, v.tau) = (0.1, 0.05, 0.3);
    (g.c_phi, g.c_th1, g.tau) = (0.1, 0.05, 0.3);
    let rhs = compare_rhs(&v, &g, 8, N, |_| true);
    let path = compare_paths(
        &v,
        &g,
        &[0.0, 0.0, 0.2, 0.0, 0.15, -0.1, 0.3, 4.0, 0.1, 0.2],
        2.0,
    );
    assert!(is_chaplygin::<RollingDiskV>());
    report("Talamucci 3.3 rolling disk + pendulum", rhs, path);
}

#[test]
fn talamucci_3_4_assigned_spin_rheonomic() {
    let (mut v, mut g) = (AssignedSpinV::default(), AssignedSpinG::default());
    (v.c_phi, v.c_th1) = (0.1, 0.05);
    (g.c_phi, g.c_th1) = (0.1, 0.05);
    let rhs = compare_rhs(&v, &g, 9, N, |_| true);
    let path = compare_paths(&v, &g, &[0.0, 0.0, 0.2, 0.15, -0.1, 0.3, 0.1, 0.2], 2.0);
    assert!(is_chaplygin::<AssignedSpinV>());
    report("Talamucci 3.4 assigned spin (rheonomic)", rhs, path);
}

#[test]
fn driven_skate_rheonomic_coefficients() {
    let (v, g) = (DrivenSkateV::default(), DrivenSkateG::default());
    let rhs = compare_rhs(&v, &g, 10, N, |_| true);
    let path = compare_paths(&v, &g, &[0.3, -0.2, 0.7], 2.0);
    // V contains the dependent y: the general form.
    assert!(!is_chaplygin::<DrivenSkateV>());
    report("driven skate (d2alpha/d dot(x) dt != 0)", rhs, path);
}

#[test]
fn nonlinear_rheonomic_general_form() {
    let (v, g) = (
        NonlinearRheonomicV::default(),
        NonlinearRheonomicG::default(),
    );
    let rhs = compare_rhs(&v, &g, 12, N, |_| true);
    let path = compare_paths(&v, &g, &[0.1, -0.2, 0.3, 0.6, -0.4], 2.0);
    assert!(!is_chaplygin::<NonlinearRheonomicV>());
    assert!(NonlinearRheonomicV::EQUATIONS.contains("ddot("));
    report("nonlinear rheonomic (every term of (21))", rhs, path);
}

#[test]
fn equations_text_is_in_the_papers_notation() {
    let e = SkateV::EQUATIONS;
    println!("{e}");
    for needle in [
        "Voronec",
        "(19) L*",
        "(20)",
        "(21) B_i^nu",
        "dot(y) = ",
        "G dz/dt",
    ] {
        assert!(e.contains(needle), "missing {needle:?} in\n{e}");
    }
    println!("{}", NonlinearRheonomicV::EQUATIONS);
}

/// The derived equations of two of the papers' systems read as Voronec's (printed with
/// `--nocapture`).
#[test]
fn the_papers_systems_print_their_voronec_equations() {
    for e in [PendulumSkateV::EQUATIONS, AssignedFrontV::EQUATIONS] {
        assert!(e.contains("G dz/dt") && e.contains("(21) B_i^nu"), "{e}");
        println!("{e}");
    }
}
