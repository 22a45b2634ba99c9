//! [`Linearization`], and the characteristic polynomial of its matrix (the eigenvalues are
//! computed in `eigen.rs`).

use alloc::vec;
use alloc::vec::Vec;
use nalgebra::{Complex, DMatrix};

use crate::Error;

/// The linear model `y' = a y + b r` about an operating point, from
/// [`linearize`](super::linearize()).
///
/// ```
/// use nonholo_runtime::{linearize, nalgebra::DMatrix, Linearize};
/// # use nonholo_runtime::__private::doc_models::Wheel;
///
/// // A wheel rolling on a line, held by a spring at its centre: state [x, phi, w] with
/// // x' = r w, phi' = w, w' = -2 k x / (3 m r) and the configuration constraint x = r phi.
/// let wheel = Wheel { m: 2.0, r: 0.5, k: 3.0 };
/// let lin = linearize(&wheel, 0.0, &[0.0; 3], &Linearize::new())?;
/// #[rustfmt::skip]
/// let j = DMatrix::from_row_slice(3, 3, &[
///     0.0, 0.0, 0.5,
///     0.0, 0.0, 1.0,
///     -2.0, 0.0, 0.0,
/// ]);
/// assert_eq!(lin.jacobian, j);
/// // y = [phi, w] with x = r phi substituted: phi'' = -(2 k / 3 m) phi
/// assert_eq!(lin.states, ["phi", "w"]);
/// assert_eq!(lin.a, DMatrix::from_row_slice(2, 2, &[0.0, 1.0, -1.0, 0.0]));
/// // an equilibrium; nothing dropped; x follows phi exactly
/// assert_eq!((lin.max_residual(), lin.coupling, lin.drift), (0.0, 0.0, 0.0));
/// # Ok::<(), nonholo_runtime::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Linearization {
    /// Names of the reduced state `y`.
    pub states: Vec<&'static str>,
    /// Names of the inputs (the columns of `b`): runtime inputs or parameters.
    pub inputs: Vec<&'static str>,
    /// `A = J_KK - J_KD S`.
    pub a: DMatrix<f64>,
    /// `B = df_K / dr`.
    pub b: DMatrix<f64>,
    /// The full exact Jacobian `J = df/dx` (`DIM x DIM`).
    pub jacobian: DMatrix<f64>,
    /// `f_K` at the operating point: about 0 at an equilibrium or steady motion.
    pub residual: Vec<f64>,
    /// The largest entry of a dropped state in the kept and dependent rows.
    pub coupling: f64,
    /// `max |J_D T + S J_K T|`: how far the dependent rows are from following the kept
    /// ones (round-off when psi satisfies the derivative of the configuration constraints
    /// and the coordinates are stationary, `q' = 0`; where they move it also holds the
    /// curvature term `Phi_D^-1 Phi_qq(q', dq)`, which is not an error).
    pub drift: f64,
}

impl Linearization {
    /// The eigenvalues of `a`, sorted by real part then imaginary part, complex ones in
    /// conjugate pairs, each repeated by its algebraic multiplicity. Balancing, Hessenberg
    /// reduction and the double-shift QR of LAPACK's `dlahqr` with its exceptional shifts,
    /// so that the equal-modulus quartets `+-a +- bi` of gyroscopic systems below their
    /// critical spin converge; backward stable (each is an exact eigenvalue of `a + E`,
    /// `||E||` of the order `eps ||a||`). See [`eigenvalues`](super::eigenvalues()) for the
    /// method, the accuracy and the (unseen in practice) error.
    ///
    /// ```
    /// use nonholo_runtime::{linearize, Linearize};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// // m x'' + c x' + k x = 0: s = -c / 2m +- i sqrt(k / m - (c / 2m)^2) = -1 +- 2i
    /// let osc = Oscillator { m: 1.0, k: 5.0, c: 2.0, u: 0.0 };
    /// let ev = linearize(&osc, 0.0, &[0.0, 0.0], &Linearize::new())?.eigenvalues()?;
    /// assert_eq!(ev.len(), 2);
    /// for (e, im) in ev.iter().zip([-2.0, 2.0]) {
    ///     assert!((e.re + 1.0).abs() < 1e-12 && (e.im - im).abs() < 1e-12);
    /// }
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn eigenvalues(&self) -> Result<Vec<Complex<f64>>, Error> {
        super::eigenvalues(&self.a)
    }

    /// The largest `|f_K|` at the operating point: about 0 at a steady motion.
    ///
    /// ```
    /// use nonholo_runtime::{linearize, Linearize};
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Skate};
    ///
    /// // x'' = -4 x: the origin is an equilibrium, x = 0.25 is not (x'' = -1).
    /// let osc = Oscillator::new(2.0);
    /// assert_eq!(linearize(&osc, 0.0, &[0.0, 0.0], &Linearize::new())?.max_residual(), 0.0);
    /// assert_eq!(linearize(&osc, 0.0, &[0.25, 0.0], &Linearize::new())?.max_residual(), 1.0);
    /// // A skate turning steadily is a steady motion in its speeds [v, omega].
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// let spec = Linearize::new().keep(&["v", "omega"]);
    /// let lin = linearize(&skate, 0.0, &[0.0, 0.0, 0.3, 1.0, 0.5], &spec)?;
    /// assert_eq!(lin.max_residual(), 0.0);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn max_residual(&self) -> f64 {
        self.residual.iter().fold(0.0f64, |m, x| m.max(x.abs()))
    }

    /// The coefficients `[c_0, c_1, .., c_{n-1}, 1]` of `det(s I - a)`, by the
    /// Faddeev–LeVerrier recurrence: smooth in the operating point where eigenvalues are
    /// not, so stability boundaries are found as sign changes of `c_0` (a real eigenvalue
    /// through 0) or of a Hurwitz determinant (a complex pair through the imaginary axis).
    ///
    /// ```
    /// use nonholo_runtime::{linearize, Linearize};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// // m x'' + c x' + k x = 0: det(s I - a) = s^2 + (c / m) s + k / m
    /// let osc = Oscillator { m: 2.0, k: 8.0, c: 0.5, u: 0.0 };
    /// let lin = linearize(&osc, 0.0, &[0.0, 0.0], &Linearize::new())?;
    /// assert_eq!(lin.characteristic_polynomial(), [4.0, 0.25, 1.0]);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn characteristic_polynomial(&self) -> Vec<f64> {
        characteristic_polynomial(&self.a)
    }

    /// For a reduced state `[q_K, dot(q_K)]` with `a = [[0, I], [a21, a22]]` and
    /// `b = [[0], [b2]]` (`b2` square and invertible): the second-order form
    /// `M y'' + C y' + K y = r` with `M = b2^-1`, `C = -M a22`, `K = -M a21`.
    /// `None` when `a` or `b` do not have that shape (to `1e-12`).
    ///
    /// ```
    /// use nonholo_runtime::{linearize, Linearize};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// // m x'' + c x' + k x = u, linearized with u as the input, gives back m, c and k.
    /// let osc = Oscillator { m: 2.0, k: 8.0, c: 0.5, u: 0.0 };
    /// let lin = linearize(&osc, 0.0, &[0.0, 0.0], &Linearize::new().inputs(&["u"]))?;
    /// let (m, c, k) = lin.second_order().unwrap();
    /// assert_eq!((m[(0, 0)], c[(0, 0)], k[(0, 0)]), (2.0, 0.5, 8.0));
    /// // without one input per coordinate there is no M
    /// let lin = linearize(&osc, 0.0, &[0.0, 0.0], &Linearize::new())?;
    /// assert!(lin.second_order().is_none());
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn second_order(&self) -> Option<(DMatrix<f64>, DMatrix<f64>, DMatrix<f64>)> {
        let n = self.a.nrows();
        if !n.is_multiple_of(2) || self.b.ncols() != n / 2 {
            return None;
        }
        let h = n / 2;
        let tol = 1e-12 * (1.0 + self.a.amax());
        for r in 0..h {
            for c in 0..n {
                let want = if c == r + h { 1.0 } else { 0.0 };
                if (self.a[(r, c)] - want).abs() > tol {
                    return None;
                }
            }
            if (0..h).any(|c| self.b[(r, c)].abs() > tol) {
                return None;
            }
        }
        let m = self.b.view((h, 0), (h, h)).into_owned().try_inverse()?;
        let k = -(&m * self.a.view((h, 0), (h, h)));
        let c = -(&m * self.a.view((h, h), (h, h)));
        Some((m, c, k))
    }
}

/// The coefficients `[c_0, .., c_{n-1}, 1]` of `det(s I - a)` (Faddeev–LeVerrier); see
/// [`Linearization::characteristic_polynomial`].
///
/// ```
/// use nonholo_runtime::linearize::characteristic_polynomial;
/// use nonholo_runtime::nalgebra::{DMatrix, DVector};
/// let a = DMatrix::from_row_slice(2, 2, &[0.0, 1.0, -4.0, -0.5]);
/// assert_eq!(characteristic_polynomial(&a), [4.0, 0.5, 1.0]); // s^2 + 0.5 s + 4
/// // diag(1, 2, 3): (s - 1)(s - 2)(s - 3) = s^3 - 6 s^2 + 11 s - 6
/// let d = DMatrix::from_diagonal(&DVector::from_vec(vec![1.0, 2.0, 3.0]));
/// assert_eq!(characteristic_polynomial(&d), [-6.0, 11.0, -6.0, 1.0]);
/// ```
pub fn characteristic_polynomial(a: &DMatrix<f64>) -> Vec<f64> {
    let n = a.nrows();
    let mut c = vec![0.0; n + 1];
    c[n] = 1.0;
    let mut m = DMatrix::<f64>::zeros(n, n);
    for k in 1..=n {
        // M_k = A M_{k-1} + c_{n-k+1} I,  c_{n-k} = -tr(A M_k) / k
        m = a * &m;
        for i in 0..n {
            m[(i, i)] += c[n - k + 1];
        }
        c[n - k] = -(a * &m).trace() / k as f64;
    }
    c
}
