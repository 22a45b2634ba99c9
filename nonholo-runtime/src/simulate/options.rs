//! [`Method`] and [`Options`]: what `simulate` is asked to do.

use alloc::vec::Vec;

/// Integration method.
///
/// All four control the local error to [`Options::rtol`] and [`Options::atol`] and give
/// dense output; they differ in cost. On the stiff, overdamped `x'' + 1000 x' + x = 0`
/// (eigenvalues about `-1e-3` and `-1e3`) the explicit method's step is held to its
/// stability limit `|h lambda| < 3.5` long after the fast mode has died out; the implicit
/// ones follow the slow mode:
///
/// ```
/// use nonholo_runtime::{simulate, Method, Options};
/// # use nonholo_runtime::__private::doc_models::Oscillator;
///
/// let stiff = Oscillator { m: 1.0, k: 1.0, c: 1000.0, u: 0.0 };
/// let d = (1000.0f64 * 1000.0 - 4.0).sqrt();
/// let (l1, l2) = ((-1000.0 + d) / 2.0, (-1000.0 - d) / 2.0);
/// // from x = 1, v = 0
/// let exact = |t: f64| (l2 * (l1 * t).exp() - l1 * (l2 * t).exp()) / (l2 - l1);
/// let run = |method| {
///     let options = Options::default().rtol(1e-8).atol(1e-10).method(method);
///     simulate(&stiff, &[1.0, 0.0], 0.0..10.0, &options).unwrap()
/// };
/// let explicit = run(Method::default());
/// assert_eq!(Method::default(), Method::Tsit45);
/// for implicit in [run(Method::Bdf), run(Method::Esdirk34)] {
///     assert!(10 * implicit.len() < explicit.len()); // steps (one sample per step)
///     let (t, y) = implicit.last().unwrap();
///     assert!((y[0] - exact(t)).abs() < 1e-9);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Method {
    /// Tsitouras 5(4) explicit Runge–Kutta with 4th-order dense output (diffsol's
    /// `tsit45`): the choice for non-stiff mechanical systems.
    #[default]
    Tsit45,
    /// Variable-order BDF for stiff systems (diffsol's `bdf`, nalgebra LU), its Newton
    /// matrix from central differences of the field (to about `eps^(2/3)`; not the exact
    /// [`Model::rhs_jvp`](crate::Model::rhs_jvp), which a run would compile as the whole
    /// rhs again in dual numbers).
    Bdf,
    /// ESDIRK3(4) singly diagonally implicit Runge–Kutta (diffsol's `esdirk34`, nalgebra
    /// LU), its Newton matrix as [`Method::Bdf`]'s.
    Esdirk34,
    /// Dormand–Prince 8(5,3) explicit Runge–Kutta with 7th-order dense output (Hairer's
    /// DOP853, the method of SciPy's `solve_ivp(method="DOP853")`): for non-stiff systems at
    /// tight tolerances, where its order 8 takes far fewer, costlier steps than
    /// [`Method::Tsit45`]. On the library's models it is 1.2–2.2x faster than Tsit45 at
    /// 1e-6, 2.1–3.7x at 1e-10 and 3–5x at 1e-12 (BENCHMARKS.md, "Higher-order explicit
    /// pairs"). Stepped by nonholo itself: diffsol's explicit solver holds at most 8
    /// stages, DOP853 needs 16.
    ///
    /// Its steps are long: [`Trajectory::at`](crate::Trajectory::at) interpolates the
    /// recorded samples by cubic Hermite, so where values between steps matter, ask for
    /// them with [`Options::sample_every`] or [`Options::sample_times`], which use the
    /// method's own 7th-order dense output. (That is also why it is not the default.)
    ///
    /// It watches for stiffness as Hairer's code does (`h |lambda|` past the stability
    /// boundary for 15 accepted steps): a run that then exhausts
    /// [`Options::max_steps`] says so in its [`Error::Solver`](crate::Error::Solver) message.
    ///
    /// ```
    /// use nonholo_runtime::{simulate, Method, Options};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// // x'' = -x over ten periods at 1e-12: far fewer steps than Tsit45, both accurate.
    /// let run = |method| {
    ///     let options = Options::default().rtol(1e-12).atol(1e-12).method(method);
    ///     simulate(&Oscillator::new(1.0), &[1.0, 0.0], 0.0..20.0 * std::f64::consts::PI, &options)
    /// };
    /// let (dop853, tsit45) = (run(Method::Dop853)?, run(Method::Tsit45)?);
    /// assert!(3 * dop853.len() < tsit45.len());
    /// let (_, y) = dop853.last().unwrap();
    /// assert!((y[0] - 1.0).abs() < 1e-10 && y[1].abs() < 1e-10);
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    Dop853,
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
    pub(super) control_period: Option<f64>,
    pub(super) contact_checks: bool,
    pub(super) events: Vec<UserEvent>,
    pub(super) max_events: usize,
}

/// An event that continues the run: where `guard(t, q, dot(q))` falls to zero, `reset`
/// rewrites `q` and `dot(q)` (an impact law).
#[derive(Clone)]
pub(super) struct UserEvent {
    pub(super) name: &'static str,
    pub(super) guard: alloc::sync::Arc<GuardFn>,
    pub(super) reset: alloc::sync::Arc<ResetFn>,
}

/// `g(t, q, dot(q))`.
type GuardFn = dyn Fn(f64, &[f64], &[f64]) -> f64 + Send + Sync;
/// `(t, q, dot(q))`, rewritten in place.
type ResetFn = dyn Fn(f64, &mut [f64], &mut [f64]) + Send + Sync;

impl core::fmt::Debug for UserEvent {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "UserEvent({:?})", self.name)
    }
}

impl PartialEq for UserEvent {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && alloc::sync::Arc::ptr_eq(&self.guard, &other.guard)
            && alloc::sync::Arc::ptr_eq(&self.reset, &other.reset)
    }
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
    /// at most 1 000 000 steps, initial constraint check to `1e-8`, continuous feedback
    /// (no control period).
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
            control_period: None,
            contact_checks: true,
            events: Vec::new(),
            max_events: 100_000,
        }
    }
}

impl Options {
    /// Relative tolerance of the local error control (`>= 0`): each step's error estimate
    /// `e_i` must satisfy `|e_i| <= atol + rtol |y_i|`. The global error follows it
    /// (roughly proportionally, and growing with the length of the run).
    ///
    /// ```
    /// use nonholo_runtime::{simulate, Error, Options};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    /// use std::f64::consts::PI;
    ///
    /// // x'' = -x over ten periods: x(20 pi) = 1.
    /// let osc = Oscillator::new(1.0);
    /// let error = |tol: f64| {
    ///     let options = Options::default().rtol(tol).atol(tol).sample_times(vec![20.0 * PI]);
    ///     let tr = simulate(&osc, &[1.0, 0.0], 0.0..20.0 * PI, &options).unwrap();
    ///     (tr.last().unwrap().1[0] - 1.0).abs()
    /// };
    /// let (loose, tight) = (error(1e-4), error(1e-10));
    /// assert!(tight < 1e-8 && loose > 1e4 * tight);
    /// // a negative tolerance is refused before integrating
    /// let refused = simulate(&osc, &[1.0, 0.0], 0.0..1.0, &Options::default().rtol(-1.0));
    /// assert!(matches!(refused.unwrap_err().error, Error::InvalidOptions(_)));
    /// ```
    pub fn rtol(mut self, rtol: f64) -> Self {
        self.rtol = rtol;
        self
    }

    /// Absolute tolerance of the local error control, the same for every state component
    /// (`> 0`): below `atol / rtol` in size a component is resolved only to `atol`, so it
    /// must be small against the smallest values that matter.
    ///
    /// ```
    /// use nonholo_runtime::{simulate, Options};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    /// use std::f64::consts::PI;
    ///
    /// // An oscillation of amplitude 1e-9 over ten periods: x(20 pi) = 1e-9.
    /// let osc = Oscillator::new(1.0);
    /// let relative_error = |atol: f64| {
    ///     let options = Options::default().rtol(1e-8).atol(atol).sample_times(vec![20.0 * PI]);
    ///     let tr = simulate(&osc, &[1e-9, 0.0], 0.0..20.0 * PI, &options).unwrap();
    ///     (tr.last().unwrap().1[0] - 1e-9).abs() / 1e-9
    /// };
    /// assert!(relative_error(1e-6) > 1.0); // not resolved at all
    /// assert!(relative_error(1e-16) < 1e-5);
    /// ```
    pub fn atol(mut self, atol: f64) -> Self {
        self.atol = atol;
        self
    }

    /// Stop when `g(t, state)` crosses zero (e.g. a rolling disk falling flat:
    /// `|s| s[4].abs() - 1.5`). The last sample is the state at the crossing, and
    /// [`Trajectory::event_time`](crate::Trajectory::event_time) gives its time.
    ///
    /// ```
    /// use nonholo_runtime::{simulate, Options};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// // x = cos t first crosses 0 at t = pi/2
    /// let options = Options::default().stop_when(|_t, s| s[0]);
    /// let tr = simulate(&Oscillator::new(1.0), &[1.0, 0.0], 0.0..10.0, &options)?;
    /// let t_event = tr.event_time().unwrap();
    /// assert!((t_event - std::f64::consts::FRAC_PI_2).abs() < 1e-8);
    /// let (t, y) = tr.last().unwrap();
    /// assert_eq!(t, t_event);
    /// assert!(y[0].abs() < 1e-8 && (y[1] + 1.0).abs() < 1e-8);
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn stop_when(mut self, g: impl Fn(f64, &[f64]) -> f64 + Send + Sync + 'static) -> Self {
        self.event = Some(Event(alloc::sync::Arc::new(g)));
        self
    }

    /// An event that continues the run (an impact, a switch of regime): where
    /// `guard(t, q, dot(q))` falls from positive to zero, the run stops at that instant
    /// (located on the method's dense output like [`stop_when`](Self::stop_when), to
    /// `100 eps (|t| + |h|)`), `reset(t, q, dot(q))` rewrites `q` and `dot(q)` in place, and
    /// the run goes on from the state those give ([`Model::state_from_qdot`](crate::Model::state_from_qdot),
    /// which refuses a `dot(q)` that breaks a constraint). Several events may be declared;
    /// each firing is recorded in [`Trajectory::events`](crate::Trajectory::events), and the
    /// trajectory holds two samples at its time: the state before and the state after.
    ///
    /// Only a fall fires: a guard that the reset leaves at zero or below (a ball bounced
    /// off the floor at height `-1e-17`) fires again only after it has been positive. The
    /// state is continuous up to the event, so a sampled-data controller's held inputs go
    /// on unchanged through it. Events that pile up — [`max_events`](Self::max_events) in
    /// all, or a run of them too close together for the time to tell apart (Zeno) — end
    /// the run with [`Error::EventsPiled`](crate::Error::EventsPiled), never a hang.
    ///
    /// ```
    /// use nonholo_runtime::{simulate, EventKind, Options};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// // x'' = -x bouncing off a wall at x = 0 with restitution 1/2: from x = 1, v = 0 it
    /// // strikes at t = pi/2 with v = -1 and leaves with v = 1/2
    /// let options = Options::default().event(
    ///     "wall",
    ///     |_t, q, _qd| q[0],
    ///     |_t, _q, qd| qd[0] = -0.5 * qd[0],
    /// );
    /// let tr = simulate(&Oscillator::new(1.0), &[1.0, 0.0], 0.0..5.0, &options)?;
    /// let first = &tr.events()[0];
    /// assert!((first.t - std::f64::consts::FRAC_PI_2).abs() < 1e-9);
    /// assert_eq!(first.kind, EventKind::User("wall"));
    /// // it comes back to the wall a half period later, at the same speed
    /// assert!((tr.events()[1].t - 3.0 * std::f64::consts::FRAC_PI_2).abs() < 1e-9);
    /// let after = tr.at(2.0)?;
    /// assert!((after[0] - 0.5 * (2.0 - first.t).sin()).abs() < 1e-8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn event(
        mut self,
        name: &'static str,
        guard: impl Fn(f64, &[f64], &[f64]) -> f64 + Send + Sync + 'static,
        reset: impl Fn(f64, &mut [f64], &mut [f64]) + Send + Sync + 'static,
    ) -> Self {
        self.events.push(UserEvent {
            name,
            guard: alloc::sync::Arc::new(guard),
            reset: alloc::sync::Arc::new(reset),
        });
        self
    }

    /// The most [`event`](Self::event)s a run may fire (100 000 by default; at least 1):
    /// one more ends it with [`Error::EventsPiled`](crate::Error::EventsPiled).
    ///
    /// ```
    /// use nonholo_runtime::{simulate, Error, Options};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// // an elastic wall struck every pi: the third strike is one too many
    /// let options = Options::default()
    ///     .event("wall", |_t, q, _qd| q[0], |_t, _q, qd| qd[0] = -qd[0])
    ///     .max_events(2);
    /// let e = simulate(&Oscillator::new(1.0), &[1.0, 0.0], 0.0..10.0, &options).unwrap_err();
    /// assert!(matches!(e.error, Error::EventsPiled { count: 3, .. }));
    /// assert_eq!(e.partial.events().len(), 2);
    /// ```
    pub fn max_events(mut self, n: usize) -> Self {
        self.max_events = n;
        self
    }

    /// Whether a run watches its rolling contacts (on by default): it ends, with
    /// [`Error::ContactLost`](crate::Error::ContactLost) naming the contact and the
    /// trajectory so far, where a contact's normal force reaches zero (lift-off) or, on a
    /// contact that declares `friction: mu`, where `mu N - |F_t|` does (slip) — the guards
    /// of [`Model::contact_guards`](crate::Model::contact_guards), located like
    /// [`stop_when`](Self::stop_when). A start outside them is reported at once. With
    /// `false` the run ignores what the ground can supply.
    ///
    /// ```
    /// use nonholo_runtime::Options;
    /// let trusting = Options::default().contact_checks(false);
    /// # let _ = trusting;
    /// ```
    pub fn contact_checks(mut self, on: bool) -> Self {
        self.contact_checks = on;
        self
    }

    /// Integration method: [`Method::Tsit45`] (default), [`Method::Dop853`] for tight
    /// tolerances, or the implicit [`Method::Bdf`] and
    /// [`Method::Esdirk34`] for stiff models, which difference the field for their
    /// Newton matrix (see [`Method`] for a stiff example).
    ///
    /// ```
    /// use nonholo_runtime::{simulate, Method, Options};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// // Every method integrates x'' = -x to its tolerance.
    /// for method in [Method::Tsit45, Method::Dop853, Method::Bdf, Method::Esdirk34] {
    ///     let options = Options::default().method(method).rtol(1e-10).sample_times(vec![3.0]);
    ///     let tr = simulate(&Oscillator::new(1.0), &[1.0, 0.0], 0.0..3.0, &options)?;
    ///     assert!((tr.last().unwrap().1[0] - 3.0f64.cos()).abs() < 1e-6, "{method:?}");
    /// }
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn method(mut self, method: Method) -> Self {
        self.method = method;
        self
    }

    /// Record samples exactly at these times (by diffsol's dense output), and stop
    /// integrating at the last one. They must be finite, strictly increasing and inside
    /// the time span given to [`simulate`](crate::simulate).
    ///
    /// ```
    /// use nonholo_runtime::{simulate, Error, Options};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// let osc = Oscillator::new(1.0);
    /// let options = Options::default().sample_times(vec![0.5, 1.0, 2.0]);
    /// let tr = simulate(&osc, &[1.0, 0.0], 0.0..10.0, &options)?;
    /// assert_eq!(tr.times(), [0.5, 1.0, 2.0]); // and nothing integrated past 2
    /// for (t, x) in tr.times().iter().zip(tr.column("x").unwrap()) {
    ///     assert!((x - t.cos()).abs() < 1e-8);
    /// }
    /// let unsorted = Options::default().sample_times(vec![1.0, 0.5]);
    /// let refused = simulate(&osc, &[1.0, 0.0], 0.0..10.0, &unsorted).unwrap_err();
    /// assert!(matches!(refused.error, Error::InvalidOptions(_)));
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn sample_times(mut self, times: Vec<f64>) -> Self {
        self.sampling = Sampling::Times(times);
        self
    }

    /// Record samples at `t0 + k dt`, `k = 0, 1, ...` up to `t1` (included when it lands on
    /// the grid, to a relative `1e-9` of `dt`), and stop integrating at the last one.
    ///
    /// ```
    /// use nonholo_runtime::{simulate, Options};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// let osc = Oscillator::new(1.0);
    /// let every = |dt| simulate(&osc, &[1.0, 0.0], 0.0..1.0, &Options::default().sample_every(dt));
    /// assert_eq!(every(0.25)?.times(), [0.0, 0.25, 0.5, 0.75, 1.0]);
    /// // 1 is not on the grid 0, 0.3, 0.6, 0.9: the run ends at 0.9 (to roundoff)
    /// let tr = every(0.3)?;
    /// assert_eq!(tr.len(), 4);
    /// assert!((tr.last().unwrap().0 - 0.9).abs() < 1e-15);
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn sample_every(mut self, dt: f64) -> Self {
        self.sampling = Sampling::Every(dt);
        self
    }

    /// Record a sample at `t0` and after every accepted internal step (the default).
    ///
    /// The step sizes are the integrator's own (small where the error control needs them);
    /// [`Trajectory::at`](crate::Trajectory::at) interpolates between them.
    ///
    /// ```
    /// use nonholo_runtime::{simulate, Options};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// let options = Options::default().sample_every(0.1).sample_steps();
    /// assert_eq!(options, Options::default());
    /// let tr = simulate(&Oscillator::new(1.0), &[1.0, 0.0], 0.0..1.0, &options)?;
    /// let t = tr.times();
    /// assert_eq!((t[0], t[t.len() - 1]), (0.0, 1.0));
    /// let first_step = t[1] - t[0];
    /// assert!(t.windows(2).any(|w| w[1] - w[0] > 2.0 * first_step)); // not a fixed grid
    /// assert!((tr.at(0.5)?[0] - 0.5f64.cos()).abs() < 1e-8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sample_steps(mut self) -> Self {
        self.sampling = Sampling::Steps;
        self
    }

    /// Give up with [`Error::Solver`](crate::Error::Solver) after this many accepted steps.
    ///
    /// ```
    /// use nonholo_runtime::{simulate, Error, Options};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// let options = Options::default().max_steps(5);
    /// let e = simulate(&Oscillator::new(1.0), &[1.0, 0.0], 0.0..100.0, &options).unwrap_err();
    /// assert!(matches!(e.error, Error::Solver { .. }));
    /// // the start and the five steps are kept
    /// assert_eq!(e.partial.len(), 6);
    /// ```
    pub fn max_steps(mut self, max_steps: usize) -> Self {
        self.max_steps = max_steps;
        self
    }

    /// Check the constraints at every recorded sample, not only at the start, with
    /// tolerance `tol` (relative as in [`check_state`](crate::model::check_state)); stop
    /// with [`Error::ConstraintViolated`](crate::Error::ConstraintViolated) at the first
    /// violation. `f64::INFINITY` switches every check off, the initial one included.
    ///
    /// With speeds the constraints hold by construction, so this is a test of the model;
    /// it matters for [`crate::Formulation::Multipliers`], whose state drifts off the
    /// constraints.
    ///
    /// ```
    /// use nonholo_runtime::{simulate, Error, Options};
    /// # use nonholo_runtime::__private::doc_models::SkateLagrange;
    ///
    /// // A skate by Lagrange multipliers, state [x, y, theta, dot(x), dot(y), dot(theta)]:
    /// // the multiplier keeps dC/dt = 0 for C = dot(y) cos(theta) - dot(x) sin(theta).
    /// let skate = SkateLagrange { m: 1.0, i: 0.1 };
    /// let along = [0.0, 0.0, 0.0, 1.0, 0.0, 1.0];
    /// let checked = Options::default().check_constraints(1e-8);
    /// let tr = simulate(&skate, &along, 0.0..10.0, &checked)?;
    /// assert!(tr.max_constraint_residual(&skate)? < 1e-8);
    /// // sliding sideways at theta = 0 (C = 1): refused before the first step ...
    /// let sideways = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0];
    /// let e = simulate(&skate, &sideways, 0.0..10.0, &checked).unwrap_err();
    /// assert!(matches!(e.error, Error::ConstraintViolated { t: 0.0, .. }) && e.partial.is_empty());
    /// // ... unless the checks are off: then C stays 1, as the equations say
    /// let unchecked = Options::default().check_constraints(f64::INFINITY);
    /// let tr = simulate(&skate, &sideways, 0.0..10.0, &unchecked)?;
    /// assert!((tr.max_constraint_residual(&skate)? - 1.0).abs() < 1e-8);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_constraints(mut self, tol: f64) -> Self {
        self.constraint_tol = tol;
        self.monitor_constraints = true;
        self
    }

    /// Sampled-data control for [`simulate_controlled`](crate::simulate_controlled): the
    /// controller runs at `t0 + k dt`, `k = 0, 1, ...` (an instant within a relative `1e-9`
    /// of `dt` of the end of the run counts as the end), with the state there, and the inputs
    /// are held until the next instant (zero-order hold). No integrator step crosses an
    /// instant: each method lands on it, the controller runs, and the method goes on from
    /// there with its last step size. Without it the controller runs at every evaluation of
    /// the right-hand side (continuous feedback). [`simulate`](crate::simulate), which has no
    /// controller, ignores it.
    ///
    /// `dt` must be positive, above `1e6 eps |t|` on the span (so that the instants are
    /// distinct times) and give fewer than 2^32 instants, else [`Error::InvalidOptions`].
    ///
    /// Cost: every period takes at least one step, and where the inputs change the method
    /// restarts. With a period shorter than the method's natural step the cheap steps of
    /// [`Method::Tsit45`] beat [`Method::Dop853`]'s (12 evaluations each); [`Method::Bdf`]
    /// restarts at order 1 with small steps wherever the inputs change, so for a stiff model
    /// under sampled control [`Method::Esdirk34`] is the implicit method to use.
    ///
    /// [`Error::InvalidOptions`]: crate::Error::InvalidOptions
    ///
    /// ```
    /// use nonholo_runtime::{simulate_controlled, Error, Options};
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    ///
    /// // The controller sees exactly the instants 0, 0.25, 0.5, 0.75, 1.
    /// let osc = ForcedOscillator { m: 1.0, k: 1.0 };
    /// let mut seen = Vec::new();
    /// let mut law = |t: f64, x: &[f64], u: &mut [f64]| {
    ///     seen.push(t);
    ///     u[0] = -x[0];
    /// };
    /// let zero = Options::default().control_period(0.0);
    /// let e = simulate_controlled(&osc, &mut law, &[1.0, 0.0], 0.0..1.0, &zero).unwrap_err();
    /// assert!(matches!(e.error, Error::InvalidOptions(_)));
    /// let options = Options::default().control_period(0.25);
    /// simulate_controlled(&osc, &mut law, &[1.0, 0.0], 0.0..1.0, &options)?;
    /// assert_eq!(seen, [0.0, 0.25, 0.5, 0.75, 1.0]);
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn control_period(mut self, dt: f64) -> Self {
        self.control_period = Some(dt);
        self
    }
}
