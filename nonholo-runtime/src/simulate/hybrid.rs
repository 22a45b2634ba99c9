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
/// `[q, dot(q)]`, contacts recorded).
#[allow(clippy::too_many_lines, clippy::too_many_arguments)]
pub(super) fn run_slipping<M: Model>(
    model: &M,
    released: &dyn Released,
    mut controller: Option<&mut dyn Controller>,
    (q0, qd0): (&[f64], &[f64]),
    t: &Range<f64>,
    o: &Options,
    samples: Option<&[f64]>,
    out: &mut Trajectory,
) -> Result<(), Error> {
    let spec = released.spec();
    let (nq, k) = (spec.nq, spec.contacts.len());
    let t_end = samples.and_then(|s| s.last().copied()).unwrap_or(t.end);
    let mut solver = Sliding::new(released);
    let period = o.control_period.filter(|_| controller.is_some());
    // the inputs acting at the switch being decided (the slip velocities need none)
    let mut u = vec![0.0; spec.nu];
    let mut held = vec![0.0; spec.nu];
    let mut x = vec![0.0; 2 * nq];
    let (mut tc, mut q, mut qd) = (t.start, q0.to_vec(), qd0.to_vec());
    // a contact whose rows dot(q)0 breaks starts sliding, in the direction of its slip
    let mut mask = vec![false; k];
    let mut start = vec![[0.0; 3]; k];
    // per contact: whether its slip has grown past `still_speed`, so that its grip is
    // watched (see `SlidingPlant::watch`)
    let mut armed = vec![false; k];
    solver.solve(tc, &q, &qd, &u, &mask, (&start, &armed))?;
    let scale = 1e-9 * (1.0 + qd.iter().fold(0.0f64, |a, v| a.max(v.abs())));
    for c in 0..k {
        let v = solver.slip[c];
        let speed = libm::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if speed > scale {
            mask[c] = true;
            armed[c] = true;
            start[c] = [v[0] / speed, v[1] / speed, v[2] / speed];
        }
    }
    if mask.iter().any(|m| *m) && mask.iter().any(|m| !m) {
        let mut rolling_qd = qd.clone();
        solver.project(tc, &q, &mut rolling_qd, &u, &mask)?;
        qd = rolling_qd;
    }
    let mut first = true;
    // An implicit method's Newton iterations cannot converge on a step across a slip's
    // reversal (the friction's direction jumps there, and its Jacobian grows as 1 / |slip|
    // on the way): where they fail in a sliding phase, the phase goes on from the last
    // accepted state with Tsit45, whose steps are rejected and shrunk instead, to its next
    // event (the reversal, located as every other); the method takes over again there.
    let bridged = o.clone().method(super::Method::Tsit45);
    let mut bridge = false;
    let mut switches = 0usize;
    let mut at_once = 0usize;
    let mut last_switch = f64::NAN;
    loop {
        let rest: Option<&[f64]> = samples.map(|s| {
            let i = s.partition_point(|&ts| ts <= tc);
            &s[i..]
        });
        let at_end = tc >= t_end - super::roundoff(t_end, t_end - t.start);
        if !first && (at_end || rest.is_some_and(<[f64]>::is_empty)) {
            // a switch at the end of the span: recorded, nothing left to run
            return Ok(());
        }
        let seg_samples = if first { samples } else { rest };
        let span = tc..t.end.max(tc);
        let resume = (!first).then_some(Resume {
            origin: t.start,
            held: &held,
        });
        let o = if bridge { &bridged } else { o };
        let (result, seg) = if mask.iter().all(|m| !m) {
            let state = model.state_from_qdot(tc, &q, &qd)?;
            let mut seg = Trajectory::new::<M>();
            let mut wrap = controller.as_deref_mut().map(|inner| OnVelocities {
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
                seg_samples,
                &mut seg,
                resume,
            );
            (r, seg)
        } else {
            let plant = SlidingPlant::new(
                released,
                (
                    controller.as_deref_mut().map(|c| c as &mut dyn Controller),
                    period.is_some(),
                ),
                &mask,
                (&start, &armed),
                tc,
            );
            let mut seg =
                Trajectory::from_names_with_inputs(M::COORDINATES, spec.velocities, M::INPUTS);
            let x0: Vec<f64> = q.iter().chain(&qd).copied().collect();
            let t_stop = seg_samples.and_then(|s| s.last().copied()).unwrap_or(t_end);
            let instants = period.map(|dt| Instants::new(t.start, dt, t_stop));
            let r = run_plant(
                &plant,
                &x0,
                tc,
                t_stop,
                o,
                seg_samples,
                &mut seg,
                None,
                instants,
                resume.map(|r| r.held),
            );
            plant.watch(&mut start, &mut armed);
            (r, seg)
        };
        if let Some(last) = seg.len().checked_sub(1).and_then(|i| seg.input(i)) {
            held.copy_from_slice(last);
        }
        let rolling = mask.iter().all(|m| !m);
        append(
            model,
            &mut solver,
            &seg,
            rolling,
            (&mask, &start, &armed),
            first,
            out,
        )?;
        first = false;
        let implicit = matches!(o.method, super::Method::Bdf | super::Method::Esdirk34);
        if let Err(Error::Solver { t: ta, state, .. } | Error::StepSize { t: ta, state }) = &result
            && !rolling
            && implicit
            && *ta > tc
            && state.len() == 2 * nq
        {
            tc = *ta;
            q.copy_from_slice(&state[..nq]);
            qd.copy_from_slice(&state[nq..]);
            bridge = true;
            continue;
        }
        bridge = false;
        let (contact, event, te, state) = match result {
            Ok(()) => {
                if let Some(te) = seg.event_time() {
                    out.set_event_time(te);
                }
                return Ok(());
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
            }) if !rolling && t <= tc => {
                // a sliding phase that cannot begin, its contact needing a pull: it lifts
                // off, or (where it would press without friction) nothing is consistent. (A
                // normal force that falls to zero along a phase is a lift-off: there the
                // two agree.)
                let c = spec.names.iter().position(|n| *n == contact);
                let (qs, qds) = state.split_at(nq);
                let pressed = match c {
                    Some(c) => {
                        solver.frictionless_normal(
                            t,
                            (qs, qds, &held),
                            &mask,
                            (&start, &armed),
                            c,
                        )? > 0.0
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
            .unwrap_or(usize::MAX);
        if c == usize::MAX {
            return Err(Error::NotAvailable {
                what: "the contact of a guard",
            });
        }
        // q and dot(q) at the switch
        q.copy_from_slice(&state[..nq]);
        if rolling {
            model.qdot(te, &state[..nq], &state[nq..], &mut qd)?;
        } else {
            qd.copy_from_slice(&state[nq..]);
        }
        // piling switches
        if (te - last_switch).abs() <= 1e-10 * te.abs().max(1.0) {
            at_once += 1;
        } else {
            at_once = 0;
        }
        last_switch = te;
        switches += 1;
        if switches > o.max_events || at_once >= SWITCHES_AT_ONCE {
            return Err(Error::EventsPiled {
                name: contact,
                count: switches,
                t: te,
                state: state.clone(),
            });
        }
        tc = te;
        match (&mut controller, period) {
            (Some(_), Some(_)) => u.copy_from_slice(&held),
            (Some(c), None) => {
                x[..nq].copy_from_slice(&q);
                x[nq..].copy_from_slice(&qd);
                u.fill(0.0);
                c.control(te, &x, &mut u)?;
            }
            (None, _) => {}
        }
        let recorded: Vec<(&'static str, ContactEvent)> = match event {
            ContactEvent::Slip => {
                let started = start_sliding(
                    &mut solver,
                    te,
                    (&q, &qd),
                    &u,
                    &mut mask,
                    (&mut start, &mut armed),
                    &[c],
                )?;
                for &k in &started {
                    armed[k] = false;
                }
                started
                    .iter()
                    .map(|&k| (spec.names[k], ContactEvent::Slip))
                    .collect()
            }
            _ => {
                let v = solver_slip(&mut solver, te, (&q, &qd), &u, (&mask, &start, &armed), c)?;
                let speed = libm::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
                if !armed[c] {
                    // a slip grown from rest to `still_speed`: its friction follows it
                    armed[c] = true;
                    start[c] = [v[0] / speed, v[1] / speed, v[2] / speed];
                    Vec::new()
                } else if speed > still_speed(&qd) {
                    // the slip turned away from its reference direction: watch it along
                    // the new one
                    start[c] = [v[0] / speed, v[1] / speed, v[2] / speed];
                    Vec::new()
                } else {
                    match try_grip(
                        &mut solver,
                        te,
                        (&q, &qd),
                        &u,
                        &mask,
                        (&mut start, &armed),
                        c,
                    )? {
                        Grip::Rolls(grip, qd_grip, gripped) => {
                            mask = grip;
                            qd = qd_grip;
                            gripped
                                .iter()
                                .map(|&k| (spec.names[k], ContactEvent::Stick))
                                .collect()
                        }
                        Grip::SlidesOn(qd_stopped, stopped) => {
                            // rolling would need more than mu N: the contacts stopped
                            // together slide on, against the force rolling needs from here
                            // (and others may start with them), whichever of them reached
                            // zero first by round-off
                            let mut grip = mask.clone();
                            for &k in &stopped {
                                grip[k] = false;
                            }
                            qd = qd_stopped;
                            let started = start_sliding(
                                &mut solver,
                                te,
                                (&q, &qd),
                                &u,
                                &mut grip,
                                (&mut start, &mut armed),
                                &stopped,
                            )?;
                            mask = grip;
                            started
                                .iter()
                                .filter(|k| !stopped.contains(k))
                                .map(|&k| (spec.names[k], ContactEvent::Slip))
                                .collect()
                        }
                    }
                }
            }
        };
        if !recorded.is_empty() {
            solver.solve(te, &q, &qd, &u, &mask, (&start, &armed))?;
            let x: Vec<f64> = q.iter().chain(&qd).copied().collect();
            let dx: Vec<f64> = qd.iter().chain(&solver.qdd).copied().collect();
            // one state after, for the events that happened together
            for (n, (contact, event)) in recorded.into_iter().enumerate() {
                let e = Event {
                    t: te,
                    kind: EventKind::Contact { contact, event },
                };
                if n == 0 {
                    out.push_event(e, &x, &dx, &u)?;
                    out.push_contacts(&solver.loads, &mask);
                } else {
                    out.add_event(e);
                }
            }
        }
    }
}

/// The slip velocity of contact `c` at `(t, q, dot(q))` in the mode `mask`.
fn solver_slip(
    s: &mut Sliding<'_>,
    t: f64,
    (q, qd): (&[f64], &[f64]),
    u: &[f64],
    (mask, start, armed): (&[bool], &[[f64; 3]], &[bool]),
    c: usize,
) -> Result<[f64; 3], Error> {
    s.solve(t, q, qd, u, mask, (start, armed))?;
    Ok(s.slip[c])
}

/// Contact `first` starts sliding at `(t, q, dot(q))`, where it rolled in `mask` and the
/// friction it needs has reached `mu N`; so do the contacts with friction at their limit
/// there too, and a contact's partner on its axle where the pair can only slide together.
/// Each slides against the force rolling needed, within the rows it frees: the friction
/// force is continuous (`design/contact_forces.md`, 6.3), and a direction is kept only where
/// the slip it starts goes the same way. The contacts that started, `first` first.
#[allow(clippy::too_many_arguments)]
fn start_sliding(
    s: &mut Sliding<'_>,
    t: f64,
    (q, qd): (&[f64], &[f64]),
    u: &[f64],
    mask: &mut [bool],
    (start, armed): (&mut [[f64; 3]], &mut [bool]),
    first: &[usize],
) -> Result<Vec<usize>, Error> {
    let spec = s.spec();
    let k = mask.len();
    let painleve = |c: usize| Error::Painleve {
        contact: spec.names[c],
        t,
        state: crate::__private::concat(q, qd),
    };
    s.solve(t, q, qd, u, mask, (start, armed))?;
    let pull: Vec<[f64; 3]> = (0..k).map(|c| slip_start(s, c)).collect();
    let mut started = first.to_vec();
    for (c, (l, rolls)) in s.loads.iter().zip(mask.iter().map(|m| !m)).enumerate() {
        let limit = 1e-9 * (1.0 + l.normal.abs());
        if !first.contains(&c) && rolls && spec.friction[c] && l.friction_margin <= limit {
            started.push(c);
        }
    }
    for _ in 0..=k {
        for &c in &started {
            mask[c] = true;
            start[c] = [0.0; 3];
            armed[c] = false;
        }
        s.solve(t, q, qd, u, mask, (start, armed))?;
        for &c in &started {
            let d = s.free_part(c, pull[c]);
            let len = norm3(d);
            if len.is_nan() || len <= 1e-9 {
                return Err(painleve(c));
            }
            start[c] = [d[0] / len, d[1] / len, d[2] / len];
        }
        s.solve(t, q, qd, u, mask, (start, armed))?;
        // a slip that would start against its friction: the contact's partner on its axle
        // slides with it, or nothing is consistent
        let mut more = Vec::new();
        for &c in &started {
            let a = s.slip_acceleration(c);
            let along = a[0] * start[c][0] + a[1] * start[c][1] + a[2] * start[c][2];
            if along >= -1e-9 * (1.0 + norm3(a)) {
                continue;
            }
            let partner = (0..k).find(|&p| {
                !mask[p]
                    && (spec.contacts[c].shares_lateral_with == Some(p)
                        || spec.contacts[p].shares_lateral_with == Some(c))
            });
            match partner {
                Some(p) if !more.contains(&p) => more.push(p),
                Some(_) => {}
                None => return Err(painleve(c)),
            }
        }
        if more.is_empty() {
            if let Some(&c) = started.iter().find(|&&c| s.loads[c].normal <= 0.0) {
                return Err(painleve(c));
            }
            return Ok(started);
        }
        started.extend(more);
    }
    Err(painleve(first[0]))
}

/// Contact `c`, sliding in `mask` and stopped at `(t, q, dot(q))`, rolls again where rolling
/// needs no more than `mu N`, with the sliding contacts the projection onto its rows stops
/// too (its partner on an axle, whose lateral slip is its own): the new mode, `dot(q)` and
/// the contacts that grip, `c` first. The contacts that slide on are watched along their
/// slip after the projection. Where rolling would need more, the contacts stopped with it
/// ([`Grip::SlidesOn`]).
fn try_grip(
    s: &mut Sliding<'_>,
    t: f64,
    (q, qd): (&[f64], &[f64]),
    u: &[f64],
    mask: &[bool],
    (start, armed): (&mut [[f64; 3]], &[bool]),
    c: usize,
) -> Result<Grip, Error> {
    let mut grip = mask.to_vec();
    let mut gripped = vec![c];
    let mut qd_grip = qd.to_vec();
    for _ in 0..mask.len() {
        for &g in &gripped {
            grip[g] = false;
        }
        qd_grip.copy_from_slice(qd);
        s.project(t, q, &mut qd_grip, u, &grip)?;
        s.solve(t, q, &qd_grip, u, &grip, (start, armed))?;
        let still = still_speed(&qd_grip);
        let before = gripped.len();
        gripped.extend((0..mask.len()).filter(|&p| grip[p] && norm3(s.slip[p]) <= still));
        if gripped.len() == before {
            break;
        }
    }
    if gripped.iter().any(|&g| s.loads[g].friction_margin < 0.0) {
        return Ok(Grip::SlidesOn(qd_grip, gripped));
    }
    for p in (0..mask.len()).filter(|&p| grip[p] && armed[p]) {
        let v = s.slip[p];
        let speed = norm3(v);
        start[p] = [v[0] / speed, v[1] / speed, v[2] / speed];
    }
    Ok(Grip::Rolls(grip, qd_grip, gripped))
}

/// What a sliding contact whose slip reached zero does ([`try_grip`]).
enum Grip {
    /// It rolls, with the others the projection stopped: the new mode, `dot(q)` there
    /// and the contacts that grip, the first one first.
    Rolls(Vec<bool>, Vec<f64>, Vec<usize>),
    /// Rolling would need more than `mu N`: `dot(q)` with the slips of the contacts that
    /// stopped together at zero, and those contacts, the first one first.
    SlidesOn(Vec<f64>, Vec<usize>),
}

fn norm3(v: [f64; 3]) -> f64 {
    libm::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
}

/// `-F_t / |F_t|` of contact `c` in the last solution: the way rolling pulled it.
fn slip_start(s: &Sliding<'_>, c: usize) -> [f64; 3] {
    let l = &s.loads[c];
    let up = s.up(c);
    let f = l.force;
    let n = f[0] * up[0] + f[1] * up[1] + f[2] * up[2];
    let ft = [f[0] - n * up[0], f[1] - n * up[1], f[2] - n * up[2]];
    let len = libm::sqrt(ft[0] * ft[0] + ft[1] * ft[1] + ft[2] * ft[2]);
    if len > 0.0 {
        [-ft[0] / len, -ft[1] / len, -ft[2] / len]
    } else {
        [0.0; 3]
    }
}

/// The samples of one phase into `out` as `[q, dot(q)]` with the loads and the mode (the
/// first one skipped where the switch put it already).
#[allow(clippy::too_many_arguments)]
fn append<M: Model>(
    model: &M,
    solver: &mut Sliding<'_>,
    seg: &Trajectory,
    rolling: bool,
    (mask, start, armed): (&[bool], &[[f64; 3]], &[bool]),
    first: bool,
    out: &mut Trajectory,
) -> Result<(), Error> {
    let nq = M::NQ;
    let mut x = vec![0.0; 2 * nq];
    let mut dx = vec![0.0; 2 * nq];
    let mut events = seg.events().iter().peekable();
    let mut prev: Option<f64> = None;
    for i in 0..seg.len() {
        let t = seg.times()[i];
        let at_event = prev == Some(t);
        prev = Some(t);
        if i == 0 && !first && out.times().last() == Some(&t) {
            continue;
        }
        let state = seg.state(i).unwrap_or_default();
        let u = seg.input(i).unwrap_or_default();
        x[..nq].copy_from_slice(&state[..nq]);
        if rolling {
            model.qdot(t, &state[..nq], &state[nq..], &mut x[nq..])?;
        } else {
            x[nq..].copy_from_slice(&state[nq..]);
        }
        let (qs, qds) = x.split_at(nq);
        solver.solve(t, qs, qds, u, mask, (start, armed))?;
        dx[..nq].copy_from_slice(qds);
        dx[nq..].copy_from_slice(&solver.qdd);
        if at_event {
            let event = events.next().copied().ok_or(Error::NotAvailable {
                what: "the event of a recorded pair",
            })?;
            out.push_event(event, &x, &dx, u)?;
        } else {
            out.push_with_inputs(t, &x, &dx, u)?;
        }
        out.push_contacts(&solver.loads, mask);
    }
    Ok(())
}
