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
/// use nonholo_runtime::{simulate_ensemble, Options};
/// # use nonholo_runtime::__private::doc_models::Oscillator;
///
/// // A parameter sweep: x'' = -w^2 x from x = 1 for w = 1, 2, 3, so x(1) = cos w.
/// let cases: Vec<(Oscillator, Vec<f64>)> =
///     (1..=3).map(|w| (Oscillator::new(f64::from(w)), vec![1.0, 0.0])).collect();
/// let runs = simulate_ensemble(&cases, 0.0..1.0, &Options::default().sample_times(vec![1.0]));
/// for ((osc, _), run) in cases.iter().zip(&runs) {
///     let (_, y) = run.as_ref().unwrap().last().unwrap();
///     assert!((y[0] - osc.k.sqrt().cos()).abs() < 1e-8);
/// }
/// // one bad case fails alone
/// let mut cases = cases;
/// cases[1].1 = vec![f64::NAN, 0.0];
/// let runs = simulate_ensemble(&cases, 0.0..1.0, &Options::default());
/// assert!(runs[0].is_ok() && runs[1].is_err() && runs[2].is_ok());
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
