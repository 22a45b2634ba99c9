//! [`Linearize`]: what [`linearize`](super::linearize()) keeps and which parameters are
//! inputs.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

#[cfg(doc)]
use crate::{Error, Model};

/// What to keep and which parameters act as inputs; see [`linearize`](super::linearize()).
///
/// ```
/// use nonholo_runtime::Linearize;
/// let spec = Linearize::new().keep(&["roll", "dot(roll)"]).inputs(&["t_roll"]);
/// assert_eq!(spec.kept(), ["roll", "dot(roll)"]);
/// ```
#[derive(Clone, Debug)]
pub struct Linearize {
    pub(super) keep: Vec<String>,
    pub(super) inputs: Vec<String>,
    pub(super) at_inputs: Vec<f64>,
    pub(super) tolerance: f64,
}

impl Default for Linearize {
    fn default() -> Self {
        Self::new()
    }
}

impl Linearize {
    /// Keep every state except the dependent coordinates; no inputs; coupling tolerance
    /// `1e-10` relative to `1 + max |J|`.
    ///
    /// ```
    /// use nonholo_runtime::{linearize, Linearize};
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Wheel};
    ///
    /// let lin = linearize(&Oscillator::new(2.0), 0.0, &[0.0, 0.0], &Linearize::new())?;
    /// assert_eq!(lin.states, ["x", "v"]);
    /// assert!(lin.inputs.is_empty() && lin.b.ncols() == 0);
    /// // A wheel rolling on a line, state [x, phi, w]: its configuration constraint
    /// // x = r phi sets x, which follows phi instead of being a state of its own.
    /// let wheel = Wheel { m: 2.0, r: 0.5, k: 3.0 };
    /// let lin = linearize(&wheel, 0.0, &[0.0; 3], &Linearize::new())?;
    /// assert_eq!(lin.states, ["phi", "w"]);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn new() -> Self {
        Self {
            keep: Vec::new(),
            inputs: Vec::new(),
            at_inputs: Vec::new(),
            tolerance: 1e-10,
        }
    }

    /// The kept states, by [`Model::COORDINATES`] and [`Model::SPEEDS`] names, in the
    /// order of the reduced state.
    ///
    /// Dropping a state is exact only when the kept rows do not depend on it (an ignorable
    /// coordinate, a decoupled speed); otherwise [`linearize`](super::linearize()) fails
    /// with [`Error::DroppedStateCouples`] naming it.
    ///
    /// ```
    /// use nonholo_runtime::{linearize, nalgebra::DMatrix, Error, Linearize};
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Skate};
    ///
    /// // x'' = -4 x with the reduced state in the order [v, x]
    /// let osc = Oscillator::new(2.0);
    /// let lin = linearize(&osc, 0.0, &[0.0, 0.0], &Linearize::new().keep(&["v", "x"]))?;
    /// assert_eq!(lin.a, DMatrix::from_row_slice(2, 2, &[0.0, -4.0, 1.0, 0.0]));
    ///
    /// // A skate turning steadily, [x, y, theta, v, omega]: heading and turn rate do not
    /// // depend on where it is, nor on v.
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// let state = [0.0, 0.0, 0.0, 1.0, 0.5];
    /// let lin = linearize(&skate, 0.0, &state, &Linearize::new().keep(&["theta", "omega"]))?;
    /// assert_eq!(lin.a, DMatrix::from_row_slice(2, 2, &[0.0, 1.0, 0.0, 0.0]));
    /// // but dot(x) = v cos(theta) does depend on v
    /// let e = linearize(&skate, 0.0, &state, &Linearize::new().keep(&["x", "theta"]));
    /// assert!(matches!(e, Err(Error::DroppedStateCouples { state: "v", coupling, .. }) if coupling == 1.0));
    /// let e = linearize(&skate, 0.0, &state, &Linearize::new().keep(&["z"]));
    /// assert!(matches!(e, Err(Error::UnknownName { .. })));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn keep(mut self, names: &[&str]) -> Self {
        self.keep = names.iter().map(|s| s.to_string()).collect();
        self
    }

    /// The columns of `b`: runtime inputs ([`Model::INPUTS`], from
    /// [`Model::jacobians`]) or parameters ([`Model::PARAMETERS`], from
    /// [`Model::rhs_param_jvp`]). Generated models take any parameter (torques, forces and
    /// dampings, but also a mass or a length, for sensitivities); a hand-written model
    /// without that method gives [`Error::NotAvailable`]. A name that is neither is
    /// [`Error::UnknownName`].
    ///
    /// ```
    /// use nonholo_runtime::{linearize, Linearize};
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    /// // m x'' + k x = f, f a runtime input: B = [0, 1/m]
    /// let osc = ForcedOscillator { m: 2.0, k: 8.0 };
    /// let lin = linearize(&osc, 0.0, &[0.0, 0.0], &Linearize::new().inputs(&["f"]))?;
    /// assert_eq!((lin.b[(0, 0)], lin.b[(1, 0)]), (0.0, 0.5));
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    ///
    /// ```
    /// use nonholo_runtime::{linearize, nalgebra::DMatrix, Error, Linearize};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// // m x'' + c x' + k x = u: B = df/du = [0, 1/m]
    /// let osc = Oscillator { m: 2.0, k: 8.0, c: 0.5, u: 0.0 };
    /// let lin = linearize(&osc, 0.0, &[0.0, 0.0], &Linearize::new().inputs(&["u"]))?;
    /// assert_eq!(lin.inputs, ["u"]);
    /// assert_eq!(lin.b, DMatrix::from_column_slice(2, 1, &[0.0, 0.5]));
    /// // the damping as an input, moving at v = 3: d v' / d c = -v / m
    /// let lin = linearize(&osc, 0.0, &[0.0, 3.0], &Linearize::new().inputs(&["c"]))?;
    /// assert_eq!(lin.b[(1, 0)], -1.5);
    /// // the spring constant, displaced by x = 0.5: d v' / d k = -x / m
    /// let lin = linearize(&osc, 0.0, &[0.5, 0.0], &Linearize::new().inputs(&["k"]))?;
    /// assert_eq!(lin.b[(1, 0)], -0.25);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn inputs(mut self, names: &[&str]) -> Self {
        self.inputs = names.iter().map(|s| s.to_string()).collect();
        self
    }

    /// The operating inputs `u0` (one per [`Model::INPUTS`] name; zero if not given): the
    /// Jacobians are taken at `(state, u0)`, e.g. the steady torque that holds an
    /// equilibrium.
    ///
    /// ```
    /// use nonholo_runtime::{linearize, Linearize};
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    /// // held at x = 0.25 by f = k x = 2: an equilibrium, so the residual is zero
    /// let osc = ForcedOscillator { m: 2.0, k: 8.0 };
    /// let spec = Linearize::new().inputs(&["f"]).at_inputs(&[2.0]);
    /// let lin = linearize(&osc, 0.0, &[0.25, 0.0], &spec)?;
    /// assert_eq!(lin.residual, [0.0, 0.0]);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn at_inputs(mut self, u0: &[f64]) -> Self {
        self.at_inputs = u0.to_vec();
        self
    }

    /// How large (relative to `1 + max |J|`) a dropped state's coupling may be.
    ///
    /// ```
    /// use nonholo_runtime::{linearize, Error, Linearize};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// // A very soft spring, v' = -1e-12 x - 0.5 v: keeping v alone drops x, whose
    /// // coupling 1e-12 is within the default 1e-10 (1 + max |J|) = 2e-10.
    /// let soft = Oscillator { m: 1.0, k: 1e-12, c: 0.5, u: 0.0 };
    /// let spec = Linearize::new().keep(&["v"]);
    /// let lin = linearize(&soft, 0.0, &[0.0, 0.0], &spec)?;
    /// assert_eq!((lin.a[(0, 0)], lin.coupling), (-0.5, 1e-12));
    /// let e = linearize(&soft, 0.0, &[0.0, 0.0], &spec.tolerance(0.0));
    /// assert!(matches!(e, Err(Error::DroppedStateCouples { state: "x", .. })));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn tolerance(mut self, tolerance: f64) -> Self {
        self.tolerance = tolerance;
        self
    }

    /// The kept names as given (empty: every state but the dependent coordinates).
    ///
    /// ```
    /// use nonholo_runtime::Linearize;
    /// assert!(Linearize::new().kept().is_empty());
    /// assert_eq!(Linearize::new().keep(&["w", "phi"]).kept(), ["w", "phi"]);
    /// ```
    pub fn kept(&self) -> Vec<&str> {
        self.keep.iter().map(String::as_str).collect()
    }
}
