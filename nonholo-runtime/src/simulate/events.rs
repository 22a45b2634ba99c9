//! The events that continue a run ([`Options::event`]): their guards watched at the end
//! of every accepted step, a fall to zero located on the step's dense output, the reset
//! applied in `(q, dot(q))`, and piling events refused.
//!
//! They are watched here rather than by the integrators' root finders (which see the
//! stopping condition and the contact guards) because only a fall fires: a guard that
//! the reset leaves at or below zero must rise through zero without firing, and a rise
//! located first must not hide a fall later in the same step.

use alloc::vec;
use alloc::vec::Vec;

use super::field::Plant;
use super::options::{Options, UserEvent};
use super::stepper::Stepper;
use crate::Error;

/// Consecutive events closer than this (relative to `|t|`, at least 1) count toward a
/// pile; [`PILE`] of them in a row end the run.
const CLOSE: f64 = 1e-10;
const PILE: usize = 16;

/// The state of a run's events.
pub(super) struct Events<'o> {
    events: &'o [UserEvent],
    max_events: usize,
    /// Guard values at the end of the last step (or at the last reset).
    g: Vec<f64>,
    g_new: Vec<f64>,
    /// Whether a guard has been positive since it last fired (only then may it fire).
    armed: Vec<bool>,
    /// Left at or below zero by a reset but rising: it fires at its next fall, which the
    /// step may hold together with the rise (a short bounce).
    rising: Vec<bool>,
    /// Left at zero by the last reset, to roundoff of the largest `|g|` seen.
    at_zero: Vec<bool>,
    /// The largest `|g|` seen, per guard.
    scale: Vec<f64>,
    q: Vec<f64>,
    qd: Vec<f64>,
    probe: Vec<f64>,
    /// The state after a reset.
    after: Vec<f64>,
    fired: usize,
    last: Option<f64>,
    close_in_a_row: usize,
}

impl<'o> Events<'o> {
    /// `None` when the options declare no event.
    pub(super) fn new(o: &'o Options, field: &dyn Plant) -> Option<Self> {
        let n = o.events.len();
        let (nq, dim, _) = field.dims();
        (n > 0).then(|| Self {
            events: &o.events,
            max_events: o.max_events,
            g: vec![0.0; n],
            g_new: vec![0.0; n],
            armed: vec![false; n],
            rising: vec![false; n],
            at_zero: vec![false; n],
            scale: vec![0.0; n],
            q: vec![0.0; nq],
            qd: vec![0.0; nq],
            probe: vec![0.0; dim],
            after: vec![0.0; dim],
            fired: 0,
            last: None,
            close_in_a_row: 0,
        })
    }

    /// The guards at `(t, x)` into `out`.
    fn eval(
        events: &[UserEvent],
        field: &dyn Plant,
        qd: &mut [f64],
        t: f64,
        x: &[f64],
        out: &mut [f64],
    ) -> Result<(), Error> {
        let (q, z) = x.split_at(field.dims().0);
        field.qdot(t, q, z, qd)?;
        for (e, g) in events.iter().zip(out.iter_mut()) {
            *g = (e.guard)(t, q, qd);
        }
        Ok(())
    }

    /// Start (or start again after a reset) at `(t, x)`, where the field is `dx`: a guard is
    /// armed where positive, rising where not but increasing along the motion.
    pub(super) fn arm(
        &mut self,
        field: &dyn Plant,
        t: f64,
        x: &[f64],
        dx: &[f64],
    ) -> Result<(), Error> {
        Self::eval(self.events, field, &mut self.qd, t, x, &mut self.g)?;
        // dg/dt by a forward difference along (1, dx)
        let dt = 1e-7 * t.abs().max(1.0);
        for ((p, xi), di) in self.probe.iter_mut().zip(x).zip(dx) {
            *p = xi + dt * di;
        }
        Self::eval(
            self.events,
            field,
            &mut self.qd,
            t + dt,
            &self.probe,
            &mut self.g_new,
        )?;
        for i in 0..self.events.len() {
            self.armed[i] = self.g[i] > 0.0;
            self.rising[i] = !self.armed[i] && self.g_new[i] > self.g[i];
            self.scale[i] = self.scale[i].max(self.g[i].abs());
            self.at_zero[i] = self.g[i].abs() <= 1e-9 * self.scale[i];
        }
        Ok(())
    }

    /// After an accepted step from `t_old` to the stepper's time: the earliest event that
    /// fired in `(t_old, t_limit]` (`t_limit`: the step's end, or where a root function
    /// stopped it), and which; `None` arms the guards that became positive.
    pub(super) fn check(
        &mut self,
        field: &dyn Plant,
        stepper: &mut impl Stepper,
        t_old: f64,
        t_limit: f64,
    ) -> Result<Option<(f64, usize)>, Error> {
        let at_end = t_limit >= stepper.t();
        if at_end {
            self.probe.copy_from_slice(stepper.y());
        } else {
            stepper.interpolate(t_limit, &mut self.probe)?;
        }
        Self::eval(
            self.events,
            field,
            &mut self.qd,
            t_limit,
            &self.probe,
            &mut self.g_new,
        )?;
        let mut first: Option<(f64, usize)> = None;
        for i in 0..self.events.len() {
            if self.g_new[i] > 0.0 || !(self.armed[i] || self.rising[i]) {
                continue;
            }
            let (mut ta, mut ga) = (t_old, self.g[i]);
            if !self.armed[i] {
                // risen above zero and fallen again inside the step? from its highest point
                match self.top(field, stepper, i, t_old, t_limit)? {
                    Some(top) => (ta, ga) = top,
                    // left at zero, risen too little to leave it and fallen back: the
                    // bounces have shrunk below what the time and state resolve (Zeno)
                    None if self.at_zero[i] && self.g_new[i] <= self.g[i] => {
                        // reported where it last fired, the point the bounces pile at
                        stepper.interpolate(t_old, &mut self.probe)?;
                        return Err(Error::EventsPiled {
                            name: self.events[i].name,
                            count: self.fired + 1,
                            t: t_old,
                            state: self.probe.clone(),
                        });
                    }
                    None => continue,
                }
            }
            let t_i = self.locate(field, stepper, i, (ta, ga), t_limit)?;
            if first.is_none_or(|(t, _)| t_i < t) {
                first = Some((t_i, i));
            }
        }
        if first.is_none() {
            for i in 0..self.events.len() {
                self.scale[i] = self.scale[i].max(self.g_new[i].abs());
                self.armed[i] |= self.g_new[i] > 0.0;
                // still rising toward zero, or never to rise above it
                self.rising[i] &= !self.armed[i] && self.g_new[i] > self.g[i];
            }
            core::mem::swap(&mut self.g, &mut self.g_new);
        }
        Ok(first)
    }

    /// Where guard `i` (positive at `ta`, not at `tb`) reaches zero, on the dense output.
    fn locate(
        &mut self,
        field: &dyn Plant,
        stepper: &mut impl Stepper,
        i: usize,
        a: (f64, f64),
        tb: f64,
    ) -> Result<f64, Error> {
        let gb = self.g_new[i];
        super::roots::illinois(a, (tb, gb), |tm| self.probe_at(field, stepper, i, tm))
    }

    /// Guard `i` on the dense output at `t`.
    fn probe_at(
        &mut self,
        field: &dyn Plant,
        stepper: &mut impl Stepper,
        i: usize,
        t: f64,
    ) -> Result<f64, Error> {
        stepper.interpolate(t, &mut self.probe)?;
        let (q, z) = self.probe.split_at(field.dims().0);
        field.qdot(t, q, z, &mut self.qd)?;
        Ok((self.events[i].guard)(t, q, &self.qd))
    }

    /// The highest point of guard `i` on `[ta, tb]` if it is positive: golden-section
    /// search (the rise and fall of one step are one hump).
    fn top(
        &mut self,
        field: &dyn Plant,
        stepper: &mut impl Stepper,
        i: usize,
        ta: f64,
        tb: f64,
    ) -> Result<Option<(f64, f64)>, Error> {
        const INV_PHI: f64 = 0.618_033_988_749_894_8;
        let (mut a, mut b) = (ta, tb);
        let (mut c, mut d) = (b - INV_PHI * (b - a), a + INV_PHI * (b - a));
        let (mut gc, mut gd) = (
            self.probe_at(field, stepper, i, c)?,
            self.probe_at(field, stepper, i, d)?,
        );
        for _ in 0..80 {
            if gc > 0.0 {
                return Ok(Some((c, gc)));
            }
            if gd > 0.0 {
                return Ok(Some((d, gd)));
            }
            if gc > gd {
                (b, d, gd) = (d, c, gc);
                c = b - INV_PHI * (b - a);
                gc = self.probe_at(field, stepper, i, c)?;
            } else {
                (a, c, gc) = (c, d, gd);
                d = a + INV_PHI * (b - a);
                gd = self.probe_at(field, stepper, i, d)?;
            }
        }
        Ok(None)
    }

    /// Fire event `i` at `(t, x)`: count it (refusing a pile), apply its reset in
    /// `(q, dot(q))` and write the state after it into `x` (then [`Events::arm`] there).
    pub(super) fn fire(
        &mut self,
        field: &dyn Plant,
        i: usize,
        t: f64,
        x: &mut [f64],
    ) -> Result<&'static str, Error> {
        let close = self
            .last
            .is_some_and(|last| t - last <= CLOSE * t.abs().max(1.0));
        self.close_in_a_row = if close { self.close_in_a_row + 1 } else { 0 };
        if self.fired >= self.max_events || self.close_in_a_row >= PILE {
            return Err(Error::EventsPiled {
                name: self.events[i].name,
                count: self.fired + 1,
                t,
                state: x.to_vec(),
            });
        }
        self.fired += 1;
        self.last = Some(t);
        let (q, z) = x.split_at(field.dims().0);
        field.qdot(t, q, z, &mut self.qd)?;
        self.q.copy_from_slice(q);
        (self.events[i].reset)(t, &mut self.q, &mut self.qd);
        if self.q.iter().chain(&self.qd).any(|v| !v.is_finite()) {
            return Err(Error::NonFinite {
                what: "q and dot(q) after an event's reset",
                t,
                state: x.to_vec(),
            });
        }
        field.state_from_qdot(t, &self.q, &self.qd, &mut self.after)?;
        x.copy_from_slice(&self.after);
        Ok(self.events[i].name)
    }
}
