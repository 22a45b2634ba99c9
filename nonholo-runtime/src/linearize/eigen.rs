//! [`eigenvalues`] of a real square matrix: balancing, Hessenberg reduction and LAPACK's
//! small-matrix double-shift QR (`dlahqr`), eigenvalues only.

use alloc::vec;
use alloc::vec::Vec;
use nalgebra::{Complex, DMatrix, DVector};

use crate::Error;

/// Eigenvalues of a square matrix, sorted by real part then imaginary part; see
/// [`Linearization::eigenvalues`](super::Linearization::eigenvalues).
///
/// # Method
///
/// 1. Scale `A` by the power of two `2^-e` that brings its largest entry into `[1, 2)`
///    (exact; the eigenvalues are scaled back by `2^e`, also exactly).
/// 2. Balance: `B = D^-1 A D` with `D` diagonal, powers of two, chosen so that the 2-norms
///    of row `i` and column `i` are within about a factor 2 (LAPACK's `dgebal`, scaling only,
///    with its 2-norms since LAPACK 3.5). A similarity, so the eigenvalues are those of `A`;
///    it can shrink `||B||` by orders of magnitude when the states have very different
///    units, and the QR step's error is proportional to `||B||`.
/// 3. Reduce to Hessenberg form `H = Q^T B Q` (nalgebra's Householder reduction).
/// 4. Francis double-shift QR on `H` (a port of LAPACK's `dlahqr`, eigenvalues only): the
///    shifts are the eigenvalues of the trailing `2 x 2` block, a subdiagonal entry is set to
///    zero by the Ahues–Tisseur test, each `2 x 2` block left is split by `dlanv2`, and after
///    10 and 20 iterations without a deflation an *exceptional shift* built from the size of
///    the last subdiagonal entries replaces the Wilkinson pair.
/// 5. Should that not converge in `30 max(10, n)` iterations for one deflation, the whole
///    computation is repeated once on `P B P` with `P` a fixed pseudo-random Householder
///    reflection (a new starting Hessenberg form), and only then is it an error.
///
/// Why not nalgebra's `Schur`, which this function used before: it has no exceptional
/// shifts, and when the eigenvalues come in groups that its shifts cannot tell apart it
/// stagnates. Gyroscopic systems below their critical spin are exactly that, a quartet
/// `+-a +- bi` of one modulus (and `0`): capped at `100 n` iterations it failed at 12 of
/// 60 spins of Routh's sphere, on 9 of 402 sleeping-top matrices and on 0.5 to 1.3 % of
/// the matrices with eigenvalues `+-a +- bi, 0` in random bases (the tests). Retrying it
/// on `A + s I` does not help (QR whose shifts come from the iterate is translation
/// invariant: the iterates of `A + s I` are those of `A` plus `s I`), and a random
/// orthogonal similarity cured only about half of the failures. faer's solver (the same
/// `dlahqr` for matrices below 75 x 75) is in the dependency tree only with the `diffsol`
/// feature; using it there and something else without `std` would make the results
/// depend on the features, so the one method above is used everywhere, `no_std` included.
///
/// # Accuracy
///
/// Backward stable: the eigenvalues returned are those of `A + E` with `||E||` a small
/// multiple of `eps ||B||` (`eps = 2^-52`, `B` the balanced matrix), so for every `lambda`
/// the smallest singular value of `A - lambda I` is of the order `eps ||A||`. A simple
/// eigenvalue is then accurate to `eps ||A||` times its condition number; an eigenvalue
/// of a Jordan block of size `k` splits into `k` values about `(eps ||A||)^(1/k)` apart,
/// which still sum to `k lambda` to `eps ||A||`. Complex eigenvalues come in exact
/// conjugate pairs.
///
/// # Errors
///
/// [`Error::Dimension`] if `a` is not square, [`Error::NonFinite`] (with `t` NaN and an
/// empty state: there is neither here) if an entry is NaN or infinite, and
/// [`Error::EigenvaluesNotConverged`] (`iterations` is the cap per deflation) only if the
/// QR iteration fails on both starting forms, which has not been seen.
///
/// ```
/// use nonholo_runtime::{eigenvalues, nalgebra::{Complex, DMatrix}};
///
/// let near = |e: &Complex<f64>, re: f64, im: f64| (e.re - re).abs() + (e.im - im).abs() < 1e-12;
/// // triangular: the diagonal, sorted
/// let a = DMatrix::from_row_slice(3, 3, &[2.0, 1.0, 5.0, 0.0, -1.0, 3.0, 0.0, 0.0, 0.5]);
/// let ev = eigenvalues(&a)?;
/// assert!(near(&ev[0], -1.0, 0.0) && near(&ev[1], 0.5, 0.0) && near(&ev[2], 2.0, 0.0));
/// // the generator of rotations at rate 3: +- 3i
/// let ev = eigenvalues(&DMatrix::from_row_slice(2, 2, &[0.0, -3.0, 3.0, 0.0]))?;
/// assert!(near(&ev[0], 0.0, -3.0) && near(&ev[1], 0.0, 3.0));
/// assert!(eigenvalues(&DMatrix::zeros(0, 0))?.is_empty());
/// // the sleeping top below its critical spin: s^2 - i h s - k = 0 and its conjugate,
/// // h = 1, k = 2: s = +-sqrt(7) / 2 +- i / 2, four eigenvalues of one modulus
/// #[rustfmt::skip]
/// let top = DMatrix::from_row_slice(4, 4, &[
///     0.0, 0.0, 1.0, 0.0,
///     0.0, 0.0, 0.0, 1.0,
///     2.0, 0.0, 0.0, -1.0,
///     0.0, 2.0, 1.0, 0.0,
/// ]);
/// let ev = eigenvalues(&top)?;
/// let r = 7f64.sqrt() / 2.0;
/// assert!(near(&ev[0], -r, -0.5) && near(&ev[1], -r, 0.5));
/// assert!(near(&ev[2], r, -0.5) && near(&ev[3], r, 0.5));
/// // not square
/// assert!(eigenvalues(&DMatrix::zeros(2, 3)).is_err());
/// # Ok::<(), nonholo_runtime::Error>(())
/// ```
pub fn eigenvalues(a: &DMatrix<f64>) -> Result<Vec<Complex<f64>>, Error> {
    let n = a.nrows();
    if a.ncols() != n {
        return Err(Error::Dimension {
            what: "a row of the square matrix",
            expected: n,
            found: a.ncols(),
        });
    }
    if a.iter().any(|x| !x.is_finite()) {
        return Err(Error::NonFinite {
            what: "an entry of the matrix given to eigenvalues",
            t: f64::NAN,
            state: Vec::new(),
        });
    }
    let amax = a.amax();
    if amax == 0.0 {
        return Ok(vec![Complex::new(0.0, 0.0); n]);
    }
    // Powers of two scale exactly (but for entries that underflow, far below eps amax), so
    // this changes no digit of the result; it keeps the norms inside the balancing away
    // from overflow and underflow.
    let e = libm::ilogb(amax);
    let mut b = a.map(|x| libm::scalbn(x, -e));
    balance(&mut b);
    let cap = itmax(n);
    let mut ev = hessenberg_qr(b.clone(), cap)
        .or_else(|| hessenberg_qr(reflect(&b), cap))
        .ok_or(Error::EigenvaluesNotConverged { n, iterations: cap })?;
    for z in &mut ev {
        *z = Complex::new(libm::scalbn(z.re, e), libm::scalbn(z.im, e));
    }
    ev.sort_by(|x, y| x.re.total_cmp(&y.re).then(x.im.total_cmp(&y.im)));
    Ok(ev)
}

/// LAPACK's cap on the QR iterations for one deflation, `30 max(10, n)`.
fn itmax(n: usize) -> usize {
    30 * n.max(10)
}

/// The eigenvalues of `b` by Hessenberg reduction and [`hqr`] (`None`: not converged).
fn hessenberg_qr(b: DMatrix<f64>, itmax: usize) -> Option<Vec<Complex<f64>>> {
    // 1x1 and 2x2 matrices are Hessenberg already.
    let mut h = if b.nrows() > 2 {
        nalgebra::Hessenberg::new(b).unpack_h()
    } else {
        b
    };
    hqr(&mut h, itmax)
}

/// `P b P` with `P = I - 2 v v^T / v^T v` for a fixed pseudo-random `v` (SplitMix64,
/// entries in `[-1, 1)`): an orthogonal similarity that changes the vector the Hessenberg
/// reduction starts from, for the one retry of [`eigenvalues`]. Deterministic, so that a
/// matrix always gets the same eigenvalues.
fn reflect(b: &DMatrix<f64>) -> DMatrix<f64> {
    let n = b.nrows();
    let mut state: u64 = 0x853c_49e6_748f_ea9b;
    let v = DVector::from_fn(n, |_, _| {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    });
    let p = DMatrix::identity(n, n) - (&v * v.transpose()) * (2.0 / v.norm_squared());
    &p * b * &p
}

/// Balances `a` in place by a diagonal similarity `D^-1 a D`, `D` powers of two: LAPACK's
/// `dgebal` with job `'S'` (no permutations) and the 2-norms of LAPACK 3.5 (James, Langou
/// and Lowery 2014). Row and column `i` are scaled when that shrinks the sum of their norms
/// by at least 5 %; the factors are kept away from overflow. LAPACK loops until no row
/// changes, which the 5 % rule ends; the cap of 100 sweeps only makes that visible.
fn balance(a: &mut DMatrix<f64>) {
    const FACTOR: f64 = 0.95;
    let n = a.nrows();
    let sfmin1 = f64::MIN_POSITIVE / f64::EPSILON;
    let sfmax1 = 1.0 / sfmin1;
    let sfmin2 = 2.0 * sfmin1;
    let sfmax2 = 1.0 / sfmin2;
    let mut scale = vec![1.0f64; n];
    for _ in 0..100 {
        let mut changed = false;
        for (i, d) in scale.iter_mut().enumerate() {
            let (mut c, mut r) = (a.column(i).norm(), a.row(i).norm());
            let (mut ca, mut ra) = (a.column(i).amax(), a.row(i).amax());
            if c == 0.0 || r == 0.0 {
                continue;
            }
            let s = c + r;
            let mut f = 1.0f64;
            let mut g = r / 2.0;
            while c < g && f.max(c).max(ca) < sfmax2 && r.min(g).min(ra) > sfmin2 {
                f *= 2.0;
                c *= 2.0;
                ca *= 2.0;
                r /= 2.0;
                g /= 2.0;
                ra /= 2.0;
            }
            g = c / 2.0;
            while g >= r && r.max(ra) < sfmax2 && f.min(c).min(g).min(ca) > sfmin2 {
                f /= 2.0;
                c /= 2.0;
                g /= 2.0;
                ca /= 2.0;
                r *= 2.0;
                ra *= 2.0;
            }
            if c + r >= FACTOR * s
                || (f < 1.0 && *d < 1.0 && f * *d <= sfmin1)
                || (f > 1.0 && *d > 1.0 && *d >= sfmax1 / f)
            {
                continue;
            }
            *d *= f;
            changed = true;
            a.row_mut(i).scale_mut(1.0 / f);
            a.column_mut(i).scale_mut(f);
        }
        if !changed {
            break;
        }
    }
}

/// Fortran's `SIGN(a, b)`: `|a|` with the sign of `b`, `+` for `b = +-0` (unlike
/// `copysign`, which keeps the sign of a negative zero).
fn sign(a: f64, b: f64) -> f64 {
    if b >= 0.0 {
        a.abs()
    } else {
        -a.abs()
    }
}

/// LAPACK's `dlarfg` for `v = [alpha, x]`, `x` of one or two entries: the reflection
/// `H = I - tau [1, u] [1, u]^T` with `H v = [beta, 0]`. On return `v = [beta, u]`; returns
/// `tau` (0 when `x = 0`: no reflection).
fn larfg(v: &mut [f64]) -> f64 {
    let x_norm = |v: &[f64]| {
        if v.len() == 3 {
            libm::hypot(v[1], v[2])
        } else {
            v[1].abs()
        }
    };
    let mut xnorm = x_norm(v);
    if xnorm == 0.0 {
        return 0.0;
    }
    let mut alpha = v[0];
    let mut beta = -sign(libm::hypot(alpha, xnorm), alpha);
    let safmin = f64::MIN_POSITIVE / f64::EPSILON;
    let mut knt = 0;
    // beta may be denormal: scale up (at most 20 times) so that 1 / (alpha - beta) is finite.
    while beta.abs() < safmin && knt < 20 {
        knt += 1;
        for x in &mut v[1..] {
            *x /= safmin;
        }
        alpha /= safmin;
        xnorm = x_norm(v);
        beta = -sign(libm::hypot(alpha, xnorm), alpha);
    }
    let tau = (beta - alpha) / beta;
    let d = 1.0 / (alpha - beta);
    for x in &mut v[1..] {
        *x *= d;
    }
    for _ in 0..knt {
        beta *= safmin;
    }
    v[0] = beta;
    tau
}

/// The eigenvalues of `[[a, b], [c, d]]` from its standardized Schur form (LAPACK's
/// `dlanv2`): real ones when the block can be made triangular, else `p +- i q` with the
/// block brought to equal diagonal entries `p` and `q = sqrt(|b c|)`. Deciding real versus
/// complex only when the discriminant is clearly nonzero (`>= 4 eps`) keeps a nearly
/// double real pair from turning into a spurious complex one and back.
fn lanv2(mut a: f64, mut b: f64, mut c: f64, mut d: f64) -> [Complex<f64>; 2] {
    const MULTPL: f64 = 4.0;
    let eps = f64::EPSILON;
    // LAPACK's SAFMN2 = 2^int(log2(safmin / eps) / 2)
    let safmn2 = libm::scalbn(1.0, -485);
    let safmx2 = 1.0 / safmn2;
    if c == 0.0 {
        // upper triangular already
    } else if b == 0.0 {
        // lower triangular: swap the rows and columns
        core::mem::swap(&mut a, &mut d);
        b = -c;
        c = 0.0;
    } else if a - d == 0.0 && sign(1.0, b) != sign(1.0, c) {
        // standard form already: a complex pair a +- i sqrt(|b c|)
    } else {
        let mut temp = a - d;
        let p = 0.5 * temp;
        let bcmax = b.abs().max(c.abs());
        let bcmis = b.abs().min(c.abs()) * sign(1.0, b) * sign(1.0, c);
        let scale = p.abs().max(bcmax);
        let z = (p / scale) * p + (bcmax / scale) * bcmis;
        if z >= MULTPL * eps {
            // real eigenvalues
            let z = p + sign(libm::sqrt(scale) * libm::sqrt(z), p);
            a = d + z;
            d -= (bcmax / z) * bcmis;
            b -= c;
            c = 0.0;
        } else {
            // complex, or real and (almost) equal: make the diagonal entries equal
            let mut sigma = b + c;
            for _ in 0..20 {
                let scale = temp.abs().max(sigma.abs());
                if scale >= safmx2 {
                    sigma *= safmn2;
                    temp *= safmn2;
                } else if scale <= safmn2 {
                    sigma *= safmx2;
                    temp *= safmx2;
                } else {
                    break;
                }
            }
            let p = 0.5 * temp;
            let tau = libm::hypot(sigma, temp);
            let cs = libm::sqrt(0.5 * (1.0 + sigma.abs() / tau));
            let sn = -(p / (tau * cs)) * sign(1.0, sigma);
            // [aa bb; cc dd] = [a b; c d] [cs -sn; sn cs], then [cs sn; -sn cs] times that
            let (aa, bb) = (a * cs + b * sn, -a * sn + b * cs);
            let (cc, dd) = (c * cs + d * sn, -c * sn + d * cs);
            b = bb * cs + dd * sn;
            c = -aa * sn + cc * cs;
            let mid = 0.5 * ((aa * cs + cc * sn) + (-bb * sn + dd * cs));
            a = mid;
            d = mid;
            if c != 0.0 {
                if b == 0.0 {
                    b = -c;
                    c = 0.0;
                } else if sign(1.0, b) == sign(1.0, c) {
                    // real after all: mid +- sqrt(b c)
                    let p = sign(libm::sqrt(b.abs()) * libm::sqrt(c.abs()), c);
                    a = mid + p;
                    d = mid - p;
                    b -= c;
                    c = 0.0;
                }
            }
        }
    }
    let im = if c == 0.0 {
        0.0
    } else {
        libm::sqrt(b.abs()) * libm::sqrt(c.abs())
    };
    [Complex::new(a, im), Complex::new(d, -im)]
}

/// The eigenvalues of the upper Hessenberg `h` (overwritten) by LAPACK's `dlahqr` with
/// `wantt = wantz = false`: only the active block is updated. `None` if one deflation
/// takes more than `itmax` iterations.
fn hqr(h: &mut DMatrix<f64>, itmax: usize) -> Option<Vec<Complex<f64>>> {
    // after KEXSH iterations without a deflation an exceptional shift, alternating between
    // the top and the bottom of the active block; DAT1, DAT2 shape it (LAPACK's constants)
    const KEXSH: usize = 10;
    const DAT1: f64 = 0.75;
    const DAT2: f64 = -0.4375;
    let n = h.nrows();
    let mut w = vec![Complex::new(0.0, 0.0); n];
    if n == 0 {
        return Some(w);
    }
    let ulp = f64::EPSILON;
    let smlnum = f64::MIN_POSITIVE * (n as f64 / ulp);
    let mut kdefl = 0usize;
    // The active block is rows and columns l..=i; i moves up as eigenvalues deflate.
    let mut i = n - 1;
    loop {
        let mut l = 0;
        let mut deflated = false;
        for _ in 0..=itmax {
            // Look for a negligible subdiagonal entry h[k, k - 1] (Ahues–Tisseur).
            let mut k = i;
            while k > l {
                let sub = h[(k, k - 1)].abs();
                if sub <= smlnum {
                    break;
                }
                let mut tst = h[(k - 1, k - 1)].abs() + h[(k, k)].abs();
                if tst == 0.0 {
                    if k >= 2 {
                        tst += h[(k - 1, k - 2)].abs();
                    }
                    if k + 1 < n {
                        tst += h[(k + 1, k)].abs();
                    }
                }
                if sub <= ulp * tst {
                    let sup = h[(k - 1, k)].abs();
                    let diff = (h[(k - 1, k - 1)] - h[(k, k)]).abs();
                    let (ab, ba) = (sub.max(sup), sub.min(sup));
                    let (aa, bb) = (h[(k, k)].abs().max(diff), h[(k, k)].abs().min(diff));
                    let s = aa + ab;
                    if ba * (ab / s) <= smlnum.max(ulp * (bb * (aa / s))) {
                        break;
                    }
                }
                k -= 1;
            }
            l = k;
            if l > 0 {
                h[(l, l - 1)] = 0.0;
            }
            if l + 1 >= i {
                // a 1x1 or 2x2 block has split off
                deflated = true;
                break;
            }
            kdefl += 1;
            let (h11, h12, h21, h22) = if kdefl.is_multiple_of(2 * KEXSH) {
                let s = h[(i, i - 1)].abs() + h[(i - 1, i - 2)].abs();
                let d = DAT1 * s + h[(i, i)];
                (d, DAT2 * s, s, d)
            } else if kdefl.is_multiple_of(KEXSH) {
                let s = h[(l + 1, l)].abs() + h[(l + 2, l + 1)].abs();
                let d = DAT1 * s + h[(l, l)];
                (d, DAT2 * s, s, d)
            } else {
                (h[(i - 1, i - 1)], h[(i - 1, i)], h[(i, i - 1)], h[(i, i)])
            };
            // The shifts: the eigenvalues of [[h11, h12], [h21, h22]]; of a real pair, the
            // one nearer h22 twice.
            let s = h11.abs() + h12.abs() + h21.abs() + h22.abs();
            let (rt1r, rt1i, rt2r, rt2i) = if s == 0.0 {
                (0.0, 0.0, 0.0, 0.0)
            } else {
                let (h11, h12, h21, h22) = (h11 / s, h12 / s, h21 / s, h22 / s);
                let tr = (h11 + h22) / 2.0;
                let det = (h11 - tr) * (h22 - tr) - h12 * h21;
                let rtdisc = libm::sqrt(det.abs());
                if det >= 0.0 {
                    (tr * s, rtdisc * s, tr * s, -rtdisc * s)
                } else {
                    let (r1, r2) = (tr + rtdisc, tr - rtdisc);
                    let r = if (r1 - h22).abs() <= (r2 - h22).abs() {
                        r1 * s
                    } else {
                        r2 * s
                    };
                    (r, 0.0, r, 0.0)
                }
            };
            // Start the bulge at the lowest m where two consecutive small subdiagonal
            // entries make the step's first column negligible above m; v is that column.
            let mut v = [0.0f64; 3];
            let mut m = i - 2;
            loop {
                let s = (h[(m, m)] - rt2r).abs() + rt2i.abs() + h[(m + 1, m)].abs();
                let h21s = h[(m + 1, m)] / s;
                v[0] = h21s * h[(m, m + 1)] + (h[(m, m)] - rt1r) * ((h[(m, m)] - rt2r) / s)
                    - rt1i * (rt2i / s);
                v[1] = h21s * (h[(m, m)] + h[(m + 1, m + 1)] - rt1r - rt2r);
                v[2] = h21s * h[(m + 2, m + 1)];
                let s = v[0].abs() + v[1].abs() + v[2].abs();
                for x in &mut v {
                    *x /= s;
                }
                if m == l {
                    break;
                }
                let h00 = h[(m, m - 1)].abs() * (v[1].abs() + v[2].abs());
                let h01 = ulp
                    * v[0].abs()
                    * (h[(m - 1, m - 1)].abs() + h[(m, m)].abs() + h[(m + 1, m + 1)].abs());
                if h00 <= h01 {
                    break;
                }
                m -= 1;
            }
            // The double-shift step: chase the bulge from m down to i.
            for k in m..i {
                let nr = 3.min(i - k + 1);
                if k > m {
                    for (r, x) in v.iter_mut().enumerate().take(nr) {
                        *x = h[(k + r, k - 1)];
                    }
                }
                let t1 = larfg(&mut v[..nr]);
                if k > m {
                    h[(k, k - 1)] = v[0];
                    h[(k + 1, k - 1)] = 0.0;
                    if k + 1 < i {
                        h[(k + 2, k - 1)] = 0.0;
                    }
                } else if m > l {
                    // LAPACK's form of h[k, k - 1] = -h[k, k - 1], safe when v[1], v[2]
                    // underflow
                    h[(k, k - 1)] *= 1.0 - t1;
                }
                let (v2, t2) = (v[1], t1 * v[1]);
                if nr == 3 {
                    let (v3, t3) = (v[2], t1 * v[2]);
                    for j in k..=i {
                        let sum = h[(k, j)] + v2 * h[(k + 1, j)] + v3 * h[(k + 2, j)];
                        h[(k, j)] -= sum * t1;
                        h[(k + 1, j)] -= sum * t2;
                        h[(k + 2, j)] -= sum * t3;
                    }
                    for j in l..=(k + 3).min(i) {
                        let sum = h[(j, k)] + v2 * h[(j, k + 1)] + v3 * h[(j, k + 2)];
                        h[(j, k)] -= sum * t1;
                        h[(j, k + 1)] -= sum * t2;
                        h[(j, k + 2)] -= sum * t3;
                    }
                } else {
                    for j in k..=i {
                        let sum = h[(k, j)] + v2 * h[(k + 1, j)];
                        h[(k, j)] -= sum * t1;
                        h[(k + 1, j)] -= sum * t2;
                    }
                    for j in l..=i {
                        let sum = h[(j, k)] + v2 * h[(j, k + 1)];
                        h[(j, k)] -= sum * t1;
                        h[(j, k + 1)] -= sum * t2;
                    }
                }
            }
        }
        if !deflated {
            return None;
        }
        if l == i {
            w[i] = Complex::new(h[(i, i)], 0.0);
        } else {
            let [p, q] = lanv2(h[(l, l)], h[(l, i)], h[(i, l)], h[(i, i)]);
            w[l] = p;
            w[i] = q;
        }
        kdefl = 0;
        if l == 0 {
            return Some(w);
        }
        i = l - 1;
    }
}

#[cfg(test)]
mod tests;
