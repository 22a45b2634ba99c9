//! [`Solution`]: the optimal states and inputs at the nodes, and how the solver got there.

use alloc::vec::Vec;

use super::layout::Layout;
use super::scheme::Scheme;
use crate::{Error, InputSeries, Model, Trajectory};

/// The solution of a [`Problem`](super::Problem): the states and inputs at the nodes
/// (and, for Hermite–Simpson, the midpoints), the objective, the solver's status,
/// iterations and the largest constraint violation.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    scheme: Scheme,
    dim: usize,
    nu: usize,
    times: Vec<f64>,
    states: Vec<f64>,
    inputs: Vec<f64>,
    /// Hermite–Simpson's midpoints, in time order with the nodes: times, inputs.
    mid_times: Vec<f64>,
    mid_inputs: Vec<f64>,
    variables: Vec<f64>,
    objective: f64,
    status: Status,
    iterations: usize,
    violation: f64,
    seconds: f64,
    exact_hessian: bool,
    trajectory: Trajectory,
    /// The cyclic components' names (reconstructed by quadrature).
    cyclic: Vec<&'static str>,
    /// The solver's multipliers at the end (a warm start for the next solve of the same
    /// program: model-predictive control).
    duals: Option<Duals>,
}

/// The multipliers of a solve and its final barrier parameter: with the variables, the
/// interior-point method's whole iterate, from which a solve of a nearby program (the
/// next horizon of [`Mpc`](super::Mpc)) starts where this one ended instead of re-centring
/// from `mu = 0.1`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Duals {
    /// The constraints' multipliers.
    pub y: Vec<f64>,
    /// The lower and upper bounds' multipliers.
    pub z_l: Vec<f64>,
    pub z_u: Vec<f64>,
    /// The barrier parameter `mu` at the end.
    pub mu: f64,
}

impl Solution {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new<M: Model>(
        model: &M,
        l: &Layout,
        x: Vec<f64>,
        objective: f64,
        optimal: bool,
        iterations: usize,
        violation: f64,
        seconds: f64,
        exact_hessian: bool,
    ) -> Result<Self, Error> {
        let (dim, nu, nz) = (l.dim, l.nu, l.nz());
        let mut times = Vec::with_capacity(l.nodes);
        let mut states = Vec::with_capacity(l.nodes * dim);
        let mut inputs = Vec::with_capacity(l.nodes * nu);
        let mut trajectory =
            Trajectory::from_names_with_inputs(M::COORDINATES, M::SPEEDS, M::INPUTS);
        let mut dx = alloc::vec![0.0; dim];
        let span = l.span(&x);
        for p in 0..l.nodes {
            let z = &x[p * nz..(p + 1) * nz];
            let t = l.time(p, span);
            times.push(t);
            states.extend_from_slice(&z[..dim]);
            inputs.extend_from_slice(&z[dim..]);
            model.rhs_u(t, &z[..dim], &z[dim..], &mut dx)?;
            trajectory.push_with_inputs(t, &z[..dim], &dx, &z[dim..])?;
        }
        let (mut mid_times, mut mid_inputs) = (Vec::new(), Vec::new());
        for p in l.nodes..l.points() {
            mid_times.push(l.time(p, span));
            mid_inputs.extend_from_slice(&x[p * nz + dim..(p + 1) * nz]);
        }
        Ok(Solution {
            scheme: l.scheme,
            dim,
            nu,
            times,
            states,
            inputs,
            mid_times,
            mid_inputs,
            variables: x,
            objective,
            status: if optimal {
                Status::Optimal
            } else {
                Status::Acceptable
            },
            iterations,
            violation,
            seconds,
            exact_hessian,
            trajectory,
            cyclic: l.cyclic.iter().map(|&j| state_name::<M>(j)).collect(),
            duals: None,
        })
    }

    /// The state components the solve left out of the NLP and reconstructed by the
    /// scheme's quadrature ([`Problem::cyclic_by_quadrature`](super::Problem::cyclic_by_quadrature)),
    /// by name: a coordinate's, or a speed's. Empty when there were none.
    pub fn cyclic(&self) -> &[&'static str] {
        &self.cyclic
    }

    /// The optimal objective.
    pub fn objective(&self) -> f64 {
        self.objective
    }

    /// Whether the solver reached the requested tolerance or only the acceptable one.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The NLP solver's iterations.
    pub fn iterations(&self) -> usize {
        self.iterations
    }

    /// The largest violation of a constraint (defects, configuration and path
    /// constraints) or bound at the solution.
    pub fn violation(&self) -> f64 {
        self.violation
    }

    /// The wall time of the solve in seconds (the NLP solver's, evaluations included).
    pub fn solve_seconds(&self) -> f64 {
        self.seconds
    }

    /// Whether the solver had the exact Hessian (else L-BFGS; see [`Hessian`](super::Hessian)).
    pub fn exact_hessian(&self) -> bool {
        self.exact_hessian
    }

    /// The duration (the optimal one with a free final time).
    pub fn duration(&self) -> f64 {
        self.times[self.times.len() - 1] - self.times[0]
    }

    /// The nodes' times.
    pub fn times(&self) -> &[f64] {
        &self.times
    }

    /// The states at the nodes, `DIM` per node, row-major.
    pub fn states(&self) -> &[f64] {
        &self.states
    }

    /// The state at node `k`.
    pub fn state(&self, k: usize) -> Option<&[f64]> {
        self.states.get(k * self.dim..(k + 1) * self.dim)
    }

    /// The same solution with the solver's final multipliers.
    pub(crate) fn with_duals(mut self, duals: Duals) -> Self {
        self.duals = Some(duals);
        self
    }

    /// The solver's final multipliers (`None` unless the solve kept them).
    pub(crate) fn duals(&self) -> Option<&Duals> {
        self.duals.as_ref()
    }

    /// The inputs at the nodes, `NU` per node, row-major.
    pub fn inputs(&self) -> &[f64] {
        &self.inputs
    }

    /// The inputs at node `k`.
    pub fn input(&self, k: usize) -> Option<&[f64]> {
        self.inputs.get(k * self.nu..(k + 1) * self.nu)
    }

    /// All the program's variables (a warm start for a similar problem).
    pub fn variables(&self) -> &[f64] {
        &self.variables
    }

    /// The states and inputs at the nodes as a [`Trajectory`] (its derivatives the
    /// model's `f(t, x, u)` there): plots, CSV, the viewer.
    pub fn trajectory(&self) -> &Trajectory {
        &self.trajectory
    }

    /// The inputs as the scheme represents them between nodes, for
    /// [`simulate_controlled`](crate::simulate_controlled) to replay on the continuous
    /// model: held at the end node's value over each interval (backward Euler), linear
    /// between nodes (trapezoidal), quadratic through each interval's midpoint
    /// (Hermite–Simpson).
    pub fn input_series(&self) -> Result<InputSeries, Error> {
        match self.scheme {
            Scheme::BackwardEuler => {
                let n = self.times.len();
                let times = self.times[..n - 1].to_vec();
                let values = self.inputs[self.nu..].to_vec();
                InputSeries::zero_order_hold(times, values, self.nu)
            }
            Scheme::Trapezoidal => {
                InputSeries::linear(self.times.clone(), self.inputs.clone(), self.nu)
            }
            Scheme::HermiteSimpson => {
                let n = self.times.len();
                let mut times = Vec::with_capacity(2 * n - 1);
                let mut values = Vec::with_capacity((2 * n - 1) * self.nu);
                for k in 0..n {
                    times.push(self.times[k]);
                    values.extend_from_slice(&self.inputs[k * self.nu..(k + 1) * self.nu]);
                    if k + 1 < n {
                        times.push(self.mid_times[k]);
                        values.extend_from_slice(&self.mid_inputs[k * self.nu..(k + 1) * self.nu]);
                    }
                }
                InputSeries::quadratic(times, values, self.nu)
            }
        }
    }
}

/// The status of a solved problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Converged to the requested tolerance.
    Optimal,
    /// Converged to Ipopt's relaxed "acceptable" tolerances only.
    Acceptable,
}

impl core::fmt::Display for Status {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Status::Optimal => "optimal",
            Status::Acceptable => "acceptable",
        })
    }
}

/// The name of state component `j`: a coordinate's, or a speed's.
pub(super) fn state_name<M: Model>(j: usize) -> &'static str {
    match j.checked_sub(M::NQ) {
        None => M::COORDINATES[j],
        Some(s) => M::SPEEDS[s],
    }
}
