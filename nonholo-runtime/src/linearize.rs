//! Linearization about equilibria and steady motions.
//!
//! For a model with state `x = [q, z]` and `x' = f(x, t)` the exact Jacobian
//! `J = df/dx` is assembled from one [`Model::rhs_jvp`] per state component (symbolic
//! forward mode in generated models: no truncation error). The reduced state
//! `y = x_K` keeps the named coordinates and speeds; the coordinates `D` set by the
//! configuration constraints `Phi(q, t) = 0` ([`Model::CONFIGURATION_COORDINATES`]) follow
//! the kept ones by the implicit-function theorem,
//!
//! ```text
//! dq_D = -S dq_K,   S = Phi_D^-1 Phi_K,   A = J_KK - J_KD S,   B = df_K / dr
//! ```
//!
//! and every other state is dropped, which is exact only when the kept and dependent
//! rows do not depend on it (`J[K u D, j] = 0`: ignorable coordinates, decoupled speeds);
//! a dropped state that couples is an error naming it, never a silently wrong matrix.
//! `B` comes from [`Model::rhs_param_jvp`] along the parameters named as inputs.
//! (Peterson, Gede & Hubbard 2015 for the general form; for `[q, z]` models only their
//! `C_0` is needed, since `psi` already satisfies the velocity constraints.)

use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use nalgebra::{Complex, DMatrix};

use crate::{Error, Model};

/// What to keep and which parameters act as inputs; see [`linearize`].
///
/// ```
/// use nonholo_runtime::Linearize;
/// let spec = Linearize::new().keep(&["roll", "dot(roll)"]).inputs(&["t_roll"]);
/// assert_eq!(spec.kept(), ["roll", "dot(roll)"]);
/// ```
#[derive(Clone, Debug)]
pub struct Linearize {
    keep: Vec<String>,
    inputs: Vec<String>,
    tolerance: f64,
}

impl Default for Linearize {
    fn default() -> Self {
        Self::new()
    }
}

impl Linearize {
    /// Keep every state except the dependent coordinates; no inputs; coupling tolerance
    /// `1e-10` relative to `1 + max |J|`.
    pub fn new() -> Self {
        Self {
            keep: Vec::new(),
            inputs: Vec::new(),
            tolerance: 1e-10,
        }
    }

    /// The kept states, by [`Model::COORDINATES`] and [`Model::SPEEDS`] names, in the
    /// order of the reduced state.
    pub fn keep(mut self, names: &[&str]) -> Self {
        self.keep = names.iter().map(|s| s.to_string()).collect();
        self
    }

    /// Parameters ([`Model::PARAMETERS`]) that act as inputs: the columns of `b`. In
    /// generated models these are the parameters that enter only `forces { .. }`
    /// (torques, forces, dampings); naming one of the geometry or inertia is an
    /// [`Error::NotAvailable`] (see [`Model::rhs_param_jvp`]).
    pub fn inputs(mut self, names: &[&str]) -> Self {
        self.inputs = names.iter().map(|s| s.to_string()).collect();
        self
    }

    /// How large (relative to `1 + max |J|`) a dropped state's coupling may be.
    pub fn tolerance(mut self, tolerance: f64) -> Self {
        self.tolerance = tolerance;
        self
    }

    /// The kept names as given.
    pub fn kept(&self) -> Vec<&str> {
        self.keep.iter().map(String::as_str).collect()
    }
}

/// The linear model `y' = a y + b r` about an operating point.
#[derive(Clone, Debug, PartialEq)]
pub struct Linearization {
    /// Names of the reduced state `y`.
    pub states: Vec<&'static str>,
    /// Names of the inputs `r` (parameters).
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

/// Linearize `model` at `(t, state)`; see the [module docs](self) for the maths.
///
/// ```
/// use nonholo_runtime::{linearize, Linearize, Model, Error, Formulation};
/// /// A pendulum `theta'' = -sin(theta) + u`, hand-written (its `rhs_jvp` is the default
/// /// central difference, its `rhs_param_jvp` written out).
/// struct Pendulum { u: f64 }
/// impl Model for Pendulum {
///     const COORDINATES: &'static [&'static str] = &["theta"];
///     const SPEEDS: &'static [&'static str] = &["w"];
///     const PARAMETERS: &'static [&'static str] = &["u"];
///     const CONSTRAINTS: &'static [&'static str] = &[];
///     const NQ: usize = 1;
///     const NZ: usize = 1;
///     const NC: usize = 0;
///     const DIM: usize = 2;
///     const FORMULATION: Formulation = Formulation::GibbsAppell;
///     const EQUATIONS: &'static str = "theta' = w, w' = -sin(theta) + u";
///     type State = [f64; 2];
///     const ZERO_STATE: [f64; 2] = [0.0; 2];
///     fn parameters(&self) -> Vec<f64> { vec![self.u] }
///     fn rhs(&self, _t: f64, s: &[f64], d: &mut [f64]) -> Result<(), Error> {
///         d[0] = s[1];
///         d[1] = -s[0].sin() + self.u;
///         Ok(())
///     }
///     fn rhs_param_jvp(&self, _t: f64, _s: &[f64], dp: &[f64], o: &mut [f64]) -> Result<(), Error> {
///         o[0] = 0.0;
///         o[1] = dp[0];
///         Ok(())
///     }
///     fn qdot(&self, _t: f64, _q: &[f64], z: &[f64], qd: &mut [f64]) -> Result<(), Error> {
///         qd[0] = z[0];
///         Ok(())
///     }
///     fn state_from_qdot(&self, _t: f64, q: &[f64], qd: &[f64]) -> Result<[f64; 2], Error> {
///         Ok([q[0], qd[0]])
///     }
///     fn energy(&self, _t: f64, s: &[f64]) -> Result<f64, Error> {
///         Ok(0.5 * s[1] * s[1] - s[0].cos())
///     }
///     fn constraint_residual(&self, _t: f64, _q: &[f64], _qd: &[f64], _r: &mut [f64]) -> Result<(), Error> {
///         Ok(())
///     }
/// }
/// let lin = linearize(&Pendulum { u: 0.0 }, 0.0, &[0.0, 0.0], &Linearize::new().inputs(&["u"]))?;
/// assert!((lin.a[(1, 0)] + 1.0).abs() < 1e-9 && lin.b[(1, 0)] == 1.0);
/// let eig = lin.eigenvalues()?; // +- i
/// assert!((eig[0].im.abs() - 1.0).abs() < 1e-9);
/// # Ok::<(), Error>(())
/// ```
pub fn linearize<M: Model>(
    model: &M,
    t: f64,
    state: &[f64],
    spec: &Linearize,
) -> Result<Linearization, Error> {
    crate::model::validate_layout::<M>()?;
    let (nq, n) = (M::NQ, M::DIM);
    if state.len() != n {
        return Err(Error::Dimension {
            what: "state",
            expected: n,
            found: state.len(),
        });
    }
    let names: Vec<&'static str> = M::COORDINATES.iter().chain(M::SPEEDS).copied().collect();
    let point = || state.to_vec();
    let dependent: Vec<usize> = M::CONFIGURATION_COORDINATES
        .iter()
        .filter_map(|d| M::COORDINATES.iter().position(|c| c == d))
        .collect();
    let keep: Vec<usize> = if spec.keep.is_empty() {
        (0..n).filter(|i| !dependent.contains(i)).collect()
    } else {
        let mut keep = Vec::with_capacity(spec.keep.len());
        for name in &spec.keep {
            let Some(i) = names.iter().position(|s| s == name) else {
                return Err(Error::UnknownName {
                    what: "states",
                    name: name.clone(),
                    known: names.clone(),
                });
            };
            keep.push(i);
        }
        keep
    };
    let dependent_error = |why| Error::DependentCoordinates {
        coordinates: M::CONFIGURATION_COORDINATES.to_vec(),
        why,
        t,
        point: point(),
    };
    if keep.iter().any(|i| dependent.contains(i)) {
        return Err(dependent_error(
            "a kept coordinate is set by the configuration constraints (keep the others; it follows them)",
        ));
    }

    // the exact Jacobian, one JVP per column
    let mut jacobian = DMatrix::zeros(n, n);
    let mut e = vec![0.0; n];
    let mut col = vec![0.0; n];
    for j in 0..n {
        e[j] = 1.0;
        model.rhs_jvp(t, state, &e, &mut col)?;
        e[j] = 0.0;
        jacobian.column_mut(j).copy_from_slice(&col);
    }
    let scale = 1.0 + jacobian.amax();

    // S = Phi_D^-1 Phi_K (zero columns for kept speeds)
    let k = M::CONFIGURATION_CONSTRAINTS.len();
    let mut phi = vec![0.0; k * nq];
    let mut s = DMatrix::zeros(k, keep.len());
    if k > 0 {
        if dependent.len() != k {
            return Err(dependent_error(
                "there must be one dependent coordinate per configuration constraint",
            ));
        }
        model.configuration_jacobian(t, &state[..nq], &mut phi)?;
        let phi_d = DMatrix::from_fn(k, k, |r, c| phi[r * nq + dependent[c]]);
        let phi_k = DMatrix::from_fn(k, keep.len(), |r, c| {
            if keep[c] < nq {
                phi[r * nq + keep[c]]
            } else {
                0.0
            }
        });
        s = phi_d.lu().solve(&phi_k).ok_or_else(|| {
            dependent_error("the configuration constraints' Jacobian in them is singular here")
        })?;
    }
    // the embedding of the reduced perturbation in the full state
    let mut embed = DMatrix::zeros(n, keep.len());
    for (c, i) in keep.iter().enumerate() {
        embed[(*i, c)] = 1.0;
        for (d, qd) in dependent.iter().enumerate() {
            embed[(*qd, c)] -= s[(d, c)];
        }
    }
    let jt = &jacobian * &embed;
    let a = DMatrix::from_fn(keep.len(), keep.len(), |r, c| jt[(keep[r], c)]);

    // dropping a state is exact only if neither the kept and dependent rows nor the
    // configuration constraints depend on it
    let mut coupling = 0.0f64;
    for j in (0..n).filter(|j| !keep.contains(j) && !dependent.contains(j)) {
        let mut cj = keep
            .iter()
            .chain(&dependent)
            .fold(0.0f64, |m, r| m.max(jacobian[(*r, j)].abs()));
        if j < nq {
            cj = (0..k).fold(cj, |m, r| m.max(phi[r * nq + j].abs()));
        }
        // NaN couples too
        if cj.is_nan() || cj > spec.tolerance * scale {
            return Err(Error::DroppedStateCouples {
                state: names[j],
                coupling: cj,
                t,
                point: point(),
            });
        }
        coupling = coupling.max(cj);
    }
    let mut drift = 0.0f64;
    for (d, qd) in dependent.iter().enumerate() {
        for c in 0..keep.len() {
            let mut x = jt[(*qd, c)];
            for (c2, i) in keep.iter().enumerate() {
                x += s[(d, c2)] * jt[(*i, c)];
            }
            drift = drift.max(x.abs());
        }
    }

    let mut f = vec![0.0; n];
    model.rhs(t, state, &mut f)?;
    let residual = keep.iter().map(|i| f[*i]).collect();

    let params = M::PARAMETERS;
    let mut inputs = Vec::with_capacity(spec.inputs.len());
    let mut b = DMatrix::zeros(keep.len(), spec.inputs.len());
    let mut dp = vec![0.0; params.len()];
    for (c, name) in spec.inputs.iter().enumerate() {
        let Some(p) = params.iter().position(|s| s == name) else {
            return Err(Error::UnknownName {
                what: "parameters",
                name: name.clone(),
                known: params.to_vec(),
            });
        };
        inputs.push(params[p]);
        dp[p] = 1.0;
        model.rhs_param_jvp(t, state, &dp, &mut col)?;
        dp[p] = 0.0;
        for (r, i) in keep.iter().enumerate() {
            b[(r, c)] = col[*i];
        }
    }
    Ok(Linearization {
        states: keep.iter().map(|i| names[*i]).collect(),
        inputs,
        a,
        b,
        jacobian,
        residual,
        coupling,
        drift,
    })
}

impl Linearization {
    /// The eigenvalues of `a`, sorted by real part then imaginary part (real Schur form,
    /// nalgebra, capped at `100 n` iterations so that it cannot hang).
    pub fn eigenvalues(&self) -> Result<Vec<Complex<f64>>, Error> {
        eigenvalues(&self.a)
    }

    /// The largest `|f_K|` at the operating point: about 0 at a steady motion.
    pub fn max_residual(&self) -> f64 {
        self.residual.iter().fold(0.0f64, |m, x| m.max(x.abs()))
    }

    /// The coefficients `[c_0, c_1, .., c_{n-1}, 1]` of `det(s I - a)`, by the
    /// Faddeev–LeVerrier recurrence: smooth in the operating point where eigenvalues are
    /// not, so stability boundaries are found as sign changes of `c_0` (a real eigenvalue
    /// through 0) or of a Hurwitz determinant (a complex pair through the imaginary axis).
    ///
    /// ```
    /// use nonholo_runtime::linearize::characteristic_polynomial;
    /// let a = nalgebra::DMatrix::from_row_slice(2, 2, &[0.0, 1.0, -4.0, -0.5]);
    /// assert_eq!(characteristic_polynomial(&a), [4.0, 0.5, 1.0]); // s^2 + 0.5 s + 4
    /// ```
    pub fn characteristic_polynomial(&self) -> Vec<f64> {
        characteristic_polynomial(&self.a)
    }

    /// For a reduced state `[q_K, dot(q_K)]` with `a = [[0, I], [a21, a22]]` and
    /// `b = [[0], [b2]]` (`b2` square and invertible): the second-order form
    /// `M y'' + C y' + K y = r` with `M = b2^-1`, `C = -M a22`, `K = -M a21`.
    /// `None` when `a` or `b` do not have that shape (to `1e-12`).
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

/// Eigenvalues of a square matrix, sorted by real part then imaginary part; see
/// [`Linearization::eigenvalues`].
pub fn eigenvalues(a: &DMatrix<f64>) -> Result<Vec<Complex<f64>>, Error> {
    let n = a.nrows();
    if n == 0 {
        return Ok(Vec::new());
    }
    let cap = 100 * n;
    let schur = nalgebra::Schur::try_new(a.clone(), f64::EPSILON, cap)
        .ok_or(Error::EigenvaluesNotConverged { n, iterations: cap })?;
    let mut ev: Vec<Complex<f64>> = schur.complex_eigenvalues().iter().copied().collect();
    ev.sort_by(|x, y| x.re.total_cmp(&y.re).then(x.im.total_cmp(&y.im)));
    Ok(ev)
}

/// See [`Linearization::characteristic_polynomial`].
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
