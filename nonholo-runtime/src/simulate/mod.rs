//! Adaptive integration of a [`Model`] (feature `diffsol`).
//!
//! diffsol does the integrating (step-size control, dense output, root finding) for
//! Tsit45, BDF and ESDIRK34; DOP853, whose 16 stages diffsol's explicit solver cannot hold,
//! is stepped by [`dop853`]. Both sit behind one [`Stepper`], and one sampling loop
//! ([`Drive`]) adapts a [`Model`] to them, validates the inputs, samples the solution and
//! turns every failure — the model's own errors and a controller's included — into a
//! [`SimulationError`] that keeps the trajectory computed so far.
//!
//! The integrators see a [`Field`]: the model with its inputs `u`, which are zero
//! (`simulate`), set by a controller at every evaluation (continuous feedback), or held
//! between the instants of a sampled-data controller. They see it as a `dyn Plant`, so that
//! they are compiled once, here, not once per model in every crate that simulates one. In that last case the run is a chain of
//! hold intervals: every integrator lands on each control instant, the controller runs
//! there, and the same integrator restarts from the state it reached (its buffers and its
//! step size kept), so that no step crosses an instant.

use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;
use core::ops::Range;

use diffsol::error::OdeSolverError;
use diffsol::{DiffsolError, VectorCommon};

use crate::model::{check_state, validate_layout};
use crate::{Controller, Error, Model, SimulationError, Trajectory};

mod diffsol_stepper;
mod dop853;
mod drive;
mod events;
mod field;
mod hybrid;
mod options;
mod roots;
mod sliding;
mod stepper;
use diffsol_stepper::{run_diffsol, DiffsolMethod};
use dop853::Dop853;
// `Stepper` and `Stop` also for the steppers, which name them through this module.
use drive::{Drive, Instants};
use field::{Field, Mode, Plant, VectorField};
use options::Sampling;
pub use options::{Method, Options};
use roots::Roots;
use stepper::{Stepper, Stop};

/// Integrate `model` from `state0` over the time span `t` with the [`Method`] of `options`.
///
/// Before integrating it checks that the model's constants are consistent, that `state0`
/// has length `M::DIM` ([`Error::Dimension`]), that it satisfies the constraints
/// ([`Error::ConstraintViolated`], see [`Options::check_constraints`]) and that the options
/// make sense ([`Error::InvalidOptions`]; `t.start < t.end` — integration runs forward).
///
/// Every sample stores the state and `d state/dt` (from [`Model::rhs`]), so
/// [`Trajectory::at`] interpolates between samples. A model with inputs
/// ([`Model::INPUTS`]) runs with `u = 0`, recorded with every sample; to drive the inputs,
/// see [`simulate_controlled`] ([`Options::control_period`] is for it and ignored here).
/// Errors stop the integration and come back with the samples recorded so far in
/// [`SimulationError::partial`]:
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
    simulate_with(model, None, state0, t, options)
}

/// Integrate `model` from `state0` over the time span `t` with its inputs `u` set by
/// `controller` ([`Controller`]: a closure `FnMut(t, state, u)`, a struct, or an
/// [`InputSeries`](crate::InputSeries) of recorded data).
///
/// - Without [`Options::control_period`]: continuous feedback. The controller runs at every
///   evaluation of the right-hand side, `dstate = f(t, x, c(t, x))`, in every stage of every
///   step attempt, and so must be a function of `(t, state)`. The implicit methods' Jacobian
///   is the closed loop's, `df/dx + df/du dc/dx`, by central differences of
///   `f(x, c(t, x))`.
/// - With `control_period(dt)`: sampled-data control with zero-order hold, as on a real
///   controller. It runs at `t0, t0 + dt, t0 + 2 dt, ...` (and at the end of the span when
///   that is an instant) with the state there; `u` is held in between, and no integrator step
///   crosses an instant, so the hold is exact whatever the method. The controller may keep
///   state (filters, integrators, delays).
///
/// Each sample records the inputs acting there ([`Trajectory::input`]); at a control
/// instant, the new inputs (applied from that instant on), with `d state/dt` for them.
/// ([`Trajectory::at`] interpolates with the recorded derivatives, so just before an
/// instant, where `d state/dt` jumps, it is less accurate: ask for the times that matter
/// with the sampling options, which use the method's dense output.) The
/// sampling options, [`Options::stop_when`] (which may end the run inside any hold interval)
/// and [`Options::max_steps`] (counted over the whole run) work as in [`simulate`], with
/// every [`Method`]. An error of the controller ends the run like an error of the model,
/// with the trajectory so far, and so does an input that is not finite
/// ([`Error::NonFinite`] with `what = "inputs u"`).
///
/// ```
/// use nonholo_runtime::{simulate_controlled, Options};
/// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
///
/// // m x'' + k x = f, stabilised at rest by a sampled PD law f = -kp x - kd v at 100 Hz
/// let osc = ForcedOscillator { m: 1.0, k: 1.0 };
/// let mut pd = |_t: f64, x: &[f64], u: &mut [f64]| u[0] = -3.0 * x[0] - 2.0 * x[1];
/// let options = Options::default().control_period(0.01).sample_every(0.5);
/// let tr = simulate_controlled(&osc, &mut pd, &[1.0, 0.0], 0.0..10.0, &options)?;
/// let (_, x) = tr.last().unwrap();
/// assert!(x[0].abs() < 1e-3 && x[1].abs() < 1e-3);
/// // the force held over each period is recorded with the samples
/// assert_eq!(tr.input_names(), ["f"]);
/// assert_eq!(tr.input(0), Some(&[-3.0][..]));
/// # Ok::<(), nonholo_runtime::SimulationError>(())
/// ```
// One error per run, and it carries the trajectory by value on purpose (no Box to
// look through): its size does not matter.
#[allow(clippy::result_large_err)]
pub fn simulate_controlled<M: Model, C: Controller + ?Sized>(
    model: &M,
    controller: &mut C,
    state0: &[f64],
    t: Range<f64>,
    options: &Options,
) -> Result<Trajectory, SimulationError> {
    simulate_with(model, Some(&mut Unsized(controller)), state0, t, options)
}

/// A `?Sized` controller as a `dyn` one.
struct Unsized<'c, C: ?Sized>(&'c mut C);

impl<C: Controller + ?Sized> Controller for Unsized<'_, C> {
    fn control(&mut self, t: f64, state: &[f64], u: &mut [f64]) -> Result<(), Error> {
        self.0.control(t, state, u)
    }
}

/// Integrate `model` from `q0` and `dot(q)0` over the time span `t`, through the events of
/// `options` ([`Options::event`]): the entry point of hybrid runs, whose resets are written
/// in `(q, dot(q))` since the speeds are the model's own.
///
/// The start is [`Model::state_from_qdot`] of `(q0, dot(q)0)` (an error for a `dot(q)0` that
/// breaks a constraint); from there it is [`simulate`], with every event recorded
/// ([`Trajectory::events`]) and the state before and after each at its time. A run without
/// events is [`simulate`] from that state, sample for sample.
///
/// A model whose rolling contacts declare `friction` (with [`Options::contact_checks`] on,
/// the default) may slip and grip again (`nonholo::guide::hybrid_motion`): a contact whose
/// rows `dot(q)0` breaks starts sliding, the others roll; each switch is an event
/// ([`ContactEvent::Slip`](crate::ContactEvent::Slip),
/// [`ContactEvent::Stick`](crate::ContactEvent::Stick)); the samples are `[q, dot(q)]` in every
/// mode, with the contact loads and [`Trajectory::sliding`]. While every contact rolls, `q`
/// is [`simulate`]'s bit for bit.
///
/// ```
/// use nonholo_runtime::{simulate_hybrid, Model, Options};
/// # use nonholo_runtime::__private::doc_models::Oscillator;
///
/// // x'' = -x between two walls at x = -1 and x = 1, elastic at the right one, plastic
/// // (the speed halved) at the left one
/// let options = Options::default()
///     .event("right", |_t, q, _qd| 1.0 - q[0], |_t, _q, qd| qd[0] = -qd[0])
///     .event("left", |_t, q, _qd| q[0] + 1.0, |_t, _q, qd| qd[0] *= -0.5)
///     .sample_every(0.01);
/// let tr = simulate_hybrid(&Oscillator::new(1.0), &[0.0], &[2.0], 0.0..6.0, &options)?;
/// let names: Vec<_> = tr.events().iter().map(|e| format!("{:?}", e.kind)).collect();
/// assert_eq!(names[..2], ["User(\"right\")", "User(\"left\")"]);
/// // x = 2 sin t reaches 1 at t = pi/6
/// assert!((tr.events()[0].t - std::f64::consts::FRAC_PI_6).abs() < 1e-9);
/// // never past a wall
/// assert!(tr.states().chunks(2).all(|s| s[0].abs() <= 1.0 + 1e-9));
/// # Ok::<(), nonholo_runtime::SimulationError>(())
/// ```
#[allow(clippy::result_large_err)]
pub fn simulate_hybrid<M: Model>(
    model: &M,
    q0: &[f64],
    qdot0: &[f64],
    t: Range<f64>,
    options: &Options,
) -> Result<Trajectory, SimulationError> {
    if let Some(released) = model.__released().filter(|_| options.contact_checks) {
        return simulate_slipping(model, released, None, q0, qdot0, t, options);
    }
    let state0 = hybrid_start(model, q0, qdot0, t.start)?;
    simulate_with(model, None, state0.as_ref(), t, options)
}

/// [`simulate_hybrid`] of a model whose contacts may slip.
#[allow(clippy::result_large_err)]
fn simulate_slipping<M: Model>(
    model: &M,
    released: &dyn crate::__private::Released,
    mut controller: Option<&mut dyn Controller>,
    q0: &[f64],
    qdot0: &[f64],
    t: Range<f64>,
    options: &Options,
) -> Result<Trajectory, SimulationError> {
    let spec = released.spec();
    let mut traj = Trajectory::from_names_with_inputs(M::COORDINATES, spec.velocities, M::INPUTS);
    traj.record_contacts(spec.names);
    let mut run = |traj: &mut Trajectory| -> Result<(), Error> {
        validate_layout::<M>()?;
        model.check_parameters()?;
        for (what, found) in [("q0", q0.len()), ("qdot0", qdot0.len())] {
            if found != M::NQ {
                return Err(Error::Dimension {
                    what,
                    expected: M::NQ,
                    found,
                });
            }
        }
        if q0.iter().chain(qdot0).any(|x| !x.is_finite()) {
            return Err(Error::NonFinite {
                what: "initial state",
                t: t.start,
                state: crate::__private::concat(q0, qdot0),
            });
        }
        let samples = sample_times(&t, options, false)?;
        if let Some(s) = &samples {
            traj.reserve(s.len());
        }
        if let (true, Some(dt)) = (controller.is_some(), options.control_period) {
            drive::Instants::check(t.start, t.end, dt)?;
        }
        hybrid::run_slipping(
            model,
            released,
            controller.take(),
            (q0, qdot0),
            &t,
            options,
            samples.as_deref(),
            traj,
        )
    };
    match run(&mut traj) {
        Ok(()) => Ok(traj),
        Err(error) => Err(SimulationError {
            error,
            partial: traj,
        }),
    }
}

/// [`simulate_hybrid`] with the inputs set by `controller`, as in [`simulate_controlled`]:
/// continuous feedback, or sampled at [`Options::control_period`], whose held inputs go on
/// unchanged through an event (the state is continuous up to it). For a model whose
/// contacts may slip, the controller sees `[q, dot(q)]` in every mode (the record's layout),
/// and its control instants keep their times through every switch.
///
/// ```
/// use nonholo_runtime::{simulate_hybrid_controlled, Options};
/// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
///
/// // m x'' + k x = f pushed toward a wall at x = 1 by a sampled constant force
/// let osc = ForcedOscillator { m: 1.0, k: 0.0 };
/// let mut push = |_t: f64, _x: &[f64], u: &mut [f64]| u[0] = 1.0;
/// let options = Options::default()
///     .control_period(0.1)
///     .event("wall", |_t, q, _qd| 1.0 - q[0], |_t, _q, qd| qd[0] *= -0.5);
/// let tr = simulate_hybrid_controlled(&osc, &mut push, &[0.0], &[0.0], 0.0..3.0, &options)?;
/// // x = t^2 / 2 reaches the wall at t = sqrt(2)
/// assert!((tr.events()[0].t - 2.0f64.sqrt()).abs() < 1e-9);
/// # Ok::<(), nonholo_runtime::SimulationError>(())
/// ```
#[allow(clippy::result_large_err)]
pub fn simulate_hybrid_controlled<M: Model, C: Controller + ?Sized>(
    model: &M,
    controller: &mut C,
    q0: &[f64],
    qdot0: &[f64],
    t: Range<f64>,
    options: &Options,
) -> Result<Trajectory, SimulationError> {
    if let Some(released) = model.__released().filter(|_| options.contact_checks) {
        let mut c = Unsized(controller);
        return simulate_slipping(model, released, Some(&mut c), q0, qdot0, t, options);
    }
    let state0 = hybrid_start(model, q0, qdot0, t.start)?;
    simulate_controlled(model, controller, state0.as_ref(), t, options)
}

/// The state of `(q0, dot(q)0)`, or the error with an empty trajectory.
#[allow(clippy::result_large_err)]
fn hybrid_start<M: Model>(
    model: &M,
    q0: &[f64],
    qdot0: &[f64],
    t0: f64,
) -> Result<M::State, SimulationError> {
    let fail = |error| SimulationError {
        error,
        partial: Trajectory::new::<M>(),
    };
    model.check_parameters().map_err(fail)?;
    for (what, found) in [("q0", q0.len()), ("qdot0", qdot0.len())] {
        if found != M::NQ {
            return Err(fail(Error::Dimension {
                what,
                expected: M::NQ,
                found,
            }));
        }
    }
    model.state_from_qdot(t0, q0, qdot0).map_err(fail)
}

/// [`simulate`] and [`simulate_controlled`]: one code path; what is generic over the model
/// is only this validation and the [`Field`] (the integrators see it as a `dyn Plant`).
#[allow(clippy::result_large_err)]
fn simulate_with<'a, M: Model>(
    model: &'a M,
    controller: Option<&'a mut (dyn Controller + 'a)>,
    state0: &[f64],
    t: Range<f64>,
    options: &Options,
) -> Result<Trajectory, SimulationError> {
    let mut traj = Trajectory::new::<M>();
    let controlled = controller.is_some();
    match prepare(model, state0, &t, options, controlled).and_then(|samples| {
        traj.reserve(samples.as_ref().map_or(0, Vec::len));
        run(
            model,
            controller,
            state0,
            &t,
            options,
            samples.as_deref(),
            &mut traj,
            None,
        )
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
    controlled: bool,
) -> Result<Option<Vec<f64>>, Error> {
    let invalid = |msg: alloc::string::String| Err(Error::InvalidOptions(msg));
    validate_layout::<M>()?;
    model.check_parameters()?;
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
    let samples = sample_times(t, o, controlled)?;
    let t0 = t.start;
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

/// Validate the span and the options; the requested sample times (`None`: every step).
fn sample_times(t: &Range<f64>, o: &Options, controlled: bool) -> Result<Option<Vec<f64>>, Error> {
    let invalid = |msg: alloc::string::String| Err(Error::InvalidOptions(msg));
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
    if let (true, Some(dt)) = (controlled, o.control_period) {
        Instants::check(t0, t1, dt)?;
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

/// Rounding in a time near `t` on a grid of spacing (or a step) `dt`: diffsol's test of
/// reaching a stop time.
fn roundoff(t: f64, dt: f64) -> f64 {
    100.0 * f64::EPSILON * (t.abs() + dt.abs())
}

/// A run that goes on from where another left off (a phase of a run whose contacts slip):
/// the control instants keep the first run's origin, and the inputs held there are held on.
#[derive(Clone, Copy)]
struct Resume<'a> {
    origin: f64,
    held: &'a [f64],
}

#[allow(clippy::too_many_arguments)]
fn run<'a, M: Model>(
    model: &'a M,
    controller: Option<&'a mut (dyn Controller + 'a)>,
    state0: &[f64],
    t: &Range<f64>,
    o: &Options,
    samples: Option<&[f64]>,
    traj: &mut Trajectory,
    resume: Option<Resume<'_>>,
) -> Result<(), Error> {
    let t0 = t.start;
    let t_end = samples.and_then(|s| s.last().copied()).unwrap_or(t.end);
    let monitor =
        (o.monitor_constraints && o.constraint_tol < f64::INFINITY).then_some(o.constraint_tol);
    let period = o.control_period.filter(|_| controller.is_some());
    let origin = resume.map_or(t0, |r| r.origin);
    let instants = period.map(|dt| Instants::new(origin, dt, t_end));
    let field = Field::new(model, controller, period.is_some());
    run_plant(
        &field,
        state0,
        t0,
        t_end,
        o,
        samples,
        traj,
        monitor,
        instants,
        resume.map(|r| r.held),
    )
}

/// The rest of [`run`] on the field as a trait object: the sampling loop, the steppers and
/// diffsol's problem are compiled here once, not once per model.
#[allow(clippy::too_many_arguments)]
fn run_plant(
    field: &dyn Plant,
    state0: &[f64],
    t0: f64,
    t_end: f64,
    o: &Options,
    samples: Option<&[f64]>,
    traj: &mut Trajectory,
    monitor: Option<f64>,
    instants: Option<Instants>,
    held: Option<&[f64]>,
) -> Result<(), Error> {
    if field.mode() == Mode::Held {
        // The inputs of the first hold interval, before anything is evaluated with them (or
        // those a resumed run held).
        match held {
            Some(u) => field.hold(u),
            None => {
                field.sample_and_hold(t0, state0)?;
            }
        }
    }
    let (stop, _) = instants.map_or((t_end, false), |i| i.stop(i.interval_at(t0)));
    let roots = Roots::new(o, field);
    let roots = roots.active().then_some(&roots);
    let drive = Drive {
        field,
        state0,
        t0,
        t_end,
        o,
        samples,
        traj,
        monitor,
        instants,
        roots,
    };
    match o.method {
        Method::Dop853 => drive.run(Dop853::new(field, t0, state0, stop, o, roots)?),
        Method::Tsit45 => run_diffsol(drive, DiffsolMethod::Tsit45, stop),
        Method::Bdf => run_diffsol(drive, DiffsolMethod::Bdf, stop),
        Method::Esdirk34 => run_diffsol(drive, DiffsolMethod::Esdirk34, stop),
    }
}

#[cfg(test)]
mod tests;
