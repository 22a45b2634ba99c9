//! One object-safe interface over every compiled model: what the Python classes call.
//!
//! PyO3 classes cannot be generic, and a module built by `nonholo.build` holds models the
//! binding has never seen; so each model `M` is put behind [`Erased`], implemented once for
//! all of them by [`Compiled<M>`]. Everything a per-step call needs stays monomorphic
//! inside (the rhs of `M`, its run loop); only the call into the run crosses the vtable.

use nonholo::viz::Animation;
use nonholo::{
    ContactLoad, Contacts, Error, Linearization, Linearize, Model, Options, SimulationError,
    Trajectory,
};
use rayon::prelude::*;
use std::ops::Range;

/// The names and sizes of a model, as the macro emitted them.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The model's Rust name (`WhippleBicycle`).
    pub name: &'static str,
    pub coordinates: &'static [&'static str],
    pub speeds: &'static [&'static str],
    pub inputs: &'static [&'static str],
    pub parameters: &'static [&'static str],
    pub defaults: &'static [Option<f64>],
    pub contacts: &'static [&'static str],
    pub constraints: &'static [&'static str],
    pub configuration_coordinates: &'static [&'static str],
    pub formulation: String,
    pub equations: &'static str,
}

impl Layout {
    pub fn nq(&self) -> usize {
        self.coordinates.len()
    }
    pub fn dim(&self) -> usize {
        self.coordinates.len() + self.speeds.len()
    }
    pub fn nu(&self) -> usize {
        self.inputs.len()
    }
}

/// One case of a batch: the parameters (`None`: the model's own) and the initial state.
pub struct Case {
    pub parameters: Option<Vec<f64>>,
    pub state0: Vec<f64>,
}

/// What a batch keeps of each run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// The whole trajectory.
    Trajectory,
    /// Only the last sample (a sweep's usual need: far less memory).
    Final,
}

/// A compiled model behind a vtable. Every method checks its slices' lengths (the model's
/// own checks) and returns the model's [`Error`]s.
pub trait Erased: Send + Sync {
    fn layout(&self) -> &Layout;
    fn parameters(&self) -> Vec<f64>;
    fn check_parameters(&self) -> Result<(), Error>;
    fn rhs(&self, t: f64, state: &[f64], u: &[f64], out: &mut [f64]) -> Result<(), Error>;
    fn jacobians(
        &self,
        t: f64,
        state: &[f64],
        u: &[f64],
        a: &mut [f64],
        b: &mut [f64],
    ) -> Result<(), Error>;
    fn energy(&self, t: f64, state: &[f64], u: &[f64]) -> Result<f64, Error>;
    fn qdot(&self, t: f64, q: &[f64], z: &[f64], out: &mut [f64]) -> Result<(), Error>;
    fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> Result<Vec<f64>, Error>;
    fn solve_configuration(&self, t: f64, q: &mut [f64]) -> Result<(), Error>;
    fn constraint_residual(
        &self,
        t: f64,
        q: &[f64],
        qdot: &[f64],
        out: &mut [f64],
    ) -> Result<(), Error>;
    fn contact_loads(&self, t: f64, state: &[f64], u: &[f64]) -> Result<Vec<ContactLoad>, Error>;
    fn simulate(
        &self,
        state0: &[f64],
        t: Range<f64>,
        options: &Options,
    ) -> Result<Trajectory, Box<SimulationError>>;
    fn simulate_hybrid(
        &self,
        q0: &[f64],
        qdot0: &[f64],
        t: Range<f64>,
        options: &Options,
    ) -> Result<Trajectory, Box<SimulationError>>;
    /// The cases in parallel (rayon, all cores), each with its own parameters.
    fn simulate_many(
        &self,
        cases: &[Case],
        t: Range<f64>,
        options: &Options,
        keep: Keep,
    ) -> Vec<Result<Trajectory, Box<SimulationError>>>;
    fn linearize(&self, t: f64, state: &[f64], spec: &Linearize) -> Result<Linearization, Error>;
    /// The largest constraint residual of a run: the constraints of `[q, z]` samples, the
    /// rows that hold of a hybrid run's `[q, dot(q)]` samples.
    fn max_residual(&self, run: &Trajectory) -> Result<f64, Error>;
    /// The contact loads at every sample of a run (recorded by a hybrid run).
    fn contact_series(&self, run: &Trajectory) -> Result<Vec<Vec<ContactLoad>>, Error>;
    /// The HTML viewer of a run ([`NotAvailable`](Error::NotAvailable) for a model without
    /// frames).
    fn animation_html(&self, run: &Trajectory, animation: &Animation) -> Result<String, Error>;
}

/// [`Erased`] for a model `M` written with `nonholonomic!`.
pub struct Compiled<M> {
    pub model: M,
    pub layout: Layout,
    /// The viewer of `M`'s runs, where `M` has frames (`export!` finds out).
    pub html: Option<Html<M>>,
}

/// `Trajectory::animation_html` for one model type.
pub type Html<M> = fn(&M, &Trajectory, &Animation) -> Result<String, Error>;

impl<M: Model + Contacts> Compiled<M> {
    /// The layout of `M` under the Rust name `name`.
    pub fn layout_of(name: &'static str) -> Layout {
        Layout {
            name,
            coordinates: M::COORDINATES,
            speeds: M::SPEEDS,
            inputs: M::INPUTS,
            parameters: M::PARAMETERS,
            defaults: M::PARAMETER_DEFAULTS,
            contacts: M::CONTACTS,
            constraints: M::CONSTRAINTS,
            configuration_coordinates: M::CONFIGURATION_COORDINATES,
            formulation: format!("{:?}", M::FORMULATION),
            equations: M::EQUATIONS,
        }
    }
}

/// The last sample of `run` only (a sweep's usual need: far less memory).
fn final_sample<M: Model>(run: Trajectory) -> Trajectory {
    let n = run.len();
    if n <= 1 {
        return run;
    }
    let i = n - 1;
    let nu = run.nu();
    let mut last = Trajectory::new::<M>();
    let (t, state, derivative) = (run.times()[i], run.state(i), run.derivative(i));
    let u = &run.inputs()[i * nu..(i + 1) * nu];
    match (state, derivative) {
        (Some(s), Some(d)) if last.push_with_inputs(t, s, d, u).is_ok() => last,
        _ => run,
    }
}

impl<M> Erased for Compiled<M>
where
    M: Model + Contacts + Send + Sync + 'static,
{
    fn layout(&self) -> &Layout {
        &self.layout
    }
    fn parameters(&self) -> Vec<f64> {
        self.model.parameters()
    }
    fn check_parameters(&self) -> Result<(), Error> {
        self.model.check_parameters()
    }
    fn rhs(&self, t: f64, state: &[f64], u: &[f64], out: &mut [f64]) -> Result<(), Error> {
        self.model.rhs_u(t, state, u, out)
    }
    fn jacobians(
        &self,
        t: f64,
        state: &[f64],
        u: &[f64],
        a: &mut [f64],
        b: &mut [f64],
    ) -> Result<(), Error> {
        self.model.jacobians(t, state, u, a, b)
    }
    fn energy(&self, t: f64, state: &[f64], u: &[f64]) -> Result<f64, Error> {
        self.model.energy_u(t, state, u)
    }
    fn qdot(&self, t: f64, q: &[f64], z: &[f64], out: &mut [f64]) -> Result<(), Error> {
        self.model.qdot(t, q, z, out)
    }
    fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> Result<Vec<f64>, Error> {
        Ok(self.model.state_from_qdot(t, q, qdot)?.as_ref().to_vec())
    }
    fn solve_configuration(&self, t: f64, q: &mut [f64]) -> Result<(), Error> {
        self.model.solve_configuration(t, q)
    }
    fn constraint_residual(
        &self,
        t: f64,
        q: &[f64],
        qdot: &[f64],
        out: &mut [f64],
    ) -> Result<(), Error> {
        self.model.constraint_residual(t, q, qdot, out)
    }
    fn contact_loads(&self, t: f64, state: &[f64], u: &[f64]) -> Result<Vec<ContactLoad>, Error> {
        let mut out = vec![ContactLoad::ZERO; M::CONTACTS.len()];
        self.model.contact_loads(t, state, u, &mut out)?;
        Ok(out)
    }
    fn simulate(
        &self,
        state0: &[f64],
        t: Range<f64>,
        options: &Options,
    ) -> Result<Trajectory, Box<SimulationError>> {
        nonholo::simulate(&self.model, state0, t, options).map_err(Box::new)
    }
    fn simulate_hybrid(
        &self,
        q0: &[f64],
        qdot0: &[f64],
        t: Range<f64>,
        options: &Options,
    ) -> Result<Trajectory, Box<SimulationError>> {
        nonholo::simulate_hybrid(&self.model, q0, qdot0, t, options).map_err(Box::new)
    }
    fn simulate_many(
        &self,
        cases: &[Case],
        t: Range<f64>,
        options: &Options,
        keep: Keep,
    ) -> Vec<Result<Trajectory, Box<SimulationError>>> {
        cases
            .par_iter()
            .map(|case| {
                let run = match &case.parameters {
                    None => nonholo::simulate(&self.model, &case.state0, t.clone(), options),
                    Some(p) => match M::from_parameters(p) {
                        Ok(model) => nonholo::simulate(&model, &case.state0, t.clone(), options),
                        Err(error) => Err(SimulationError {
                            error,
                            partial: Trajectory::new::<M>(),
                        }),
                    },
                };
                match keep {
                    Keep::Trajectory => run.map_err(Box::new),
                    Keep::Final => run.map(final_sample::<M>).map_err(Box::new),
                }
            })
            .collect()
    }
    fn linearize(&self, t: f64, state: &[f64], spec: &Linearize) -> Result<Linearization, Error> {
        nonholo::linearize(&self.model, t, state, spec)
    }
    fn max_residual(&self, run: &Trajectory) -> Result<f64, Error> {
        if run.contact_names().is_empty() {
            run.max_constraint_residual(&self.model)
        } else {
            let r = run.held_residuals(&self.model)?;
            Ok(r.iter().fold(0.0f64, |a, b| a.max(*b)))
        }
    }
    fn contact_series(&self, run: &Trajectory) -> Result<Vec<Vec<ContactLoad>>, Error> {
        run.contact_loads(&self.model)
    }
    fn animation_html(&self, run: &Trajectory, animation: &Animation) -> Result<String, Error> {
        match self.html {
            Some(html) => html(&self.model, run, animation),
            None => Err(Error::NotAvailable {
                what: "animate (the model has no frames to draw)",
            }),
        }
    }
}
