//! The sampling loop ([`Drive`]), which drives the integrators through [`Stepper`]:
//! steps, dense output at the sample times, events, and the hold intervals of a
//! sampled-data run ([`Instants`]).

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use super::field::Plant;
use super::stepper::{Stepper, Stop};
use super::{roundoff, Options};
use crate::{Error, Event, EventKind, Trajectory};

/// The control instants `t0 + k dt` of a sampled-data run that ends at `t_end`, and its hold
/// intervals: interval `k` runs from instant `k` to instant `k + 1`, the last one to `t_end`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Instants {
    t0: f64,
    dt: f64,
    t_end: f64,
    /// The last instant: `t0 + n dt <= t_end`, to a relative `1e-9` of `dt`.
    n: usize,
    /// Whether instant `n` is `t_end` itself (the controller then runs at the end as well).
    ends_on_instant: bool,
}

impl Instants {
    /// Refuse a period that is not positive, that gives 2^32 instants or more on `[t0, t1]`,
    /// or that the times of the span cannot resolve (below `1e6 eps |t|`).
    pub(super) fn check(t0: f64, t1: f64, dt: f64) -> Result<(), Error> {
        const MAX_INSTANTS: f64 = 4_294_967_296.0;
        let n = ((t1 - t0) / dt + 1e-9).floor();
        let scale = t0.abs().max(t1.abs());
        let ok = dt > 0.0 && dt.is_finite() && n < MAX_INSTANTS && dt > 1e6 * f64::EPSILON * scale;
        if ok {
            Ok(())
        } else {
            Err(Error::InvalidOptions(format!(
                "control_period({dt}) must be positive, above 1e6 eps |t| on [{t0}, {t1}] and \
                 give fewer than 2^32 control instants there"
            )))
        }
    }

    pub(super) fn new(t0: f64, dt: f64, t_end: f64) -> Self {
        // Checked: a non-negative integer below 2^32, so the cast is exact.
        let n = ((t_end - t0) / dt + 1e-9).floor().max(0.0) as usize;
        let last = t0 + n as f64 * dt;
        Self {
            t0,
            dt,
            t_end,
            n,
            ends_on_instant: n > 0 && (t_end - last).abs() <= 1e-9 * dt,
        }
    }

    /// Instant `k <= n`.
    fn at(&self, k: usize) -> f64 {
        if k == self.n && self.ends_on_instant {
            self.t_end
        } else {
            (self.t0 + k as f64 * self.dt).min(self.t_end)
        }
    }

    /// The hold interval a run resumed at `t` is in: the last instant at or before `t`
    /// (within roundoff, so that a run resumed on an instant goes on from there).
    pub(super) fn interval_at(&self, t: f64) -> usize {
        let mut k = ((t - self.t0) / self.dt).floor().max(0.0) as usize;
        k = k.min(self.n);
        while k < self.n && self.at(k + 1) <= t + super::roundoff(t, self.dt) {
            k += 1;
        }
        k
    }

    /// The end of hold interval `k`, and whether it is a control instant.
    pub(super) fn stop(&self, k: usize) -> (f64, bool) {
        if k < self.n {
            (self.at(k + 1), true)
        } else {
            (self.t_end, false)
        }
    }
}

/// The buffers of one recorded sample.
struct Recorder {
    dy: Vec<f64>,
    u: Vec<f64>,
    monitor: Option<f64>,
}

impl Recorder {
    /// Append `(t, y)` with the inputs acting there and the derivative; check the
    /// constraints when asked.
    fn record(
        &mut self,
        field: &dyn Plant,
        traj: &mut Trajectory,
        t: f64,
        y: &[f64],
    ) -> Result<(), Error> {
        field.sample(t, y, &mut self.dy, &mut self.u)?;
        self.push(field, traj, t, y)
    }

    /// [`Recorder::record`] with the inputs and derivative already in the buffers.
    fn push(
        &mut self,
        field: &dyn Plant,
        traj: &mut Trajectory,
        t: f64,
        y: &[f64],
    ) -> Result<(), Error> {
        traj.push_with_inputs(t, y, &self.dy, &self.u)?;
        match self.monitor {
            Some(tol) => field.check_state(t, y, tol),
            None => Ok(()),
        }
    }
}

impl Recorder {
    /// The state after an event at the time of the sample before it, with the inputs and
    /// the derivative there.
    fn push_event(
        &mut self,
        field: &dyn Plant,
        traj: &mut Trajectory,
        event: Event,
        y: &[f64],
    ) -> Result<(), Error> {
        field.sample(event.t, y, &mut self.dy, &mut self.u)?;
        traj.push_event(event, y, &self.dy, &self.u)?;
        match self.monitor {
            Some(tol) => field.check_state(event.t, y, tol),
            None => Ok(()),
        }
    }
}

/// Everything the sampling loop needs, whatever the method.
pub(super) struct Drive<'r> {
    pub(super) field: &'r dyn Plant,
    pub(super) state0: &'r [f64],
    pub(super) t0: f64,
    pub(super) t_end: f64,
    pub(super) o: &'r Options,
    pub(super) samples: Option<&'r [f64]>,
    pub(super) traj: &'r mut Trajectory,
    pub(super) monitor: Option<f64>,
    /// The control instants of a sampled-data run.
    pub(super) instants: Option<Instants>,
    /// What may end the run inside a step.
    pub(super) roots: Option<&'r super::roots::Roots<'r>>,
}

impl Drive<'_> {
    /// Step to `t_end`, recording samples (dense output between steps), through the hold
    /// intervals of a sampled-data run.
    pub(super) fn run(self, mut stepper: impl Stepper) -> Result<(), Error> {
        let Drive {
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
        } = self;
        let (_, dim, nu) = field.dims();
        let mut rec = Recorder {
            dy: vec![0.0; dim],
            u: vec![0.0; nu],
            monitor,
        };
        let mut y = vec![0.0; dim];

        // Samples at t0 (a sampled-data controller has set the inputs there already).
        let mut next = 0;
        match samples {
            None => rec.record(field, traj, t0, state0)?,
            Some(s) => {
                while let Some(&ts) = s.get(next).filter(|&&ts| ts <= t0) {
                    rec.record(field, traj, ts, state0)?;
                    next += 1;
                }
                if next == s.len() {
                    return Ok(());
                }
            }
        }

        // A start outside a contact's guards never changes their sign: reported at once (and
        // so is a control instant whose new inputs jump a guard past zero).
        let mut guards = vec![0.0; roots.map_or(0, super::roots::Roots::len)];
        let outside = |t: f64, y: &[f64], g: &mut [f64]| -> Result<(), Error> {
            let Some(roots) = roots else { return Ok(()) };
            roots.eval(t, y, g)?;
            // a NaN guard counts as outside
            match g[1..].iter().position(|x| x.is_nan() || *x <= 0.0) {
                Some(i) => Err(super::roots::contact_lost(field, i, t, y)),
                None => Ok(()),
            }
        };
        if let Err(e) = outside(t0, state0, &mut guards) {
            traj.set_event_time(t0);
            return Err(e);
        }

        // The events that continue the run, armed where their guards are positive.
        let mut events = super::events::Events::new(o, field);
        if let Some(ev) = events.as_mut() {
            field.sample(t0, state0, &mut rec.dy, &mut rec.u)?;
            ev.arm(field, t0, state0, &rec.dy)?;
        }

        // The hold interval and where it ends.
        let mut interval = instants.map_or(0, |i| i.interval_at(t0));
        let (mut t_stop, mut stop_is_instant) =
            instants.map_or((t_end, false), |i| i.stop(interval));
        let dt = instants.map_or(0.0, |i| i.dt);
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
            // An event inside the step (before what stopped it): the samples before it,
            // the state before and after it, and the method goes on from the latter.
            if let Some(ev) = events.as_mut() {
                let t_limit = match reason {
                    Stop::Root(t_root, _) => t_root,
                    _ => t_now,
                };
                if let Some((t_e, i)) = ev.check(field, &mut stepper, t_old, t_limit)? {
                    if let Some(s) = samples {
                        while let Some(&ts) = s.get(next).filter(|&&ts| ts < t_e) {
                            stepper.interpolate(ts, &mut y)?;
                            rec.record(field, traj, ts, &y)?;
                            next += 1;
                        }
                        // the pair at t_e stands for a sample asked there
                        while s.get(next).is_some_and(|&ts| ts <= t_e) {
                            next += 1;
                        }
                    }
                    stepper.interpolate(t_e, &mut y)?;
                    if traj.times().last().is_none_or(|t| *t < t_e) {
                        rec.record(field, traj, t_e, &y)?;
                    }
                    let name = ev.fire(field, i, t_e, &mut y)?;
                    rec.push_event(
                        field,
                        traj,
                        Event {
                            t: t_e,
                            kind: EventKind::User(name),
                        },
                        &y,
                    )?;
                    ev.arm(field, t_e, &y, &rec.dy)?;
                    if let Err(e) = outside(t_e, &y, &mut guards) {
                        traj.set_event_time(t_e);
                        return Err(e);
                    }
                    stepper.jump(t_e, &y, &rec.dy)?;
                    if samples.is_some_and(|s| next == s.len()) {
                        return Ok(());
                    }
                    continue;
                }
            }
            if let Stop::Root(t_root, index) = reason {
                // Samples up to the event by dense output, then the state at the event.
                if let Some(s) = samples {
                    while let Some(&ts) = s.get(next).filter(|&&ts| ts < t_root) {
                        stepper.interpolate(ts, &mut y)?;
                        rec.record(field, traj, ts, &y)?;
                        next += 1;
                    }
                }
                stepper.interpolate(t_root, &mut y)?;
                if traj.times().last().is_none_or(|t| *t < t_root) {
                    rec.record(field, traj, t_root, &y)?;
                }
                traj.set_event_time(t_root);
                if index > 0 {
                    return Err(super::roots::contact_lost(field, index - 1, t_root, &y));
                }
                return Ok(());
            }
            // a sample inside the step is interpolated on the field the step was taken
            // with, which `accepted` may change (a sliding contact's friction that starts to
            // follow its slip)
            if samples.is_some_and(|s| s.get(next).is_some_and(|&ts| ts < t_now)) {
                stepper.prepare_interpolation()?;
            }
            field.accepted(t_now, stepper.y())?;
            // The step lands within roundoff of the stop time; label it the stop time exactly.
            let at_stop = reason == Stop::End;
            let at_end = at_stop && t_stop >= t_end;
            let instant = at_stop && stop_is_instant;
            if !instant {
                match samples {
                    None => {
                        let ts = if at_stop { t_stop } else { t_now };
                        rec.record(field, traj, ts, stepper.y())?;
                    }
                    Some(s) => {
                        // Dense output of the last step, then the samples at its end.
                        while let Some(&ts) = s.get(next).filter(|&&ts| ts < t_now) {
                            stepper.interpolate(ts, &mut y)?;
                            rec.record(field, traj, ts, &y)?;
                            next += 1;
                        }
                        while let Some(&ts) = s.get(next).filter(|&&ts| ts <= t_now || at_stop) {
                            rec.record(field, traj, ts, stepper.y())?;
                            next += 1;
                        }
                    }
                }
                if at_end {
                    return Ok(());
                }
                continue;
            }
            // A control instant: the samples before it have the held inputs (dense output of
            // the last step), those at it (to roundoff) the new ones.
            if let Some(s) = samples {
                let before = t_stop - roundoff(t_stop, dt);
                while let Some(&ts) = s.get(next).filter(|&&ts| ts < t_now && ts < before) {
                    stepper.interpolate(ts, &mut y)?;
                    rec.record(field, traj, ts, &y)?;
                    next += 1;
                }
            }
            // The controller, then the inputs and the derivative at the instant, once: for
            // the samples there and for the method's restart.
            let t_instant = t_stop;
            y.copy_from_slice(stepper.y());
            let new_inputs = field.sample_and_hold(t_instant, &y)?;
            field.sample(t_instant, &y, &mut rec.dy, &mut rec.u)?;
            if new_inputs && let Err(e) = outside(t_instant, &y, &mut guards) {
                rec.push(field, traj, t_instant, &y)?;
                traj.set_event_time(t_instant);
                return Err(e);
            }
            if !at_end {
                interval += 1;
                (t_stop, stop_is_instant) = instants.map_or((t_end, false), |i| i.stop(interval));
                stepper.restart(t_instant, t_stop, new_inputs, &rec.dy)?;
            }
            match samples {
                None => rec.push(field, traj, t_instant, &y)?,
                Some(s) => {
                    let upto = t_instant + roundoff(t_instant, dt);
                    // the buffers hold the instant's inputs and derivative until a sample at
                    // another time (within roundoff) is recorded
                    let mut fresh = true;
                    while let Some(&ts) = s.get(next).filter(|&&ts| ts <= upto || at_end) {
                        if fresh && ts == t_instant {
                            rec.push(field, traj, ts, &y)?;
                        } else {
                            rec.record(field, traj, ts, &y)?;
                            fresh = false;
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
