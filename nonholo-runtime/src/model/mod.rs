//! The one interface every formulation's generated code implements.
//!
//! The trait is here; the fallbacks of its default methods are in `defaults`, and the
//! checks of layouts, states and velocities in `checks`.

use crate::{ContactEvent, Error};

mod checks;
mod defaults;
mod formulation;

pub use checks::{check_state, check_velocities, validate_layout};
use defaults::{central_difference, check_inputs, jacobians_by_columns, sized};
pub use formulation::Formulation;

#[doc = include_str!("model.md")]
pub trait Model {
    /// Names of the generalized coordinates q, in state order.
    const COORDINATES: &'static [&'static str];
    /// Names of the speeds z, in state order.
    const SPEEDS: &'static [&'static str];
    /// Names of the parameters (the struct's fields), in declaration order.
    const PARAMETERS: &'static [&'static str];
    /// The constraints `C(q, dot(q), t) = 0` as written by the user.
    const CONSTRAINTS: &'static [&'static str];
    /// Number of coordinates.
    const NQ: usize;
    /// Number of speeds.
    const NZ: usize;
    /// Number of constraint equations.
    const NC: usize;
    /// State dimension, `NQ + NZ`.
    const DIM: usize;
    /// The derivation that produced [`Model::rhs`].
    const FORMULATION: Formulation;
    /// The derived equations as readable text, close to the papers' notation.
    const EQUATIONS: &'static str;
    /// Configuration constraints `f(q, t) = 0` (`holonomic` blocks, rolling-contact
    /// heights); their exact time derivatives are among [`Model::CONSTRAINTS`].
    const CONFIGURATION_CONSTRAINTS: &'static [&'static str] = &[];
    /// The coordinates [`Model::solve_configuration`] adjusts, one per configuration
    /// constraint.
    const CONFIGURATION_COORDINATES: &'static [&'static str] = &[];
    /// Names of the runtime inputs u (`inputs { .. }`), in order: torques, forces, thrusts
    /// that change while the model runs, read by [`Model::rhs_u`]. Empty without inputs.
    const INPUTS: &'static [&'static str] = &[];
    /// Number of inputs, `INPUTS.len()`.
    const NU: usize = 0;
    /// What a run watches at the rolling contacts ([`Model::contact_guards`]), each
    /// `(contact, event)`: the lift-off of every contact (its normal force), then the slip
    /// of every contact that declares `friction: mu` (`mu N - |F_t|`). Empty for models
    /// without contacts, and for models whose normal forces are not available
    /// ([`Contacts::contact_loads`](crate::Contacts::contact_loads)).
    const CONTACT_GUARDS: &'static [(&'static str, ContactEvent)] = &[];
    /// The structural pattern of [`Model::jacobians`]' `[a b]` (`DIM` rows, `DIM + NU`
    /// columns: `d(dx/dt)/dx` then `d(dx/dt)/du`), the entries `(row, column)` that can be
    /// nonzero, sorted; every other entry is zero at every state. Generated models carry
    /// it: with `jacobians` in closed form the entries their code writes (the tangents of
    /// the right-hand side's own program that are not identically zero, and for the
    /// speeds `G` solves for, the columns their block's `G` or forcing depends on); with
    /// dual numbers (`jacobians = dual;`, a closed form too large, `formulation =
    /// multipliers`) the entries by dependence: each coordinate's rate on what its
    /// expression involves, the speeds' (or accelerations') rows on every column any of
    /// their equations involves. Hand-written models have `None`, and `optimal` finds
    /// their pattern by probing.
    ///
    /// ```
    /// use nonholo_runtime::Model;
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    /// // a hand-written model: unknown
    /// assert!(ForcedOscillator::JACOBIAN_PATTERN.is_none());
    /// ```
    const JACOBIAN_PATTERN: Option<&'static [(u16, u16)]> = None;

    /// The parameters' defaults in [`Model::PARAMETERS`] order (`None` where `new` requires
    /// the value; empty for hand-written models): with [`Model::from_parameters`], how a
    /// caller that knows the model by names alone (the Python binding) builds it.
    const PARAMETER_DEFAULTS: &'static [Option<f64>] = &[];

    /// The state, a plain `[f64; DIM]`.
    type State: Copy
        + core::fmt::Debug
        + PartialEq
        + AsRef<[f64]>
        + AsMut<[f64]>
        + Send
        + Sync
        + 'static;

    /// The all-zero state.
    const ZERO_STATE: Self::State;

    /// The parameter values, in [`Model::PARAMETERS`] order (not a per-step call).
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Skate, Wheel};
    /// # use nonholo_runtime::Model;
    /// let osc = Oscillator { m: 2.0, k: 8.0, c: 0.1, u: 0.5 };
    /// assert_eq!(Oscillator::PARAMETERS, ["m", "k", "c", "u"]);
    /// assert_eq!(osc.parameters(), vec![2.0, 8.0, 0.1, 0.5]);
    /// ```
    fn parameters(&self) -> alloc::vec::Vec<f64>;

    /// The model with the parameter `values` ([`Model::PARAMETERS`] order), the inverse of
    /// [`Model::parameters`]: [`Error::Dimension`] for a wrong count; [`Error::NotAvailable`]
    /// for hand-written models.
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    /// # use nonholo_runtime::{Error, Model};
    /// assert_eq!(
    ///     Oscillator::from_parameters(&[1.0, 2.0, 0.0, 0.0]).err(),
    ///     Some(Error::NotAvailable { what: "from_parameters" })
    /// );
    /// ```
    fn from_parameters(values: &[f64]) -> Result<Self, Error>
    where
        Self: Sized,
    {
        let _ = values;
        Err(Error::NotAvailable {
            what: "from_parameters",
        })
    }

    /// The vector field: `dstate = [psi(q, z, t), dz/dt]`.
    ///
    /// Fails (never panics) when a slice has the wrong length, when the mass matrix G
    /// of the speeds is not positive definite, or when a derivative is not finite.
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Skate, Wheel};
    /// # use nonholo_runtime::Model;
    /// // m x'' + k x = 0 at x = 1, v = 0: dstate = [v, -k x / m]
    /// let mut d = [0.0; 2];
    /// Oscillator::new(2.0).rhs(0.0, &[1.0, 0.0], &mut d)?;
    /// assert_eq!(d, [0.0, -4.0]);
    /// // a state of the wrong length is an error, not a panic
    /// assert!(Oscillator::new(2.0).rhs(0.0, &[1.0], &mut d).is_err());
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error>;

    /// The velocities `dot(q) = psi(q, z, t)` (Benenti's eq. 2.1, Talamucci's eq. 13).
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Skate, Wheel};
    /// # use nonholo_runtime::Model;
    /// // the skate moves along its blade: dot(q) = [v cos(theta), v sin(theta), omega]
    /// let mut qd = [0.0; 3];
    /// Skate { m: 1.0, i: 0.1 }.qdot(0.0, &[0.0, 0.0, 0.0], &[2.0, 0.5], &mut qd)?;
    /// assert_eq!(qd, [2.0, 0.0, 0.5]);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn qdot(&self, t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error>;

    /// The state `[q, z]` whose velocities are the given `dot(q)`.
    ///
    /// Fails with [`Error::ConstraintViolated`] when `dot(q)` violates a constraint
    /// (relative tolerance `1e-8`), and when no speeds reproduce `dot(q)`.
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Skate, Wheel};
    /// # use nonholo_runtime::Model;
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// let q = [0.0, 0.0, std::f64::consts::FRAC_PI_2]; // blade along y
    /// let state = skate.state_from_qdot(0.0, &q, &[0.0, 3.0, 0.5])?;
    /// assert!((state[3] - 3.0).abs() < 1e-15 && state[4] == 0.5);
    /// // sliding sideways violates the constraint
    /// assert!(skate.state_from_qdot(0.0, &q, &[1.0, 0.0, 0.0]).is_err());
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> Result<Self::State, Error>;

    /// The energy `dot(q) . dL/d dot(q) - L`, the Legendre transform of `L = T - V`
    /// (conserved when nothing depends on t and there are no extra forces; Talamucci eq. 18).
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Skate, Wheel};
    /// # use nonholo_runtime::Model;
    /// // 1/2 m v^2 + 1/2 k x^2
    /// let e = Oscillator { m: 2.0, k: 8.0, c: 0.0, u: 0.0 }.energy(0.0, &[0.5, 1.0])?;
    /// assert_eq!(e, 0.5 * 2.0 * 1.0 + 0.5 * 8.0 * 0.25);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn energy(&self, t: f64, state: &[f64]) -> Result<f64, Error>;

    /// The constraint residuals `C_a(q, dot(q), t)` (`lhs - rhs` of each constraint).
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Skate, Wheel};
    /// # use nonholo_runtime::Model;
    /// // dot(y) cos(theta) - dot(x) sin(theta): zero along the blade, not across it
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// let mut c = [0.0; 1];
    /// skate.constraint_residual(0.0, &[0.0, 0.0, 0.0], &[1.0, 0.0, 0.0], &mut c)?;
    /// assert_eq!(c, [0.0]);
    /// skate.constraint_residual(0.0, &[0.0, 0.0, 0.0], &[0.0, 1.0, 0.0], &mut c)?;
    /// assert_eq!(c, [1.0]);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn constraint_residual(
        &self,
        t: f64,
        q: &[f64],
        qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error>;

    /// The configuration residuals `f_k(q, t)`, one per
    /// [`Model::CONFIGURATION_CONSTRAINTS`] entry (nothing to fill for a model without).
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Skate, Wheel};
    /// # use nonholo_runtime::Model;
    /// // the wheel rolls without slipping: x - r phi
    /// let wheel = Wheel { m: 1.0, r: 0.5, k: 2.0 };
    /// let mut f = [0.0; 1];
    /// wheel.configuration_residual(0.0, &[1.0, 1.0], &mut f)?;
    /// assert_eq!(f, [0.5]);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn configuration_residual(&self, t: f64, q: &[f64], residual: &mut [f64]) -> Result<(), Error> {
        let _ = (t, q);
        sized(
            "configuration residual",
            Self::CONFIGURATION_CONSTRAINTS.len(),
            residual.len(),
        )
    }

    /// The Jacobian `d f_k / d q_j` of the configuration constraints, row-major
    /// (`CONFIGURATION_CONSTRAINTS.len()` rows of `NQ`), exact (symbolic) in generated
    /// models; what [`linearize`](crate::linearize()) eliminates dependent coordinates with.
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Skate, Wheel};
    /// # use nonholo_runtime::Model;
    /// // d(x - r phi)/d(x, phi) = [1, -r]
    /// let mut jac = [0.0; 2];
    /// Wheel { m: 1.0, r: 0.5, k: 2.0 }.configuration_jacobian(0.0, &[1.0, 1.0], &mut jac)?;
    /// assert_eq!(jac, [1.0, -0.5]);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn configuration_jacobian(&self, t: f64, q: &[f64], jacobian: &mut [f64]) -> Result<(), Error> {
        let _ = (t, q);
        if !jacobian.is_empty() || !Self::CONFIGURATION_CONSTRAINTS.is_empty() {
            return Err(Error::Dimension {
                what: "configuration jacobian",
                expected: 0,
                found: jacobian.len(),
            });
        }
        Ok(())
    }

    /// Make `q` consistent with the configuration constraints by Newton's method on the
    /// [`Model::CONFIGURATION_COORDINATES`] (exact Jacobian), the other coordinates held;
    /// fails with [`Error::ConfigurationNotSolved`]. A no-op without such constraints.
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Skate, Wheel};
    /// # use nonholo_runtime::Model;
    /// // x is the dependent coordinate: phi held, x = r phi
    /// let mut q = [7.0, 2.0];
    /// Wheel { m: 1.0, r: 0.5, k: 2.0 }.solve_configuration(0.0, &mut q)?;
    /// assert_eq!(q, [1.0, 2.0]);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn solve_configuration(&self, t: f64, q: &mut [f64]) -> Result<(), Error> {
        let _ = (t, q);
        Ok(())
    }

    /// The derivative of the right-hand side along a direction `dp` in parameter space
    /// (one entry per [`Model::PARAMETERS`] name), `out = (d rhs / d p) dp`, the state
    /// held: the input matrix of a linearization, or parameter sensitivities.
    ///
    /// Generated models override this with the exact product along every parameter (the
    /// geometry and the inertia as well as the forces): their `rhs_generic` evaluated in
    /// dual numbers with the parameters seeded by `dp`, as [`Model::rhs_jvp`]. The
    /// default, for hand-written models, returns [`Error::NotAvailable`].
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Skate, Wheel};
    /// # use nonholo_runtime::Model;
    /// // m x'' + c x' + k x = u: d rhs / d u = [0, 1/m]
    /// let osc = Oscillator { m: 2.0, k: 8.0, c: 0.1, u: 0.0 };
    /// let mut out = [0.0; 2];
    /// osc.rhs_param_jvp(0.0, &[1.0, 0.0], &[0.0, 0.0, 0.0, 1.0], &mut out)?;
    /// assert_eq!(out, [0.0, 0.5]);
    /// // and along the spring constant: d rhs / d k = [0, -x/m]
    /// osc.rhs_param_jvp(0.0, &[1.0, 0.0], &[0.0, 1.0, 0.0, 0.0], &mut out)?;
    /// assert_eq!(out, [0.0, -0.5]);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn rhs_param_jvp(
        &self,
        t: f64,
        state: &[f64],
        dp: &[f64],
        out: &mut [f64],
    ) -> Result<(), Error> {
        let _ = (t, state, dp, out);
        Err(Error::NotAvailable {
            what: "rhs_param_jvp",
        })
    }

    /// The vector field with the inputs `u` (one per [`Model::INPUTS`] name):
    /// `dstate = f(t, state, u)`. [`Model::rhs`] is `rhs_u` at `u = 0`.
    ///
    /// The default serves models without inputs (`u` must be empty); generated models
    /// with `inputs { .. }` override it.
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::{ForcedOscillator, Oscillator};
    /// # use nonholo_runtime::Model;
    /// // m x'' + k x = f with f = 2 at x = 1: v' = (f - k x) / m
    /// let osc = ForcedOscillator { m: 2.0, k: 8.0 };
    /// let mut d = [0.0; 2];
    /// osc.rhs_u(0.0, &[1.0, 0.0], &[2.0], &mut d)?;
    /// assert_eq!(d, [0.0, -3.0]);
    /// // an input vector of the wrong length is an error
    /// assert!(osc.rhs_u(0.0, &[1.0, 0.0], &[], &mut d).is_err());
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn rhs_u(&self, t: f64, state: &[f64], u: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        check_inputs::<Self>(u)?;
        if Self::NU > 0 {
            return Err(Error::NotAvailable { what: "rhs_u" });
        }
        self.rhs(t, state, dstate)
    }

    /// The Jacobian-vector product of [`Model::rhs_u`] in the state, the inputs held:
    /// `out = (d f / d state)(t, state, u) v`, what an implicit integrator needs while a
    /// sampled controller holds `u`. Exact (dual numbers) in generated models; the default
    /// is [`Model::rhs_jvp`] for models without inputs and a central difference of
    /// [`Model::rhs_u`] otherwise.
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    /// # use nonholo_runtime::Model;
    /// let osc = ForcedOscillator { m: 2.0, k: 8.0 };
    /// let mut out = [0.0; 2];
    /// osc.rhs_u_jvp(0.0, &[0.3, -1.0], &[0.5], &[1.0, 0.0], &mut out)?;
    /// assert_eq!(out, [0.0, -4.0]);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn rhs_u_jvp(
        &self,
        t: f64,
        state: &[f64],
        u: &[f64],
        v: &[f64],
        out: &mut [f64],
    ) -> Result<(), Error> {
        check_inputs::<Self>(u)?;
        if Self::NU == 0 {
            return self.rhs_jvp(t, state, v, out);
        }
        central_difference::<Self>(state, v, out, |x, f| self.rhs_u(t, x, u, f))
    }

    /// The energy at `(t, state)` with the inputs `u` (they matter when the potential
    /// energy depends on them); [`Model::energy`] is `energy_u` at `u = 0`.
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    /// # use nonholo_runtime::Model;
    /// let osc = ForcedOscillator { m: 2.0, k: 8.0 };
    /// assert_eq!(osc.energy_u(0.0, &[0.5, 1.0], &[3.0])?, osc.energy(0.0, &[0.5, 1.0])?);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn energy_u(&self, t: f64, state: &[f64], u: &[f64]) -> Result<f64, Error> {
        check_inputs::<Self>(u)?;
        self.energy(t, state)
    }

    /// The exact Jacobians of `f(t, x, u)` ([`Model::rhs_u`]) at `(t, state, u)`:
    /// `a = df/dx` (`DIM x DIM`) and `b = df/du` (`DIM x NU`), both row-major
    /// (`a[i * DIM + j] = d f_i / d x_j`). What an MPC or an extended Kalman filter needs
    /// every control step; no allocation.
    ///
    /// Generated first-method models (Gibbs–Appell, Boltzmann–Hamel, Voronec) emit them in
    /// closed form: forward mode over the rhs's own straight-line code, all columns at
    /// once, each value and each derivative factor (`cos x` of `sin x`, the cofactors of a
    /// product) computed once and only the structurally nonzero entries computed at all;
    /// the speeds G solves for by `G d(dz/dt) = d forcing - dG dz/dt` on one factorization.
    /// The bicycle's take 6.7x the instructions of one `rhs`. Where the articulated-body
    /// algorithm gives the rhs (a tree of joints on a root), the residual of inverse
    /// dynamics `r = G zdot - forcing` (recursive Newton–Euler) is differentiated at `zdot`
    /// held, the links' share by their subtrees' composites, and `d(dz/dt)/dx = -G^-1
    /// dr/dx` solved per column by the algorithm's passes (Carpentier and Mansard's
    /// route): an 8-link chain's take 8x its `rhs`. Past 50 000 operations (compiling
    /// more costs minutes), and under `multipliers`, they evaluate `rhs_u_generic` in dual numbers once per state and
    /// input that the equations depend on (the macro knows which: the bicycle's `x`, `y`,
    /// `yaw` and wheel angles are not among them), about that many [`Model::rhs_jvp`]s.
    /// The default, for hand-written models, takes `a` column by column from
    /// [`Model::rhs_jvp`] and `b` by central differences of [`Model::rhs_u`] (at most 16
    /// inputs).
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    /// # use nonholo_runtime::Model;
    /// // x' = v, v' = (f - k x) / m: a = [[0, 1], [-k/m, 0]], b = [[0], [1/m]]
    /// let osc = ForcedOscillator { m: 2.0, k: 8.0 };
    /// let (mut a, mut b) = ([0.0; 4], [0.0; 2]);
    /// osc.jacobians(0.0, &[0.3, -1.0], &[0.5], &mut a, &mut b)?;
    /// assert_eq!(a, [0.0, 1.0, -4.0, 0.0]);
    /// assert!((b[0] - 0.0).abs() < 1e-12 && (b[1] - 0.5).abs() < 1e-9);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn jacobians(
        &self,
        t: f64,
        state: &[f64],
        u: &[f64],
        a: &mut [f64],
        b: &mut [f64],
    ) -> Result<(), Error> {
        jacobians_by_columns(self, t, state, u, a, b)
    }

    /// [`Model::rhs_u`] in any [`Scalar`](crate::Scalar): the equations evaluated in dual
    /// numbers give their derivatives of every order (the second derivatives of
    /// `optimal`'s exact Hessians, for one). Generated models evaluate their own
    /// straight-line code in the scalar (the parameters cast to it); hand-written ones
    /// have [`Error::NotAvailable`] unless they provide it.
    ///
    /// ```
    /// use nonholo_runtime::{Error, Model};
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    /// // a hand-written model without it
    /// let osc = ForcedOscillator { m: 2.0, k: 8.0 };
    /// let mut d = [0.0f64; 2];
    /// assert!(matches!(
    ///     osc.rhs_u_scalar(0.0f64, &[1.0, 0.0], &[2.0], &mut d),
    ///     Err(Error::NotAvailable { .. })
    /// ));
    /// ```
    fn rhs_u_scalar<S: crate::Scalar>(
        &self,
        t: S,
        state: &[S],
        u: &[S],
        dstate: &mut [S],
    ) -> Result<(), Error>
    where
        Self: Sized,
    {
        let _ = (t, state, u, dstate);
        Err(Error::NotAvailable {
            what: "rhs_u_scalar (the equations in another scalar)",
        })
    }

    /// [`Model::configuration_residual`] in any [`Scalar`](crate::Scalar) (its derivatives
    /// of every order by dual numbers). Generated models with configuration constraints
    /// evaluate their own code in the scalar; `Ok` with nothing to write for models
    /// without; [`Error::NotAvailable`] for hand-written models that have constraints.
    ///
    /// ```
    /// use nonholo_runtime::Model;
    /// # use nonholo_runtime::__private::doc_models::Skate;
    /// // no configuration constraints: nothing to write
    /// let mut r: [f64; 0] = [];
    /// Skate { m: 1.0, i: 0.1 }.configuration_residual_scalar(0.0f64, &[0.0; 3], &mut r)?;
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn configuration_residual_scalar<S: crate::Scalar>(
        &self,
        t: S,
        q: &[S],
        residual: &mut [S],
    ) -> Result<(), Error>
    where
        Self: Sized,
    {
        let _ = (t, q);
        if Self::CONFIGURATION_CONSTRAINTS.is_empty() && residual.is_empty() {
            return Ok(());
        }
        Err(Error::NotAvailable {
            what: "configuration_residual_scalar (the configuration constraints in another scalar)",
        })
    }

    /// The Jacobian-vector product `out = (d rhs / d state) v` at `(t, state)`, for
    /// linearization and a user's own solvers (the runtime's implicit methods difference
    /// the field instead, so that a run does not compile the rhs a second time).
    ///
    /// Models generated by `nonholonomic!` override this with the exact product: their
    /// `rhs_generic` evaluated in dual numbers `state + v ε` (forward-mode automatic
    /// differentiation of the emitted code, linear solves included; no truncation error).
    /// The default, for hand-written models, is a central difference with a step scaled to
    /// the state; it allocates nothing.
    ///
    /// ```
    /// # use nonholo_runtime::__private::doc_models::{Oscillator, Skate, Wheel};
    /// # use nonholo_runtime::Model;
    /// // d(v cos(theta))/d theta = -v sin(theta): at theta = 0 the x rate does not move
    /// let skate = Skate { m: 1.0, i: 0.1 };
    /// let mut out = [0.0; 5];
    /// skate.rhs_jvp(0.0, &[0.0, 0.0, 0.0, 2.0, 0.5], &[0.0, 0.0, 1.0, 0.0, 0.0], &mut out)?;
    /// assert_eq!(out, [0.0, 2.0, 0.0, 0.0, 0.0]);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn rhs_jvp(&self, t: f64, state: &[f64], v: &[f64], out: &mut [f64]) -> Result<(), Error> {
        central_difference::<Self>(state, v, out, |x, f| self.rhs(t, x, f))
    }

    /// The values of [`Model::CONTACT_GUARDS`] at `(t, state)` with the inputs `u`: the
    /// normal force `N` of each contact, then the friction margin `mu N - |F_t|` of each
    /// contact with friction ([`ContactLoad`](crate::ContactLoad)). A run ends where one
    /// reaches zero (see `Options::contact_checks`). Neither is a ratio: both are
    /// continuous through `N = 0`, so that a lift-off is never taken for a slip.
    ///
    /// [`Error::Dimension`] for slices of the wrong length; the errors of
    /// `contact_loads` otherwise.
    fn contact_guards(
        &self,
        t: f64,
        state: &[f64],
        u: &[f64],
        out: &mut [f64],
    ) -> Result<(), Error> {
        let _ = (t, state, u);
        if out.len() == Self::CONTACT_GUARDS.len() {
            Ok(())
        } else {
            Err(Error::Dimension {
                what: "contact guards",
                expected: Self::CONTACT_GUARDS.len(),
                found: out.len(),
            })
        }
    }

    /// Whether the parameters describe bodies that can exist, checked before every run and
    /// linearization: each body's mass positive, its moments of inertia not negative and
    /// each at most the sum of the other two, friction coefficients not negative, the radii
    /// and semi-axes of rolling surfaces positive (a torus's crown radius not negative).
    /// Emitted for models with bodies; `Ok` by default.
    ///
    /// # Errors
    /// [`Error::Parameter`] naming the quantity, the expression that gives it and its value.
    ///
    /// ```
    /// use nonholo_runtime::{Error, Model};
    /// # use nonholo_runtime::__private::doc_models::Skate;
    /// // a model without bodies has nothing to check
    /// assert_eq!(Skate { m: 1.0, i: 0.1 }.check_parameters(), Ok(()));
    /// ```
    fn check_parameters(&self) -> Result<(), Error> {
        Ok(())
    }

    /// The released model on `[q, dot(q)]` that lets contacts slip (hybrid runs); emitted
    /// for models with `friction`.
    #[doc(hidden)]
    fn __released(&self) -> Option<&dyn crate::__private::Released> {
        None
    }
}
