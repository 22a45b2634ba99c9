//! The eigenvalue solver against closed forms, and every result against the definition:
//! the smallest singular value of `A - lambda I` relative to `||A||`, the trace (the sum)
//! and the determinant (the product), which also check the multiplicities.

extern crate std;

use super::*;
use alloc::format;
use std::println;

/// SplitMix64: a fixed stream of test matrices.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `(0, 1]`.
    fn uniform(&mut self) -> f64 {
        ((self.next() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal (Box–Muller).
    fn gauss(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        libm::sqrt(-2.0 * libm::log(u)) * libm::cos(2.0 * core::f64::consts::PI * v)
    }

    fn matrix(&mut self, n: usize) -> DMatrix<f64> {
        DMatrix::from_fn(n, n, |_, _| self.gauss())
    }

    /// A random orthogonal matrix: the Q of a Gaussian matrix.
    fn orthogonal(&mut self, n: usize) -> DMatrix<f64> {
        self.matrix(n).qr().q()
    }
}

/// `q^T a q`.
fn similar(a: &DMatrix<f64>, q: &DMatrix<f64>) -> DMatrix<f64> {
    q.transpose() * a * q
}

/// Singular values, largest first.
fn singular_values(a: &DMatrix<f64>) -> Vec<f64> {
    let mut s: Vec<f64> = a.singular_values().iter().copied().collect();
    s.sort_by(|x, y| y.total_cmp(x));
    s
}

/// The smallest singular value of `a - lambda I` (a complex SVD; as the smallest of a
/// nearly singular matrix it is resolved down to about `eps ||a||`, below which it may
/// come out as 0).
fn sigma_min(a: &DMatrix<f64>, lambda: Complex<f64>) -> f64 {
    let n = a.nrows();
    let c = DMatrix::from_fn(n, n, |i, j| {
        let diagonal = if i == j {
            lambda
        } else {
            Complex::new(0.0, 0.0)
        };
        Complex::new(a[(i, j)], 0.0) - diagonal
    });
    let s = c.singular_values();
    s.iter().fold(f64::INFINITY, |m, s| m.min(*s))
}

/// Checks `ev` as the eigenvalues of `a` and returns the worst relative residual
/// `sigma_min(a - lambda I) / ||a||_2`: `n` of them, sorted, complex ones in exact
/// conjugate pairs, each residual below `1e-12`, their sum the trace to `1e-12 n ||a||`
/// and their product the determinant to `1e-9 |det| + 1e-10 n s_1 .. s_(n-1)` (the
/// singular values but the smallest: how far `det` moves when `a` moves by `eps ||a||`,
/// nonzero also for a singular `a`).
fn check(a: &DMatrix<f64>, ev: &[Complex<f64>], what: &str) -> f64 {
    let n = a.nrows();
    assert_eq!(ev.len(), n, "{what}: {ev:?}");
    if n == 0 {
        return 0.0;
    }
    for w in ev.windows(2) {
        assert!(
            w[0].re < w[1].re || (w[0].re == w[1].re && w[0].im <= w[1].im),
            "{what}: not sorted: {ev:?}"
        );
    }
    for z in ev.iter().filter(|z| z.im != 0.0) {
        let count = |w: Complex<f64>| ev.iter().filter(|e| **e == w).count();
        assert_eq!(count(*z), count(z.conj()), "{what}: {z} unpaired in {ev:?}");
    }
    let sv = singular_values(a);
    let norm = sv[0].max(f64::MIN_POSITIVE);
    let mut worst = 0.0f64;
    for z in ev {
        let r = sigma_min(a, *z) / norm;
        assert!(r <= 1e-12, "{what}: residual {r:e} of {z} in {ev:?}");
        worst = worst.max(r);
    }
    let sum: Complex<f64> = ev.iter().sum();
    let tol = 1e-12 * n as f64 * norm;
    assert!(
        (sum.re - a.trace()).abs() <= tol && sum.im.abs() <= tol,
        "{what}: sum {sum}, trace {}",
        a.trace()
    );
    let prod = ev.iter().fold(Complex::new(1.0, 0.0), |p, z| p * z);
    let det = a.determinant();
    let tol = 1e-9 * det.abs() + 1e-10 * n as f64 * sv[..n - 1].iter().product::<f64>();
    assert!(
        (prod.re - det).abs() <= tol && prod.im.abs() <= tol,
        "{what}: product {prod:e}, det {det:e} (tolerance {tol:e})"
    );
    worst
}

/// Matches `ev` to `want` nearest-first (not by sort order: real parts may tie); the
/// worst distance.
fn distance(ev: &[Complex<f64>], want: &[Complex<f64>]) -> f64 {
    assert_eq!(ev.len(), want.len());
    let mut used = vec![false; ev.len()];
    let mut worst = 0.0f64;
    for w in want {
        let (k, d) = ev
            .iter()
            .enumerate()
            .filter(|(k, _)| !used[*k])
            .map(|(k, e)| (k, (e - w).norm()))
            .min_by(|x, y| x.1.total_cmp(&y.1))
            .unwrap();
        used[k] = true;
        worst = worst.max(d);
    }
    worst
}

/// nalgebra's real Schur form as this module used it before, capped at `100 n`.
fn nalgebra_schur_fails(a: &DMatrix<f64>) -> bool {
    nalgebra::Schur::try_new(a.clone(), f64::EPSILON, 100 * a.nrows()).is_none()
}

#[test]
fn equal_modulus_quartets_converge_where_nalgebra_schur_stalls() {
    // eigenvalues a +- bi, -a +- bi and 0: the block diagonal form in a random orthogonal
    // basis, for 40 x 40 pairs (a, b) and two bases
    let mut rng = Rng(7);
    let (mut nalgebra_failures, mut count) = (0, 0);
    let (mut worst_res, mut worst_dist) = (0.0f64, 0.0f64);
    for _ in 0..2 {
        let q = rng.orthogonal(5);
        for ai in 0..40 {
            for bi in 0..40 {
                let (a, b) = (0.05 + 0.25 * ai as f64, 0.05 + 0.25 * bi as f64);
                #[rustfmt::skip]
                let d = DMatrix::from_row_slice(5, 5, &[
                    a, b, 0.0, 0.0, 0.0,
                    -b, a, 0.0, 0.0, 0.0,
                    0.0, 0.0, -a, b, 0.0,
                    0.0, 0.0, -b, -a, 0.0,
                    0.0, 0.0, 0.0, 0.0, 0.0,
                ]);
                let m = &q * d * q.transpose();
                let what = format!("a {a}, b {b}");
                let ev = eigenvalues(&m).unwrap();
                worst_res = worst_res.max(check(&m, &ev, &what));
                let want = [
                    Complex::new(a, b),
                    Complex::new(a, -b),
                    Complex::new(-a, b),
                    Complex::new(-a, -b),
                    Complex::new(0.0, 0.0),
                ];
                // a normal matrix: every eigenvalue is perfectly conditioned
                let dist = distance(&ev, &want) / libm::hypot(a, b);
                assert!(dist < 1e-13, "{what}: {ev:?}");
                worst_dist = worst_dist.max(dist);
                count += 1;
                nalgebra_failures += usize::from(nalgebra_schur_fails(&m));
            }
        }
    }
    println!(
        "equal-modulus quartets: {count} matrices, worst residual {worst_res:e}, worst \
         distance {worst_dist:e}; nalgebra's Schur (100 n iterations) failed on \
         {nalgebra_failures}"
    );
    // the case is meaningful: the solver used before fails on some of these
    assert!(
        nalgebra_failures > 0,
        "nalgebra's Schur form no longer stalls on any of these: pick harder cases"
    );
}

/// The sleeping top (symmetric, fixed point, transverse moment `ia` and axial moment `c`
/// about it, centre of mass `l` up the axis) spinning at `w` about the vertical, linearized
/// in the horizontal components `(x, y)` of its axis and their rates. The transverse
/// angular momentum is `ia (-y', x')`, the spin's `h = c w` along the axis `(x, y, 1)`, the
/// gravity torque `m g l (-y, x)`, so `ia x'' + h y' - m g l x = 0` and
/// `ia y'' - h x' - m g l y = 0`: with `z = x + i y`, `ia z'' - i h z' - m g l z = 0`.
fn top_matrix(ia: f64, c: f64, mgl: f64, w: f64) -> DMatrix<f64> {
    let (k, h) = (mgl / ia, c * w / ia);
    #[rustfmt::skip]
    let a = DMatrix::from_row_slice(4, 4, &[
        0.0, 0.0, 1.0, 0.0,
        0.0, 0.0, 0.0, 1.0,
        k, 0.0, 0.0, -h,
        0.0, k, h, 0.0,
    ]);
    a
}

#[test]
fn sleeping_top_below_at_and_above_its_critical_spin() {
    // a top of 0.5 kg, its centre of mass 4 cm above the point
    let (ia, c, mgl) = (4e-4, 3e-4, 0.5 * 9.81 * 0.04);
    // the roots of ia s^2 - i h s - m g l = 0 are (i h +- sqrt(4 ia m g l - h^2)) / 2 ia:
    // a quartet +-a +- bi with a > 0 while h^2 < 4 ia m g l, all imaginary above
    let w_crit = 2.0 * libm::sqrt(ia * mgl) / c;
    let mut rng = Rng(11);
    let q = rng.orthogonal(4);
    let (mut worst_res, mut worst_dist, mut nalgebra_failures) = (0.0f64, 0.0f64, 0);
    // spins from 0 to 2 w_crit in steps of w_crit / 100, and 5 w_crit
    let (mut count, mut worst_crit) = (0, 0.0f64);
    for step in (0..200).chain([500]) {
        let frac = step as f64 / 100.0;
        let w = w_crit * step as f64 / 100.0;
        let h = c * w;
        let d = 4.0 * ia * mgl - h * h;
        let disc = if d >= 0.0 {
            Complex::new(libm::sqrt(d), 0.0)
        } else {
            Complex::new(0.0, libm::sqrt(-d))
        };
        let s1 = (Complex::new(0.0, h) + disc) / (2.0 * ia);
        let s2 = (Complex::new(0.0, h) - disc) / (2.0 * ia);
        let want = [s1, s2, s1.conj(), s2.conj()];
        let a = top_matrix(ia, c, mgl, w);
        for (m, basis) in [
            (a.clone(), "closed form"),
            (similar(&a, &q), "random basis"),
        ] {
            let what = format!("w / w_crit = {frac} ({basis})");
            let ev = eigenvalues(&m).unwrap();
            worst_res = worst_res.max(check(&m, &ev, &what));
            nalgebra_failures += usize::from(nalgebra_schur_fails(&m));
            let norm = m.norm();
            let max_re = ev.iter().fold(f64::MIN, |x, e| x.max(e.re));
            let dist = distance(&ev, &want) / norm;
            count += 1;
            if step == 100 {
                // two defective double pairs +- i sqrt(k): split by about sqrt(eps)
                assert!(dist < 1e-7, "{what}: {ev:?}, want {want:?}");
                worst_crit = worst_crit.max(dist);
                continue;
            }
            assert!(dist < 1e-13, "{what}: {ev:?}, want {want:?}");
            worst_dist = worst_dist.max(dist);
            if frac < 1.0 {
                assert!(max_re > 0.1, "{what}: {ev:?}");
            } else {
                assert!(max_re.abs() < 1e-13 * norm, "{what}: {ev:?}");
            }
        }
    }
    println!(
        "sleeping top: {count} matrices, worst residual {worst_res:e}, worst distance to the \
         closed form {worst_dist:e} (relative to ||A||; {worst_crit:e} at the critical spin); \
         nalgebra's Schur failed on {nalgebra_failures}"
    );
}

#[test]
fn defective_and_repeated_eigenvalues() {
    let mut rng = Rng(3);
    let mut worst = 0.0f64;
    // the zero matrix and the identity: exact
    let ev = eigenvalues(&DMatrix::zeros(6, 6)).unwrap();
    assert!(ev.iter().all(|e| e.re == 0.0 && e.im == 0.0), "{ev:?}");
    let ev = eigenvalues(&DMatrix::identity(6, 6)).unwrap();
    assert!(ev.iter().all(|e| e.re == 1.0 && e.im == 0.0), "{ev:?}");
    // Jordan blocks J_k(lambda), as they are and in a random basis: k values within
    // about (eps ||A||)^(1/k) of lambda, summing to k lambda
    for k in 1..=8 {
        let q = rng.orthogonal(k);
        for lambda in [0.0, 1.0, -2.5] {
            let mut j = DMatrix::from_diagonal_element(k, k, lambda);
            for i in 1..k {
                j[(i - 1, i)] = 1.0;
            }
            for (m, basis) in [(j.clone(), "as is"), (similar(&j, &q), "random basis")] {
                let what = format!("J_{k}({lambda}) {basis}");
                let ev = eigenvalues(&m).unwrap();
                worst = worst.max(check(&m, &ev, &what));
                let norm = m.norm();
                let spread = 4.0 * libm::pow(k as f64 * f64::EPSILON, 1.0 / k as f64) * norm;
                for e in &ev {
                    assert!((e - lambda).norm() <= spread, "{what}: {ev:?}");
                }
            }
        }
    }
    // a nilpotent 6x6: strictly upper triangular, in a random basis
    let mut u = rng.matrix(6);
    u.fill_lower_triangle(0.0, 0);
    let m = similar(&u, &rng.orthogonal(6));
    let ev = eigenvalues(&m).unwrap();
    worst = worst.max(check(&m, &ev, "nilpotent 6x6"));
    let spread = 4.0 * libm::pow(6.0 * f64::EPSILON, 1.0 / 6.0) * m.norm();
    assert!(ev.iter().all(|e| e.norm() <= spread), "{ev:?}");
    // a derogatory matrix: diag(J_2(1), J_2(1), 1, -1) in a random basis
    #[rustfmt::skip]
    let d = DMatrix::from_row_slice(6, 6, &[
        1.0, 1.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 1.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 1.0, 1.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 1.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 1.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0, -1.0,
    ]);
    let m = similar(&d, &rng.orthogonal(6));
    let ev = eigenvalues(&m).unwrap();
    worst = worst.max(check(&m, &ev, "derogatory"));
    assert!((ev[0] + 1.0).norm() < 1e-13, "{ev:?}");
    assert!(ev[1..].iter().all(|e| (e - 1.0).norm() < 1e-4), "{ev:?}");
    println!("defective and repeated: worst residual {worst:e}");
}

#[test]
fn random_60x60() {
    let mut rng = Rng(60);
    let m = rng.matrix(60);
    let ev = eigenvalues(&m).unwrap();
    let worst = check(&m, &ev, "random 60x60");
    println!("random 60x60: worst residual {worst:e}");
}

#[test]
fn companion_matrices_of_s_n_minus_c() {
    // the n roots of c on one circle: all of one modulus, the classic case for exceptional
    // shifts (nalgebra #611: its Schur form looped forever on n = 11, uncapped)
    let mut worst = 0.0f64;
    for n in 2..=16 {
        for c in [1.0, 1.7748092111017977, 1e-3, 1e3, -2.0] {
            let mut m = DMatrix::zeros(n, n);
            m[(0, n - 1)] = c;
            for i in 1..n {
                m[(i, i - 1)] = 1.0;
            }
            let what = format!("s^{n} - {c}");
            let ev = eigenvalues(&m).unwrap();
            worst = worst.max(check(&m, &ev, &what));
            let rho = libm::pow(c.abs(), 1.0 / n as f64);
            for e in &ev {
                assert!((e.norm() - rho).abs() < 1e-12 * rho, "{what}: {ev:?}");
            }
        }
    }
    println!("companion matrices: worst residual {worst:e}");
}

#[test]
fn balancing_keeps_the_accuracy_of_badly_scaled_states() {
    // T = D^-1 A D with D = diag(1, 1e3, 1e6, 1e9): ||T|| is about 1e9 ||A||, but the
    // eigenvalues are those of A, and balancing finds them to eps ||A||, not eps ||T||
    let mut rng = Rng(5);
    let d = [1.0, 1e3, 1e6, 1e9];
    for trial in 0..20 {
        let a = rng.matrix(4);
        let t = DMatrix::from_fn(4, 4, |i, j| a[(i, j)] * d[j] / d[i]);
        let (ea, et) = (eigenvalues(&a).unwrap(), eigenvalues(&t).unwrap());
        let dist = distance(&et, &ea) / a.norm();
        assert!(dist < 1e-12, "#{trial}: {et:?} vs {ea:?}");
        let mut b = t.clone();
        balance(&mut b);
        assert!(
            b.norm() < 1e-6 * t.norm(),
            "#{trial}: {} -> {}",
            t.norm(),
            b.norm()
        );
    }
}

#[test]
fn scaling_by_powers_of_two_is_exact() {
    let mut rng = Rng(9);
    let a = rng.matrix(7);
    let ev = eigenvalues(&a).unwrap();
    for p in [-900, -30, 1, 600] {
        let f = libm::scalbn(1.0, p);
        assert_eq!(
            eigenvalues(&(&a * f)).unwrap(),
            ev.iter().map(|e| e * f).collect::<Vec<_>>()
        );
    }
    // a factor that is no power of two changes the last digits only
    for f in [1e-300, 1e300] {
        let scaled: Vec<Complex<f64>> = ev.iter().map(|e| e * f).collect();
        let dist = distance(&eigenvalues(&(&a * f)).unwrap(), &scaled) / (f * a.norm());
        assert!(dist < 1e-14, "{f}: {dist:e}");
    }
}

#[test]
fn errors_edge_cases_and_the_retry() {
    assert!(matches!(
        eigenvalues(&DMatrix::zeros(2, 3)),
        Err(Error::Dimension {
            expected: 2,
            found: 3,
            ..
        })
    ));
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let mut m = DMatrix::identity(3, 3);
        m[(1, 2)] = bad;
        assert!(matches!(eigenvalues(&m), Err(Error::NonFinite { .. })));
    }
    assert!(eigenvalues(&DMatrix::zeros(0, 0)).unwrap().is_empty());
    let ev = eigenvalues(&DMatrix::from_element(1, 1, -4.5)).unwrap();
    assert_eq!(ev, [Complex::new(-4.5, 0.0)]);
    // the 2x2 blocks by dlanv2: real, complex, and a nearly double pair
    let cases: [([f64; 4], [Complex<f64>; 2]); 4] = [
        (
            [1.0, 2.0, 3.0, 4.0],
            [-1.0, 1.0].map(|s| Complex::new((5.0 + s * libm::sqrt(33.0)) / 2.0, 0.0)),
        ),
        (
            [1.0, -2.0, 3.0, 1.0],
            [-1.0, 1.0].map(|s| Complex::new(1.0, s * libm::sqrt(6.0))),
        ),
        ([0.0, 1.0, 0.0, 0.0], [Complex::new(0.0, 0.0); 2]),
        (
            [2.0, 0.0, 5.0, -1.0],
            [Complex::new(-1.0, 0.0), Complex::new(2.0, 0.0)],
        ),
    ];
    for (m, want) in cases {
        let ev = eigenvalues(&DMatrix::from_row_slice(2, 2, &m)).unwrap();
        assert!(distance(&ev, &want) < 1e-15 * 8.0, "{m:?}: {ev:?}");
    }
    // the QR iteration reports non-convergence rather than looping: a rotation needs
    // iterations, and none are allowed
    let mut rng = Rng(13);
    let q = rng.orthogonal(3);
    #[rustfmt::skip]
    let r = DMatrix::from_row_slice(3, 3, &[0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 2.0]);
    let m = similar(&r, &q);
    assert!(hessenberg_qr(m.clone(), 0).is_none());
    assert!(hessenberg_qr(m.clone(), itmax(3)).is_some());
    // the retry's reflection is an orthogonal similarity: the same eigenvalues
    let a = rng.matrix(8);
    let (ev, ev_reflected) = (
        hessenberg_qr(a.clone(), itmax(8)).unwrap(),
        hessenberg_qr(reflect(&a), itmax(8)).unwrap(),
    );
    assert!(distance(&ev_reflected, &ev) < 1e-12 * a.norm());
    check(
        &reflect(&a),
        &eigenvalues(&reflect(&a)).unwrap(),
        "reflected",
    );
}
