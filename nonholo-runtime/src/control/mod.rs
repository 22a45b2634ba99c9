//! Controller design from a linearization: continuous and discrete LQR, and the exact
//! zero-order-hold discretization that takes one to the other.
//!
//! For a linear model `dx/dt = A x + B u` (a [`Linearization`](crate::Linearization)'s
//! `a` and `b`, say) and weights `Q = Q' >= 0`, `R = R' > 0`:
//!
//! - [`lqr`]: the state feedback `u = -K x` minimizing `∫ x'Qx + u'Ru dt`, from the
//!   stabilizing solution `P` of the continuous algebraic Riccati equation (CARE)
//!
//!   ```text
//!   A'P + PA - P B R^-1 B' P + Q = 0,        K = R^-1 B' P;
//!   ```
//!
//! - [`discretize`]: `x_{k+1} = Ad x_k + Bd u_k` for an input held constant over each
//!   sample interval `dt` (zero-order hold), `Ad = e^{A dt}`, `Bd = ∫_0^dt e^{A s} ds B`;
//!
//! - [`dlqr`]: the feedback `u_k = -K x_k` minimizing `Σ x_k'Q x_k + u_k'R u_k`, from the
//!   stabilizing solution `P` of the discrete algebraic Riccati equation (DARE)
//!
//!   ```text
//!   P = Ad'P Ad - Ad'P Bd (R + Bd'P Bd)^-1 Bd'P Ad + Q,        K = (R + Bd'P Bd)^-1 Bd'P Ad.
//!   ```
//!
//! # Algorithms
//!
//! - CARE: the matrix sign function of the Hamiltonian `H = [[A, -G], [-Q, -A']]`,
//!   `G = B R^-1 B'`, by Newton's iteration `Z <- (c Z + (c Z)^-1) / 2` with determinant
//!   scaling `c = |det Z|^(-1/2n)` (Byers 1987), keeping `Z` Hamiltonian at every step.
//!   `W = sign(H)` has the stable invariant subspace of `H`, `[I; P]`, as the null space of
//!   `W + I`: `P` is the least-squares solution of `[W12; W22 + I] P = -[W11 + I; W21]`
//!   (SVD). Before, the problem is balanced by a diagonal change of state coordinates
//!   `x = D x^` (a symplectic similarity of `H`, in powers of two, so exact) and `G` and `Q`
//!   are brought to the same size by `P = rho P^`. After, up to three Newton steps
//!   (Kleinman's iteration, each a Lyapunov equation solved by the sign function too) are
//!   taken while the residual is above `1e-14` and goes down.
//! - DARE: the structure-preserving doubling algorithm (Chu, Fan, Lin and Wang 2004), which
//!   converges quadratically, needs no inverse of `Ad` and keeps the iterates symmetric
//!   positive semidefinite. It needs `(Q, Ad)` detectable; when its result fails the checks,
//!   the sign function of the Cayley transform `(L + M)^-1 (L - M)` of the symplectic pencil
//!   `L - z M`, `L = [[Ad, 0], [-Q, I]]`, `M = [[I, G], [0, Ad']]` (Hamiltonian, with the
//!   pencil's eigenvalues inside the unit circle mapped to the left half-plane) decides, as
//!   for the CARE. Either result is refined by Newton steps (Hewer's iteration, each a Stein
//!   equation solved by Smith's doubling).
//! - [`discretize`]: the exponential of the block matrix `[[A, B], [0, 0]] dt`
//!   (Van Loan 1978), by scaling and squaring with a Padé approximant of degree 3 to 13
//!   chosen from the 1-norm (Higham 2005).
//!
//! Everything allocates: this is design-time code, not something to run every step.
//!
//! # Checks
//!
//! A gain is never returned unchecked. After solving, [`lqr`] and [`dlqr`] compute the
//! relative residual of the Riccati equation ([`Lqr::residual`]) and the closed-loop poles,
//! and return [`Error::NoStabilizingSolution`] unless the residual is below
//! [`RESIDUAL_TOLERANCE`] and every pole is strictly stable (real part below
//! `-STABILITY_MARGIN * max(1, ||A - BK||_F)`, or modulus below `1 - STABILITY_MARGIN`).
//! The errors say what failed: a wrong size ([`Error::Dimension`]), a non-finite entry,
//! `Q` not symmetric positive semidefinite, `R` not symmetric positive definite, an
//! iteration that did not converge within its cap (Hamiltonian eigenvalues on the
//! imaginary axis, or a symplectic pencil's on the unit circle: a mode that is
//! uncontrollable, or unobservable through `Q`, and not strictly stable), or a stable
//! subspace that is no graph `[I; P]` (the pair `(A, B)` is not stabilizable).
//!
//! ```
//! use nonholo_runtime::control::{discretize, dlqr, lqr};
//! use nonholo_runtime::nalgebra::DMatrix;
//!
//! // A double integrator x'' = u, sampled at 100 Hz.
//! let a = DMatrix::from_row_slice(2, 2, &[0.0, 1.0, 0.0, 0.0]);
//! let b = DMatrix::from_row_slice(2, 1, &[0.0, 1.0]);
//! let (q, r) = (DMatrix::identity(2, 2), DMatrix::identity(1, 1));
//! let c = lqr(&a, &b, &q, &r)?;
//! let (ad, bd) = discretize(&a, &b, 0.01)?;
//! // With the weights scaled by dt, the sampled design tends to the continuous one.
//! let d = dlqr(&ad, &bd, &(&q * 0.01), &(&r * 0.01))?;
//! assert!((&d.k - &c.k).norm() < 0.01 * c.k.norm());
//! # Ok::<(), nonholo_runtime::Error>(())
//! ```
//!
//! References: R. Byers, *Solving the algebraic Riccati equation with the matrix sign
//! function*, Linear Algebra Appl. 85 (1987); J. D. Gardiner and A. J. Laub, *A
//! generalization of the matrix-sign-function solution for algebraic Riccati equations*,
//! Int. J. Control 44 (1986); E. K.-W. Chu, H.-Y. Fan, W.-W. Lin and C.-S. Wang,
//! *Structure-preserving algorithms for periodic discrete-time algebraic Riccati
//! equations*, Int. J. Control 77 (2004), and E. K.-W. Chu, H.-Y. Fan and W.-W. Lin, *A
//! structure-preserving doubling algorithm for continuous-time algebraic Riccati
//! equations*, Linear Algebra Appl. 396 (2005); D. L. Kleinman, *On an iterative technique
//! for Riccati equation computations*, IEEE Trans. Automat. Control 13 (1968); G. A.
//! Hewer, *An iterative technique for the computation of the steady state gains for the
//! discrete optimal regulator*, IEEE Trans. Automat. Control 16 (1971); J. D. Roberts,
//! *Linear model reduction and solution of the algebraic Riccati equation by use of the
//! sign function*, Int. J. Control 32 (1980; report of 1971); C. F. Van Loan, *Computing
//! integrals involving the matrix exponential*, IEEE Trans. Automat. Control 23 (1978);
//! N. J. Higham, *The scaling and squaring method for the matrix exponential revisited*,
//! SIAM J. Matrix Anal. Appl. 26 (2005).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use nalgebra::{Cholesky, Complex, DMatrix, SymmetricEigen};

use crate::linearize::eigenvalues;
use crate::Error;

mod expm;
mod riccati;
use expm::expm;
use riccati::*;

/// A linear-quadratic regulator: the gain, the Riccati solution it comes from, and the
/// checks it passed.
///
/// ```
/// use nonholo_runtime::control::lqr;
/// use nonholo_runtime::nalgebra::DMatrix;
///
/// // x' = x + u (unstable), Q = 3, R = 1: 2 P - P^2 + 3 = 0, P = 3, K = 3, pole 1 - 3 = -2.
/// let one = DMatrix::from_element(1, 1, 1.0);
/// let c = lqr(&one, &one, &DMatrix::from_element(1, 1, 3.0), &one)?;
/// assert!((c.p[(0, 0)] - 3.0).abs() < 1e-12 && (c.k[(0, 0)] - 3.0).abs() < 1e-12);
/// assert!((c.poles[0].re + 2.0).abs() < 1e-12 && c.poles[0].im == 0.0);
/// assert!(c.residual < 1e-14);
/// # Ok::<(), nonholo_runtime::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Lqr {
    /// The gain, `m x n`: the control is `u = -k x`.
    pub k: DMatrix<f64>,
    /// The stabilizing solution of the Riccati equation, `n x n`, symmetric positive
    /// semidefinite: the optimal cost from `x` is `x' p x`.
    pub p: DMatrix<f64>,
    /// The closed-loop eigenvalues, of `A - B k` (continuous: real parts negative) or of
    /// `Ad - Bd k` (discrete: inside the unit circle), sorted by real part then imaginary
    /// part like [`eigenvalues`].
    pub poles: Vec<Complex<f64>>,
    /// The relative residual of the Riccati equation at `p`: the Frobenius norm of its
    /// left-hand side minus its right-hand side over the sum of the Frobenius norms of its
    /// terms, `||A'P + PA - PGP + Q|| / (||Q|| + 2 ||PA|| + ||PGP||)` with `G = B R^-1 B'`
    /// (continuous), `||A'PA - P - A'PB K + Q|| / (||Q|| + ||P|| + ||A'PA|| + ||A'PB K||)`
    /// (discrete); 0 when every term is 0. A backward-error-like measure: around `1e-15`
    /// for a well-conditioned problem, never above [`RESIDUAL_TOLERANCE`].
    pub residual: f64,
}

/// The largest relative Riccati residual ([`Lqr::residual`]) that [`lqr`] and [`dlqr`]
/// accept; above it they return an error rather than the gain.
pub const RESIDUAL_TOLERANCE: f64 = 1e-8;

/// How far inside the stability region the closed-loop poles must be: a real part below
/// `-STABILITY_MARGIN * max(1, ||A - BK||_F)` ([`lqr`]), a modulus below
/// `1 - STABILITY_MARGIN` ([`dlqr`]). Poles closer to the boundary than that cannot be told
/// from poles on it in floating point.
pub const STABILITY_MARGIN: f64 = 1e-12;

/// The iteration cap of the sign functions and of the doubling algorithms. They converge
/// quadratically: in the tests the Hamiltonian's sign function takes 3 to 9 steps, the
/// doubling algorithm 2 to 15.
const MAX_ITERATIONS: usize = 100;

/// Continuous-time LQR: the gain `K` of `u = -K x` minimizing `∫ x'Qx + u'Ru dt` subject
/// to `dx/dt = A x + B u`.
///
/// `K = R^-1 B' P`, with `P` the stabilizing solution of the CARE
///
/// ```text
/// A'P + PA - P B R^-1 B' P + Q = 0
/// ```
///
/// (the one with `A - BK` stable), by the matrix sign function of the Hamiltonian (see the
/// [module documentation](self)). `a` is `n x n`, `b` is `n x m`, `q` is `n x n` symmetric
/// positive semidefinite, `r` is `m x m` symmetric positive definite; `q` and `r` are
/// symmetrized (an asymmetry up to `1e-10` of their largest entry is accepted as rounding).
///
/// # Errors
///
/// [`Error::Dimension`] for sizes that do not fit; [`Error::InvalidOptions`] for a
/// non-finite entry, `Q` not symmetric positive semidefinite, `R` not symmetric positive
/// definite; [`Error::NoStabilizingSolution`] for `(A, B)` not stabilizable or `(Q, A)`
/// with an unobservable mode on the imaginary axis, or a result that fails the checks
/// (residual above [`RESIDUAL_TOLERANCE`], a closed-loop pole not strictly stable);
/// [`Error::EigenvaluesNotConverged`] if the closed-loop eigenvalues cannot be computed.
///
/// ```
/// use nonholo_runtime::control::lqr;
/// use nonholo_runtime::nalgebra::DMatrix;
///
/// // The double integrator x'' = u with Q = I, R = 1: P = [[√3, 1], [1, √3]], K = [1, √3].
/// let a = DMatrix::from_row_slice(2, 2, &[0.0, 1.0, 0.0, 0.0]);
/// let b = DMatrix::from_row_slice(2, 1, &[0.0, 1.0]);
/// let c = lqr(&a, &b, &DMatrix::identity(2, 2), &DMatrix::identity(1, 1))?;
/// let s3 = 3f64.sqrt();
/// let p = DMatrix::from_row_slice(2, 2, &[s3, 1.0, 1.0, s3]);
/// assert!((&c.p - &p).norm() < 1e-13);
/// assert!((&c.k - DMatrix::from_row_slice(1, 2, &[1.0, s3])).norm() < 1e-13);
/// // closed loop s^2 + √3 s + 1: poles (-√3 ± i) / 2
/// assert!((c.poles[0].re + s3 / 2.0).abs() < 1e-13 && (c.poles[0].im + 0.5).abs() < 1e-13);
/// assert!(c.residual < 1e-14);
///
/// // x1' = x1 cannot be influenced by u: no stabilizing gain exists.
/// let a = DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.0, -1.0]);
/// assert!(lqr(&a, &b, &DMatrix::identity(2, 2), &DMatrix::identity(1, 1)).is_err());
/// # Ok::<(), nonholo_runtime::Error>(())
/// ```
pub fn lqr(
    a: &DMatrix<f64>,
    b: &DMatrix<f64>,
    q: &DMatrix<f64>,
    r: &DMatrix<f64>,
) -> Result<Lqr, Error> {
    let w = Weights::check(a, b, q, r, false)?;
    let (p, _) = care_sign(a, &w.g, &w.q)?;
    let (p, residual, _) = refine_care(a, &w.g, &w.q, p);
    let k = &w.rinv_bt * &p;
    let acl = a - b * &k;
    let poles = eigenvalues(&acl)?;
    let margin = STABILITY_MARGIN * acl.norm().max(1.0);
    if let Some(pole) = poles.iter().find(|z| z.re >= -margin || z.re.is_nan()) {
        return Err(unsolvable(format!(
            "no stabilizing solution of the CARE: a closed-loop pole {pole} is not strictly \
             stable (the pair (A, B) is not stabilizable, or (Q, A) has an unobservable mode \
             on the imaginary axis)"
        )));
    }
    check_residual(residual, "CARE")?;
    Ok(Lqr {
        k,
        p,
        poles,
        residual,
    })
}

/// Exact zero-order-hold discretization of `dx/dt = A x + B u` with sample time `dt`:
/// `x_{k+1} = Ad x_k + Bd u_k` for `u` held at `u_k` over `[k dt, (k + 1) dt)`, with
///
/// ```text
/// Ad = e^{A dt},        Bd = ∫_0^dt e^{A s} ds B,
/// ```
///
/// read off the exponential of the block matrix `[[A, B], [0, 0]] dt` (Van Loan), computed
/// by scaling and squaring with a Padé approximant (Higham 2005), which also holds without
/// `std` (nalgebra's `exp` needs its `std` feature). Returns `(Ad, Bd)`.
///
/// # Errors
///
/// [`Error::Dimension`] if `a` is not square or `b` does not have its rows;
/// [`Error::InvalidOptions`] if `dt` is not positive and finite, an entry is not finite, or
/// the exponential overflows.
///
/// ```
/// use nonholo_runtime::control::discretize;
/// use nonholo_runtime::nalgebra::DMatrix;
///
/// // x'' = u: Ad = [[1, dt], [0, 1]], Bd = [dt^2 / 2; dt]
/// let a = DMatrix::from_row_slice(2, 2, &[0.0, 1.0, 0.0, 0.0]);
/// let b = DMatrix::from_row_slice(2, 1, &[0.0, 1.0]);
/// let (ad, bd) = discretize(&a, &b, 0.1)?;
/// assert!((ad - DMatrix::from_row_slice(2, 2, &[1.0, 0.1, 0.0, 1.0])).norm() < 1e-15);
/// assert!((bd - DMatrix::from_row_slice(2, 1, &[0.005, 0.1])).norm() < 1e-15);
/// // x' = -2 x + u: Ad = e^{-2 dt}, Bd = (1 - e^{-2 dt}) / 2
/// let (a1, b1) = (DMatrix::from_element(1, 1, -2.0), DMatrix::from_element(1, 1, 1.0));
/// let (ad, bd) = discretize(&a1, &b1, 0.5)?;
/// let e = (-1f64).exp();
/// assert!((ad[(0, 0)] - e).abs() < 1e-15 && (bd[(0, 0)] - (1.0 - e) / 2.0).abs() < 1e-15);
/// assert!(discretize(&a, &b, 0.0).is_err());
/// # Ok::<(), nonholo_runtime::Error>(())
/// ```
pub fn discretize(
    a: &DMatrix<f64>,
    b: &DMatrix<f64>,
    dt: f64,
) -> Result<(DMatrix<f64>, DMatrix<f64>), Error> {
    let n = a.nrows();
    check_dims(a, ["rows of a", "columns of a"], n, n)?;
    check_dims(b, ["rows of b", "columns of b"], n, b.ncols())?;
    let m = b.ncols();
    if !(dt > 0.0 && dt.is_finite()) {
        return Err(invalid(format!(
            "the sample time dt must be positive and finite, not {dt}"
        )));
    }
    check_finite(a, "a")?;
    check_finite(b, "b")?;
    let mut big = DMatrix::zeros(n + m, n + m);
    big.view_mut((0, 0), (n, n)).copy_from(&(a * dt));
    big.view_mut((0, n), (n, m)).copy_from(&(b * dt));
    let e = expm(&big).ok_or_else(|| {
        invalid(format!(
            "the exponential of [[A, B], [0, 0]] dt overflows (dt = {dt}, ||A dt||_1 = {:e})",
            one_norm(&(a * dt))
        ))
    })?;
    Ok((
        e.view((0, 0), (n, n)).into_owned(),
        e.view((0, n), (n, m)).into_owned(),
    ))
}

/// Discrete-time LQR: the gain `K` of `u_k = -K x_k` minimizing `Σ x_k'Q x_k + u_k'R u_k`
/// subject to `x_{k+1} = Ad x_k + Bd u_k` (from [`discretize`], say).
///
/// `K = (R + Bd'P Bd)^-1 Bd'P Ad`, with `P` the stabilizing solution of the DARE
///
/// ```text
/// P = Ad'P Ad - Ad'P Bd (R + Bd'P Bd)^-1 Bd'P Ad + Q
/// ```
///
/// (the one with `Ad - Bd K` stable, its eigenvalues inside the unit circle), by the
/// structure-preserving doubling algorithm, or the sign function of the Cayley-transformed
/// symplectic pencil when `(Q, Ad)` is not detectable (see the
/// [module documentation](self)). Sizes and requirements on `q` and `r` are those of
/// [`lqr`]; `ad` may be singular.
///
/// # Errors
///
/// Those of [`lqr`], with stability meaning poles inside the unit circle: the pair
/// `(Ad, Bd)` must be stabilizable and `(Q, Ad)` have no unobservable mode on the unit
/// circle.
///
/// ```
/// use nonholo_runtime::control::dlqr;
/// use nonholo_runtime::nalgebra::DMatrix;
///
/// // x_{k+1} = 2 x_k + u_k, Q = R = 1: P = 4P - 4P^2/(1 + P) + 1, i.e. P^2 - 4P - 1 = 0,
/// // P = 2 + √5, K = 2P / (1 + P), closed loop 2 - K = 2 / (1 + P).
/// let (two, one) = (DMatrix::from_element(1, 1, 2.0), DMatrix::from_element(1, 1, 1.0));
/// let d = dlqr(&two, &one, &one, &one)?;
/// let p = 2.0 + 5f64.sqrt();
/// assert!((d.p[(0, 0)] - p).abs() < 1e-13);
/// assert!((d.k[(0, 0)] - 2.0 * p / (1.0 + p)).abs() < 1e-13);
/// assert!((d.poles[0].re - 2.0 / (1.0 + p)).abs() < 1e-13 && d.poles[0].im == 0.0);
/// // an unreachable unstable mode: x1 grows by 2 whatever u does
/// let ad = DMatrix::from_row_slice(2, 2, &[2.0, 0.0, 0.0, 0.5]);
/// let bd = DMatrix::from_row_slice(2, 1, &[0.0, 1.0]);
/// assert!(dlqr(&ad, &bd, &DMatrix::identity(2, 2), &one).is_err());
/// # Ok::<(), nonholo_runtime::Error>(())
/// ```
pub fn dlqr(
    ad: &DMatrix<f64>,
    bd: &DMatrix<f64>,
    q: &DMatrix<f64>,
    r: &DMatrix<f64>,
) -> Result<Lqr, Error> {
    let w = Weights::check(ad, bd, q, r, true)?;
    // The doubling algorithm needs (Q, Ad) detectable; when its result fails the checks, the
    // sign function of the Cayley-transformed symplectic pencil, which does not, decides.
    let finish = |p| {
        let (p, _, _) = refine_dare(ad, bd, &w, p);
        discrete_gain(ad, bd, &w, p)
    };
    dare_doubling(ad, &w.g, &w.q)
        .and_then(|(p, _)| finish(p))
        .or_else(|_| finish(dare_sign(ad, &w.g, &w.q)?.0))
}

/// `K = (R + B'PB)^-1 B'PA`, the poles and the residual, checked.
fn discrete_gain(
    ad: &DMatrix<f64>,
    bd: &DMatrix<f64>,
    w: &Weights,
    p: DMatrix<f64>,
) -> Result<Lqr, Error> {
    let k = dare_gain(ad, bd, &w.r, &p).ok_or_else(|| {
        unsolvable(String::from(
            "no stabilizing solution of the DARE: R + Bd'P Bd is not positive definite at the \
             computed solution",
        ))
    })?;
    let residual = dare_residual(ad, bd, &w.q, &p, &k);
    let acl = ad - bd * &k;
    let poles = eigenvalues(&acl)?;
    if let Some(pole) = poles
        .iter()
        .find(|z| modulus(z) >= 1.0 - STABILITY_MARGIN || z.re.is_nan() || z.im.is_nan())
    {
        return Err(unsolvable(format!(
            "no stabilizing solution of the DARE: a closed-loop pole {pole} (modulus {}) is \
             not strictly inside the unit circle (the pair (Ad, Bd) is not stabilizable, or \
             (Q, Ad) has an unobservable mode on the unit circle)",
            modulus(pole)
        )));
    }
    check_residual(residual, "DARE")?;
    Ok(Lqr {
        k,
        p,
        poles,
        residual,
    })
}

// ---------------------------------------------------------------------------------------
// Arguments

/// The checked and symmetrized weights, and `G = B R^-1 B'`.
struct Weights {
    q: DMatrix<f64>,
    r: DMatrix<f64>,
    /// `R^-1 B'`, `m x n`.
    rinv_bt: DMatrix<f64>,
    /// `B R^-1 B'`, symmetric positive semidefinite.
    g: DMatrix<f64>,
}

impl Weights {
    fn check(
        a: &DMatrix<f64>,
        b: &DMatrix<f64>,
        q: &DMatrix<f64>,
        r: &DMatrix<f64>,
        discrete: bool,
    ) -> Result<Weights, Error> {
        let (a_name, b_name) = if discrete { ("ad", "bd") } else { ("a", "b") };
        let (a_dims, b_dims) = if discrete {
            (
                ["rows of ad", "columns of ad"],
                ["rows of bd", "columns of bd"],
            )
        } else {
            (["rows of a", "columns of a"], ["rows of b", "columns of b"])
        };
        let n = a.nrows();
        check_dims(a, a_dims, n, n)?;
        check_dims(b, b_dims, n, b.ncols())?;
        let m = b.ncols();
        check_dims(q, ["rows of q", "columns of q"], n, n)?;
        check_dims(r, ["rows of r", "columns of r"], m, m)?;
        check_finite(a, a_name)?;
        check_finite(b, b_name)?;
        check_finite(q, "q")?;
        check_finite(r, "r")?;
        check_symmetric(q, "Q")?;
        check_symmetric(r, "R")?;
        let q = symmetrized(q);
        let r = symmetrized(r);
        let (qmin, qmax) = extreme_eigenvalues(&q, "Q")?;
        if qmin < -1e-12 * qmax.abs().max(qmin.abs()) {
            return Err(invalid(format!(
                "Q is not positive semidefinite: it has the eigenvalue {qmin:e}"
            )));
        }
        let (rmin, rmax) = extreme_eigenvalues(&r, "R")?;
        if m > 0 && (rmin <= m as f64 * f64::EPSILON * rmax || rmin.is_nan()) {
            return Err(invalid(format!(
                "R is not positive definite: its eigenvalues range from {rmin:e} to {rmax:e}"
            )));
        }
        let chol = Cholesky::new(r.clone()).ok_or_else(|| {
            invalid(String::from(
                "R is not positive definite (its Cholesky factorization failed)",
            ))
        })?;
        // R^-1 B' = L^-T (L^-1 B'), G = (L^-1 B')' (L^-1 B'): symmetric PSD by construction.
        let lb = chol
            .l()
            .solve_lower_triangular(&b.transpose())
            .ok_or_else(|| invalid(String::from("R is singular")))?;
        let g = lb.transpose() * &lb;
        let rinv_bt = chol.solve(&b.transpose());
        Ok(Weights { q, r, rinv_bt, g })
    }
}

fn invalid(message: String) -> Error {
    Error::InvalidOptions(message)
}

fn unsolvable(message: String) -> Error {
    Error::NoStabilizingSolution(message)
}

/// An error unless `x` is `rows x cols`; `what` names its rows and its columns.
fn check_dims(
    x: &DMatrix<f64>,
    what: [&'static str; 2],
    rows: usize,
    cols: usize,
) -> Result<(), Error> {
    for (what, expected, found) in [(what[0], rows, x.nrows()), (what[1], cols, x.ncols())] {
        if found != expected {
            return Err(Error::Dimension {
                what,
                expected,
                found,
            });
        }
    }
    Ok(())
}

fn check_finite(x: &DMatrix<f64>, name: &str) -> Result<(), Error> {
    match x.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(i) => Err(invalid(format!(
            "{name} has the non-finite entry {} at ({}, {})",
            x[i],
            i % x.nrows(),
            i / x.nrows()
        ))),
    }
}

fn check_symmetric(x: &DMatrix<f64>, name: &str) -> Result<(), Error> {
    let scale = max_abs(x);
    for j in 0..x.ncols() {
        for i in 0..j {
            if libm::fabs(x[(i, j)] - x[(j, i)]) > 1e-10 * scale {
                return Err(invalid(format!(
                    "{name} is not symmetric: entry ({i}, {j}) is {} but ({j}, {i}) is {}",
                    x[(i, j)],
                    x[(j, i)]
                )));
            }
        }
    }
    Ok(())
}

/// The smallest and largest eigenvalues of a symmetric matrix (`(0, 0)` if empty).
fn extreme_eigenvalues(x: &DMatrix<f64>, name: &str) -> Result<(f64, f64), Error> {
    if x.nrows() == 0 {
        return Ok((0.0, 0.0));
    }
    let eig = SymmetricEigen::try_new(x.clone(), f64::EPSILON, 100 * x.nrows())
        .ok_or_else(|| invalid(format!("the eigenvalues of {name} did not converge")))?;
    let ev = eig.eigenvalues;
    Ok((ev.min(), ev.max()))
}

fn check_residual(residual: f64, equation: &str) -> Result<(), Error> {
    if residual <= RESIDUAL_TOLERANCE {
        Ok(())
    } else {
        Err(unsolvable(format!(
            "the {equation} solution is inaccurate: relative residual {residual:e} > \
             {RESIDUAL_TOLERANCE:e} (the problem is too ill-conditioned, or close to one \
             without a stabilizing solution)"
        )))
    }
}

// ---------------------------------------------------------------------------------------
// Small matrix helpers

fn symmetrized(x: &DMatrix<f64>) -> DMatrix<f64> {
    (x + x.transpose()) * 0.5
}

fn max_abs(x: &DMatrix<f64>) -> f64 {
    x.iter().fold(0.0, |m, v| m.max(libm::fabs(*v)))
}

/// The 1-norm: the largest column sum of absolute values.
fn one_norm(x: &DMatrix<f64>) -> f64 {
    x.column_iter()
        .map(|c| c.iter().map(|v| libm::fabs(*v)).sum::<f64>())
        .fold(0.0, f64::max)
}

/// `2^e`, exactly.
fn pow2(e: i32) -> f64 {
    libm::scalbn(1.0, e)
}

/// `|z|`.
fn modulus(z: &Complex<f64>) -> f64 {
    libm::hypot(z.re, z.im)
}

/// `x / y` with `0 / 0 = 0`.
fn ratio(x: f64, y: f64) -> f64 {
    if x == 0.0 {
        0.0
    } else {
        x / y
    }
}

#[cfg(test)]
mod tests;
