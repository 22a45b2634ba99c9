//! An integrator as the sampling loop drives it ([`Stepper`]) and how its steps end
//! ([`Stop`]): what DOP853 and diffsol's methods implement, and what the loop and the
//! event location call.

use crate::Error;

/// How an accepted step ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Stop {
    /// Before the stop time.
    Continue,
    /// At the stop time (the state is the state there, to roundoff): the end of the time
    /// span or of a hold interval.
    End,
    /// A root function ([`super::roots::Roots`]) crossed zero at this time, inside the
    /// last step: 0 the stopping condition, `1 + i` contact guard `i`.
    Root(f64, usize),
}

/// An integrator as the sampling loop drives it: accepted steps one at a time, the state
/// at the end of the last one, and dense output inside it.
pub(super) trait Stepper {
    /// Time and state at the end of the last accepted step.
    fn t(&self) -> f64;
    fn y(&self) -> &[f64];
    /// Take one accepted step, ending at the stop time at the latest.
    fn step(&mut self) -> Result<Stop, Error>;
    /// The state at `t` inside the last step.
    fn interpolate(&mut self, t: f64, y: &mut [f64]) -> Result<(), Error>;
    /// Compute now what [`interpolate`](Self::interpolate) needs of the last step, for a
    /// method that would otherwise evaluate the field for it later (DOP853's three extra
    /// stages): before [`Plant::accepted`] may change the field.
    fn prepare_interpolation(&mut self) -> Result<(), Error> {
        Ok(())
    }
    /// Go on from the state reached at the stop time, relabelled `t` (the control instant
    /// it landed on), up to the new stop time `t_stop`. With `new_inputs`, the field's inputs
    /// changed at `t`: the method restarts there (its buffers kept: no allocation, no new
    /// initial step). Without, the field is unchanged and the method just goes on (a
    /// multistep method keeps its history).
    ///
    /// A one-step method starts the next interval with the step it had proposed before that
    /// proposal was cut short to land on the instant (when the cut step was accepted): the
    /// step size follows the solution, not the control period.
    ///
    /// `dy` is the field at `(t, y)` with the new inputs.
    fn restart(&mut self, t: f64, t_stop: f64, new_inputs: bool, dy: &[f64]) -> Result<(), Error>;
    /// Go on from a new state `y` at `t`, inside the last step (an event's reset): the
    /// step size kept, the history dropped (BDF restarts at order 1), the root functions
    /// measured from `(t, y)`. `dy` is the field there.
    fn jump(&mut self, t: f64, y: &[f64], dy: &[f64]) -> Result<(), Error>;
    /// What the method noticed that may explain running out of steps.
    fn hint(&self) -> Option<alloc::string::String> {
        None
    }
}
