//! Adaptive integration of a [`Model`] (feature `diffsol`).
//!
//! diffsol does the integrating (step-size control, dense output, root finding) for
//! Tsit45, BDF and ESDIRK34; DOP853, whose 16 stages diffsol's explicit solver cannot hold,
//! is stepped by [`dop853`]. Both sit behind one [`Stepper`], and one sampling loop
//! ([`Drive`]) adapts a [`Model`] to them, validates the inputs, samples the solution and
//! turns every failure — the model's own errors included — into a [`SimulationError`]
//! that keeps the trajectory computed so far.

use alloc::format;
use alloc::string::ToString;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::RefCell;
use core::marker::PhantomData;
use core::ops::Range;

use diffsol::error::OdeSolverError;
use diffsol::{
    DiffsolError, NalgebraLU, NalgebraMat, OdeBuilder, OdeEquations, OdeSolverMethod,
    OdeSolverStopReason, VectorCommon,
};

use crate::model::{check_state, validate_layout};
use crate::{Error, Model, SimulationError, Trajectory};

mod dop853;
mod options;
use dop853::Dop853;
use options::{Event, Sampling};
pub use options::{Method, Options};

/// Integrate `model` from `state0` over the time span `t` with the [`Method`] of `options`.
///
/// Before integrating it checks that the model's constants are consistent, that `state0`
/// has length `M::DIM` ([`Error::Dimension`]), that it satisfies the constraints
/// ([`Error::ConstraintViolated`], see [`Options::check_constraints`]) and that the options
/// make sense ([`Error::InvalidOptions`]; `t.start < t.end` — integration runs forward).
///
/// Every sample stores the state and `d state/dt` (from [`Model::rhs`]), so
/// [`Trajectory::at`] interpolates between samples. Errors stop the integration and come
/// back with the samples recorded so far in [`SimulationError::partial`]:
///
/// - the first error [`Model::rhs`] returns, in any stage of any step attempt, as is;
/// - [`Error::NonFinite`] when an accepted state is not finite;
/// - [`Error::StepSize`] when the step size underflows (or diffsol's error test fails too
///   often), typically at a singularity;
/// - [`Error::Solver`] for any other failure of diffsol, and when `max_steps` is reached.
///
/// ```
/// use nonholo_runtime::{simulate, Options};
/// # use nonholo_runtime::__private::doc_models::Oscillator;
///
/// // x'' = -x from x = 1, v = 0: x(t) = cos t.
/// let options = Options::default().sample_every(0.5);
/// let tr = simulate(&Oscillator::new(1.0), &[1.0, 0.0], 0.0..3.0, &options)?;
/// assert_eq!(tr.len(), 7);
/// let (t, state) = tr.last().unwrap();
/// assert_eq!(t, 3.0);
/// assert!((state[0] - 3.0_f64.cos()).abs() < 1e-8);
/// // a state of the wrong length comes back as an error, with nothing recorded
/// let e = simulate(&Oscillator::new(1.0), &[1.0], 0.0..3.0, &options).unwrap_err();
/// assert!(matches!(e.error, nonholo_runtime::Error::Dimension { .. }) && e.partial.is_empty());
/// # Ok::<(), nonholo_runtime::SimulationError>(())
/// ```
// One error per run, and it carries the trajectory by value on purpose (no Box to
// look through): its size does not matter.
#[allow(clippy::result_large_err)]
pub fn simulate<M: Model>(
    model: &M,
    state0: &[f64],
    t: Range<f64>,
    options: &Options,
) -> Result<Trajectory, SimulationError> {
    let mut traj = Trajectory::new::<M>();
    match prepare(model, state0, &t, options).and_then(|samples| {
        traj.reserve(samples.as_ref().map_or(0, Vec::len));
        run(model, state0, &t, options, samples.as_deref(), &mut traj)
    }) {
        Ok(()) => Ok(traj),
        Err(error) => Err(SimulationError {
            error,
            partial: traj,
        }),
    }
}

/// Validate everything; the requested sample times (`None`: every step).
fn prepare<M: Model>(
    model: &M,
    state0: &[f64],
    t: &Range<f64>,
    o: &Options,
) -> Result<Option<Vec<f64>>, Error> {
    let invalid = |msg: alloc::string::String| Err(Error::InvalidOptions(msg));
    validate_layout::<M>()?;
    if M::DIM == 0 {
        return invalid("the model has an empty state".to_string());
    }
    if state0.len() != M::DIM {
        return Err(Error::Dimension {
            what: "state0",
            expected: M::DIM,
            found: state0.len(),
        });
    }
    let (t0, t1) = (t.start, t.end);
    let span_ok = t0.is_finite() && t1.is_finite() && t0 < t1;
    if !span_ok {
        return invalid(format!(
            "time span {t0}..{t1} must be finite and increasing"
        ));
    }
    let tol_ok = o.rtol >= 0.0 && o.rtol.is_finite() && o.atol > 0.0 && o.atol.is_finite();
    if !tol_ok {
        return invalid(format!(
            "need rtol >= 0 and atol > 0, finite (rtol = {}, atol = {})",
            o.rtol, o.atol
        ));
    }
    if o.max_steps == 0 {
        return invalid("max_steps must be positive".to_string());
    }
    let tol_is_number = o.constraint_tol >= 0.0;
    if !tol_is_number {
        return invalid(format!(
            "constraint tolerance {} must be >= 0",
            o.constraint_tol
        ));
    }
    let samples = match &o.sampling {
        Sampling::Steps => None,
        Sampling::Times(times) => {
            let increasing = times.windows(2).all(|w| matches!(w, [a, b] if a < b));
            let inside = times.iter().all(|s| *s >= t0 && *s <= t1);
            if times.is_empty() || !increasing || !inside {
                return invalid(format!(
                    "sample times must be non-empty, strictly increasing and within \
                     [{t0}, {t1}] (got {} times)",
                    times.len()
                ));
            }
            Some(times.clone())
        }
        Sampling::Every(dt) => Some(grid(t0, t1, *dt)?),
    };
    if o.constraint_tol < f64::INFINITY {
        check_state(model, t0, state0, o.constraint_tol)?;
    } else if state0.iter().any(|x| !x.is_finite()) {
        return Err(Error::NonFinite {
            what: "initial state",
            t: t0,
            state: state0.to_vec(),
        });
    }
    Ok(samples)
}

/// `t0 + k dt` for `k = 0..=n`, the last clamped to `t1` when it overshoots by roundoff.
fn grid(t0: f64, t1: f64, dt: f64) -> Result<Vec<f64>, Error> {
    // Far more samples than memory allows is a mistake in dt, not a request.
    const MAX_SAMPLES: f64 = 4_294_967_296.0;
    let n = ((t1 - t0) / dt + 1e-9).floor();
    let ok = dt > 0.0 && dt.is_finite() && n < MAX_SAMPLES;
    if !ok {
        return Err(Error::InvalidOptions(format!(
            "sample_every({dt}) must be positive and give fewer than 2^32 samples on \
             [{t0}, {t1}]"
        )));
    }
    // n is a non-negative integer below 2^32, so the cast is exact.
    let n = n as usize;
    let times: Vec<f64> = (0..=n).map(|k| (t0 + k as f64 * dt).min(t1)).collect();
    if times.windows(2).any(|w| matches!(w, [a, b] if a >= b)) {
        return Err(Error::InvalidOptions(format!(
            "sample_every({dt}) is too small to resolve times near {t0}"
        )));
    }
    Ok(times)
}

/// The copy of a diffsol vector as a slice.
fn slice(v: &diffsol::NalgebraVec<f64>) -> &[f64] {
    v.inner().as_slice()
}

/// Map a diffsol failure at `(t, state)` to an [`Error`].
fn engine_error(e: DiffsolError, t: f64, state: &[f64]) -> Error {
    match e {
        DiffsolError::OdeSolverError(
            OdeSolverError::StepSizeTooSmall { time }
            | OdeSolverError::TooManyErrorTestFailures { time, .. },
        ) => Error::StepSize {
            t: time,
            state: state.to_vec(),
        },
        other => Error::Solver {
            t,
            message: other.to_string(),
            state: state.to_vec(),
        },
    }
}

/// Append `(t, y)` with its derivative; check the constraints when asked.
fn record<M: Model>(
    model: &M,
    traj: &mut Trajectory,
    dy: &mut [f64],
    t: f64,
    y: &[f64],
    monitor: Option<f64>,
) -> Result<(), Error> {
    model.rhs(t, y, dy)?;
    traj.push(t, y, dy)?;
    match monitor {
        Some(tol) => check_state(model, t, y, tol),
        None => Ok(()),
    }
}

fn run<M: Model>(
    model: &M,
    state0: &[f64],
    t: &Range<f64>,
    o: &Options,
    samples: Option<&[f64]>,
    traj: &mut Trajectory,
) -> Result<(), Error> {
    let t0 = t.start;
    let t_end = samples.and_then(|s| s.last().copied()).unwrap_or(t.end);
    let monitor =
        (o.monitor_constraints && o.constraint_tol < f64::INFINITY).then_some(o.constraint_tol);
    let drive = Drive {
        model,
        state0,
        t0,
        t_end,
        o,
        samples,
        traj,
        monitor,
    };
    match o.method {
        Method::Dop853 => drive.run(Dop853::new(model, t0, state0, t_end, o)?),
        Method::Tsit45 => run_diffsol(drive, DiffsolMethod::Tsit45),
        Method::Bdf => run_diffsol(drive, DiffsolMethod::Bdf),
        Method::Esdirk34 => run_diffsol(drive, DiffsolMethod::Esdirk34),
    }
}

/// The methods diffsol steps.
enum DiffsolMethod {
    Tsit45,
    Bdf,
    Esdirk34,
}

/// Run one of diffsol's methods: its problem built from the model's closures.
fn run_diffsol<M: Model>(drive: Drive<'_, M>, method: DiffsolMethod) -> Result<(), Error> {
    let Drive {
        model,
        state0,
        t0,
        t_end,
        o,
        ..
    } = drive;
    // diffsol's closures cannot fail: the first model error is parked here, the stage is
    // poisoned with NaN (so diffsol rejects the step) and the error is reported after the
    // step, in preference to whatever diffsol made of the NaNs.
    let failure: RefCell<Option<Error>> = RefCell::new(None);
    let rhs = |x: &[f64], _p: &[f64], t: f64, y: &mut [f64]| {
        if failure.borrow().is_none() {
            match model.rhs(t, x, y) {
                Ok(()) => return,
                Err(e) => *failure.borrow_mut() = Some(e),
            }
        }
        y.fill(f64::NAN);
    };
    let init = |_p: &[f64], _t: f64, y: &mut [f64]| {
        for (yi, x) in y.iter_mut().zip(state0) {
            *yi = *x;
        }
    };
    let jac = |x: &[f64], _p: &[f64], t: f64, v: &[f64], y: &mut [f64]| {
        if failure.borrow().is_none() {
            match model.rhs_jvp(t, x, v, y) {
                Ok(()) => return,
                Err(e) => *failure.borrow_mut() = Some(e),
            }
        }
        y.fill(f64::NAN);
    };
    let take_failure = || failure.borrow_mut().take();
    let event = o.event.clone();
    let root = move |x: &[f64], _p: &[f64], t: f64, y: &mut [f64]| {
        y[0] = match &event {
            Some(g) => (g.0)(t, x),
            None => 1.0,
        };
    };

    let problem = OdeBuilder::<NalgebraMat<f64>>::new()
        .rtol(o.rtol)
        .atol([o.atol])
        .t0(t0)
        // Only its sign matters: diffsol picks the first step itself (Hairer's algorithm).
        .h0(t_end - t0)
        .rhs_implicit(rhs, jac)
        .root(root, 1)
        .init(init, M::DIM)
        .build()
        .map_err(|e| engine_error(e, t0, state0))?;
    let f = &take_failure;
    match method {
        DiffsolMethod::Bdf => {
            let solver = problem.bdf::<NalgebraLU<f64>>();
            drive.run(DiffsolStepper::new(solver, state0, t0, t_end, f)?)
        }
        DiffsolMethod::Esdirk34 => {
            let solver = problem.esdirk34::<NalgebraLU<f64>>();
            drive.run(DiffsolStepper::new(solver, state0, t0, t_end, f)?)
        }
        DiffsolMethod::Tsit45 => {
            drive.run(DiffsolStepper::new(problem.tsit45(), state0, t0, t_end, f)?)
        }
    }
}

/// How an accepted step ended.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stop {
    /// Inside the time span.
    Continue,
    /// At the end of the time span (the state is the state there, to roundoff).
    End,
    /// The stopping condition crossed zero at this time, inside the last step.
    Root(f64),
}

/// An integrator as the sampling loop drives it: accepted steps one at a time, the state
/// at the end of the last one, and dense output inside it.
trait Stepper {
    /// Time and state at the end of the last accepted step.
    fn t(&self) -> f64;
    fn y(&self) -> &[f64];
    /// Take one accepted step.
    fn step(&mut self) -> Result<Stop, Error>;
    /// The state at `t` inside the last step.
    fn interpolate(&mut self, t: f64, y: &mut [f64]) -> Result<(), Error>;
    /// What the method noticed that may explain running out of steps.
    fn hint(&self) -> Option<alloc::string::String> {
        None
    }
}

/// A diffsol solver with the model's parked errors.
struct DiffsolStepper<'a, 'f, Eqn, S, F> {
    solver: S,
    /// The state at the end of the last step (copied out of diffsol's vector).
    y: Vec<f64>,
    /// diffsol's vector for its dense output.
    dense: diffsol::NalgebraVec<f64>,
    take_failure: &'f F,
    eqn: PhantomData<&'a Eqn>,
}

impl<'a, 'f, Eqn, S, F> DiffsolStepper<'a, 'f, Eqn, S, F>
where
    Eqn: OdeEquations<T = f64, V = diffsol::NalgebraVec<f64>> + 'a,
    S: OdeSolverMethod<'a, Eqn>,
    F: Fn() -> Option<Error>,
{
    fn new(
        solver: Result<S, DiffsolError>,
        state0: &[f64],
        t0: f64,
        t_end: f64,
        take_failure: &'f F,
    ) -> Result<Self, Error> {
        // The first-step heuristic already evaluates rhs, possibly past t0.
        if let Some(e) = take_failure() {
            return Err(e);
        }
        let mut solver = solver.map_err(|e| engine_error(e, t0, state0))?;
        // A run whose only samples are at t0 takes no step, and diffsol refuses a stop
        // time equal to the start.
        if t_end > t0 {
            solver
                .set_stop_time(t_end)
                .map_err(|e| engine_error(e, t0, state0))?;
        }
        let dense = solver.state().y.clone();
        Ok(Self {
            solver,
            y: state0.to_vec(),
            dense,
            take_failure,
            eqn: PhantomData,
        })
    }
}

impl<'a, Eqn, S, F> Stepper for DiffsolStepper<'a, '_, Eqn, S, F>
where
    Eqn: OdeEquations<T = f64, V = diffsol::NalgebraVec<f64>> + 'a,
    S: OdeSolverMethod<'a, Eqn>,
    F: Fn() -> Option<Error>,
{
    fn t(&self) -> f64 {
        self.solver.state().t
    }

    fn y(&self) -> &[f64] {
        &self.y
    }

    fn step(&mut self) -> Result<Stop, Error> {
        let result = self.solver.step();
        if let Some(e) = (self.take_failure)() {
            return Err(e);
        }
        self.y.copy_from_slice(slice(self.solver.state().y));
        match result.map_err(|e| engine_error(e, self.t(), &self.y))? {
            OdeSolverStopReason::RootFound(t_root, _) => Ok(Stop::Root(t_root)),
            OdeSolverStopReason::TstopReached => Ok(Stop::End),
            OdeSolverStopReason::InternalTimestep => Ok(Stop::Continue),
        }
    }

    fn interpolate(&mut self, t: f64, y: &mut [f64]) -> Result<(), Error> {
        self.solver
            .interpolate_inplace(t, &mut self.dense)
            .map_err(|e| engine_error(e, self.solver.state().t, &self.y))?;
        y.copy_from_slice(slice(&self.dense));
        Ok(())
    }
}

/// Everything the sampling loop needs, whatever the method.
struct Drive<'r, M: Model> {
    model: &'r M,
    state0: &'r [f64],
    t0: f64,
    t_end: f64,
    o: &'r Options,
    samples: Option<&'r [f64]>,
    traj: &'r mut Trajectory,
    monitor: Option<f64>,
}

impl<M: Model> Drive<'_, M> {
    /// Step to `t_end`, recording samples (dense output between steps).
    fn run(self, mut stepper: impl Stepper) -> Result<(), Error> {
        let Drive {
            model,
            state0,
            t0,
            t_end,
            o,
            samples,
            traj,
            monitor,
        } = self;
        let mut dy = vec![0.0; M::DIM];
        let mut y = vec![0.0; M::DIM];

        // Samples at t0.
        let mut next = 0;
        match samples {
            None => record(model, traj, &mut dy, t0, state0, monitor)?,
            Some(s) => {
                while let Some(&ts) = s.get(next).filter(|&&ts| ts <= t0) {
                    record(model, traj, &mut dy, ts, state0, monitor)?;
                    next += 1;
                }
                if next == s.len() {
                    return Ok(());
                }
            }
        }

        let mut steps = 0_usize;
        loop {
            if steps >= o.max_steps {
                return Err(Error::Solver {
                    t: stepper.t(),
                    message: format!(
                        "maximum number of steps ({}) reached{}",
                        o.max_steps,
                        stepper.hint().unwrap_or_default()
                    ),
                    state: stepper.y().to_vec(),
                });
            }
            let t_old = stepper.t();
            let reason = stepper.step()?;
            steps += 1;
            let t_now = stepper.t();
            // diffsol checks its absolute minimum step only after a rejection; an accepted step
            // too small to change t (near a singularity) is an underflow all the same.
            if t_now <= t_old {
                return Err(Error::StepSize {
                    t: t_now,
                    state: stepper.y().to_vec(),
                });
            }
            if stepper.y().iter().any(|x| !x.is_finite()) {
                return Err(Error::NonFinite {
                    what: "state",
                    t: t_now,
                    state: stepper.y().to_vec(),
                });
            }
            if let Stop::Root(t_root) = reason {
                // Samples up to the event by dense output, then the state at the event.
                if let Some(s) = samples {
                    while let Some(&ts) = s.get(next).filter(|&&ts| ts < t_root) {
                        stepper.interpolate(ts, &mut y)?;
                        record(model, traj, &mut dy, ts, &y, monitor)?;
                        next += 1;
                    }
                }
                stepper.interpolate(t_root, &mut y)?;
                if traj.times().last().is_none_or(|t| *t < t_root) {
                    record(model, traj, &mut dy, t_root, &y, monitor)?;
                }
                traj.set_event_time(t_root);
                return Ok(());
            }
            // The step lands within roundoff of t_end; label that sample t_end exactly.
            let at_end = reason == Stop::End;
            match samples {
                None => {
                    let ts = if at_end { t_end } else { t_now };
                    record(model, traj, &mut dy, ts, stepper.y(), monitor)?;
                }
                Some(s) => {
                    while let Some(&ts) = s.get(next).filter(|&&ts| ts <= t_now || at_end) {
                        if ts >= t_now {
                            record(model, traj, &mut dy, ts, stepper.y(), monitor)?;
                        } else {
                            // Dense output of the last step.
                            stepper.interpolate(ts, &mut y)?;
                            record(model, traj, &mut dy, ts, &y, monitor)?;
                        }
                        next += 1;
                    }
                }
            }
            if at_end {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests;
