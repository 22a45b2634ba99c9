extern crate std;

use super::*;
use alloc::vec;

struct ContinuousCase {
    name: &'static str,
    n: usize,
    m: usize,
    a: &'static [f64],
    b: &'static [f64],
    q: &'static [f64],
    r: &'static [f64],
    p: &'static [f64],
    k: &'static [f64],
    dt: f64,
    ad: &'static [f64],
    bd: &'static [f64],
    pd: &'static [f64],
    kd: &'static [f64],
}

struct DiscreteCase {
    name: &'static str,
    n: usize,
    m: usize,
    ad: &'static [f64],
    bd: &'static [f64],
    q: &'static [f64],
    r: &'static [f64],
    pd: &'static [f64],
    kd: &'static [f64],
}

/// SciPy's solutions, from `tests/data/control/make_reference.py`.
#[allow(clippy::excessive_precision)]
mod reference {
    use super::{ContinuousCase, DiscreteCase};
    include!("../../tests/data/control/reference.rs");
}
use reference::{CONTINUOUS, DISCRETE};

fn mat(rows: usize, cols: usize, data: &[f64]) -> DMatrix<f64> {
    DMatrix::from_row_slice(rows, cols, data)
}

/// `max |x - y| / max |y|`, absolute below `max |y| = 1e-6`: the exact `K` of the shift
/// register is 0 (SciPy's is `[0, 7e-33]`, ours `[0, 4e-18]` by the sign route); every
/// other reference `P` and `K` has entries above `1e-3`.
fn rel(x: &DMatrix<f64>, y: &DMatrix<f64>) -> f64 {
    max_abs(&(x - y)) / max_abs(y).max(1e-6)
}

const TOL: f64 = 1e-9;

#[test]
fn continuous_against_scipy() {
    for c in CONTINUOUS {
        let (a, b) = (mat(c.n, c.n, c.a), mat(c.n, c.m, c.b));
        let (q, r) = (mat(c.n, c.n, c.q), mat(c.m, c.m, c.r));
        let res = lqr(&a, &b, &q, &r).unwrap_or_else(|e| panic!("{}: {e}", c.name));
        let w = Weights::check(&a, &b, &q, &r, false).unwrap();
        let (p0, steps) = care_sign(&a, &w.g, &w.q).unwrap();
        let (_, _, newton) = refine_care(&a, &w.g, &w.q, p0);
        let ep = rel(&res.p, &mat(c.n, c.n, c.p));
        let ek = rel(&res.k, &mat(c.m, c.n, c.k));
        std::println!(
            "lqr {:32} P {ep:.1e} K {ek:.1e} residual {:.1e}; sign steps {steps}, Newton \
             steps {newton}",
            c.name,
            res.residual
        );
        assert!(ep < TOL && ek < TOL, "{}: P {ep:e} K {ek:e}", c.name);
        assert!(res.residual < 1e-12, "{}: {}", c.name, res.residual);
        assert!(res.poles.iter().all(|z| z.re < 0.0));
        assert_eq!(res.poles, eigenvalues(&(&a - &b * &res.k)).unwrap());
    }
}

#[test]
fn discretize_against_scipy() {
    for c in CONTINUOUS {
        let (a, b) = (mat(c.n, c.n, c.a), mat(c.n, c.m, c.b));
        let (ad, bd) = discretize(&a, &b, c.dt).unwrap();
        let ea = rel(&ad, &mat(c.n, c.n, c.ad));
        let eb = rel(&bd, &mat(c.n, c.m, c.bd));
        std::println!("discretize {:32} Ad {ea:.1e} Bd {eb:.1e}", c.name);
        assert!(ea < 1e-13 && eb < 1e-13, "{}: Ad {ea:e} Bd {eb:e}", c.name);
    }
}

#[test]
fn discrete_against_scipy() {
    let mut all = vec![];
    for c in CONTINUOUS {
        all.push((c.name, c.n, c.m, c.ad, c.bd, c.q, c.r, c.pd, c.kd));
    }
    for c in DISCRETE {
        all.push((c.name, c.n, c.m, c.ad, c.bd, c.q, c.r, c.pd, c.kd));
    }
    for (name, n, m, ad, bd, q, r, pd, kd) in all {
        let (ad, bd) = (mat(n, n, ad), mat(n, m, bd));
        let (q, r) = (mat(n, n, q), mat(m, m, r));
        let (pd, kd) = (mat(n, n, pd), mat(m, n, kd));
        let res = dlqr(&ad, &bd, &q, &r).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ep = rel(&res.p, &pd);
        let ek = rel(&res.k, &kd);
        assert!(ep < TOL && ek < TOL, "{name}: P {ep:e} K {ek:e}");
        assert!(res.residual < 1e-12, "{name}: {}", res.residual);
        assert!(res.poles.iter().all(|z| modulus(z) < 1.0));
        assert_eq!(res.poles, eigenvalues(&(&ad - &bd * &res.k)).unwrap());
        // each route on its own
        let w = Weights::check(&ad, &bd, &q, &r, true).unwrap();
        let doubling = dare_doubling(&ad, &w.g, &w.q).and_then(|(p, steps)| {
            let l = discrete_gain(&ad, &bd, &w, refine_dare(&ad, &bd, &w, p).0)?;
            Ok((rel(&l.p, &pd).max(rel(&l.k, &kd)), l.residual, steps))
        });
        let doubling_text = match &doubling {
            Ok((e, r, k)) => format!("{e:.1e} residual {r:.1e} steps {k}"),
            Err(_) => String::from("fails (not detectable)"),
        };
        let (p, steps) = dare_sign(&ad, &w.g, &w.q).unwrap();
        let l = discrete_gain(&ad, &bd, &w, refine_dare(&ad, &bd, &w, p).0)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let es = rel(&l.p, &pd).max(rel(&l.k, &kd));
        std::println!(
            "dlqr {name:34} P {ep:.1e} K {ek:.1e} residual {:.1e}; doubling {doubling_text}; \
             sign {es:.1e} residual {:.1e} steps {steps}",
            res.residual,
            l.residual
        );
        assert!(
            es < TOL && l.residual < 1e-12,
            "{name}: {es:e} {}",
            l.residual
        );
        if name.starts_with("unweighted") {
            // not detectable: the doubling algorithm finds the non-stabilizing solution
            assert!(doubling.is_err());
        } else {
            let (e, residual, _) = doubling.unwrap();
            assert!(e < TOL && residual < 1e-12, "{name}: {e:e} {residual:e}");
        }
    }
}

#[test]
fn unweighted_unstable_modes() {
    // x' = x + u, Q = 0: 2P - P^2 = 0; P = 2 stabilizes (pole 1 - 2 = -1), P = 0 not.
    let c = lqr(&one(1.0), &one(1.0), &one(0.0), &one(1.0)).unwrap();
    assert!((c.p[(0, 0)] - 2.0).abs() < 1e-14 && (c.poles[0].re + 1.0).abs() < 1e-14);
    // x+ = 2x + u, Q = 0: P^2 - 3P = 0; P = 3, K = 2P / (1 + P) = 1.5, pole 1/2.
    let d = dlqr(&one(2.0), &one(1.0), &one(0.0), &one(1.0)).unwrap();
    assert!((d.p[(0, 0)] - 3.0).abs() < 1e-14 && (d.k[(0, 0)] - 1.5).abs() < 1e-14);
    assert!((d.poles[0].re - 0.5).abs() < 1e-14);
}

fn one(x: f64) -> DMatrix<f64> {
    DMatrix::from_element(1, 1, x)
}

fn message(e: Error) -> String {
    match e {
        Error::InvalidOptions(m) | Error::NoStabilizingSolution(m) => m,
        e => panic!("expected InvalidOptions or NoStabilizingSolution, got {e:?}"),
    }
}

#[test]
fn unstabilizable_pairs_are_errors() {
    let i2 = DMatrix::identity(2, 2);
    let b = mat(2, 1, &[0.0, 1.0]);
    // x1' = x1 is unstable and not reachable from u.
    let a = mat(2, 2, &[1.0, 0.0, 0.0, -1.0]);
    let e = message(lqr(&a, &b, &i2, &one(1.0)).unwrap_err());
    std::println!("diag(1, -1): {e}");
    assert!(e.contains("not stabilizable"), "{e}");
    // An unreachable undamped oscillator: Hamiltonian eigenvalues +-i.
    let mut a = DMatrix::zeros(3, 3);
    a[(0, 1)] = 1.0;
    a[(1, 0)] = -1.0;
    a[(2, 2)] = -1.0;
    let b3 = mat(3, 1, &[0.0, 0.0, 1.0]);
    let e = message(lqr(&a, &b3, &DMatrix::identity(3, 3), &one(1.0)).unwrap_err());
    std::println!("oscillator: {e}");
    assert!(e.contains("stabilizable"), "{e}");
    // x' = u with Q = 0: the cost does not see x, P = 0 and K = 0 leave the pole at 0.
    let e = message(lqr(&one(0.0), &one(1.0), &one(0.0), &one(1.0)).unwrap_err());
    std::println!("integrator, Q = 0: {e}");
    assert!(e.contains("imaginary axis"), "{e}");
    // B = 0 and A unstable
    let e = message(lqr(&one(1.0), &one(0.0), &one(1.0), &one(1.0)).unwrap_err());
    std::println!("B = 0: {e}");
    // discrete: a mode at 2 and one on the unit circle, both unreachable
    let e = message(dlqr(&mat(2, 2, &[2.0, 0.0, 0.0, 0.5]), &b, &i2, &one(1.0)).unwrap_err());
    std::println!("discrete, mode at 2: {e}");
    assert!(e.contains("DARE"), "{e}");
    let e = message(dlqr(&mat(2, 2, &[1.0, 0.0, 0.0, 0.5]), &b, &i2, &one(1.0)).unwrap_err());
    std::println!("discrete, mode at 1: {e}");
    assert!(e.contains("DARE"), "{e}");
    let e = message(dlqr(&one(1.0), &one(1.0), &one(0.0), &one(1.0)).unwrap_err());
    std::println!("discrete integrator, Q = 0: {e}");
}

#[test]
fn sizes_are_checked() {
    let a = DMatrix::<f64>::zeros(2, 2);
    let b = DMatrix::<f64>::zeros(2, 1);
    let (q, r) = (DMatrix::<f64>::identity(2, 2), one(1.0));
    let dim = |what, expected, found| Error::Dimension {
        what,
        expected,
        found,
    };
    let z = DMatrix::<f64>::zeros;
    assert_eq!(lqr(&z(2, 3), &b, &q, &r), Err(dim("columns of a", 2, 3)));
    assert_eq!(lqr(&a, &z(3, 1), &q, &r), Err(dim("rows of b", 2, 3)));
    assert_eq!(lqr(&a, &b, &z(3, 2), &r), Err(dim("rows of q", 2, 3)));
    assert_eq!(lqr(&a, &b, &z(2, 1), &r), Err(dim("columns of q", 2, 1)));
    assert_eq!(lqr(&a, &b, &q, &z(2, 2)), Err(dim("rows of r", 1, 2)));
    assert_eq!(lqr(&a, &b, &q, &z(1, 2)), Err(dim("columns of r", 1, 2)));
    assert_eq!(dlqr(&z(1, 2), &b, &q, &r), Err(dim("columns of ad", 1, 2)));
    assert_eq!(dlqr(&a, &z(1, 1), &q, &r), Err(dim("rows of bd", 2, 1)));
    assert_eq!(
        discretize(&z(2, 3), &b, 0.1),
        Err(dim("columns of a", 2, 3))
    );
    assert_eq!(discretize(&a, &z(3, 1), 0.1), Err(dim("rows of b", 2, 3)));
    assert_eq!(
        format!(
            "{}",
            Error::Dimension {
                what: "rows of b",
                expected: 2,
                found: 3
            }
        ),
        "rows of b has length 3, expected 2"
    );
}

#[test]
fn weights_are_checked() {
    let a = mat(2, 2, &[0.0, 1.0, 0.0, 0.0]);
    let b = mat(2, 1, &[0.0, 1.0]);
    let q = DMatrix::identity(2, 2);
    for r in [one(0.0), one(-1.0), one(1e-300) * 0.0] {
        let e = message(lqr(&a, &b, &q, &r).unwrap_err());
        assert!(e.starts_with("R is not positive definite"), "{e}");
        let e = message(dlqr(&a, &b, &q, &r).unwrap_err());
        assert!(e.starts_with("R is not positive definite"), "{e}");
    }
    // R = [[1, 2], [2, 1]] is symmetric with eigenvalues 3 and -1
    let b2 = DMatrix::identity(2, 2);
    let e = message(lqr(&a, &b2, &q, &mat(2, 2, &[1.0, 2.0, 2.0, 1.0])).unwrap_err());
    assert!(e.starts_with("R is not positive definite"), "{e}");
    let e = message(lqr(&a, &b2, &q, &mat(2, 2, &[1.0, 0.5, 0.0, 1.0])).unwrap_err());
    assert!(e.starts_with("R is not symmetric"), "{e}");
    let e = message(lqr(&a, &b, &mat(2, 2, &[1.0, 0.0, 0.0, -1.0]), &one(1.0)).unwrap_err());
    std::println!("{e}");
    assert!(e.starts_with("Q is not positive semidefinite"), "{e}");
    let e = message(lqr(&a, &b, &mat(2, 2, &[1.0, 0.1, 0.0, 1.0]), &one(1.0)).unwrap_err());
    std::println!("{e}");
    assert!(e.starts_with("Q is not symmetric"), "{e}");
    let e = message(dlqr(&a, &b, &mat(2, 2, &[1.0, 0.1, 0.0, 1.0]), &one(1.0)).unwrap_err());
    assert!(e.starts_with("Q is not symmetric"), "{e}");
    // rounding-level asymmetry is accepted and removed
    let qa = mat(2, 2, &[1.0, 0.3, 0.3 + 1e-15, 1.0]);
    let c = lqr(&a, &b, &qa, &one(1.0)).unwrap();
    assert_eq!(c.p, c.p.transpose());
}

#[test]
fn non_finite_inputs_are_errors() {
    let a = mat(2, 2, &[0.0, 1.0, 0.0, 0.0]);
    let b = mat(2, 1, &[0.0, 1.0]);
    let (q, r) = (DMatrix::<f64>::identity(2, 2), one(1.0));
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let mut a2 = a.clone();
        a2[(1, 0)] = bad;
        let mut b2 = b.clone();
        b2[(0, 0)] = bad;
        let mut q2 = q.clone();
        q2[(1, 1)] = bad;
        let r2 = one(bad);
        let e = message(lqr(&a2, &b, &q, &r).unwrap_err());
        assert!(e.starts_with("a has the non-finite entry"), "{e}");
        assert!(e.ends_with("at (1, 0)"), "{e}");
        assert!(message(lqr(&a, &b2, &q, &r).unwrap_err()).starts_with("b has the non-finite"));
        assert!(message(lqr(&a, &b, &q2, &r).unwrap_err()).starts_with("q has the non-finite"));
        assert!(message(lqr(&a, &b, &q, &r2).unwrap_err()).starts_with("r has the non-finite"));
        assert!(message(dlqr(&a2, &b, &q, &r).unwrap_err()).starts_with("ad has the non-finite"));
        assert!(message(dlqr(&a, &b2, &q, &r).unwrap_err()).starts_with("bd has the non-finite"));
        assert!(message(discretize(&a2, &b, 0.1).unwrap_err()).starts_with("a has the non-finite"));
        assert!(message(discretize(&a, &b2, 0.1).unwrap_err()).starts_with("b has the non-finite"));
    }
}

#[test]
fn sample_time_is_checked() {
    let a = mat(2, 2, &[0.0, 1.0, 0.0, 0.0]);
    let b = mat(2, 1, &[0.0, 1.0]);
    for dt in [0.0, -0.0, -0.1, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let e = message(discretize(&a, &b, dt).unwrap_err());
        assert!(
            e.starts_with("the sample time dt must be positive and finite"),
            "{e}"
        );
    }
    // e^1000 overflows
    let e = message(discretize(&one(1000.0), &one(1.0), 1.0).unwrap_err());
    std::println!("{e}");
    assert!(e.contains("overflows"), "{e}");
    // a tiny dt is fine: Ad = I + A dt, Bd = B dt to first order
    let (ad, bd) = discretize(&a, &b, 1e-300).unwrap();
    assert_eq!(ad, mat(2, 2, &[1.0, 1e-300, 0.0, 1.0]));
    assert_eq!(bd, mat(2, 1, &[0.0, 1e-300]));
}

#[test]
fn degenerate_sizes() {
    let e = DMatrix::<f64>::zeros;
    // no state
    let c = lqr(&e(0, 0), &e(0, 1), &e(0, 0), &one(1.0)).unwrap();
    assert_eq!(
        (c.k.shape(), c.p.shape(), c.poles.len(), c.residual),
        ((1, 0), (0, 0), 0, 0.0)
    );
    let d = dlqr(&e(0, 0), &e(0, 1), &e(0, 0), &one(1.0)).unwrap();
    assert_eq!(
        (d.k.shape(), d.p.shape(), d.poles.len(), d.residual),
        ((1, 0), (0, 0), 0, 0.0)
    );
    let (ad, bd) = discretize(&e(0, 0), &e(0, 2), 0.1).unwrap();
    assert_eq!((ad.shape(), bd.shape()), ((0, 0), (0, 2)));
    // no input: the Lyapunov equation A'P + PA + Q = 0 of a stable A
    let a = mat(2, 2, &[-1.0, 1.0, 0.0, -2.0]);
    let c = lqr(&a, &e(2, 0), &DMatrix::identity(2, 2), &e(0, 0)).unwrap();
    assert_eq!(c.k.shape(), (0, 2));
    let lyap = a.transpose() * &c.p + &c.p * &a + DMatrix::<f64>::identity(2, 2);
    assert!(lyap.norm() < 1e-14, "{lyap}");
    let ah = &a * 0.25;
    let d = dlqr(&ah, &e(2, 0), &DMatrix::identity(2, 2), &e(0, 0)).unwrap();
    let lyap = ah.transpose() * &d.p * &ah - &d.p + DMatrix::<f64>::identity(2, 2);
    assert!(lyap.norm() < 1e-14, "{lyap}");
    // ... and of an unstable one: none
    assert!(lqr(&-&a, &e(2, 0), &DMatrix::identity(2, 2), &e(0, 0)).is_err());
    assert!(dlqr(&(&a * -2.0), &e(2, 0), &DMatrix::identity(2, 2), &e(0, 0)).is_err());
    // Q = 0 with a stable A: P = 0, K = 0
    let c = lqr(&a, &mat(2, 1, &[0.0, 1.0]), &e(2, 2), &one(1.0)).unwrap();
    assert_eq!((c.p.norm(), c.k.norm(), c.residual), (0.0, 0.0, 0.0));
    let d = dlqr(&ah, &mat(2, 1, &[0.0, 1.0]), &e(2, 2), &one(1.0)).unwrap();
    assert_eq!((d.p.norm(), d.k.norm(), d.residual), (0.0, 0.0, 0.0));
}

/// Meijaard et al. (2007) benchmark bicycle at speed `v`: state [roll, steer, roll rate,
/// steer rate], input steer torque.
fn bicycle(v: f64) -> (DMatrix<f64>, DMatrix<f64>) {
    let m = mat(
        2,
        2,
        &[
            80.81722,
            2.31941332208709,
            2.31941332208709,
            0.29784188199686,
        ],
    );
    let c1 = mat(
        2,
        2,
        &[0.0, 33.86641391492494, -0.85035641456978, 1.68540397397560],
    );
    let k0 = mat(
        2,
        2,
        &[
            -80.95,
            -2.59951685249872,
            -2.59951685249872,
            -0.80329488458618,
        ],
    );
    let k2 = mat(2, 2, &[0.0, 76.59734589573222, 0.0, 2.65431523794604]);
    let mi = m.try_inverse().unwrap();
    let mut a = DMatrix::zeros(4, 4);
    a.view_mut((0, 2), (2, 2)).fill_with_identity();
    a.view_mut((2, 0), (2, 2))
        .copy_from(&(-&mi * (k0 * 9.81 + k2 * (v * v))));
    a.view_mut((2, 2), (2, 2)).copy_from(&(-&mi * c1 * v));
    let mut b = DMatrix::zeros(4, 1);
    b.view_mut((2, 0), (2, 1)).copy_from(&mi.column(1));
    (a, b)
}

#[test]
fn bicycle_at_all_speeds() {
    // lqr, dlqr at 100 Hz and the DARE's sign route from 0 to 10 m/s: the worst
    // residuals and the most Newton / doubling steps.
    let (q, r) = (DMatrix::identity(4, 4), one(1.0));
    let (mut res, mut steps) = ([0.0f64; 3], [0usize; 3]);
    for i in 0..=40 {
        let v = 0.25 * i as f64;
        let (a, b) = bicycle(v);
        let c = lqr(&a, &b, &q, &r).unwrap_or_else(|e| panic!("v = {v}: {e}"));
        let (ad, bd) = discretize(&a, &b, 0.01).unwrap();
        let d = dlqr(&ad, &bd, &q, &r).unwrap_or_else(|e| panic!("v = {v}: {e}"));
        let w = Weights::check(&a, &b, &q, &r, false).unwrap();
        let wd = Weights::check(&ad, &bd, &q, &r, true).unwrap();
        let (ps, s) = dare_sign(&ad, &wd.g, &wd.q).unwrap();
        let l = discrete_gain(&ad, &bd, &wd, refine_dare(&ad, &bd, &wd, ps).0)
            .unwrap_or_else(|e| panic!("v = {v}: {e}"));
        assert!(rel(&l.k, &d.k) < 1e-8, "v = {v}: {:e}", rel(&l.k, &d.k));
        res[0] = res[0].max(c.residual);
        res[1] = res[1].max(d.residual);
        res[2] = res[2].max(l.residual);
        steps[0] = steps[0].max(care_sign(&a, &w.g, &w.q).unwrap().1);
        steps[1] = steps[1].max(dare_doubling(&ad, &wd.g, &wd.q).unwrap().1);
        steps[2] = steps[2].max(s);
    }
    std::println!(
        "bicycle 0..10 m/s: residual CARE {:.1e} DARE {:.1e} DARE by sign {:.1e}; steps \
         sign {} doubling {} DARE sign {}",
        res[0],
        res[1],
        res[2],
        steps[0],
        steps[1],
        steps[2]
    );
    assert!(res.iter().all(|r| *r < 1e-12), "{res:?}");
}

/// x_{k+1} = Ad x_k with weights Q dt, R dt tends to the continuous design as dt -> 0.
#[test]
fn sampled_design_tends_to_continuous() {
    let (a, b) = bicycle(3.0);
    let (q, r) = (DMatrix::identity(4, 4), one(1.0));
    let c = lqr(&a, &b, &q, &r).unwrap();
    let mut last = f64::INFINITY;
    for dt in [1e-2, 1e-3, 1e-4] {
        let (ad, bd) = discretize(&a, &b, dt).unwrap();
        let d = dlqr(&ad, &bd, &(&q * dt), &(&r * dt)).unwrap();
        let e = (&d.k - &c.k).norm() / c.k.norm();
        std::println!(
            "dt = {dt:e}: |Kd - K| / |K| = {e:.2e}, residual {:.1e}",
            d.residual
        );
        assert!(e < 0.5 * last);
        last = e;
    }
    assert!(last < 1e-3);
}

/// A pseudo-random `rows x cols` matrix with entries in [-1, 1] (xorshift).
fn random(rows: usize, cols: usize, seed: &mut u64) -> DMatrix<f64> {
    DMatrix::from_fn(rows, cols, |_, _| {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    })
}

#[test]
fn larger_random_systems() {
    let mut seed = 0x2545f4914f6cdd1d;
    for &(n, m) in &[(8, 1), (12, 3), (20, 2), (30, 5)] {
        let a = random(n, n, &mut seed) * 2.0;
        let b = random(n, m, &mut seed);
        let c = random(n, n, &mut seed);
        let q = c.transpose() * &c;
        let r = DMatrix::identity(m, m);
        let res = lqr(&a, &b, &q, &r).unwrap_or_else(|e| panic!("{n}x{m}: {e}"));
        let w = Weights::check(&a, &b, &q, &r, false).unwrap();
        let it = care_sign(&a, &w.g, &w.q).unwrap().1;
        let (ad, bd) = discretize(&a, &b, 0.05).unwrap();
        let d = dlqr(&ad, &bd, &q, &r).unwrap_or_else(|e| panic!("{n}x{m}: {e}"));
        let wd = Weights::check(&ad, &bd, &q, &r, false).unwrap();
        let itd = dare_doubling(&ad, &wd.g, &wd.q).unwrap().1;
        std::println!(
            "random {n}x{m}: CARE residual {:.1e} ({it} steps), DARE residual {:.1e} ({itd} steps)",
            res.residual,
            d.residual
        );
        assert!(res.residual < 1e-12 && d.residual < 1e-12);
    }
}

#[test]
fn weights_scale_out() {
    // K depends on Q and R only through their ratio; P scales with them.
    let (a, b) = bicycle(2.0);
    let (q, r) = (DMatrix::identity(4, 4), one(1.0));
    let c = lqr(&a, &b, &q, &r).unwrap();
    let c2 = lqr(&a, &b, &(&q * 1e6), &(&r * 1e6)).unwrap();
    assert!(rel(&c2.k, &c.k) < 1e-13 && rel(&(&c2.p * 1e-6), &c.p) < 1e-13);
    let c3 = lqr(&a, &b, &(&q * 1e-6), &(&r * 1e-6)).unwrap();
    assert!(rel(&c3.k, &c.k) < 1e-13 && rel(&(&c3.p * 1e6), &c.p) < 1e-13);
}

#[test]
fn expm_matches_closed_forms() {
    // rotation generator at large angle: exercises scaling and squaring
    for t in [0.01, 0.3, 1.0, 2.0, 10.0, 100.0] {
        let x = mat(2, 2, &[0.0, -t, t, 0.0]);
        let e = expm(&x).unwrap();
        let want = mat(
            2,
            2,
            &[libm::cos(t), -libm::sin(t), libm::sin(t), libm::cos(t)],
        );
        let err = max_abs(&(&e - &want));
        assert!(err < 1e-13 * t.max(1.0), "t = {t}: {err:e}");
    }
    // a Jordan block: e^{[[l, 1], [0, l]]} = e^l [[1, 1], [0, 1]]
    for l in [-20.0, -1.0, 0.5, 3.0] {
        let e = expm(&mat(2, 2, &[l, 1.0, 0.0, l])).unwrap();
        let want = mat(2, 2, &[1.0, 1.0, 0.0, 1.0]) * libm::exp(l);
        assert!(rel(&e, &want) < 1e-13, "{l}: {e}");
    }
}
