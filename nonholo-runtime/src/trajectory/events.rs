//! The events that continued a run ([`Options::event`](crate::Options::event)).

use super::Trajectory;
use crate::{ContactEvent, Error};

/// One event of a run: when, and what.
///
/// ```
/// use nonholo_runtime::{simulate, Event, EventKind, Options};
/// # use nonholo_runtime::__private::doc_models::Oscillator;
///
/// let options = Options::default().event("wall", |_t, q, _qd| q[0], |_t, _q, qd| qd[0] *= -1.0);
/// let tr = simulate(&Oscillator::new(1.0), &[1.0, 0.0], 0.0..2.0, &options)?;
/// let Event { t, kind } = &tr.events()[0];
/// assert!((t - std::f64::consts::FRAC_PI_2).abs() < 1e-9 && *kind == EventKind::User("wall"));
/// # Ok::<(), nonholo_runtime::SimulationError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Event {
    /// When it fired.
    pub t: f64,
    /// What fired.
    pub kind: EventKind,
}

/// What an [`Event`] was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EventKind {
    /// An event of [`Options::event`](crate::Options::event), by its name.
    User(&'static str),
    /// A rolling contact, `"W on G"`, changed: it slipped, or gripped again.
    Contact {
        /// The contact.
        contact: &'static str,
        /// What happened to it.
        event: ContactEvent,
    },
}

impl Trajectory {
    /// The events that continued the run, in the order they fired (the initial state is
    /// not one). At each, two samples share its time: the state before, then the state
    /// after; [`Trajectory::at`] gives the one before at that time, and the one after from
    /// there on.
    ///
    /// ```
    /// use nonholo_runtime::{simulate, Options};
    /// # use nonholo_runtime::__private::doc_models::Oscillator;
    ///
    /// let options = Options::default().event("wall", |_t, q, _qd| q[0], |_t, _q, qd| qd[0] *= -0.5);
    /// let tr = simulate(&Oscillator::new(1.0), &[1.0, 0.0], 0.0..2.0, &options)?;
    /// let t = tr.events()[0].t;
    /// let i = tr.times().iter().position(|s| *s == t).unwrap();
    /// assert_eq!(tr.times()[i + 1], t);
    /// let (before, after) = (tr.state(i).unwrap(), tr.state(i + 1).unwrap());
    /// assert!((before[1] + 1.0).abs() < 1e-8 && (after[1] - 0.5).abs() < 1e-8);
    /// # Ok::<(), nonholo_runtime::SimulationError>(())
    /// ```
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Record another event at the time of the last one (which recorded the state after
    /// both).
    #[cfg_attr(not(feature = "diffsol"), allow(dead_code))]
    pub(crate) fn add_event(&mut self, event: Event) {
        self.events.push(event);
    }

    /// Record an event at `t` and the state after it (`dstate`, `u` there), at the time of
    /// the last sample (the state before it).
    #[cfg_attr(not(feature = "diffsol"), allow(dead_code))]
    pub(crate) fn push_event(
        &mut self,
        event: Event,
        state: &[f64],
        dstate: &[f64],
        u: &[f64],
    ) -> Result<(), Error> {
        self.push_at(event.t, state, dstate, Some(u), true)?;
        self.events.push(event);
        Ok(())
    }
}
