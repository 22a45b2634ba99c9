//! The Riccati solvers: balancing, the matrix sign function of the Hamiltonian (and of
//! the Cayley-transformed symplectic pencil), structure-preserving doubling, and Newton
//! refinement (Lyapunov and Stein equations).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use nalgebra::{DMatrix, SVD};

use super::*;
// ---------------------------------------------------------------------------------------
// Balancing

/// A Riccati problem `(A, G, Q)` (`A'P + PA - PGP + Q = 0` or `P = A'P(I + GP)^-1 A + Q`)
/// in balanced coordinates: `A^ = D^-1 A D`, `G^ = rho D^-1 G D^-1`, `Q^ = D Q D / rho`,
/// whose solution `P^` gives `P = rho D^-1 P^ D^-1`. `D` (the state scaling `x = D x^`) and
/// `rho` are powers of two, so the change is exact.
pub(super) struct Balanced {
    a: DMatrix<f64>,
    g: DMatrix<f64>,
    q: DMatrix<f64>,
    d: Vec<f64>,
    rho: f64,
}

impl Balanced {
    fn new(a: &DMatrix<f64>, g: &DMatrix<f64>, q: &DMatrix<f64>) -> Balanced {
        let n = a.nrows();
        let d = symplectic_balance(a, g, q);
        let mut ah = a.clone();
        let mut gh = g.clone();
        let mut qh = q.clone();
        for i in 0..n {
            for j in 0..n {
                ah[(i, j)] *= d[j] / d[i];
                gh[(i, j)] /= d[i] * d[j];
                qh[(i, j)] *= d[i] * d[j];
            }
        }
        // G^ and Q^ of about equal norms.
        let (gn, qn) = (gh.norm(), qh.norm());
        let rho = if gn > 0.0 && qn > 0.0 {
            pow2(libm::round(0.5 * libm::log2(qn / gn)).clamp(-500.0, 500.0) as i32)
        } else {
            1.0
        };
        gh *= rho;
        qh /= rho;
        Balanced {
            a: ah,
            g: gh,
            q: qh,
            d,
            rho,
        }
    }

    /// `P = rho D^-1 P^ D^-1`, symmetrized.
    fn unscale(&self, ph: &DMatrix<f64>) -> DMatrix<f64> {
        let mut p = symmetrized(ph) * self.rho;
        for i in 0..p.nrows() {
            for j in 0..p.ncols() {
                p[(i, j)] /= self.d[i] * self.d[j];
            }
        }
        p
    }
}

/// Diagonal scaling `d` (powers of two) of the state, `x = D x^`, that balances the
/// Hamiltonian `[[A, -G], [-Q, -A']]` by the symplectic similarity `diag(D, D^-1)`
/// (Parlett–Reinsch on the coupled rows and columns `i` and `n + i`): with
/// `A^ = D^-1 A D`, `G^ = D^-1 G D^-1`, `Q^ = D Q D`, the off-diagonal 1-norms of column
/// `i` of `[A^; Q^]` and of row `i` of `[A^, G^]` are made about equal.
pub(super) fn symplectic_balance(a: &DMatrix<f64>, g: &DMatrix<f64>, q: &DMatrix<f64>) -> Vec<f64> {
    let n = a.nrows();
    let mut d = alloc::vec![1.0f64; n];
    let (mut a, mut g, mut q) = (a.clone(), g.clone(), q.clone());
    for _sweep in 0..64 {
        let mut changed = false;
        for i in 0..n {
            let mut c = 0.0;
            let mut r = 0.0;
            for j in 0..n {
                if j != i {
                    c += libm::fabs(a[(j, i)]);
                    r += libm::fabs(a[(i, j)]);
                }
                c += libm::fabs(q[(j, i)]);
                r += libm::fabs(g[(i, j)]);
            }
            if c == 0.0 || r == 0.0 {
                continue;
            }
            // f = 2^e with f^2 about r / c, applied if it reduces c + r enough.
            let s = c + r;
            let mut f = 1.0;
            let (mut cc, mut rr) = (c, r);
            while cc < rr / 4.0 && f < pow2(60) {
                cc *= 2.0;
                rr /= 2.0;
                f *= 2.0;
            }
            while cc > rr * 4.0 && f > pow2(-60) {
                cc /= 2.0;
                rr *= 2.0;
                f /= 2.0;
            }
            let total = d[i] * f;
            if f == 1.0 || cc + rr >= 0.95 * s || !(pow2(-200)..=pow2(200)).contains(&total) {
                continue;
            }
            d[i] = total;
            changed = true;
            // Column i of A^ times f and row i over f (a_ii unchanged); row and column i of
            // Q^ times f, of G^ over f (q_ii times f^2, g_ii over f^2).
            for j in 0..n {
                a[(j, i)] *= f;
                a[(i, j)] /= f;
                q[(j, i)] *= f;
                q[(i, j)] *= f;
                g[(j, i)] /= f;
                g[(i, j)] /= f;
            }
        }
        if !changed {
            break;
        }
    }
    d
}

// ---------------------------------------------------------------------------------------
// The sign-function route, for the CARE and the DARE

/// Words for the error messages of the continuous and the discrete equation.
pub(super) struct Names {
    equation: &'static str,
    matrix: &'static str,
    boundary: &'static str,
    pair: &'static str,
    observed: &'static str,
}

pub(super) const CONTINUOUS_NAMES: Names = Names {
    equation: "CARE",
    matrix: "the Hamiltonian matrix",
    boundary: "the imaginary axis",
    pair: "(A, B)",
    observed: "(Q, A)",
};

pub(super) const DISCRETE_NAMES: Names = Names {
    equation: "DARE",
    matrix: "the Cayley transform of the symplectic pencil",
    boundary: "the unit circle",
    pair: "(Ad, Bd)",
    observed: "(Q, Ad)",
};

/// The stabilizing solution of `A'P + PA - PGP + Q = 0` from the sign function of the
/// (balanced) Hamiltonian, and the number of Newton steps.
pub(super) fn care_sign(
    a: &DMatrix<f64>,
    g: &DMatrix<f64>,
    q: &DMatrix<f64>,
) -> Result<(DMatrix<f64>, usize), Error> {
    let n = a.nrows();
    if n == 0 {
        return Ok((DMatrix::zeros(0, 0), 0));
    }
    let bal = Balanced::new(a, g, q);
    let mut h = DMatrix::zeros(2 * n, 2 * n);
    h.view_mut((0, 0), (n, n)).copy_from(&bal.a);
    h.view_mut((0, n), (n, n)).copy_from(&(-&bal.g));
    h.view_mut((n, 0), (n, n)).copy_from(&(-&bal.q));
    h.view_mut((n, n), (n, n)).copy_from(&(-bal.a.transpose()));
    let (w, iterations) = sign(h, &CONTINUOUS_NAMES)?;
    let p = bal.unscale(&graph(&w, &CONTINUOUS_NAMES)?);
    Ok((p, iterations))
}

/// The stabilizing solution of `P = A'P(I + GP)^-1 A + Q` from the sign function of the
/// Cayley transform `(L + M)^-1 (L - M)` of the symplectic pencil `L - z M`,
/// `L = [[A, 0], [-Q, I]]`, `M = [[I, G], [0, A']]`, whose deflating subspace for the
/// eigenvalues inside the unit circle is `[I; P]`: the transform maps them to the left
/// half-plane and is Hamiltonian. Returns `P` and the number of Newton steps.
pub(super) fn dare_sign(
    a: &DMatrix<f64>,
    g: &DMatrix<f64>,
    q: &DMatrix<f64>,
) -> Result<(DMatrix<f64>, usize), Error> {
    let n = a.nrows();
    if n == 0 {
        return Ok((DMatrix::zeros(0, 0), 0));
    }
    let bal = Balanced::new(a, g, q);
    let identity = DMatrix::<f64>::identity(n, n);
    let mut sum = DMatrix::zeros(2 * n, 2 * n);
    let mut difference = DMatrix::zeros(2 * n, 2 * n);
    let at = bal.a.transpose();
    sum.view_mut((0, 0), (n, n))
        .copy_from(&(&bal.a + &identity));
    sum.view_mut((0, n), (n, n)).copy_from(&bal.g);
    sum.view_mut((n, 0), (n, n)).copy_from(&(-&bal.q));
    sum.view_mut((n, n), (n, n)).copy_from(&(&identity + &at));
    difference
        .view_mut((0, 0), (n, n))
        .copy_from(&(&bal.a - &identity));
    difference.view_mut((0, n), (n, n)).copy_from(&(-&bal.g));
    difference.view_mut((n, 0), (n, n)).copy_from(&(-&bal.q));
    difference
        .view_mut((n, n), (n, n))
        .copy_from(&(&identity - &at));
    let mut h = sum.lu().solve(&difference).ok_or_else(|| {
        unsolvable(String::from(
            "no stabilizing solution of the DARE: the symplectic pencil has the eigenvalue -1 \
             on the unit circle",
        ))
    })?;
    hamiltonian_part(&mut h, n);
    let (w, iterations) = sign(h, &DISCRETE_NAMES)?;
    let p = bal.unscale(&graph(&w, &DISCRETE_NAMES)?);
    Ok((p, iterations))
}

/// `sign(h)` for a Hamiltonian `h` (`J h` symmetric, `J = [[0, I], [-I, 0]]`) by Newton's
/// iteration `Z <- (cZ + (cZ)^-1) / 2` with determinant scaling `c = |det Z|^(-1/2n)` until
/// the relative change is below `1e-2`, then unscaled; each iterate is made exactly
/// Hamiltonian. Stops when the relative change falls below `1e-12`, or stagnates below
/// `1e-6` (rounding level of an ill-conditioned problem; the caller checks the result).
/// Returns it and the step count.
pub(super) fn sign(mut z: DMatrix<f64>, names: &Names) -> Result<(DMatrix<f64>, usize), Error> {
    let n2 = z.nrows();
    let n = n2 / 2;
    let mut scaled = true;
    let mut previous = f64::INFINITY;
    let mut delta = f64::INFINITY;
    for k in 1..=MAX_ITERATIONS {
        let lu = z.clone().lu();
        let u = lu.u();
        let log_det: f64 = (0..n2).map(|i| libm::log(libm::fabs(u[(i, i)]))).sum();
        let zinv = match lu.try_inverse() {
            Some(x) if log_det.is_finite() && x.iter().all(|v| v.is_finite()) => x,
            _ => {
                return Err(unsolvable(format!(
                    "no stabilizing solution of the {}: {} has an eigenvalue on {} (its \
                     sign iteration met a singular matrix in step {k}): the pair {} is not \
                     stabilizable or {} has an unobservable mode there",
                    names.equation, names.matrix, names.boundary, names.pair, names.observed
                )))
            }
        };
        let c = if scaled {
            libm::exp(-log_det / n2 as f64)
        } else {
            1.0
        };
        let mut next = (&z * c + zinv / c) * 0.5;
        hamiltonian_part(&mut next, n);
        delta = one_norm(&(&next - &z)) / one_norm(&next);
        z = next;
        if !delta.is_finite() {
            break;
        }
        if delta < 1e-2 {
            scaled = false;
        }
        if delta <= 1e-12 || (delta < 1e-6 && delta > 0.5 * previous) {
            return Ok((z, k));
        }
        previous = delta;
    }
    Err(unsolvable(format!(
        "no stabilizing solution of the {}: the sign iteration of {} did not converge in \
         {MAX_ITERATIONS} steps (last relative change {delta:e}); it has eigenvalues on or \
         near {}: the pair {} is not stabilizable or {} has an unobservable mode there",
        names.equation, names.matrix, names.boundary, names.pair, names.observed
    )))
}

/// Replace `z` by its Hamiltonian part `(z + J'z'J) / 2`: `Z12`, `Z21` symmetric,
/// `Z22 = -Z11'`.
pub(super) fn hamiltonian_part(z: &mut DMatrix<f64>, n: usize) {
    for i in 0..n {
        for j in 0..n {
            if j >= i {
                let z12 = 0.5 * (z[(i, n + j)] + z[(j, n + i)]);
                z[(i, n + j)] = z12;
                z[(j, n + i)] = z12;
                let z21 = 0.5 * (z[(n + i, j)] + z[(n + j, i)]);
                z[(n + i, j)] = z21;
                z[(n + j, i)] = z21;
            }
            let z11 = 0.5 * (z[(i, j)] - z[(n + j, n + i)]);
            z[(i, j)] = z11;
            z[(n + j, n + i)] = -z11;
        }
    }
}

/// `P` with `[I; P]` spanning the null space of `W + I` (`W` a sign function): the
/// least-squares solution of `[W12; W22 + I] P = -[W11 + I; W21]`, by SVD, or an error if
/// that matrix is rank deficient (the stable subspace is no graph over the states).
pub(super) fn graph(w: &DMatrix<f64>, names: &Names) -> Result<DMatrix<f64>, Error> {
    let n = w.nrows() / 2;
    let mut lhs = DMatrix::zeros(2 * n, n);
    let mut rhs = DMatrix::zeros(2 * n, n);
    lhs.view_mut((0, 0), (n, n))
        .copy_from(&w.view((0, n), (n, n)));
    lhs.view_mut((n, 0), (n, n))
        .copy_from(&w.view((n, n), (n, n)));
    rhs.view_mut((0, 0), (n, n))
        .copy_from(&(-w.view((0, 0), (n, n))));
    rhs.view_mut((n, 0), (n, n))
        .copy_from(&(-w.view((n, 0), (n, n))));
    for i in 0..n {
        lhs[(n + i, i)] += 1.0;
        rhs[(i, i)] -= 1.0;
    }
    let svd = SVD::try_new(lhs, true, true, f64::EPSILON, 100 * n).ok_or_else(|| {
        unsolvable(format!(
            "the singular value decomposition for the {} solution did not converge",
            names.equation
        ))
    })?;
    let smax = svd.singular_values.max();
    let smin = svd.singular_values.min();
    if smin <= 1e-12 * smax || smin.is_nan() {
        return Err(unsolvable(format!(
            "no stabilizing solution of the {}: the stable invariant subspace of {} is not the \
             graph of a matrix (singular values of [W12; W22 + I] from {smin:e} to {smax:e}): \
             the pair {} is not stabilizable, or too close to one that is not for double \
             precision",
            names.equation, names.matrix, names.pair
        )));
    }
    let p = svd.solve(&rhs, 0.0).map_err(|e| {
        unsolvable(format!(
            "the least-squares solve for the {} failed: {e}",
            names.equation
        ))
    })?;
    if p.iter().all(|v| v.is_finite()) {
        Ok(p)
    } else {
        Err(unsolvable(format!(
            "no stabilizing solution of the {}: the solution is not finite",
            names.equation
        )))
    }
}

/// Above this relative residual, [`refine_care`] takes Newton steps.
pub(super) const REFINE_ABOVE: f64 = 1e-14;

/// Newton's method on the CARE from `p` (at most 3 steps, each kept only if it lowers the
/// residual): `P <- P + X` with `(A - GP)'X + X(A - GP) + CARE(P) = 0`. Returns the refined
/// `P`, its relative residual and the number of steps kept.
pub(super) fn refine_care(
    a: &DMatrix<f64>,
    g: &DMatrix<f64>,
    q: &DMatrix<f64>,
    mut p: DMatrix<f64>,
) -> (DMatrix<f64>, f64, usize) {
    let mut residual = care_residual(a, g, q, &p);
    let mut steps = 0;
    while residual > REFINE_ABOVE && steps < 3 {
        let acl = a - g * &p;
        let pa = &p * a;
        let res = symmetrized(&(q + &pa + pa.transpose() - &p * g * &p));
        let Some(x) = lyapunov(&acl, &res) else {
            break;
        };
        let next = symmetrized(&(&p + x));
        let r = care_residual(a, g, q, &next);
        if r >= residual || r.is_nan() {
            break;
        }
        p = next;
        residual = r;
        steps += 1;
    }
    (p, residual, steps)
}

/// The solution `X` of the Lyapunov equation `A'X + XA + C = 0` for a stable `A`, by the
/// sign function of `[[A, 0], [C, -A']]` (Roberts 1971), which is `[[-I, 0], [2X, I]]`:
/// Newton's iteration `A <- (cA + (cA)^-1) / 2`, `C <- (cC + (cA)^-T C (cA)^-1) / 2` with
/// determinant scaling. `None` if it does not converge (`A` not stable).
pub(super) fn lyapunov(a: &DMatrix<f64>, c: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let n = a.nrows();
    let (mut ak, mut ck) = (a.clone(), c.clone());
    let mut scaled = true;
    let mut previous = f64::INFINITY;
    for _ in 0..MAX_ITERATIONS {
        let lu = ak.clone().lu();
        let u = lu.u();
        let log_det: f64 = (0..n).map(|i| libm::log(libm::fabs(u[(i, i)]))).sum();
        let inv = lu.try_inverse()?;
        if !log_det.is_finite() || inv.iter().any(|v| !v.is_finite()) {
            return None;
        }
        let s = if scaled {
            libm::exp(-log_det / n as f64)
        } else {
            1.0
        };
        let next = (&ak * s + &inv / s) * 0.5;
        ck = symmetrized(&((&ck * s + inv.transpose() * &ck * &inv / s) * 0.5));
        let delta = one_norm(&(&next - &ak)) / one_norm(&next);
        ak = next;
        if !delta.is_finite() {
            return None;
        }
        if delta < 1e-2 {
            scaled = false;
        }
        if delta <= 1e-12 || (delta < 1e-6 && delta > 0.5 * previous) {
            // A_k -> sign(A) = -I for a stable A
            let stable = (&ak + DMatrix::<f64>::identity(n, n)).norm() < 1e-6;
            return stable.then(|| ck * 0.5);
        }
        previous = delta;
    }
    None
}

// ---------------------------------------------------------------------------------------
// DARE: structure-preserving doubling, Newton refinement

/// The stabilizing solution of `P = A'P(I + GP)^-1 A + Q` by the structure-preserving
/// doubling algorithm (Chu, Fan, Lin and Wang 2004): from `A_0 = A`, `G_0 = G`, `H_0 = Q`,
///
/// ```text
/// W = I + G_k H_k,   A_{k+1} = A_k W^-1 A_k,   G_{k+1} = G_k + A_k W^-1 G_k A_k',
/// H_{k+1} = H_k + A_k' H_k W^-1 A_k  ->  P,
/// ```
///
/// quadratically (`A_k` is about `(A - BK)^(2^k)`) when `(A, B)` is stabilizable and
/// `(Q, A)` detectable. Returns `P` and the number of doubling steps.
pub(super) fn dare_doubling(
    a: &DMatrix<f64>,
    g: &DMatrix<f64>,
    q: &DMatrix<f64>,
) -> Result<(DMatrix<f64>, usize), Error> {
    let n = a.nrows();
    if n == 0 {
        return Ok((DMatrix::zeros(0, 0), 0));
    }
    let bal = Balanced::new(a, g, q);
    let (mut ak, mut gk, mut hk) = (bal.a.clone(), bal.g.clone(), bal.q.clone());
    let identity = DMatrix::<f64>::identity(n, n);
    for k in 1..=MAX_ITERATIONS {
        let lu = (&identity + &gk * &hk).lu();
        let (Some(wa), Some(wg)) = (lu.solve(&ak), lu.solve(&gk)) else {
            return Err(unsolvable(format!(
                "no stabilizing solution of the DARE: I + G H became singular in doubling \
                 step {k}"
            )));
        };
        let increment = symmetrized(&(ak.transpose() * &hk * &wa));
        gk = symmetrized(&(&gk + &ak * &wg * ak.transpose()));
        ak = &ak * &wa;
        hk += &increment;
        let (inc, norm) = (increment.norm(), hk.norm());
        if !(inc.is_finite() && norm.is_finite()) {
            return Err(unsolvable(format!(
                "no stabilizing solution of the DARE: the doubling iteration diverged in step \
                 {k} (the pair (Ad, Bd) is not stabilizable)"
            )));
        }
        if inc <= f64::EPSILON * norm {
            return Ok((bal.unscale(&hk), k));
        }
    }
    Err(unsolvable(format!(
        "no stabilizing solution of the DARE: the doubling iteration did not converge in \
         {MAX_ITERATIONS} steps (the symplectic pencil has eigenvalues on or near the unit \
         circle: (Ad, Bd) is not stabilizable or (Q, Ad) has an unobservable mode there)"
    )))
}

/// `K = (R + B'PB)^-1 B'PA`, `None` if `R + B'PB` is not positive definite.
pub(super) fn dare_gain(
    a: &DMatrix<f64>,
    b: &DMatrix<f64>,
    r: &DMatrix<f64>,
    p: &DMatrix<f64>,
) -> Option<DMatrix<f64>> {
    let btp = b.transpose() * p;
    let chol = Cholesky::new(symmetrized(&(r + &btp * b)))?;
    Some(chol.solve(&(btp * a)))
}

/// Newton's method on the DARE (Hewer 1971) from `p`, like [`refine_care`]: `P <- P + X`
/// with `X = (A - BK)'X(A - BK) + DARE(P)`, `K` the gain of `P`. Returns the refined `P`,
/// its relative residual and the number of steps kept.
pub(super) fn refine_dare(
    a: &DMatrix<f64>,
    b: &DMatrix<f64>,
    w: &Weights,
    mut p: DMatrix<f64>,
) -> (DMatrix<f64>, f64, usize) {
    let residual_of =
        |p: &DMatrix<f64>| dare_gain(a, b, &w.r, p).map(|k| (dare_residual(a, b, &w.q, p, &k), k));
    let Some((mut residual, mut k)) = residual_of(&p) else {
        return (p, f64::INFINITY, 0);
    };
    let mut steps = 0;
    while residual > REFINE_ABOVE && steps < 3 {
        let acl = a - b * &k;
        let atp = a.transpose() * &p;
        let res = symmetrized(&(&w.q + &atp * a - &p - &atp * b * &k));
        let Some(x) = stein(&acl, &res) else {
            break;
        };
        let next = symmetrized(&(&p + x));
        match residual_of(&next) {
            Some((r, k_next)) if r < residual => {
                p = next;
                residual = r;
                k = k_next;
                steps += 1;
            }
            _ => break,
        }
    }
    (p, residual, steps)
}

/// The solution `X = Σ_j (A')^j C A^j` of the Stein equation `X = A'XA + C` for `A` with
/// spectral radius below 1, by Smith's doubling: `X <- X + A'XA`, `A <- A^2`. `None` if it
/// does not converge.
pub(super) fn stein(a: &DMatrix<f64>, c: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let (mut ak, mut x) = (a.clone(), c.clone());
    for _ in 0..MAX_ITERATIONS {
        let increment = symmetrized(&(ak.transpose() * &x * &ak));
        x += &increment;
        ak = &ak * &ak;
        let (inc, norm) = (increment.norm(), x.norm());
        if !(inc.is_finite() && norm.is_finite()) {
            return None;
        }
        if inc <= f64::EPSILON * norm {
            return Some(x);
        }
    }
    None
}

pub(super) fn care_residual(
    a: &DMatrix<f64>,
    g: &DMatrix<f64>,
    q: &DMatrix<f64>,
    p: &DMatrix<f64>,
) -> f64 {
    let pa = p * a;
    let pgp = p * g * p;
    let res = q + &pa + pa.transpose() - &pgp;
    ratio(res.norm(), q.norm() + 2.0 * pa.norm() + pgp.norm())
}

pub(super) fn dare_residual(
    a: &DMatrix<f64>,
    b: &DMatrix<f64>,
    q: &DMatrix<f64>,
    p: &DMatrix<f64>,
    k: &DMatrix<f64>,
) -> f64 {
    let apa = a.transpose() * p * a;
    let apbk = a.transpose() * p * b * k;
    let res = q + &apa - p - &apbk;
    ratio(res.norm(), q.norm() + p.norm() + apa.norm() + apbk.norm())
}
