//! The sliding phases' vector field: the released model with some contacts sliding, on
//! `[q, dot(q)]`, with its inputs and the guards that end the phase.

use alloc::vec;
use alloc::vec::Vec;
use core::cell::RefCell;

use super::super::field::{Mode, Plant, VectorField};
use super::super::sliding::Sliding;
use crate::__private::Released;
use crate::{ContactEvent, Controller, Error};

/// The released model with the contacts `mask` sliding, as a vector field on `[q, dot(q)]`,
/// with its inputs (zero, held, or the controller's at every evaluation).
pub(super) struct SlidingPlant<'m, 'c> {
    solver: RefCell<Sliding<'m>>,
    controller: Option<RefCell<&'c mut dyn Controller>>,
    mode: Mode,
    held: RefCell<Vec<f64>>,
    scratch: RefCell<Vec<f64>>,
    nq: usize,
    mask: Vec<bool>,
    /// The direction along which each sliding contact's slip velocity is watched: its
    /// direction at the end of the last accepted step (so that only a slip that reverses
    /// within a step, through zero, changes the guard's sign).
    reference: RefCell<Vec<[f64; 3]>>,
    /// Per contact: whether its friction follows its slip (a slip that starts from rest
    /// grows from round-off: until it reaches `still_speed` the friction keeps its start
    /// direction, and that phase ends there: `friction_direction`).
    armed: Vec<bool>,
    t_start: f64,
    table: Vec<(&'static str, ContactEvent)>,
    /// Per guard: what it reads, of which contact.
    reads: Vec<(ContactEvent, usize)>,
    probe: RefCell<(Vec<f64>, Vec<f64>)>,
    failure: RefCell<Option<Error>>,
}

impl<'m, 'c> SlidingPlant<'m, 'c> {
    /// Each contact's reference direction and whether it is armed, at the phase's end: what
    /// the next phase starts from.
    pub(super) fn watch(&self, start: &mut [[f64; 3]], armed: &mut [bool]) {
        start.copy_from_slice(&self.reference.borrow());
        armed.copy_from_slice(&self.armed);
    }

    pub(super) fn new(
        model: &'m dyn Released,
        (controller, sampled): (Option<&'c mut dyn Controller>, bool),
        mask: &[bool],
        (start, armed): (&[[f64; 3]], &[bool]),
        t_start: f64,
    ) -> Self {
        let solver = Sliding::new(model);
        let spec = solver.spec();
        let mut table = Vec::new();
        let mut reads = Vec::new();
        for (c, name) in spec.names.iter().enumerate() {
            table.push((*name, ContactEvent::LiftOff));
            reads.push((ContactEvent::LiftOff, c));
        }
        for (c, name) in spec.names.iter().enumerate() {
            let friction = spec.friction[c];
            if mask[c] {
                table.push((*name, ContactEvent::Stick));
                reads.push((ContactEvent::Stick, c));
            } else if friction {
                table.push((*name, ContactEvent::Slip));
                reads.push((ContactEvent::Slip, c));
            }
        }
        let nq = spec.nq;
        let mode = match (&controller, sampled) {
            (None, _) => Mode::Zero,
            (Some(_), true) => Mode::Held,
            (Some(_), false) => Mode::Feedback,
        };
        Self {
            nq,
            controller: controller.map(RefCell::new),
            mode,
            held: RefCell::new(vec![0.0; spec.nu]),
            scratch: RefCell::new(vec![0.0; spec.nu]),
            mask: mask.to_vec(),
            reference: RefCell::new(start.to_vec()),
            armed: armed.to_vec(),
            t_start,
            table,
            reads,
            probe: RefCell::new((vec![0.0; 2 * nq], vec![0.0; 2 * nq])),
            failure: RefCell::new(None),
            solver: RefCell::new(solver),
        }
    }

    /// The inputs acting at `(t, x)` into `u`.
    fn inputs(&self, t: f64, x: &[f64], u: &mut [f64]) -> Result<(), Error> {
        u.fill(0.0);
        match (self.mode, &self.controller) {
            (Mode::Held, _) => u.copy_from_slice(&self.held.borrow()),
            (Mode::Feedback, Some(c)) => {
                c.borrow_mut().control(t, x, u)?;
                if !u.iter().all(|v| v.is_finite()) {
                    return Err(Error::NonFinite {
                        what: "inputs u",
                        t,
                        state: x.to_vec(),
                    });
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn solve_with(
        &self,
        t: f64,
        x: &[f64],
        u: &[f64],
    ) -> Result<core::cell::RefMut<'_, Sliding<'m>>, Error> {
        let mut s = self.solver.borrow_mut();
        let (q, qd) = x.split_at(self.nq);
        // the side a slip velocity through zero keeps (the field stays smooth across the
        // root that ends the phase): the direction at the last accepted step
        let reference = self.reference.borrow();
        s.solve(t, q, qd, u, &self.mask, (&reference, &self.armed))?;
        drop(reference);
        Ok(s)
    }

    fn solve(&self, t: f64, x: &[f64]) -> Result<core::cell::RefMut<'_, Sliding<'m>>, Error> {
        let mut u = self.scratch.borrow_mut();
        self.inputs(t, x, &mut u)?;
        self.solve_with(t, x, &u)
    }
}

impl VectorField for SlidingPlant<'_, '_> {
    fn eval(&self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), Error> {
        let s = self.solve(t, y)?;
        let nq = self.nq;
        dy[..nq].copy_from_slice(&y[nq..]);
        dy[nq..].copy_from_slice(&s.qdd);
        Ok(())
    }
    fn take_failure(&self) -> Option<Error> {
        self.failure.borrow_mut().take()
    }
}

impl Plant for SlidingPlant<'_, '_> {
    fn dims(&self) -> (usize, usize, usize) {
        (self.nq, 2 * self.nq, self.held.borrow().len())
    }
    fn mode(&self) -> Mode {
        self.mode
    }
    /// [`central_jvp`](super::super::field::central_jvp), as in the rolling phases.
    fn jvp(&self, t: f64, x: &[f64], v: &[f64], out: &mut [f64]) -> Result<(), Error> {
        let vn = v.iter().fold(0.0f64, |a, b| a.max(b.abs()));
        if vn == 0.0 {
            out.fill(0.0);
            return Ok(());
        }
        // scaled by the velocities: the friction's direction turns fastest where a slip
        // velocity is small, and angles that grow without bound say nothing of that; and
        // short, so that the probe stays on one side of a small slip
        let xn = x[self.nq..].iter().fold(0.0f64, |a, b| a.max(b.abs()));
        let h = 1e-8 * (1.0 + xn) / vn;
        let mut probe = self.probe.borrow_mut();
        let (xp, f_plus) = &mut *probe;
        super::super::field::central_jvp(self, (t, x, v), h, (xp, f_plus), out)
    }
    fn sample(&self, t: f64, x: &[f64], dx: &mut [f64], u: &mut [f64]) -> Result<(), Error> {
        self.inputs(t, x, u)?;
        let s = self.solve_with(t, x, u)?;
        let nq = self.nq;
        dx[..nq].copy_from_slice(&x[nq..]);
        dx[nq..].copy_from_slice(&s.qdd);
        Ok(())
    }
    fn sample_and_hold(&self, t: f64, x: &[f64]) -> Result<bool, Error> {
        let Some(c) = &self.controller else {
            return Ok(false);
        };
        let mut u = self.scratch.borrow_mut();
        u.fill(0.0);
        c.borrow_mut().control(t, x, &mut u)?;
        let mut held = self.held.borrow_mut();
        let changed = held
            .iter()
            .zip(u.iter())
            .any(|(a, b)| a.to_bits() != b.to_bits());
        held.copy_from_slice(&u);
        Ok(changed)
    }
    fn hold(&self, u: &[f64]) {
        self.held.borrow_mut().copy_from_slice(u);
    }
    fn accepted(&self, t: f64, x: &[f64]) -> Result<(), Error> {
        let s = self.solve(t, x)?;
        let mut reference = self.reference.borrow_mut();
        for (c, r) in reference.iter_mut().enumerate() {
            let v = s.slip[c];
            let speed = libm::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            if !self.mask[c] || !self.armed[c] || speed == 0.0 {
                continue;
            }
            // the field reads only the side of the reference: moving it along the slip
            // leaves the field as it was
            if v[0] * r[0] + v[1] * r[1] + v[2] * r[2] > 0.0 {
                *r = [v[0] / speed, v[1] / speed, v[2] / speed];
            }
        }
        Ok(())
    }
    fn park(&self, e: Error) {
        let mut failure = self.failure.borrow_mut();
        if failure.is_none() {
            *failure = Some(e);
        }
    }
    fn failed(&self) -> bool {
        self.failure.borrow().is_some()
    }
    fn guard_table(&self) -> &[(&'static str, ContactEvent)] {
        &self.table
    }
    /// The normals, the friction margins of the rolling contacts, and each sliding contact's
    /// slip velocity along its reference direction once armed (before, `still_speed` less
    /// the slip's speed: a slip that starts from rest grows from zero, in a direction
    /// round-off decides at first, and its friction follows it from that speed on).
    /// The guards at the phase's start are positive: it slips away from there.
    fn contact_guards(&self, t: f64, x: &[f64], out: &mut [f64]) -> Result<(), Error> {
        let s = self.solve(t, x)?;
        for (g, (what, c)) in out.iter_mut().zip(&self.reads) {
            *g = match what {
                ContactEvent::LiftOff => s.loads[*c].normal,
                ContactEvent::Slip => s.loads[*c].friction_margin,
                ContactEvent::Stick if t == self.t_start => 1.0,
                ContactEvent::Stick if !self.armed[*c] => {
                    let v = s.slip[*c];
                    let speed = libm::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
                    super::still_speed(&x[self.nq..]) - speed
                }
                ContactEvent::Stick => {
                    let (v, r) = (s.slip[*c], self.reference.borrow()[*c]);
                    v[0] * r[0] + v[1] * r[1] + v[2] * r[2]
                }
            };
        }
        Ok(())
    }
    fn qdot(&self, _t: f64, _q: &[f64], z: &[f64], out: &mut [f64]) -> Result<(), Error> {
        out.copy_from_slice(z);
        Ok(())
    }
    fn state_from_qdot(
        &self,
        _t: f64,
        q: &[f64],
        qdot: &[f64],
        out: &mut [f64],
    ) -> Result<(), Error> {
        out[..self.nq].copy_from_slice(q);
        out[self.nq..].copy_from_slice(qdot);
        Ok(())
    }
    fn check_state(&self, t: f64, x: &[f64], _tol: f64) -> Result<(), Error> {
        if x.iter().all(|v| v.is_finite()) {
            Ok(())
        } else {
            Err(Error::NonFinite {
                what: "state",
                t,
                state: x.to_vec(),
            })
        }
    }
}
