//! Ensembles and parameter sweeps, run in parallel (rayon).

use crate::{simulate, Model, Options, SimulationError, Trajectory};
use alloc::vec::Vec;
use core::ops::Range;
use rayon::prelude::*;

/// Simulate many `(model, initial state)` cases over the same time span, in parallel on all
/// cores. The results come back in the order of `cases`; one failing case does not stop
/// the others.
///
/// ```
/// # use nonholo_runtime::{simulate_ensemble, Options, Model, Error};
/// # #[derive(Clone, Copy)] struct Decay { k: f64 }
/// # impl Model for Decay {
/// #     const COORDINATES: &'static [&'static str] = &["x"];
/// #     const SPEEDS: &'static [&'static str] = &[];
/// #     const PARAMETERS: &'static [&'static str] = &["k"];
/// #     const CONSTRAINTS: &'static [&'static str] = &[];
/// #     const NQ: usize = 1; const NZ: usize = 0; const NC: usize = 0; const DIM: usize = 1;
/// #     const FORMULATION: nonholo_runtime::Formulation = nonholo_runtime::Formulation::GibbsAppell;
/// #     const EQUATIONS: &'static str = "x' = -k x";
/// #     type State = [f64; 1];
/// #     const ZERO_STATE: [f64; 1] = [0.0];
/// #     fn parameters(&self) -> Vec<f64> { vec![self.k] }
/// #     fn rhs(&self, _t: f64, s: &[f64], d: &mut [f64]) -> Result<(), Error> { d[0] = -self.k * s[0]; Ok(()) }
/// #     fn qdot(&self, _t: f64, _q: &[f64], _z: &[f64], qd: &mut [f64]) -> Result<(), Error> { qd[0] = 0.0; Ok(()) }
/// #     fn state_from_qdot(&self, _t: f64, q: &[f64], _qd: &[f64]) -> Result<[f64; 1], Error> { Ok([q[0]]) }
/// #     fn energy(&self, _t: f64, _s: &[f64]) -> Result<f64, Error> { Ok(0.0) }
/// #     fn constraint_residual(&self, _t: f64, _q: &[f64], _qd: &[f64], _r: &mut [f64]) -> Result<(), Error> { Ok(()) }
/// # }
/// // A parameter sweep: x' = -k x for k = 1, 2, 3.
/// let cases: Vec<(Decay, Vec<f64>)> = (1..=3).map(|k| (Decay { k: k as f64 }, vec![1.0])).collect();
/// let runs = simulate_ensemble(&cases, 0.0..1.0, &Options::default().sample_times(vec![1.0]));
/// for ((m, _), r) in cases.iter().zip(&runs) {
///     let (_, x) = r.as_ref().unwrap().last().unwrap();
///     assert!((x[0] - (-m.k).exp()).abs() < 1e-9);
/// }
/// ```
#[allow(clippy::result_large_err)] // the error carries the partial trajectory by design
pub fn simulate_ensemble<M: Model + Sync>(
    cases: &[(M, Vec<f64>)],
    t: Range<f64>,
    options: &Options,
) -> Vec<Result<Trajectory, SimulationError>> {
    cases
        .par_iter()
        .map(|(model, state0)| simulate(model, state0, t.clone(), options))
        .collect()
}
