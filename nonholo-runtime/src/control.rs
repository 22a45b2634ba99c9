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

use nalgebra::{Cholesky, Complex, DMatrix, SymmetricEigen, SVD};

use crate::linearize::eigenvalues;
use crate::Error;

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

fn care_residual(a: &DMatrix<f64>, g: &DMatrix<f64>, q: &DMatrix<f64>, p: &DMatrix<f64>) -> f64 {
    let pa = p * a;
    let pgp = p * g * p;
    let res = q + &pa + pa.transpose() - &pgp;
    ratio(res.norm(), q.norm() + 2.0 * pa.norm() + pgp.norm())
}

fn dare_residual(
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

// ---------------------------------------------------------------------------------------
// Balancing

/// A Riccati problem `(A, G, Q)` (`A'P + PA - PGP + Q = 0` or `P = A'P(I + GP)^-1 A + Q`)
/// in balanced coordinates: `A^ = D^-1 A D`, `G^ = rho D^-1 G D^-1`, `Q^ = D Q D / rho`,
/// whose solution `P^` gives `P = rho D^-1 P^ D^-1`. `D` (the state scaling `x = D x^`) and
/// `rho` are powers of two, so the change is exact.
struct Balanced {
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
fn symplectic_balance(a: &DMatrix<f64>, g: &DMatrix<f64>, q: &DMatrix<f64>) -> Vec<f64> {
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
struct Names {
    equation: &'static str,
    matrix: &'static str,
    boundary: &'static str,
    pair: &'static str,
    observed: &'static str,
}

const CONTINUOUS_NAMES: Names = Names {
    equation: "CARE",
    matrix: "the Hamiltonian matrix",
    boundary: "the imaginary axis",
    pair: "(A, B)",
    observed: "(Q, A)",
};

const DISCRETE_NAMES: Names = Names {
    equation: "DARE",
    matrix: "the Cayley transform of the symplectic pencil",
    boundary: "the unit circle",
    pair: "(Ad, Bd)",
    observed: "(Q, Ad)",
};

/// The stabilizing solution of `A'P + PA - PGP + Q = 0` from the sign function of the
/// (balanced) Hamiltonian, and the number of Newton steps.
fn care_sign(
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
fn dare_sign(
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
fn sign(mut z: DMatrix<f64>, names: &Names) -> Result<(DMatrix<f64>, usize), Error> {
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
fn hamiltonian_part(z: &mut DMatrix<f64>, n: usize) {
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
fn graph(w: &DMatrix<f64>, names: &Names) -> Result<DMatrix<f64>, Error> {
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
const REFINE_ABOVE: f64 = 1e-14;

/// Newton's method on the CARE from `p` (at most 3 steps, each kept only if it lowers the
/// residual): `P <- P + X` with `(A - GP)'X + X(A - GP) + CARE(P) = 0`. Returns the refined
/// `P`, its relative residual and the number of steps kept.
fn refine_care(
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
fn lyapunov(a: &DMatrix<f64>, c: &DMatrix<f64>) -> Option<DMatrix<f64>> {
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
fn dare_doubling(
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
fn dare_gain(
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
fn refine_dare(
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
fn stein(a: &DMatrix<f64>, c: &DMatrix<f64>) -> Option<DMatrix<f64>> {
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

// ---------------------------------------------------------------------------------------
// Matrix exponential

/// `e^x` by scaling and squaring with a diagonal Padé approximant (Higham 2005); `None` if
/// it overflows or the Padé denominator is singular (which needs an overflowing norm).
fn expm(x: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let n = x.nrows();
    if x.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let identity = DMatrix::<f64>::identity(n, n);
    let norm = one_norm(x);
    const THETA: [(usize, f64); 4] = [
        (3, 1.495585217958292e-2),
        (5, 2.53939833006323e-1),
        (7, 9.504178996162932e-1),
        (9, 2.097847961257068e0),
    ];
    const THETA13: f64 = 5.371920351148152e0;
    let (u, v, s) = if let Some(&(m, _)) = THETA.iter().find(|(_, t)| norm <= *t) {
        let b = pade_coefficients(m);
        let x2 = x * x;
        // U = X Σ b_{2j+1} X^{2j}, V = Σ b_{2j} X^{2j}
        let mut power = identity.clone();
        let mut u = DMatrix::zeros(n, n);
        let mut v = DMatrix::zeros(n, n);
        for j in 0..=m / 2 {
            u += &power * b[2 * j + 1];
            v += &power * b[2 * j];
            power = &power * &x2;
        }
        (x * u, v, 0)
    } else {
        let s = libm::ceil(libm::log2(norm / THETA13)).max(0.0);
        if s > 1100.0 {
            return None;
        }
        let s = s as i32;
        let scale = pow2(-s);
        let xs = x * scale;
        let b = pade_coefficients(13);
        let a2 = &xs * &xs;
        let a4 = &a2 * &a2;
        let a6 = &a4 * &a2;
        let u = &xs
            * (&a6 * (&a6 * b[13] + &a4 * b[11] + &a2 * b[9])
                + &a6 * b[7]
                + &a4 * b[5]
                + &a2 * b[3]
                + &identity * b[1]);
        let v = &a6 * (&a6 * b[12] + &a4 * b[10] + &a2 * b[8])
            + &a6 * b[6]
            + &a4 * b[4]
            + &a2 * b[2]
            + &identity * b[0];
        (u, v, s)
    };
    // (V - U) E = V + U
    let mut e = (&v - &u).lu().solve(&(&v + &u))?;
    for _ in 0..s {
        e = &e * &e;
    }
    if e.iter().all(|v| v.is_finite()) {
        Some(e)
    } else {
        None
    }
}

/// The coefficients `b_0 ..= b_m` of the `[m/m]` Padé approximant of `e^x`.
fn pade_coefficients(m: usize) -> &'static [f64] {
    match m {
        3 => &[120.0, 60.0, 12.0, 1.0],
        5 => &[30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0],
        7 => &[
            17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0,
        ],
        9 => &[
            17643225600.0,
            8821612800.0,
            2075673600.0,
            302702400.0,
            30270240.0,
            2162160.0,
            110880.0,
            3960.0,
            90.0,
            1.0,
        ],
        _ => &[
            64764752532480000.0,
            32382376266240000.0,
            7771770303897600.0,
            1187353796428800.0,
            129060195264000.0,
            10559470521600.0,
            670442572800.0,
            33522128640.0,
            1323241920.0,
            40840800.0,
            960960.0,
            16380.0,
            182.0,
            1.0,
        ],
    }
}

#[cfg(test)]
mod tests {
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
        include!("../tests/data/control/reference.rs");
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
            assert!(
                message(dlqr(&a2, &b, &q, &r).unwrap_err()).starts_with("ad has the non-finite")
            );
            assert!(
                message(dlqr(&a, &b2, &q, &r).unwrap_err()).starts_with("bd has the non-finite")
            );
            assert!(
                message(discretize(&a2, &b, 0.1).unwrap_err()).starts_with("a has the non-finite")
            );
            assert!(
                message(discretize(&a, &b2, 0.1).unwrap_err()).starts_with("b has the non-finite")
            );
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
                res.residual, d.residual
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
}
