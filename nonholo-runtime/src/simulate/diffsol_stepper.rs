//! diffsol's methods (Tsit45, BDF, ESDIRK34) as a [`Stepper`]: the problem built from the
//! field's closures, the solver's errors mapped to [`Error`]s with the time and state.

use alloc::vec::Vec;
use core::marker::PhantomData;

use diffsol::{
    DiffsolError, NalgebraLU, NalgebraMat, OdeBuilder, OdeEquations, OdeSolverMethod,
    OdeSolverStopReason, Vector,
};

use super::field::VectorField;
use super::roots::Roots;
use super::{engine_error, roundoff, slice, Drive, Stepper, Stop};
use crate::Error;

/// The methods diffsol steps.
pub(super) enum DiffsolMethod {
    Tsit45,
    Bdf,
    Esdirk34,
}

/// Run one of diffsol's methods up to the first stop `stop`: its problem built from the
/// field's closures.
pub(super) fn run_diffsol(drive: Drive<'_>, method: DiffsolMethod, stop: f64) -> Result<(), Error> {
    let Drive {
        field,
        state0,
        t0,
        t_end,
        o,
        roots,
        ..
    } = drive;
    // diffsol's closures cannot fail: the first error (of the model or the controller) is
    // parked in the field, the stage is poisoned with NaN (so diffsol rejects the step) and
    // the error is reported after the step, in preference to whatever diffsol made of the
    // NaNs.
    let rhs = |x: &[f64], _p: &[f64], t: f64, y: &mut [f64]| {
        if !field.failed() {
            match field.eval(t, x, y) {
                Ok(()) => return,
                Err(e) => field.park(e),
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
        if !field.failed() {
            match field.jvp(t, x, v, y) {
                Ok(()) => return,
                Err(e) => field.park(e),
            }
        }
        y.fill(f64::NAN);
    };
    let n_roots = roots.map_or(1, Roots::len);
    let root = |x: &[f64], _p: &[f64], t: f64, y: &mut [f64]| {
        let Some(r) = roots else {
            y[0] = 1.0;
            return;
        };
        if !field.failed() {
            match r.eval(t, x, y) {
                Ok(()) => return,
                Err(e) => field.park(e),
            }
        }
        y.fill(f64::NAN);
    };

    let problem = OdeBuilder::<NalgebraMat<f64>>::new()
        .rtol(o.rtol)
        .atol([o.atol])
        .t0(t0)
        // Only its sign matters: diffsol picks the first step itself (Hairer's algorithm).
        .h0(t_end - t0)
        .rhs_implicit(rhs, jac)
        .root(root, n_roots)
        .init(init, field.dims().1)
        .build()
        .map_err(|e| engine_error(e, t0, state0))?;
    match method {
        DiffsolMethod::Bdf => {
            let solver = problem.bdf::<NalgebraLU<f64>>();
            drive.run(DiffsolStepper::new(solver, field, true, state0, t0, stop)?)
        }
        DiffsolMethod::Esdirk34 => {
            let solver = problem.esdirk34::<NalgebraLU<f64>>();
            drive.run(DiffsolStepper::new(solver, field, false, state0, t0, stop)?)
        }
        DiffsolMethod::Tsit45 => {
            let solver = problem.tsit45();
            drive.run(DiffsolStepper::new(solver, field, false, state0, t0, stop)?)
        }
    }
}

/// A diffsol solver with the field's parked errors.
struct DiffsolStepper<'a, 'f, Eqn, S, F: ?Sized> {
    solver: S,
    /// The state at the end of the last step (copied out of diffsol's vector).
    y: Vec<f64>,
    /// diffsol's vector for its dense output.
    dense: diffsol::NalgebraVec<f64>,
    field: &'f F,
    /// BDF: a state changed from outside restarts it at order 1, so only new inputs do, and
    /// diffsol's stop time lands it on the stop times. The one-step methods (Tsit45,
    /// ESDIRK34) are landed here instead, by cutting the step they propose, so that the
    /// proposal before the cut is known.
    multistep: bool,
    /// Where the steps end at the latest.
    t_stop: f64,
    /// The step proposed before it was cut to land on `t_stop` (0: not cut, or the cut
    /// step was rejected).
    h_proposed: f64,
    eqn: PhantomData<&'a Eqn>,
}

impl<'a, 'f, Eqn, S, F> DiffsolStepper<'a, 'f, Eqn, S, F>
where
    Eqn: OdeEquations<T = f64, V = diffsol::NalgebraVec<f64>> + 'a,
    S: OdeSolverMethod<'a, Eqn>,
    F: VectorField + ?Sized,
{
    fn new(
        solver: Result<S, DiffsolError>,
        field: &'f F,
        multistep: bool,
        state0: &[f64],
        t0: f64,
        t_stop: f64,
    ) -> Result<Self, Error> {
        // The first-step heuristic already evaluates rhs, possibly past t0.
        if let Some(e) = field.take_failure() {
            return Err(e);
        }
        let mut solver = solver.map_err(|e| engine_error(e, t0, state0))?;
        // A run whose only samples are at t0 takes no step, and diffsol refuses a stop
        // time equal to the start.
        if multistep && t_stop > t0 {
            solver
                .set_stop_time(t_stop)
                .map_err(|e| engine_error(e, t0, state0))?;
        }
        let dense = solver.state().y.clone();
        Ok(Self {
            solver,
            y: state0.to_vec(),
            dense,
            field,
            multistep,
            t_stop,
            h_proposed: 0.0,
            eqn: PhantomData,
        })
    }
}

impl<'a, Eqn, S, F> Stepper for DiffsolStepper<'a, '_, Eqn, S, F>
where
    Eqn: OdeEquations<T = f64, V = diffsol::NalgebraVec<f64>> + 'a,
    S: OdeSolverMethod<'a, Eqn>,
    F: VectorField + ?Sized,
{
    fn t(&self) -> f64 {
        self.solver.state().t
    }

    fn y(&self) -> &[f64] {
        &self.y
    }

    fn step(&mut self) -> Result<Stop, Error> {
        let mut cut = false;
        if !self.multistep {
            // diffsol's own stop-time test: a step ending past the stop time by more than
            // roundoff is cut to end on it.
            let (t, h) = (self.solver.state().t, self.solver.state().h);
            if t + h > self.t_stop + roundoff(t, h) {
                self.h_proposed = h;
                *self.solver.state_mut().h = self.t_stop - t;
                cut = true;
            }
        }
        let t_old = self.t();
        let result = self.solver.step();
        if let Some(e) = self.field.take_failure() {
            return Err(e);
        }
        self.y.copy_from_slice(slice(self.solver.state().y));
        let reason = result.map_err(|e| engine_error(e, self.t(), &self.y))?;
        let t = self.t();
        let landed = !self.multistep && (t - self.t_stop).abs() <= roundoff(t, t - t_old);
        if cut && !landed {
            // the cut step was rejected: the proposal before the cut was too long as well
            self.h_proposed = 0.0;
        }
        match reason {
            OdeSolverStopReason::RootFound(t_root, index) => Ok(Stop::Root(t_root, index)),
            OdeSolverStopReason::TstopReached => Ok(Stop::End),
            OdeSolverStopReason::InternalTimestep if landed => Ok(Stop::End),
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

    fn jump(&mut self, t: f64, y: &[f64], dy: &[f64]) -> Result<(), Error> {
        // diffsol sees a mutated state at the next step (root finder and stop time set
        // again, BDF at order 1)
        let state = self.solver.state_mut();
        *state.t = t;
        state.y.inner_mut().as_mut_slice().copy_from_slice(y);
        state.dy.inner_mut().as_mut_slice().copy_from_slice(dy);
        self.y.copy_from_slice(y);
        self.h_proposed = 0.0;
        Ok(())
    }

    fn restart(&mut self, t: f64, t_stop: f64, new_inputs: bool, dy: &[f64]) -> Result<(), Error> {
        // diffsol reinitialises what the method needs from a mutated state at the next step
        // (root finder, stop time; BDF restarts at order 1 with the same step size): the
        // state y stays, the time is the instant exactly, and dy is f with the new inputs
        // (the first stage of the explicit methods, BDF's first difference).
        self.t_stop = t_stop;
        if new_inputs || !self.multistep {
            let state = self.solver.state_mut();
            *state.t = t;
            if new_inputs {
                state.dy.inner_mut().as_mut_slice().copy_from_slice(dy);
            }
            if !self.multistep {
                *state.h = state.h.max(self.h_proposed);
                self.h_proposed = 0.0;
            }
        }
        if !self.multistep {
            return Ok(());
        }
        self.solver
            .set_stop_time(t_stop)
            .map_err(|e| engine_error(e, t, &self.y))
    }
}
