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

impl<'r> Drive<'r> {
    /// Step to `t_end`, recording samples (dense output between steps), through the hold
    /// intervals of a sampled-data run: one stage at a time ([`Loop`]): the start, a step,
    /// a user event inside it, a guard's root that ends the run, the samples of an
    /// accepted step, a control instant.
    pub(super) fn run(self, mut stepper: impl Stepper) -> Result<(), Error> {
        let Some(mut run) = Loop::start(self)? else {
            return Ok(());
        };
        loop {
            let (t_old, reason) = run.step(&mut stepper)?;
            if run.user_event(&mut stepper, t_old, reason)? {
                if run.samples_done() {
                    return Ok(());
                }
                continue;
            }
            if let Stop::Root(t_root, index) = reason {
                return run.root(&mut stepper, t_root, index);
            }
            // a sample inside the step is interpolated on the field the step was taken
            // with, which `accepted` may change (a sliding contact's friction that starts to
            // follow its slip)
            if run.sample_before(stepper.t()) {
                stepper.prepare_interpolation()?;
            }
            run.d.field.accepted(stepper.t(), stepper.y())?;
            // The step lands within roundoff of the stop time; label it the stop time exactly.
            let at_stop = reason == Stop::End;
            let at_end = at_stop && run.t_stop >= run.d.t_end;
            if at_stop && run.stop_is_instant {
                run.instant(&mut stepper, at_end)?;
            } else {
                run.record_step(&mut stepper, at_stop)?;
            }
            if at_end {
                return Ok(());
            }
        }
    }
}

/// The sampling loop's state between its stages.
struct Loop<'r> {
    d: Drive<'r>,
    rec: Recorder,
    /// Scratch for dense output.
    y: Vec<f64>,
    /// The next sample time to record (index into `d.samples`).
    next: usize,
    guards: Vec<f64>,
    events: Option<super::events::Events<'r>>,
    /// The hold interval, where it ends and whether that end is a control instant.
    interval: usize,
    t_stop: f64,
    stop_is_instant: bool,
    /// The control period (0 without one).
    dt: f64,
    steps: usize,
}

impl<'r> Loop<'r> {
    /// The samples at `t0` (a sampled-data controller has set the inputs there already),
    /// the guards checked there and the events armed. `None` where nothing is left to run.
    fn start(d: Drive<'r>) -> Result<Option<Self>, Error> {
        let (field, t0, state0) = (d.field, d.t0, d.state0);
        let (_, dim, nu) = field.dims();
        let mut rec = Recorder {
            dy: vec![0.0; dim],
            u: vec![0.0; nu],
            monitor: d.monitor,
        };
        let mut next = 0;
        match d.samples {
            None => rec.record(field, d.traj, t0, state0)?,
            Some(s) => {
                while let Some(&ts) = s.get(next).filter(|&&ts| ts <= t0) {
                    rec.record(field, d.traj, ts, state0)?;
                    next += 1;
                }
                if next == s.len() {
                    return Ok(None);
                }
            }
        }
        let guards = vec![0.0; d.roots.map_or(0, super::roots::Roots::len)];
        let events = super::events::Events::new(d.o, field);
        let interval = d.instants.map_or(0, |i| i.interval_at(t0));
        let (t_stop, stop_is_instant) = d.instants.map_or((d.t_end, false), |i| i.stop(interval));
        let dt = d.instants.map_or(0.0, |i| i.dt);
        let mut run = Self {
            d,
            rec,
            y: vec![0.0; dim],
            next,
            guards,
            events,
            interval,
            t_stop,
            stop_is_instant,
            dt,
            steps: 0,
        };
        // A start outside a contact's guards never changes their sign: reported at once.
        if let Err(e) = run.outside(t0, state0) {
            run.d.traj.set_event_time(t0);
            return Err(e);
        }
        // The events that continue the run, armed where their guards are positive.
        if let Some(ev) = run.events.as_mut() {
            field.sample(t0, state0, &mut run.rec.dy, &mut run.rec.u)?;
            ev.arm(field, t0, state0, &run.rec.dy)?;
        }
        Ok(Some(run))
    }

    /// A contact's guard at or below zero (or NaN) at `(t, y)`: the error that ends the run
    /// (a start outside the guards, or a control instant whose new inputs jump one past zero).
    fn outside(&mut self, t: f64, y: &[f64]) -> Result<(), Error> {
        let Some(roots) = self.d.roots else {
            return Ok(());
        };
        roots.eval(t, y, &mut self.guards)?;
        match self.guards[1..]
            .iter()
            .position(|x| x.is_nan() || *x <= 0.0)
        {
            Some(i) => Err(super::roots::contact_lost(self.d.field, i, t, y)),
            None => Ok(()),
        }
    }

    fn samples_done(&self) -> bool {
        self.d.samples.is_some_and(|s| self.next == s.len())
    }

    /// Whether a sample is asked before `t`.
    fn sample_before(&self, t: f64) -> bool {
        self.d
            .samples
            .is_some_and(|s| s.get(self.next).is_some_and(|&ts| ts < t))
    }

    /// The samples asked before `t` (or at it, with `inclusive`), by dense output.
    fn interpolate_samples(
        &mut self,
        stepper: &mut impl Stepper,
        t: f64,
        inclusive: bool,
    ) -> Result<(), Error> {
        let Some(s) = self.d.samples else {
            return Ok(());
        };
        while let Some(&ts) = s
            .get(self.next)
            .filter(|&&ts| ts < t || (inclusive && ts <= t))
        {
            stepper.interpolate(ts, &mut self.y)?;
            self.rec.record(self.d.field, self.d.traj, ts, &self.y)?;
            self.next += 1;
        }
        Ok(())
    }

    /// One accepted step, checked: within `max_steps`, moving `t`, finite. Returns where
    /// it started and how it ended.
    fn step(&mut self, stepper: &mut impl Stepper) -> Result<(f64, Stop), Error> {
        if self.steps >= self.d.o.max_steps {
            return Err(Error::Solver {
                t: stepper.t(),
                message: format!(
                    "maximum number of steps ({}) reached{}",
                    self.d.o.max_steps,
                    stepper.hint().unwrap_or_default()
                ),
                state: stepper.y().to_vec(),
            });
        }
        let t_old = stepper.t();
        let reason = stepper.step()?;
        self.steps += 1;
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
        Ok((t_old, reason))
    }

    /// A user event inside the step (before what stopped it): the samples before it, the
    /// state before and after it, and the method goes on from the latter. Whether one fired.
    fn user_event(
        &mut self,
        stepper: &mut impl Stepper,
        t_old: f64,
        reason: Stop,
    ) -> Result<bool, Error> {
        let field = self.d.field;
        let t_limit = match reason {
            Stop::Root(t_root, _) => t_root,
            _ => stepper.t(),
        };
        let Some(ev) = self.events.as_mut() else {
            return Ok(false);
        };
        let Some((t_e, i)) = ev.check(field, stepper, t_old, t_limit)? else {
            return Ok(false);
        };
        self.interpolate_samples(stepper, t_e, false)?;
        // the pair at t_e stands for a sample asked there
        if let Some(s) = self.d.samples {
            while s.get(self.next).is_some_and(|&ts| ts <= t_e) {
                self.next += 1;
            }
        }
        stepper.interpolate(t_e, &mut self.y)?;
        if self.d.traj.times().last().is_none_or(|t| *t < t_e) {
            self.rec.record(field, self.d.traj, t_e, &self.y)?;
        }
        let ev = self.events.as_mut().ok_or(Error::NotAvailable {
            what: "the events of a run",
        })?;
        let name = ev.fire(field, i, t_e, &mut self.y)?;
        let event = Event {
            t: t_e,
            kind: EventKind::User(name),
        };
        self.rec.push_event(field, self.d.traj, event, &self.y)?;
        ev.arm(field, t_e, &self.y, &self.rec.dy)?;
        let y = core::mem::take(&mut self.y);
        let outside = self.outside(t_e, &y);
        self.y = y;
        if let Err(e) = outside {
            self.d.traj.set_event_time(t_e);
            return Err(e);
        }
        stepper.jump(t_e, &self.y, &self.rec.dy)?;
        Ok(true)
    }

    /// A root inside the step ends the run: the samples up to it by dense output, then the
    /// state there; a contact guard's is the error that names it.
    fn root(&mut self, stepper: &mut impl Stepper, t_root: f64, index: usize) -> Result<(), Error> {
        self.interpolate_samples(stepper, t_root, false)?;
        stepper.interpolate(t_root, &mut self.y)?;
        let traj = &mut *self.d.traj;
        if traj.times().last().is_none_or(|t| *t < t_root) {
            self.rec.record(self.d.field, traj, t_root, &self.y)?;
        }
        traj.set_event_time(t_root);
        if index > 0 {
            return Err(super::roots::contact_lost(
                self.d.field,
                index - 1,
                t_root,
                &self.y,
            ));
        }
        Ok(())
    }

    /// The samples of an accepted step that ended before a control instant: its end
    /// (labelled the stop time where it stopped there), or the samples asked inside it by
    /// dense output and those at its end.
    fn record_step(&mut self, stepper: &mut impl Stepper, at_stop: bool) -> Result<(), Error> {
        let t_now = stepper.t();
        let Some(s) = self.d.samples else {
            let ts = if at_stop { self.t_stop } else { t_now };
            return self.rec.record(self.d.field, self.d.traj, ts, stepper.y());
        };
        self.interpolate_samples(stepper, t_now, false)?;
        while let Some(&ts) = s.get(self.next).filter(|&&ts| ts <= t_now || at_stop) {
            self.rec
                .record(self.d.field, self.d.traj, ts, stepper.y())?;
            self.next += 1;
        }
        Ok(())
    }

    /// A control instant: the samples before it with the held inputs (dense output of the
    /// last step), the controller, the inputs and the derivative at the instant once (for
    /// the samples there and the method's restart), the next hold interval.
    fn instant(&mut self, stepper: &mut impl Stepper, at_end: bool) -> Result<(), Error> {
        let (field, dt) = (self.d.field, self.dt);
        let t_instant = self.t_stop;
        let before = t_instant - roundoff(t_instant, dt);
        self.interpolate_samples(stepper, stepper.t().min(before), false)?;
        self.y.copy_from_slice(stepper.y());
        let new_inputs = field.sample_and_hold(t_instant, &self.y)?;
        field.sample(t_instant, &self.y, &mut self.rec.dy, &mut self.rec.u)?;
        if new_inputs {
            let y = core::mem::take(&mut self.y);
            let outside = self.outside(t_instant, &y);
            self.y = y;
            if let Err(e) = outside {
                self.rec.push(field, self.d.traj, t_instant, &self.y)?;
                self.d.traj.set_event_time(t_instant);
                return Err(e);
            }
        }
        if !at_end {
            self.interval += 1;
            (self.t_stop, self.stop_is_instant) = self
                .d
                .instants
                .map_or((self.d.t_end, false), |i| i.stop(self.interval));
            stepper.restart(t_instant, self.t_stop, new_inputs, &self.rec.dy)?;
        }
        let Some(s) = self.d.samples else {
            return self.rec.push(field, self.d.traj, t_instant, &self.y);
        };
        let upto = t_instant + roundoff(t_instant, dt);
        // the buffers hold the instant's inputs and derivative until a sample at another
        // time (within roundoff) is recorded
        let mut fresh = true;
        while let Some(&ts) = s.get(self.next).filter(|&&ts| ts <= upto || at_end) {
            if fresh && ts == t_instant {
                self.rec.push(field, self.d.traj, ts, &self.y)?;
            } else {
                self.rec.record(field, self.d.traj, ts, &self.y)?;
                fresh = false;
            }
            self.next += 1;
        }
        Ok(())
    }
}
