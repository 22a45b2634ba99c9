//! Self-check of the independent oracle (tests/suite/common/oracle/) and of the transcribed
//! worked examples (tests/suite/common/systems/): the oracle on systems with known answers, then
//! one generic check run over the table of paper systems, each supplying its printed
//! equations and paper-specific checks through `PaperSystem`. Run with `-- --nocapture` to
//! see the measured agreement numbers.

use crate::common;
use common::oracle::known::*;
use common::oracle::*;
use common::rng::SplitMix64;
use common::systems::*;

const N_STATES: usize = 50;
const N_PARAMS: usize = 3;

// ---------------------------------------------------------------------------------
// The oracle on systems with known answers
// ---------------------------------------------------------------------------------

#[test]
fn splitmix_reference_values() {
    let mut r = SplitMix64::new(1234567);
    assert_eq!(r.next_u64(), 6457827717110365317);
    assert_eq!(r.next_u64(), 3203168211198807973);
    assert_eq!(r.next_u64(), 9817491932198370423);
    let mut r = SplitMix64::new(9);
    for _ in 0..1000 {
        let x = r.uniform(-2.0, 3.0);
        assert!((-2.0..3.0).contains(&x));
    }
}

#[test]
fn oracle_polar_particle() {
    let sys = PolarParticle { m: 1.7 };
    let mut rng = SplitMix64::new(1);
    for _ in 0..N_STATES {
        let q = [rng.uniform(0.5, 2.0), rng.uniform(-3.0, 3.0)];
        let qd = [rng.uniform(-2.0, 2.0), rng.uniform(-2.0, 2.0)];
        let (qdd, lam) = qdd_multipliers(&sys, 0.0, &q, &qd);
        assert!(lam.is_empty());
        let want = [q[0] * qd[1] * qd[1], -2.0 * qd[0] * qd[1] / q[0]];
        assert!(rel_err(&qdd, &want) < 1e-13, "{qdd:?} {want:?}");
        assert!(rel_err(&zdot_core(&sys, 0.0, &q, &qd), &want) < 1e-13);
        // energy = kinetic energy here
        let e = 0.5 * sys.m * (qd[0] * qd[0] + q[0] * q[0] * qd[1] * qd[1]);
        assert!((energy(&sys, 0.0, &q, &qd) - e).abs() < 1e-13);
    }
}

#[test]
fn oracle_cartesian_pendulum() {
    let sys = CartesianPendulum { m: 0.8, g: 9.81 };
    let mut rng = SplitMix64::new(2);
    for _ in 0..N_STATES {
        let l = rng.uniform(0.5, 2.0);
        let phi = rng.uniform(-3.0, 3.0);
        let w = rng.uniform(-2.0, 2.0);
        let q = [l * phi.sin(), -l * phi.cos()];
        let qd = psi_f64(&sys, 0.0, &q, &[w]);
        let phidd = -sys.g / l * phi.sin();
        let want = [-q[1] * phidd - q[0] * w * w, q[0] * phidd - q[1] * w * w];
        let (qdd, lam) = qdd_multipliers(&sys, 0.0, &q, &qd);
        assert!(rel_err(&qdd, &want) < 1e-12, "{qdd:?} {want:?}");
        // tension: R = C_qd^T lambda = lambda (x, y); radial balance m (g cos phi + l w^2) = tension
        let tension = sys.m * (sys.g * phi.cos() + l * w * w);
        let r = reactions(&sys, 0.0, &q, &qd);
        assert!((r[0].hypot(r[1]) - tension.abs()).abs() < 1e-10 * (1.0 + tension.abs()));
        assert!(
            lam[0] * tension <= 0.0 || tension.abs() < 1e-9,
            "tension points inwards"
        );
        let zd = zdot_core(&sys, 0.0, &q, &[w]);
        assert!((zd[0] - phidd).abs() < 1e-12 * (1.0 + phidd.abs()));
    }
}

#[test]
fn oracle_free_skate_circle() {
    // z constant, circle of radius z1/z2: xdd = -z1 z2 sin th, ydd = z1 z2 cos th.
    let sys = FreeSkate {
        m: 1.3,
        inertia: 0.2,
    };
    let mut rng = SplitMix64::new(3);
    for _ in 0..N_STATES {
        let q = [
            rng.uniform(-2.0, 2.0),
            rng.uniform(-2.0, 2.0),
            rng.uniform(-3.0, 3.0),
        ];
        let z = [rng.uniform(-2.0, 2.0), rng.uniform(-2.0, 2.0)];
        let qd = psi_f64(&sys, 0.0, &q, &z);
        let (qdd, _) = qdd_multipliers(&sys, 0.0, &q, &qd);
        let want = [-z[0] * z[1] * q[2].sin(), z[0] * z[1] * q[2].cos(), 0.0];
        assert!(rel_err(&qdd, &want) < 1e-13);
        assert!(max_abs(&zdot_core(&sys, 0.0, &q, &z)) < 1e-13);
    }
    // integrate with RK4 and compare with the closed-form circle
    let (z1, z2, th0) = (1.1, 0.7, 0.3);
    let mut y = vec![0.0, 0.0, th0, z1, z2];
    let h = 0.01;
    let f = |t: f64, y: &[f64]| rhs_speeds(&sys, t, y);
    for i in 0..200 {
        y = rk4_step(&f, i as f64 * h, &y, h);
    }
    let t = 2.0;
    let r = z1 / z2;
    let want = [
        r * ((th0 + z2 * t).sin() - th0.sin()),
        -r * ((th0 + z2 * t).cos() - th0.cos()),
        th0 + z2 * t,
    ];
    assert!(rel_err(&y[..3], &want) < 1e-9, "{:?} {want:?}", &y[..3]);
}

#[test]
fn oracle_core_equation_needs_psi_q_psi() {
    // Benenti's (6.2)-(7.4) drop g_ik (d psi^i/d q^j) psi^j psi^k_alpha; for qd = z e^q and a free
    // particle they would give zdot = 0, the truth is zdot = -z^2 e^q (qdd = 0).
    let sys = ExpLine;
    for &(q, z) in &[(0.3, 1.2), (-0.7, -0.4), (1.1, 2.0)] {
        let qd = psi_f64(&sys, 0.0, &[q], &[z]);
        let (qdd, _) = qdd_multipliers(&sys, 0.0, &[q], &qd);
        assert!(qdd[0].abs() < 1e-14);
        let zd = zdot_core(&sys, 0.0, &[q], &[z]);
        assert!((zd[0] + z * z * q.exp()).abs() < 1e-13);
        assert!(rel_err(&zdot_from_qdd(&sys, 0.0, &[q], &[z], &qdd), &zd) < 1e-13);
    }
}

#[test]
fn oracle_solve_and_det() {
    let a = vec![
        vec![0.0, 2.0, 1.0],
        vec![1.0, -1.0, 0.5],
        vec![3.0, 0.0, -2.0],
    ];
    let x = vec![0.3, -1.2, 2.5];
    let b = matvec(&a, &x);
    assert!(rel_err(&solve(a.clone(), b), &x) < 1e-14);
    // det = 0*(2-0) - 2*(-2-1.5) + 1*(0+3) = 10
    assert!((det(a) - 10.0).abs() < 1e-13);
}

// ---------------------------------------------------------------------------------
// Generic per-system checks
// ---------------------------------------------------------------------------------

/// Random state: q uniform in [-2, 2] except the listed angles (index, half-width);
/// z uniform in [-1.5, 1.5]; t in [0, 5] for rheonomic systems.
fn random_state<S: System>(
    sys: &S,
    rng: &mut SplitMix64,
    angles: &[(usize, f64)],
) -> (f64, Vec<f64>, Vec<f64>) {
    let mut q = rng.uniform_vec(sys.nq(), -2.0, 2.0);
    for &(i, w) in angles {
        q[i] = rng.uniform(-w, w);
    }
    let z = rng.uniform_vec(sys.nz(), -1.5, 1.5);
    let t = if sys.stationary() {
        0.0
    } else {
        rng.uniform(0.0, 5.0)
    };
    (t, q, z)
}

#[derive(Debug, Default, Clone, Copy)]
struct Stats {
    constraint: f64,
    printed: f64,
    core: f64,
    psi_printed: f64,
}

/// (a) constraints at qd = psi; (b) printed rhs vs oracle (qdd_from_speeds(printed zdot) vs
/// qdd_multipliers), and the core equation vs the KKT solve.
fn check_states<S: System, F: Fn(&S, f64, &[f64]) -> Vec<f64>>(
    sys: &S,
    rng: &mut SplitMix64,
    angles: &[(usize, f64)],
    printed: F,
) -> Stats {
    let n = sys.nq();
    let mut st = Stats::default();
    for _ in 0..N_STATES {
        let (t, q, z) = random_state(sys, rng, angles);
        let qd = psi_f64(sys, t, &q, &z);
        let c = constraints_f64(sys, t, &q, &qd);
        assert_eq!(c.len(), sys.nc());
        st.constraint = st.constraint.max(max_abs(&c));
        let (qdd, _) = qdd_multipliers(sys, t, &q, &qd);
        let mut state = q.clone();
        state.extend(&z);
        let pr = printed(sys, t, &state);
        st.psi_printed = st.psi_printed.max(rel_err(&pr[..n], &qd));
        let qdd_p = qdd_from_speeds(sys, t, &q, &z, &pr[n..]);
        st.printed = st.printed.max(rel_err(&qdd_p, &qdd));
        let zc = zdot_core(sys, t, &q, &z);
        st.core = st
            .core
            .max(rel_err(&qdd_from_speeds(sys, t, &q, &z, &zc), &qdd));
        st.core = st
            .core
            .max(rel_err(&zdot_from_qdd(sys, t, &q, &z, &qdd), &zc));
    }
    st
}

fn assert_stats(name: &str, st: Stats) {
    println!(
        "{name:34} |C(q,psi)| {:.1e}  printed-vs-oracle {:.1e}  qd-printed {:.1e}  core-vs-KKT {:.1e}",
        st.constraint, st.printed, st.psi_printed, st.core
    );
    assert!(
        st.constraint < 1e-12,
        "{name}: constraint {}",
        st.constraint
    );
    assert!(
        st.printed < 1e-10,
        "{name}: printed vs oracle {}",
        st.printed
    );
    assert!(
        st.psi_printed < 1e-12,
        "{name}: printed qd {}",
        st.psi_printed
    );
    assert!(st.core < 1e-10, "{name}: core vs KKT {}", st.core);
}

/// Max over states of the printed rhs (another mode) vs the oracle, to document misprints.
fn printed_error<S: System, F: Fn(&S, f64, &[f64]) -> Vec<f64>>(
    sys: &S,
    rng: &mut SplitMix64,
    angles: &[(usize, f64)],
    printed: F,
) -> f64 {
    let n = sys.nq();
    let mut e = 0.0f64;
    for _ in 0..N_STATES {
        let (t, q, z) = random_state(sys, rng, angles);
        let qd = psi_f64(sys, t, &q, &z);
        let (qdd, _) = qdd_multipliers(sys, t, &q, &qd);
        let mut state = q.clone();
        state.extend(&z);
        let pr = printed(sys, t, &state);
        e = e.max(rel_err(&qdd_from_speeds(sys, t, &q, &z, &pr[n..]), &qdd));
    }
    e
}

/// speeds(psi(z)) == z.
fn check_speeds<S: System>(
    name: &str,
    sys: &S,
    quasi: &dyn Quasi,
    rng: &mut SplitMix64,
    angles: &[(usize, f64)],
) {
    let mut e = 0.0f64;
    for _ in 0..N_STATES {
        let (t, q, z) = random_state(sys, rng, angles);
        let qd = psi_f64(sys, t, &q, &z);
        e = e.max(rel_err(&quasi.eta_f64(t, &q, &qd), &z));
    }
    assert!(e < 1e-12, "{name}: speeds(psi(z)) != z: {e}");
}

/// Energy balance along an RK4 run of the oracle's own dynamics on [q, z, W],
/// dW/dt = (F + R) . qd - dL/dt, so that E - W is constant (for stationary systems
/// R . qd = dL/dt = 0 and E - W_F is conserved; with F = 0, E itself).
/// Returns the max relative drift of E - W.
fn energy_drift<S: System>(sys: &S, t0: f64, q: &[f64], z: &[f64], h: f64, steps: usize) -> f64 {
    let n = sys.nq();
    let m = sys.nz();
    let f = |t: f64, y: &[f64]| {
        let mut d = rhs_speeds(sys, t, &y[..n + m]);
        let qd = psi_f64(sys, t, &y[..n], &y[n..n + m]);
        d.push(energy_rate(sys, t, &y[..n], &qd));
        d
    };
    let e_of = |t: f64, y: &[f64]| {
        let qd = psi_f64(sys, t, &y[..n], &y[n..n + m]);
        energy(sys, t, &y[..n], &qd) - y[n + m]
    };
    let mut y: Vec<f64> = q.iter().chain(z.iter()).copied().collect();
    y.push(0.0);
    let e0 = e_of(t0, &y);
    let scale = {
        let qd = psi_f64(sys, t0, q, z);
        let a = mass_matrix(sys, t0, q, &qd);
        let ke: f64 = 0.5
            * qd.iter()
                .zip(matvec(&a, &qd))
                .map(|(a, b)| a * b)
                .sum::<f64>();
        1.0 + ke.abs() + e0.abs()
    };
    let mut drift = 0.0f64;
    for i in 0..steps {
        let t = t0 + i as f64 * h;
        y = rk4_step(&f, t, &y, h);
        drift = drift.max((e_of(t + h, &y) - e0).abs() / scale);
    }
    drift
}

fn check_energy<S: System>(
    name: &str,
    sys: &S,
    rng: &mut SplitMix64,
    angles: &[(usize, f64)],
) -> f64 {
    let (t, q, z) = random_state(sys, rng, angles);
    if sys.stationary() {
        // stationary: reaction power and dL/dt vanish identically
        let qd = psi_f64(sys, t, &q, &z);
        let r = reactions(sys, t, &q, &qd);
        let p: f64 = r.iter().zip(&qd).map(|(a, b)| a * b).sum();
        assert!(
            p.abs() < 1e-10 * (1.0 + max_abs(&r) * max_abs(&qd)),
            "{name}: reaction power {p}"
        );
        assert!(dl_dt(sys, t, &q, &qd).abs() < 1e-12);
    }
    let d = energy_drift(sys, t, &q, &z, 1e-3, 200);
    println!("{name:34} energy balance drift over 0.2 s (RK4, h = 1e-3): {d:.1e}");
    assert!(d < 1e-8, "{name}: energy drift {d}");
    d
}

/// The projected residual of printed equations `(m, rest)` at etadot vs the oracle's.
fn eq_residual(m: &[Vec<f64>], rest: &[f64], etad: &[f64]) -> Vec<f64> {
    matvec(m, etad)
        .iter()
        .zip(rest)
        .map(|(a, b)| a + b)
        .collect()
}

/// (17) literal / complete vs the printed Eq17 / Corrected equations and vs the oracle.
fn check_hamel<S: PaperSystem>(sys: &S, quasi: &dyn Quasi, rng: &mut SplitMix64) {
    let (mut e_complete, mut e_lit_vs_eq17, mut gap, mut e_corr) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for _ in 0..N_STATES {
        let (t, q, z) = random_state(sys, rng, S::ANGLES);
        let zd = rng.uniform_vec(sys.nz(), -1.0, 1.0);
        let truth = projected_residual(sys, t, &q, &z, &zd);
        let complete = quasi.hamel_residual_f64(t, &q, &z, &zd, true);
        let literal = quasi.hamel_residual_f64(t, &q, &z, &zd, false);
        e_complete = e_complete.max(rel_err(&complete, &truth));
        gap = gap.max(rel_err(&literal, &truth));
        if let Some((m, r)) = sys.printed_equations(t, &q, &z, Print::Eq17) {
            e_lit_vs_eq17 = e_lit_vs_eq17.max(rel_err(&eq_residual(&m, &r, &zd), &literal));
        }
        if let Some((m, r)) = sys.printed_equations(t, &q, &z, Print::Corrected) {
            e_corr = e_corr.max(rel_err(&eq_residual(&m, &r, &zd), &truth));
        }
    }
    println!(
        "{:34} (17)+missing term vs Lagrange {e_complete:.1e}; literal (17) vs Lagrange {gap:.1e}; printed(misprints fixed) vs literal (17) {e_lit_vs_eq17:.1e}; corrected print vs Lagrange {e_corr:.1e}",
        S::NAME
    );
    assert!(e_complete < 1e-10 && e_lit_vs_eq17 < 1e-10 && e_corr < 1e-10);
}

// ---------------------------------------------------------------------------------
// The paper systems: one generic check over the table
// ---------------------------------------------------------------------------------

/// The self-check of one paper system: `N_PARAMS` random parameter sets, each through the
/// generic checks in a fixed order (which fixes the random states each check sees):
/// printed systems vs oracle, misprinted ones, speeds, Talamucci's (17), the paper's other
/// printed quantities at `N_STATES` states, the energy balance (also without forces).
fn check_paper_system<S: PaperSystem>() {
    let mut rng = SplitMix64::new(S::SEED);
    let ang = S::ANGLES;
    for _ in 0..N_PARAMS {
        let s = S::random(&mut rng);
        for (label, printed) in S::printed_systems() {
            let name = format!("{} ({label})", S::NAME);
            assert_stats(&name, check_states(&s, &mut rng, ang, printed));
        }
        for (label, printed) in S::misprinted_systems() {
            let v = printed_error(&s, &mut rng, ang, printed);
            println!("{} {label} vs oracle {v:.1e}", S::NAME);
            assert!(
                v > 1e-3,
                "{}: the {label} equations should disagree with the oracle",
                S::NAME
            );
        }
        if let Some(quasi) = s.quasi_velocities() {
            check_speeds(S::NAME, &s, quasi, &mut rng, ang);
            if S::EQ17 {
                check_hamel(&s, quasi, &mut rng);
            }
        }
        assert!(
            !S::EQ17 || s.quasi_velocities().is_some(),
            "(17) needs quasi-velocities"
        );
        let mut worst = Worst::default();
        for _ in 0..N_STATES {
            let (t, q, z) = random_state(&s, &mut rng, ang);
            s.check_printed_terms(t, &q, &z, &mut rng, &mut worst);
        }
        s.check_worst(&worst);
        let kind = if s.stationary() { "" } else { " (rheonomic)" };
        check_energy(&format!("{}{kind}", S::NAME), &s, &mut rng, ang);
        if let Some((label, free)) = s.unforced() {
            check_energy(&format!("{}, {label}", S::NAME), &free, &mut rng, ang);
        }
    }
}

/// The table: one test per paper system.
macro_rules! paper_systems {
    ($($test:ident: $system:ty),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                check_paper_system::<$system>();
            }
        )*
    };
}

paper_systems! {
    benenti_9_1_skate: Skate,
    benenti_9_2_rolling_disk: RollingDisk,
    benenti_9_3_coaxial_disks: CoaxialDisks,
    benenti_9_4_parallel_points: ParallelPoints,
    talamucci_3_1_pendulum_on_skate: PendulumSkate,
    talamucci_3_2_assigned_front: AssignedFront,
    talamucci_3_3_rolling_disk_pendulum: RollingDiskPendulum,
    talamucci_3_4_assigned_spin: AssignedSpin,
}
