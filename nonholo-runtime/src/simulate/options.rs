//! [`Method`] and [`Options`]: what `simulate` is asked to do.

use alloc::vec::Vec;

/// Integration method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Method {
    /// Tsitouras 5(4) explicit Runge–Kutta with 4th-order dense output (diffsol's
    /// `tsit45`): the choice for non-stiff mechanical systems.
    #[default]
    Tsit45,
    /// Variable-order BDF for stiff systems (diffsol's `bdf`, nalgebra LU), with the
    /// model's exact Jacobian-vector product [`Model::rhs_jvp`](crate::Model::rhs_jvp).
    Bdf,
    /// ESDIRK3(4) singly diagonally implicit Runge–Kutta (diffsol's `esdirk34`, nalgebra
    /// LU), with [`Model::rhs_jvp`](crate::Model::rhs_jvp).
    Esdirk34,
}

/// When [`simulate`](crate::simulate) records a sample.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Sampling {
    /// At `t0` and after every accepted internal step.
    Steps,
    /// At these times (strictly increasing, within the time span).
    Times(Vec<f64>),
    /// At `t0 + k dt`.
    Every(f64),
}

/// Settings for [`simulate`](crate::simulate), built from [`Options::default`].
///
/// ```
/// use nonholo_runtime::{Method, Options};
///
/// let options = Options::default()
///     .rtol(1e-8)
///     .atol(1e-10)
///     .method(Method::Tsit45)
///     .sample_every(0.01)
///     .check_constraints(1e-9);
/// # let _ = options;
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub(super) rtol: f64,
    pub(super) atol: f64,
    pub(super) method: Method,
    pub(super) sampling: Sampling,
    pub(super) max_steps: usize,
    pub(super) constraint_tol: f64,
    pub(super) monitor_constraints: bool,
    pub(super) event: Option<Event>,
}

/// A stopping condition `g(t, state)`: the run ends where `g` changes sign (located by
/// diffsol's root finding on the dense output).
#[derive(Clone)]
pub(super) struct Event(pub(super) alloc::sync::Arc<EventFn>);

/// `g(t, state)`, whose zero crossing ends a run.
type EventFn = dyn Fn(f64, &[f64]) -> f64 + Send + Sync;

impl core::fmt::Debug for Event {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Event(..)")
    }
}

impl PartialEq for Event {
    fn eq(&self, other: &Self) -> bool {
        alloc::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Default for Options {
    /// `rtol = atol = 1e-10`, [`Method::Tsit45`], a sample after every internal step,
    /// at most 1 000 000 steps, initial constraint check to `1e-8`.
    fn default() -> Self {
        Self {
            rtol: 1e-10,
            atol: 1e-10,
            method: Method::Tsit45,
            sampling: Sampling::Steps,
            max_steps: 1_000_000,
            constraint_tol: 1e-8,
            monitor_constraints: false,
            event: None,
        }
    }
}

impl Options {
    /// Relative tolerance of the local error control (`>= 0`).
    pub fn rtol(mut self, rtol: f64) -> Self {
        self.rtol = rtol;
        self
    }

    /// Absolute tolerance of the local error control, the same for every state component
    /// (`> 0`).
    pub fn atol(mut self, atol: f64) -> Self {
        self.atol = atol;
        self
    }

    /// Stop when `g(t, state)` crosses zero (e.g. a rolling disk falling flat:
    /// `|s| s[4].abs() - 1.5`). The last sample is the state at the crossing, and
    /// [`Trajectory::event_time`](crate::Trajectory::event_time) gives its time.
    ///
    /// ```
    /// use nonholo_runtime::Options;
    /// let o = Options::default().stop_when(|_t, s| s[0]); // stop when q0 crosses 0
    /// # let _ = o;
    /// ```
    pub fn stop_when(mut self, g: impl Fn(f64, &[f64]) -> f64 + Send + Sync + 'static) -> Self {
        self.event = Some(Event(alloc::sync::Arc::new(g)));
        self
    }

    /// Integration method: [`Method::Tsit45`] (default), or the implicit [`Method::Bdf`] and
    /// [`Method::Esdirk34`] for stiff models, which use [`Model::rhs_jvp`](crate::Model::rhs_jvp).
    pub fn method(mut self, method: Method) -> Self {
        self.method = method;
        self
    }

    /// Record samples exactly at these times (by diffsol's dense output), and stop
    /// integrating at the last one. They must be finite, strictly increasing and inside
    /// the time span given to [`simulate`](crate::simulate).
    pub fn sample_times(mut self, times: Vec<f64>) -> Self {
        self.sampling = Sampling::Times(times);
        self
    }

    /// Record samples at `t0 + k dt`, `k = 0, 1, ...` up to `t1` (included when it lands on
    /// the grid, to a relative `1e-9` of `dt`), and stop integrating at the last one.
    pub fn sample_every(mut self, dt: f64) -> Self {
        self.sampling = Sampling::Every(dt);
        self
    }

    /// Record a sample at `t0` and after every accepted internal step (the default).
    pub fn sample_steps(mut self) -> Self {
        self.sampling = Sampling::Steps;
        self
    }

    /// Give up with [`Error::Solver`](crate::Error::Solver) after this many accepted steps.
    pub fn max_steps(mut self, max_steps: usize) -> Self {
        self.max_steps = max_steps;
        self
    }

    /// Check the constraints at every recorded sample, not only at the start, with
    /// tolerance `tol` (relative as in [`check_state`](crate::model::check_state)); stop with
    /// [`Error::ConstraintViolated`](crate::Error::ConstraintViolated) at the first violation. `f64::INFINITY` switches
    /// every check off, the initial one included.
    ///
    /// With speeds the constraints hold by construction, so this is a test of the model;
    /// it matters for [`crate::Formulation::Multipliers`], whose state drifts off the
    /// constraints.
    pub fn check_constraints(mut self, tol: f64) -> Self {
        self.constraint_tol = tol;
        self.monitor_constraints = true;
        self
    }
}
