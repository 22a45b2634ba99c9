//! Self-check of the independent oracle (tests/common/oracle.rs) and of the transcribed
//! worked examples (tests/common/papers.rs). Run with `-- --nocapture` to see the measured
//! agreement numbers.

mod common;
use common::oracle::*;
use common::papers::*;
use common::rng::SplitMix64;

const N_STATES: usize = 50;
const N_PARAMS: usize = 3;

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |m, x| m.max(x.abs()))
}

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
fn check_speeds<S: QuasiVelocities>(
    name: &str,
    sys: &S,
    rng: &mut SplitMix64,
    angles: &[(usize, f64)],
) {
    let mut e = 0.0f64;
    for _ in 0..N_STATES {
        let (t, q, z) = random_state(sys, rng, angles);
        let qd = psi_f64(sys, t, &q, &z);
        e = e.max(rel_err(&sys.eta(t, &q, &qd), &z));
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

// ---------------------------------------------------------------------------------
// Benenti 2007
// ---------------------------------------------------------------------------------

#[test]
fn benenti_9_1_skate() {
    let mut rng = SplitMix64::new(91);
    let ang = [(2, 3.2)];
    for _ in 0..N_PARAMS {
        let s = Skate::new(&mut rng);
        assert_stats(
            "9.1 skate (first method)",
            check_states(&s, &mut rng, &ang, |s, t, x| s.printed_rhs(t, x)),
        );
        check_speeds("9.1", &s, &mut rng, &ang);
        let mut e = 0.0f64;
        for _ in 0..N_STATES {
            let (t, q, z) = random_state(&s, &mut rng, &ang);
            let qd = psi_f64(&s, t, &q, &z);
            let (qdd, _) = qdd_multipliers(&s, t, &q, &qd);
            e = e.max(rel_err(&s.printed_second_method(t, &q, &qd), &qdd));
            assert!(
                (s.kinetic_energy_closed_form(t, &q, &qd) - lagrangian_f64(&s, t, &q, &qd)).abs()
                    < 1e-13
            );
        }
        println!("9.1 skate second method (D^i) vs oracle: {e:.1e}");
        assert!(e < 1e-10);
        check_energy("9.1 skate", &s, &mut rng, &ang);
        let mut free = s;
        free.alpha = 0.0;
        free.c = 0.0;
        check_energy("9.1 skate, no forces", &free, &mut rng, &ang);
    }
}

#[test]
fn benenti_9_2_rolling_disk() {
    let mut rng = SplitMix64::new(92);
    let ang = [(3, 3.2)];
    for _ in 0..N_PARAMS {
        let s = RollingDisk::new(&mut rng);
        assert_stats(
            "9.2 disk (9.5)",
            check_states(&s, &mut rng, &ang, |s, t, x| s.printed_rhs(t, x)),
        );
        check_speeds("9.2", &s, &mut rng, &ang);
        let mut e = 0.0f64;
        for _ in 0..N_STATES {
            let (t, q, z) = random_state(&s, &mut rng, &ang);
            let qd = psi_f64(&s, t, &q, &z);
            let (qdd, _) = qdd_multipliers(&s, t, &q, &qd);
            e = e.max(rel_err(&s.printed_second_method(t, &q, &qd), &qdd));
            assert!(
                (s.kinetic_energy_closed_form(t, &q, &qd) - lagrangian_f64(&s, t, &q, &qd)).abs()
                    < 1e-13
            );
        }
        println!("9.2 disk second method (9.6) vs oracle: {e:.1e}");
        assert!(e < 1e-10);
        check_energy("9.2 disk", &s, &mut rng, &ang);
        let mut free = s;
        free.alpha = 0.0;
        free.c = 0.0;
        free.kspring = 0.0;
        check_energy("9.2 disk, no forces", &free, &mut rng, &ang);
    }
}

#[test]
fn benenti_9_3_coaxial_disks() {
    let mut rng = SplitMix64::new(93);
    let ang = [(4, 3.2)];
    for _ in 0..N_PARAMS {
        let s = CoaxialDisks::new(&mut rng);
        assert_stats(
            "9.3 coaxial disks (corrected)",
            check_states(&s, &mut rng, &ang, |s, t, x| s.printed_rhs(t, x)),
        );
        let v = printed_error(&s, &mut rng, &ang, |s, t, x| {
            s.printed_rhs_mode(t, x, Print::Verbatim)
        });
        println!("9.3 coaxial disks, printed verbatim (no G^-1) vs oracle: {v:.1e}");
        assert!(v > 1e-3, "the verbatim 9.3 equations should be wrong");
        check_speeds("9.3", &s, &mut rng, &ang);
        let (mut eg, mut eg_v, mut e_gg) = (0.0f64, 0.0f64, 0.0f64);
        for _ in 0..N_STATES {
            let (t, q, z) = random_state(&s, &mut rng, &ang);
            let qd = psi_f64(&s, t, &q, &z);
            let a = mass_matrix(&s, t, &q, &qd);
            eg = eg.max(rel_err_mat(&s.printed_mass_matrix(&q, false), &a));
            eg_v = eg_v.max(rel_err_mat(&s.printed_mass_matrix(&q, true), &a));
            let pz = psi_z(&s, t, &q, &z);
            let g = matmul(&transpose(&pz), &matmul(&a, &pz));
            e_gg = e_gg.max(rel_err_mat(&s.printed_g(false), &g));
            assert!(rel_err_mat(&s.printed_g(true), &g) > 1e-3);
            assert!(
                (s.kinetic_energy_closed_form(t, &q, &qd) - lagrangian_f64(&s, t, &q, &qd)).abs()
                    < 1e-12
            );
        }
        println!("9.3 g_ij (g_15 = m a cos psi) vs AD {eg:.1e}; printed g_15 = m a/2 cos psi: {eg_v:.1e}; derived G vs AD {e_gg:.1e}");
        assert!(eg < 1e-13 && eg_v > 1e-3 && e_gg < 1e-13);
        check_energy("9.3 coaxial disks", &s, &mut rng, &ang);
        let mut free = s;
        free.alpha = 0.0;
        free.c = 0.0;
        check_energy("9.3 coaxial disks, no forces", &free, &mut rng, &ang);
    }
}

#[test]
fn benenti_9_4_parallel_points() {
    let mut rng = SplitMix64::new(94);
    let ang = [(6, 3.2)];
    for _ in 0..N_PARAMS {
        let s = ParallelPoints::new(&mut rng);
        assert_stats(
            "9.4 parallel points (9.17)",
            check_states(&s, &mut rng, &[], |s, t, x| s.printed_rhs(t, x)),
        );
        assert_stats(
            "9.4 parallel points (9.18)",
            check_states(&s, &mut rng, &[], |s, t, x| s.printed_rhs_918(t, x)),
        );
        let (mut e, mut ei, mut es) = (0.0f64, 0.0f64, 0.0f64);
        for _ in 0..N_STATES {
            let (t, q, z) = random_state(&s, &mut rng, &[]);
            let qd = psi_f64(&s, t, &q, &z);
            let (qdd, _) = qdd_multipliers(&s, t, &q, &qd);
            e = e.max(rel_err(&s.printed_second_method(t, &q, &qd), &qdd));
            ei = ei.max(rel_err(&s.printed_second_method_inclined(&q, &qd), &qdd));
            let zz = s.speeds(t, &q, &qd);
            es = es.max(rel_err(&psi_f64(&s, t, &q, &zz), &qd));
            assert!(
                (s.kinetic_energy_closed_form(t, &q, &qd) - lagrangian_f64(&s, t, &q, &qd)).abs()
                    < 1e-13
            );
        }
        println!("9.4 second method D^i (8.12) vs oracle: {e:.1e}; inclined-plane D^i: {ei:.1e}");
        assert!(e < 1e-10 && ei < 1e-10 && es < 1e-13);
        let _ = ang;
        check_energy("9.4 parallel points", &s, &mut rng, &[]);
    }
}

// ---------------------------------------------------------------------------------
// Talamucci 2015
// ---------------------------------------------------------------------------------

/// The projected residual of printed equations `(m, rest)` at etadot vs the oracle's.
fn eq_residual(m: &[Vec<f64>], rest: &[f64], etad: &[f64]) -> Vec<f64> {
    matvec(m, etad)
        .iter()
        .zip(rest)
        .map(|(a, b)| a + b)
        .collect()
}

/// (17) literal / complete vs the printed Eq17 / Corrected equations and vs the oracle.
fn check_hamel<
    S: QuasiVelocities,
    F: Fn(&S, f64, &[f64], &[f64], Print) -> Option<(Vec<Vec<f64>>, Vec<f64>)>,
>(
    name: &str,
    sys: &S,
    rng: &mut SplitMix64,
    angles: &[(usize, f64)],
    printed: F,
) {
    let (mut e_complete, mut e_lit_vs_eq17, mut gap, mut e_corr) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for _ in 0..N_STATES {
        let (t, q, z) = random_state(sys, rng, angles);
        let zd = rng.uniform_vec(sys.nz(), -1.0, 1.0);
        let truth = projected_residual(sys, t, &q, &z, &zd);
        let complete = hamel_residual(sys, t, &q, &z, &zd, true);
        let literal = hamel_residual(sys, t, &q, &z, &zd, false);
        e_complete = e_complete.max(rel_err(&complete, &truth));
        gap = gap.max(rel_err(&literal, &truth));
        if let Some((m, r)) = printed(sys, t, &q, &z, Print::Eq17) {
            e_lit_vs_eq17 = e_lit_vs_eq17.max(rel_err(&eq_residual(&m, &r, &zd), &literal));
        }
        if let Some((m, r)) = printed(sys, t, &q, &z, Print::Corrected) {
            e_corr = e_corr.max(rel_err(&eq_residual(&m, &r, &zd), &truth));
        }
    }
    println!(
        "{name:34} (17)+missing term vs Lagrange {e_complete:.1e}; literal (17) vs Lagrange {gap:.1e}; printed(misprints fixed) vs literal (17) {e_lit_vs_eq17:.1e}; corrected print vs Lagrange {e_corr:.1e}"
    );
    assert!(e_complete < 1e-10 && e_lit_vs_eq17 < 1e-10 && e_corr < 1e-10);
}

#[test]
fn talamucci_3_1_pendulum_on_skate() {
    let mut rng = SplitMix64::new(31);
    let ang = [(2, 3.2), (3, 0.8), (4, 0.8)];
    for _ in 0..N_PARAMS {
        let s = PendulumSkate::new(&mut rng);
        assert_stats(
            "3.1 pendulum on skate (corrected)",
            check_states(&s, &mut rng, &ang, |s, t, x| s.printed_rhs(t, x)),
        );
        let v = printed_error(&s, &mut rng, &ang, |s, t, x| {
            s.printed_rhs_mode(t, x, Print::Verbatim)
        });
        let e17 = printed_error(&s, &mut rng, &ang, |s, t, x| {
            s.printed_rhs_mode(t, x, Print::Eq17)
        });
        println!("3.1 verbatim vs oracle {v:.1e}; misprints fixed (= (17)) vs oracle {e17:.1e}");
        assert!(v > 1e-3 && e17 > 1e-3);
        check_speeds("3.1", &s, &mut rng, &ang);
        check_hamel("3.1", &s, &mut rng, &ang, |s, _t, q, z, mode| {
            Some(s.printed_equations(q, z, mode))
        });
        for _ in 0..N_STATES {
            let (t, q, z) = random_state(&s, &mut rng, &ang);
            let qd = psi_f64(&s, t, &q, &z);
            let a = mass_matrix(&s, t, &q, &qd);
            assert!(rel_err_mat(&s.printed_a(&q), &a) < 1e-13, "A (29)");
            let zero = vec![0.0; 5];
            assert!(
                (lagrangian_f64(&s, t, &q, &zero) - s.printed_u(&q)).abs() < 1e-12,
                "U"
            );
            assert!(
                (s.kinetic_energy_closed_form(t, &q, &qd) + s.printed_u(&q)
                    - lagrangian_f64(&s, t, &q, &qd))
                .abs()
                    < 1e-11
            );
            let gam = s.printed_gamma(&q);
            assert!(rel_err_mat(&psi_z(&s, t, &q, &z), &gam) < 1e-14);
            let zg = matmul(&s.printed_z(&q), &gam);
            let id: Vec<Vec<f64>> = (0..4)
                .map(|i| (0..4).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
                .collect();
            assert!(rel_err_mat(&zg, &id) < 1e-14, "Z Gamma = I");
            assert!(
                max_abs(&matvec(&transpose(&gam), &s.printed_alpha(&q))) < 1e-14,
                "alpha Gamma = 0 (with rho)"
            );
            let ag = matmul(&transpose(&gam), &matmul(&a, &gam));
            assert!(rel_err_mat(&s.printed_a_gamma(&q), &ag) < 1e-13, "A_Gamma");
            assert!(
                (s.geometric_constraint(&q, &qd)).abs() < 1e-13,
                "(30) from geometry"
            );
            let qd_free = rng.uniform_vec(5, -1.0, 1.0);
            assert!(
                (s.geometric_constraint(&q, &qd_free) - constraints_f64(&s, t, &q, &qd_free)[0])
                    .abs()
                    < 1e-13
            );
        }
        check_energy("3.1 pendulum on skate", &s, &mut rng, &ang);
        let mut free = s;
        free.c_phi = 0.0;
        free.c_th1 = 0.0;
        check_energy("3.1 pendulum on skate, no damping", &free, &mut rng, &ang);
    }
}

#[test]
fn talamucci_3_2_assigned_front() {
    let mut rng = SplitMix64::new(32);
    let ang = [(0, 3.2), (1, 0.8), (2, 0.8)];
    for _ in 0..N_PARAMS {
        let s = AssignedFront::new(&mut rng);
        assert_stats(
            "3.2 assigned front (corrected)",
            check_states(&s, &mut rng, &ang, |s, t, x| s.printed_rhs(t, x)),
        );
        let v = printed_error(&s, &mut rng, &ang, |s, t, x| {
            s.printed_rhs_mode(t, x, Print::Verbatim)
        });
        println!("3.2 verbatim vs oracle {v:.1e}");
        assert!(v > 1e-3);
        check_speeds("3.2", &s, &mut rng, &ang);
        check_hamel("3.2", &s, &mut rng, &ang, |s, t, q, z, mode| {
            Some(s.printed_equations(t, q, z, mode))
        });
        for _ in 0..N_STATES {
            let (t, q, z) = random_state(&s, &mut rng, &ang);
            let qd = psi_f64(&s, t, &q, &z);
            let a = mass_matrix(&s, t, &q, &qd);
            let (pa, pb, pc) = s.printed_abc(t, &q, false);
            assert!(rel_err_mat(&pa, &a) < 1e-13, "A");
            let (pav, pbv, _) = s.printed_abc(t, &q, true);
            assert!(
                rel_err_mat(&pav, &a) > 1e-6 || (q[1] - q[2]).abs() < 1e-3,
                "printed A_21 should differ"
            );
            let zero = vec![0.0; 3];
            let b = momenta(&s, t, &q, &zero);
            assert!(rel_err(&pb, &b) < 1e-13, "b");
            assert!(
                rel_err(&pbv, &b) > 1e-6 || s.beta(t, q[0]).abs() < 1e-3,
                "printed b_1 should differ"
            );
            let u = s.base.printed_u(&[0.0, 0.0, q[0], q[1], q[2]]);
            assert!(
                (lagrangian_f64(&s, t, &q, &zero) - u - pc).abs() < 1e-11,
                "c"
            );
            assert!(
                (s.kinetic_energy_closed_form(t, &q, &qd) + u - lagrangian_f64(&s, t, &q, &qd))
                    .abs()
                    < 1e-11
            );
            let gam = psi_z(&s, t, &q, &z);
            let ag = matmul(&transpose(&gam), &matmul(&a, &gam));
            assert!(rel_err_mat(&s.printed_a_gamma(&q), &ag) < 1e-13, "A_Gamma");
            assert!(s.geometric_constraint(t, &q, &qd).abs() < 1e-13);
            let qd_free = rng.uniform_vec(3, -1.0, 1.0);
            assert!(
                (s.geometric_constraint(t, &q, &qd_free) - constraints_f64(&s, t, &q, &qd_free)[0])
                    .abs()
                    < 1e-13
            );
        }
        check_energy("3.2 assigned front (rheonomic)", &s, &mut rng, &ang);
    }
}

#[test]
fn talamucci_3_3_rolling_disk_pendulum() {
    let mut rng = SplitMix64::new(33);
    let ang = [(2, 3.2), (3, 3.2), (4, 0.8), (5, 0.8)];
    for _ in 0..N_PARAMS {
        let s = RollingDiskPendulum::new(&mut rng);
        assert_stats(
            "3.3 rolling disk (corrected)",
            check_states(&s, &mut rng, &ang, |s, t, x| s.printed_rhs(t, x)),
        );
        assert_stats(
            "3.3 rolling disk (hand derivation)",
            check_states(&s, &mut rng, &ang, |s, t, x| s.derived_rhs(t, x)),
        );
        let v = printed_error(&s, &mut rng, &ang, |s, t, x| {
            s.printed_rhs_mode(t, x, Print::Verbatim)
        });
        let e17 = printed_error(&s, &mut rng, &ang, |s, t, x| {
            s.printed_rhs_mode(t, x, Print::Eq17)
        });
        println!("3.3 verbatim vs oracle {v:.1e}; misprints fixed (= (17)) vs oracle {e17:.1e}");
        assert!(v > 1e-3 && e17 > 1e-3);
        check_speeds("3.3", &s, &mut rng, &ang);
        check_hamel("3.3", &s, &mut rng, &ang, |s, _t, q, z, mode| {
            Some(s.printed_equations(q, z, mode))
        });
        for _ in 0..N_STATES {
            let (t, q, z) = random_state(&s, &mut rng, &ang);
            assert!(s.delta(q[4], q[5]) > 0.0, "delta > 0");
            let qd = psi_f64(&s, t, &q, &z);
            let a = mass_matrix(&s, t, &q, &qd);
            assert!(rel_err_mat(&s.printed_a(&q, false), &a) < 1e-13, "A");
            assert!(
                rel_err_mat(&s.printed_a(&q, true), &a) > 1e-6,
                "printed A_26 sign"
            );
            let zero = vec![0.0; 6];
            assert!(
                (lagrangian_f64(&s, t, &q, &zero) - s.printed_u(&q)).abs() < 1e-12,
                "U"
            );
            assert!(
                (s.kinetic_energy_closed_form(t, &q, &qd) + s.printed_u(&q)
                    - lagrangian_f64(&s, t, &q, &qd))
                .abs()
                    < 1e-11
            );
            let gam = s.printed_gamma(&q);
            assert!(rel_err_mat(&psi_z(&s, t, &q, &z), &gam) < 1e-12, "Gamma");
            let ag = matmul(&transpose(&gam), &matmul(&a, &gam));
            assert!(
                rel_err_mat(&s.printed_a_gamma(&q, false), &ag) < 1e-12,
                "A_Gamma"
            );
            assert!(
                rel_err_mat(&s.printed_a_gamma(&q, true), &ag) > 1e-6,
                "A_Gamma(4,4)"
            );
            // rolling from geometry: the disk's material contact point has zero velocity
            assert!(
                max_abs(&s.contact_velocity(t, &q, &qd)) < 1e-13,
                "contact velocity"
            );
            let qd_free = rng.uniform_vec(6, -1.0, 1.0);
            let vc = s.contact_velocity(t, &q, &qd_free);
            let c = constraints_f64(&s, t, &q, &qd_free);
            assert!(
                (vc[0] - c[0]).abs() < 1e-13 && (vc[1] - c[1]).abs() < 1e-13 && vc[2].abs() < 1e-13
            );
            // printed eta1, eta2 formulas
            let f1 = s.f1h(q[4], q[5]);
            let f2 = s.f2h(q[4], q[5]);
            let i_d = s.hats().i_d;
            let eta1 = f2 * qd_free[2]
                - i_d * qd_free[3] * q[4].sin()
                - f1 * (qd_free[0] * q[2].cos() + qd_free[1] * q[2].sin());
            let eta2 = i_d * qd_free[3] - i_d * qd_free[2] * q[4].sin();
            let e = s.speeds(t, &q, &qd_free);
            assert!(
                (e[0] - eta1).abs() < 1e-12 && (e[1] - eta2).abs() < 1e-12,
                "eta1, eta2"
            );
        }
        check_energy("3.3 rolling disk", &s, &mut rng, &ang);
        let mut free = s;
        free.c_phi = 0.0;
        free.c_th1 = 0.0;
        free.tau = 0.0;
        check_energy("3.3 rolling disk, no forces", &free, &mut rng, &ang);
    }
}

#[test]
fn talamucci_3_4_assigned_spin() {
    let mut rng = SplitMix64::new(34);
    let ang = [(2, 3.2), (3, 0.8), (4, 0.8)];
    for _ in 0..N_PARAMS {
        let s = AssignedSpin::new(&mut rng);
        assert_stats(
            "3.4 assigned spin (derived)",
            check_states(&s, &mut rng, &ang, |s, t, x| s.printed_rhs(t, x)),
        );
        let v = printed_error(&s, &mut rng, &ang, |s, t, x| {
            s.printed_rhs_mode(t, x, Print::Verbatim)
        });
        println!("3.4 verbatim vs oracle {v:.1e}");
        assert!(v > 1e-3);
        check_speeds("3.4", &s, &mut rng, &ang);
        check_hamel("3.4", &s, &mut rng, &ang, |s, t, q, z, mode| {
            if mode == Print::Corrected {
                Some(s.derived_equations(t, q, z))
            } else {
                None
            }
        });
        for _ in 0..N_STATES {
            let (t, q, z) = random_state(&s, &mut rng, &ang);
            let qd = psi_f64(&s, t, &q, &z);
            let a = mass_matrix(&s, t, &q, &qd);
            let (pa, pb, pc) = s.printed_abc(t, &q, false);
            assert!(rel_err_mat(&pa, &a) < 1e-13, "A");
            let zero = vec![0.0; 5];
            let b = momenta(&s, t, &q, &zero);
            assert!(rel_err(&pb, &b) < 1e-13, "b");
            let (_, pbv, _) = s.printed_abc(t, &q, true);
            assert!(rel_err(&pbv, &b) > 1e-6, "printed b lacks phi1dot");
            let q6 = [q[0], q[1], q[2], 0.0, q[3], q[4]];
            let u = s.base.printed_u(&q6);
            assert!(
                (lagrangian_f64(&s, t, &q, &zero) - u - pc).abs() < 1e-11,
                "c"
            );
            assert!(
                (s.kinetic_energy_closed_form(t, &q, &qd) + u - lagrangian_f64(&s, t, &q, &qd))
                    .abs()
                    < 1e-11
            );
            let gam = s.printed_gamma(&q);
            assert!(rel_err_mat(&psi_z(&s, t, &q, &z), &gam) < 1e-13, "Gamma");
            // qd = Gamma (eta - psi_eta) - Theta beta with psi_eta = (-I_D phi1d sin th, 0, 0)
            // (the paper says psi = 0)
            let th = s.printed_theta(&q);
            let beta = s.printed_beta(t, &q);
            let p1d = s.phi1_dot(t);
            let psi_eta = [-s.base.hats().i_d * p1d * q[3].sin(), 0.0, 0.0];
            let ez: Vec<f64> = z.iter().zip(&psi_eta).map(|(a, b)| a - b).collect();
            let rebuilt: Vec<f64> = matvec(&gam, &ez)
                .iter()
                .zip(matvec(&th, &beta))
                .map(|(a, b)| a - b)
                .collect();
            assert!(rel_err(&rebuilt, &qd) < 1e-13, "(13)");
            let wrong: Vec<f64> = matvec(&gam, &z)
                .iter()
                .zip(matvec(&th, &beta))
                .map(|(a, b)| a - b)
                .collect();
            assert!(rel_err(&wrong, &qd) > 1e-6, "psi = 0 would be wrong");
            let ag = matmul(&transpose(&gam), &matmul(&a, &gam));
            assert!(rel_err_mat(&s.printed_a_gamma(&q), &ag) < 1e-13, "A_Gamma");
            let agt = matmul(&transpose(&gam), &matmul(&a, &th));
            assert!(
                rel_err_mat(&s.printed_a_gamma_theta(&q), &agt) < 1e-13,
                "A_Gamma,Theta"
            );
            let at = matmul(&transpose(&th), &matmul(&a, &th));
            assert!(rel_err_mat(&s.printed_a_theta(&q), &at) < 1e-13, "A_Theta");
            assert!(
                max_abs(&s.contact_velocity(t, &q, &qd)) < 1e-13,
                "rolling from geometry"
            );
        }
        check_energy("3.4 assigned spin (rheonomic)", &s, &mut rng, &ang);
    }
}
