//! Runs whose contacts slip and grip again ([`super::simulate_hybrid`] on a model with
//! `friction`): phases with every contact rolling are integrated in the model's own state
//! and formulation; phases with some contact sliding in the released model on
//! `[q, dot(q)]` ([`Sliding`]). Each phase ends at a guard's root (a rolling contact's
//! friction margin, a sliding contact's slip velocity along its direction, a normal force),
//! and the next starts there with `q` and `dot(q)` continuous. The trajectory records
//! `[q, dot(q)]`, the contact loads and which contacts slide at every sample.

use alloc::vec;
use alloc::vec::Vec;
use core::ops::Range;

use super::drive::Instants;
use super::sliding::{still_speed, Sliding};
use super::Resume;
use super::{run, run_plant, Options};
use crate::__private::Released;
use crate::{ContactEvent, Controller, Error, Event, EventKind, Model, Trajectory};

#[path = "hybrid_plant.rs"]
mod plant;
use plant::SlidingPlant;

/// A controller of `[q, dot(q)]` asked at a state `[q, z]` of the model's own.
struct OnVelocities<'a, M: Model> {
    model: &'a M,
    inner: &'a mut dyn Controller,
    x: Vec<f64>,
}

impl<M: Model> Controller for OnVelocities<'_, M> {
    fn control(&mut self, t: f64, state: &[f64], u: &mut [f64]) -> Result<(), Error> {
        let nq = M::NQ;
        self.x[..nq].copy_from_slice(&state[..nq]);
        self.model
            .qdot(t, &state[..nq], &state[nq..], &mut self.x[nq..])?;
        self.inner.control(t, &self.x, u)
    }
}

/// How many contact switches at one time end the run (a contact that cannot decide).
const SWITCHES_AT_ONCE: usize = 16;

/// A run of `model` from `(q0, dot(q)0)` through slips and grips, into `out` (names
/// `[q, dot(q)]`, contacts recorded): one stage at a time ([`Slipping`]): a phase in the
/// current mode, its samples recorded, how it ended, the switch decided there, the switch
/// recorded.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_slipping<M: Model>(
    model: &M,
    released: &dyn Released,
    controller: Option<&mut dyn Controller>,
    start: (&[f64], &[f64]),
    t: &Range<f64>,
    o: &Options,
    samples: Option<&[f64]>,
    out: &mut Trajectory,
) -> Result<(), Error> {
    let mut run = Slipping::new(model, released, controller, start, t, o, samples)?;
    loop {
        let Some(phase_samples) = run.what_is_left() else {
            // a switch at the end of the span: recorded, nothing left to run
            return Ok(());
        };
        let (result, seg) = run.phase(phase_samples);
        run.record(&seg, out)?;
        let (contact, event, te) = match run.ending(result, &seg, out)? {
            Ending::Done => return Ok(()),
            Ending::Bridge => continue,
            Ending::Switch(contact, event, te) => (contact, event, te),
        };
        let recorded = run.switch(contact, event, te)?;
        run.record_switch(te, recorded, out)?;
    }
}

/// How a phase ended.
enum Ending {
    /// At the end of the run.
    Done,
    /// An implicit method's Newton iterations failed in a sliding phase: it goes on from
    /// there with Tsit45.
    Bridge,
    /// At a contact's guard: the contact's index, what happened and when.
    Switch(usize, ContactEvent, f64),
}

/// Which contacts slide, and each one's friction: the direction it started in (or its
/// slip's, once it follows it) and whether it follows its slip (`friction_direction`).
struct Modes {
    mask: Vec<bool>,
    start: Vec<[f64; 3]>,
    armed: Vec<bool>,
}

/// A hybrid run between its stages.
struct Slipping<'a, 'c, M: Model> {
    model: &'a M,
    released: &'a dyn Released,
    solver: Sliding<'a>,
    controller: Option<&'c mut dyn Controller>,
    period: Option<f64>,
    o: &'a Options,
    /// The options of a phase bridged by Tsit45 (see [`Ending::Bridge`]).
    bridged: Options,
    bridge: bool,
    samples: Option<&'a [f64]>,
    t: Range<f64>,
    t_end: f64,
    /// The inputs acting at the switch being decided (the slip velocities need none), and
    /// those held at the end of the last phase.
    u: Vec<f64>,
    held: Vec<f64>,
    x: Vec<f64>,
    /// Where the next phase starts.
    tc: f64,
    q: Vec<f64>,
    qd: Vec<f64>,
    modes: Modes,
    first: bool,
    /// Switches so far, how many in a row at one time, and the last one's time.
    switches: usize,
    at_once: usize,
    last_switch: f64,
}

impl<'a, 'c, M: Model> Slipping<'a, 'c, M> {
    /// The run at its start: a contact whose rows `dot(q)0` breaks starts sliding, in the
    /// direction of its slip (and the others' rows are projected onto).
    fn new(
        model: &'a M,
        released: &'a dyn Released,
        controller: Option<&'c mut dyn Controller>,
        (q0, qd0): (&[f64], &[f64]),
        t: &Range<f64>,
        o: &'a Options,
        samples: Option<&'a [f64]>,
    ) -> Result<Self, Error> {
        let spec = released.spec();
        let (nq, k) = (spec.nq, spec.contacts.len());
        let mut solver = Sliding::new(released);
        let u = vec![0.0; spec.nu];
        let (q, mut qd) = (q0.to_vec(), qd0.to_vec());
        let mut modes = Modes {
            mask: vec![false; k],
            start: vec![[0.0; 3]; k],
            armed: vec![false; k],
        };
        let m = &mut modes;
        solver.solve(t.start, &q, &qd, &u, &m.mask, (&m.start, &m.armed))?;
        let scale = 1e-9 * (1.0 + qd.iter().fold(0.0f64, |a, v| a.max(v.abs())));
        for c in 0..k {
            let v = solver.slip[c];
            let speed = norm3(v);
            if speed > scale {
                m.mask[c] = true;
                m.armed[c] = true;
                m.start[c] = [v[0] / speed, v[1] / speed, v[2] / speed];
            }
        }
        if m.mask.iter().any(|m| *m) && m.mask.iter().any(|m| !m) {
            solver.project(t.start, &q, &mut qd, &u, &m.mask)?;
        }
        // An implicit method's Newton iterations cannot converge on a step across a slip's
        // reversal (the friction's direction jumps there, and its Jacobian grows as
        // 1 / |slip| on the way): where they fail in a sliding phase, the phase goes on from
        // the last accepted state with Tsit45, whose steps are rejected and shrunk instead,
        // to its next event (the reversal, located as every other); the method takes over
        // again there.
        let bridged = o.clone().method(super::Method::Tsit45);
        Ok(Self {
            model,
            released,
            solver,
            period: o.control_period.filter(|_| controller.is_some()),
            controller,
            o,
            bridged,
            bridge: false,
            samples,
            t: t.clone(),
            t_end: samples.and_then(|s| s.last().copied()).unwrap_or(t.end),
            u,
            held: vec![0.0; spec.nu],
            x: vec![0.0; 2 * nq],
            tc: t.start,
            q,
            qd,
            modes,
            first: true,
            switches: 0,
            at_once: 0,
            last_switch: f64::NAN,
        })
    }

    fn rolling(&self) -> bool {
        self.modes.mask.iter().all(|m| !m)
    }

    /// The samples of the next phase (all of them for the first), or `None` where the run
    /// ended at the last switch.
    fn what_is_left(&self) -> Option<Option<&'a [f64]>> {
        if self.first {
            return Some(self.samples);
        }
        let rest: Option<&[f64]> = self.samples.map(|s| {
            let i = s.partition_point(|&ts| ts <= self.tc);
            &s[i..]
        });
        let (t_end, t0) = (self.t_end, self.t.start);
        let at_end = self.tc >= t_end - super::roundoff(t_end, t_end - t0);
        (!at_end && !rest.is_some_and(<[f64]>::is_empty)).then_some(rest)
    }

    /// A phase from `tc` in the current mode, to the end or to the first guard's root: in
    /// the model's own state and formulation where every contact rolls, in the released
    /// model on `[q, dot(q)]` where some slide.
    fn phase(&mut self, samples: Option<&[f64]>) -> (Result<(), Error>, Trajectory) {
        let (model, nq, tc) = (self.model, M::NQ, self.tc);
        let span = tc..self.t.end.max(tc);
        let resume = (!self.first).then_some(Resume {
            origin: self.t.start,
            held: &self.held,
        });
        let o = if self.bridge { &self.bridged } else { self.o };
        if self.rolling() {
            let state = match model.state_from_qdot(tc, &self.q, &self.qd) {
                Ok(state) => state,
                Err(e) => return (Err(e), Trajectory::new::<M>()),
            };
            let mut seg = Trajectory::new::<M>();
            let mut wrap = self.controller.as_deref_mut().map(|inner| OnVelocities {
                inner: inner as &mut dyn Controller,
                model,
                x: vec![0.0; 2 * nq],
            });
            let wrapped = wrap.as_mut().map(|w| w as &mut dyn Controller);
            let r = run(
                model,
                wrapped,
                state.as_ref(),
                &span,
                o,
                samples,
                &mut seg,
                resume,
            );
            return (r, seg);
        }
        let spec = self.released.spec();
        let m = &mut self.modes;
        let plant = SlidingPlant::new(
            self.released,
            (
                self.controller
                    .as_deref_mut()
                    .map(|c| c as &mut dyn Controller),
                self.period.is_some(),
            ),
            &m.mask,
            (&m.start, &m.armed),
            tc,
        );
        let mut seg =
            Trajectory::from_names_with_inputs(M::COORDINATES, spec.velocities, M::INPUTS);
        let x0: Vec<f64> = self.q.iter().chain(&self.qd).copied().collect();
        let t_stop = samples
            .and_then(|s| s.last().copied())
            .unwrap_or(self.t_end);
        let instants = self
            .period
            .map(|dt| Instants::new(self.t.start, dt, t_stop));
        let r = run_plant(
            &plant,
            &x0,
            tc,
            t_stop,
            o,
            samples,
            &mut seg,
            None,
            instants,
            resume.map(|r| r.held),
        );
        plant.watch(&mut m.start, &mut m.armed);
        (r, seg)
    }

    /// The phase's samples into `out`, with the loads and the mode, and the inputs held at
    /// its end.
    fn record(&mut self, seg: &Trajectory, out: &mut Trajectory) -> Result<(), Error> {
        if let Some(last) = seg.len().checked_sub(1).and_then(|i| seg.input(i)) {
            self.held.copy_from_slice(last);
        }
        let rolling = self.rolling();
        let m = &self.modes;
        append(
            self.model,
            &mut self.solver,
            seg,
            rolling,
            (&m.mask, &m.start, &m.armed),
            self.first,
            out,
        )?;
        self.first = false;
        Ok(())
    }

    /// How the phase ended: at the end, bridged, at a contact's switch (`q`, `dot(q)` and
    /// `tc` set there, piling switches refused), or with an error.
    fn ending(
        &mut self,
        result: Result<(), Error>,
        seg: &Trajectory,
        out: &mut Trajectory,
    ) -> Result<Ending, Error> {
        let nq = M::NQ;
        let rolling = self.rolling();
        // (a bridged phase that fails is an error: Tsit45 is not bridged)
        let implicit =
            !self.bridge && matches!(self.o.method, super::Method::Bdf | super::Method::Esdirk34);
        if let Err(Error::Solver { t: ta, state, .. } | Error::StepSize { t: ta, state }) = &result
            && !rolling
            && implicit
            && *ta > self.tc
            && state.len() == 2 * nq
        {
            self.tc = *ta;
            self.q.copy_from_slice(&state[..nq]);
            self.qd.copy_from_slice(&state[nq..]);
            self.bridge = true;
            return Ok(Ending::Bridge);
        }
        self.bridge = false;
        let spec = self.released.spec();
        let (contact, event, te, state) = match result {
            Ok(()) => {
                if let Some(te) = seg.event_time() {
                    out.set_event_time(te);
                }
                return Ok(Ending::Done);
            }
            Err(Error::ContactLost {
                contact,
                event,
                t,
                state,
            }) if event != ContactEvent::LiftOff => (contact, event, t, state),
            Err(Error::ContactLost {
                contact,
                event,
                t,
                state,
            }) if !rolling && t <= self.tc => {
                // a sliding phase that cannot begin, its contact needing a pull: it lifts
                // off, or (where it would press without friction) nothing is consistent. (A
                // normal force that falls to zero along a phase is a lift-off: there the
                // two agree.)
                let c = spec.names.iter().position(|n| *n == contact);
                let (qs, qds) = state.split_at(nq);
                let m = &self.modes;
                let pressed = match c {
                    Some(c) => {
                        let at = (qs, qds, self.held.as_slice());
                        let friction = (m.start.as_slice(), m.armed.as_slice());
                        self.solver
                            .frictionless_normal(t, at, &m.mask, friction, c)?
                            > 0.0
                    }
                    None => false,
                };
                return Err(if pressed {
                    Error::Painleve { contact, t, state }
                } else {
                    Error::ContactLost {
                        contact,
                        event,
                        t,
                        state,
                    }
                });
            }
            Err(e) => return Err(e),
        };
        let c = spec
            .names
            .iter()
            .position(|n| *n == contact)
            .ok_or(Error::NotAvailable {
                what: "the contact of a guard",
            })?;
        // q and dot(q) at the switch
        self.q.copy_from_slice(&state[..nq]);
        if rolling {
            self.model
                .qdot(te, &state[..nq], &state[nq..], &mut self.qd)?;
        } else {
            self.qd.copy_from_slice(&state[nq..]);
        }
        // piling switches
        if (te - self.last_switch).abs() <= 1e-10 * te.abs().max(1.0) {
            self.at_once += 1;
        } else {
            self.at_once = 0;
        }
        self.last_switch = te;
        self.switches += 1;
        if self.switches > self.o.max_events || self.at_once >= SWITCHES_AT_ONCE {
            return Err(Error::EventsPiled {
                name: contact,
                count: self.switches,
                t: te,
                state,
            });
        }
        self.tc = te;
        Ok(Ending::Switch(c, event, te))
    }

    /// The new mode at contact `c`'s switch at `te`: the inputs acting there, then a slip
    /// started, a slip from rest grown to `still_speed`, a slip turned away from its
    /// direction, a grip, or a reversal through zero. The switches to record.
    fn switch(
        &mut self,
        c: usize,
        event: ContactEvent,
        te: f64,
    ) -> Result<Vec<(&'static str, ContactEvent)>, Error> {
        let spec = self.released.spec();
        let nq = M::NQ;
        match (&mut self.controller, self.period) {
            (Some(_), Some(_)) => self.u.copy_from_slice(&self.held),
            (Some(ctl), None) => {
                self.x[..nq].copy_from_slice(&self.q);
                self.x[nq..].copy_from_slice(&self.qd);
                self.u.fill(0.0);
                ctl.control(te, &self.x, &mut self.u)?;
            }
            (None, _) => {}
        }
        let (s, u) = (&mut self.solver, self.u.as_slice());
        let (q, m) = (self.q.as_slice(), &mut self.modes);
        let friction = (&mut m.start[..], &mut m.armed[..]);
        if event == ContactEvent::Slip {
            let started = start_sliding(s, te, (q, &self.qd), u, &mut m.mask, friction, &[c])?;
            return Ok(started
                .iter()
                .map(|&k| (spec.names[k], ContactEvent::Slip))
                .collect());
        }
        let v = solver_slip(s, te, (q, &self.qd), u, (&m.mask, &m.start, &m.armed), c)?;
        let speed = norm3(v);
        if !m.armed[c] {
            // a slip grown from rest to `still_speed`: its friction follows it
            m.armed[c] = true;
            m.start[c] = [v[0] / speed, v[1] / speed, v[2] / speed];
            return Ok(Vec::new());
        }
        if speed > still_speed(&self.qd) {
            // the slip turned away from its reference direction: watch it along the new one
            m.start[c] = [v[0] / speed, v[1] / speed, v[2] / speed];
            return Ok(Vec::new());
        }
        match try_grip(
            s,
            te,
            (q, &self.qd),
            u,
            &m.mask,
            (&mut m.start, &m.armed),
            c,
        )? {
            Grip::Rolls(grip, qd_grip, gripped) => {
                m.mask = grip;
                self.qd = qd_grip;
                Ok(gripped
                    .iter()
                    .map(|&k| (spec.names[k], ContactEvent::Stick))
                    .collect())
            }
            Grip::SlidesOn(qd_stopped, stopped) => {
                // rolling would need more than mu N: the contacts stopped together slide
                // on, against the force rolling needs from here (and others may start with
                // them), whichever of them reached zero first by round-off
                let mut grip = m.mask.clone();
                for &k in &stopped {
                    grip[k] = false;
                }
                self.qd = qd_stopped;
                let friction = (&mut m.start[..], &mut m.armed[..]);
                let started =
                    start_sliding(s, te, (q, &self.qd), u, &mut grip, friction, &stopped)?;
                m.mask = grip;
                Ok(started
                    .iter()
                    .filter(|k| !stopped.contains(k))
                    .map(|&k| (spec.names[k], ContactEvent::Slip))
                    .collect())
            }
        }
    }

    /// The switches that happened at `te` into `out`: one state after them, with the loads
    /// and the new mode.
    fn record_switch(
        &mut self,
        te: f64,
        recorded: Vec<(&'static str, ContactEvent)>,
        out: &mut Trajectory,
    ) -> Result<(), Error> {
        if recorded.is_empty() {
            return Ok(());
        }
        let (q, qd, m) = (&self.q, &self.qd, &self.modes);
        self.solver
            .solve(te, q, qd, &self.u, &m.mask, (&m.start, &m.armed))?;
        let x: Vec<f64> = q.iter().chain(qd).copied().collect();
        let dx: Vec<f64> = qd.iter().chain(&self.solver.qdd).copied().collect();
        for (n, (contact, event)) in recorded.into_iter().enumerate() {
            let e = Event {
                t: te,
                kind: EventKind::Contact { contact, event },
            };
            if n == 0 {
                out.push_event(e, &x, &dx, &self.u)?;
                out.push_contacts(&self.solver.loads, &m.mask);
            } else {
                out.add_event(e);
            }
        }
        Ok(())
    }
}

// the switches' decisions: where a slip starts, whether a stopped slip grips
#[path = "hybrid_switch.rs"]
mod switch;
use switch::{append, norm3, solver_slip, start_sliding, try_grip, Grip};
