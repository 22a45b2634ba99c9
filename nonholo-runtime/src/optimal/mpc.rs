//! [`Mpc`]: model-predictive control, a [`Problem`] re-solved over a receding horizon at
//! every sampling instant.

use alloc::vec::Vec;

use super::cost::{Cost, NoCost, NoPath, PathConstraint};
use super::problem::Problem;
use super::scheme::Scheme;
use super::solution::Solution;
use crate::{Controller, Error, Model};

/// A [`Controller`] that, at each call `(t, x)`, solves its problem from the state `x` at
/// time `t` over the problem's duration (the horizon) and applies the first interval's
/// input: model-predictive control. Each solve is warm-started from the last solution:
/// its trajectory as the guess, read at the new horizon's nodes, and the solver's
/// multipliers and final barrier parameter as the start of the interior-point method's
/// duals (Ipopt's `warm_start_init_point`), so that a solve whose active bounds have not
/// changed does not re-centre from `mu = 0.1`. The structures of the program are found
/// once, at the first solve.
///
/// Use it in [`simulate_controlled`](crate::simulate_controlled) with
/// `Options::control_period(dt)`, so that it is called at the sampling instants and its
/// input is held between them (zero-order hold), as on a real controller.
///
/// ```
/// use nonholo_runtime::optimal::{Cost, Mpc, Problem};
/// use nonholo_runtime::{Controller, Scalar};
/// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
/// // bring a unit mass to rest at the origin: a 1 s horizon, 11 nodes
/// struct Regulate;
/// impl Cost for Regulate {
///     fn running<S: Scalar>(&self, _t: S, x: &[S], u: &[S]) -> S {
///         x[0] * x[0] + x[1] * x[1] + u[0] * u[0] * S::from_f64(0.1)
///     }
/// }
/// let mass = ForcedOscillator { m: 1.0, k: 0.0 };
/// let mut mpc = Mpc::new(Problem::new(&mass, 11).duration(1.0).cost(Regulate));
/// let mut u = [0.0];
/// mpc.control(0.0, &[1.0, 0.0], &mut u)?;
/// assert!(u[0] < 0.0); // push back towards the origin
/// assert_eq!(mpc.solve_seconds().len(), 1);
/// # Ok::<(), nonholo_runtime::Error>(())
/// ```
pub struct Mpc<'m, M: Model, C: Cost = NoCost, P: PathConstraint = NoPath> {
    problem: Problem<'m, M, C, P>,
    last: Option<Solution>,
    seconds: Vec<f64>,
    iterations: Vec<usize>,
}

impl<'m, M: Model + Sync, C: Cost, P: PathConstraint> Mpc<'m, M, C, P> {
    /// The controller of `problem`: its duration is the horizon, its initial state and
    /// start time are replaced at every call; everything else (nodes, scheme, cost,
    /// bounds, final conditions, path constraints, solver options) stays.
    pub fn new(problem: Problem<'m, M, C, P>) -> Self {
        Mpc {
            problem,
            last: None,
            seconds: Vec::new(),
            iterations: Vec::new(),
        }
    }

    /// Solves the horizon from `state` at time `t` once, before the control loop starts,
    /// and keeps the plan as the next call's warm start; not counted among the loop's
    /// solves ([`solve_seconds`](Self::solve_seconds)). The first solve of a program is the
    /// dearest (its structures found, the barrier started at `mu = 0.1`: on the robot's
    /// MPC 19 iterations and 11 ms against 2.1 and 1.5 ms warm-started); a controller
    /// pays it while it is set up, not in its first sampling period.
    ///
    /// ```
    /// use nonholo_runtime::optimal::{Cost, Mpc, Problem};
    /// use nonholo_runtime::{Controller, Scalar};
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    /// struct Regulate;
    /// impl Cost for Regulate {
    ///     fn running<S: Scalar>(&self, _t: S, x: &[S], u: &[S]) -> S {
    ///         x[0] * x[0] + x[1] * x[1] + u[0] * u[0] * S::from_f64(0.1)
    ///     }
    /// }
    /// let mass = ForcedOscillator { m: 1.0, k: 0.0 };
    /// let mut mpc = Mpc::new(Problem::new(&mass, 11).duration(1.0).cost(Regulate));
    /// let cold = mpc.prepare(0.0, &[1.0, 0.0])?.iterations();
    /// let mut u = [0.0];
    /// mpc.control(0.0, &[1.0, 0.0], &mut u)?;
    /// // the same horizon again, from where the preparation ended
    /// assert!(mpc.iterations()[0] < cold);
    /// assert_eq!(mpc.solve_seconds().len(), 1);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn prepare(&mut self, t: f64, state: &[f64]) -> Result<&Solution, Error> {
        self.problem.restart(t, state, self.last.as_ref())?;
        let sol = self.problem.solve()?;
        Ok(self.last.insert(sol))
    }

    /// The wall time of every solve so far, in seconds.
    pub fn solve_seconds(&self) -> &[f64] {
        &self.seconds
    }

    /// The NLP iterations of every solve so far.
    pub fn iterations(&self) -> &[usize] {
        &self.iterations
    }

    /// The worst and the median time of a solve so far, in seconds (`None` before the
    /// first).
    pub fn worst_and_median_seconds(&self) -> Option<(f64, f64)> {
        if self.seconds.is_empty() {
            return None;
        }
        let mut s = self.seconds.clone();
        s.sort_by(f64::total_cmp);
        Some((s[s.len() - 1], s[s.len() / 2]))
    }

    /// The last solution (the plan over the horizon from the last call).
    pub fn last_solution(&self) -> Option<&Solution> {
        self.last.as_ref()
    }
}

impl<M: Model + Sync, C: Cost, P: PathConstraint> Controller for Mpc<'_, M, C, P> {
    fn control(&mut self, t: f64, state: &[f64], u: &mut [f64]) -> Result<(), Error> {
        if u.len() != M::NU {
            return Err(Error::Dimension {
                what: "inputs u",
                expected: M::NU,
                found: u.len(),
            });
        }
        self.problem.restart(t, state, self.last.as_ref())?;
        let clock = std::time::Instant::now();
        let sol = self.problem.solve()?;
        self.seconds.push(clock.elapsed().as_secs_f64());
        self.iterations.push(sol.iterations());
        // the input the scheme applies over the first interval
        let k = if self.problem.scheme_in_use() == Scheme::BackwardEuler {
            1
        } else {
            0
        };
        u.copy_from_slice(sol.input(k).unwrap_or(&[]));
        // the interior point relaxes bounds by about 1e-8: an actuator gets its limits
        for (v, (lo, hi)) in u.iter_mut().zip(self.problem.input_limits()) {
            *v = v.clamp(*lo, *hi);
        }
        self.last = Some(sol);
        Ok(())
    }
}
