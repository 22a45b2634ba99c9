//! How a [`Problem`] is solved: the checks of its conditions, the program's layout and
//! its structures (kept for the next solve), the NLP solver's run and the [`Solution`].
//! The program's initial point, bounds and probed structures are [`start`]'s; a receding
//! horizon's restart is [`restart`]'s.

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use super::choices::{Hessian, Solver};
use super::cost::{Cost, PathConstraint};
use super::hessian::HessianPlan;
use super::layout::Layout;
use super::nlp::{Nlp, Outcome};
use super::pattern::Pattern;
use super::problem::{Problem, Structures};
use super::solution::{Duals, Solution};
use super::transcription::Program;

use crate::{Error, Model};

mod restart;
mod start;

/// The least barrier parameter a warm start begins with: a floor under the last solve's
/// final `mu` (on the robot's MPC floors from 1e-9 to 1e-5 took the same iterations).
const WARM_MU: f64 = 1e-9;
/// How far a warm start pushes the variables off their bounds and the multipliers off
/// zero (Ipopt's `warm_start_bound_push` and `warm_start_mult_bound_push`; its default is
/// 1e-3). On the robot's MPC (`examples/robot_tracking.rs`) 1e-6 took 2.2 iterations a
/// solve on average, 1e-4 and 1e-8 3.1 to 3.2, whatever the starting `mu` (1e-9 to 1e-5).
const WARM_PUSH: f64 = 1e-6;

impl<M: Model + Sync, C: Cost, P: PathConstraint> Problem<'_, M, C, P> {
    /// Solves the problem.
    ///
    /// # Errors
    /// The first mistake made while stating the problem ([`Error::Dimension`],
    /// [`Error::UnknownName`], [`Error::InvalidOptions`]: lengths, names, bounds,
    /// conditions outside the bounds); the model's parameters
    /// ([`Model::check_parameters`]); [`Error::NotSolved`] when the solver stops without
    /// an optimum (an infeasible problem, the iteration cap), with its status.
    pub fn solve(&self) -> Result<Solution, Error> {
        if let Some(e) = &self.mistake {
            return Err(e.clone());
        }
        self.model.check_parameters()?;
        self.check_conditions()?;
        if self.time_weight != 0.0 && self.free.is_none() {
            return Err(Error::InvalidOptions(
                "minimize_time needs a free final time (free_duration)".into(),
            ));
        }
        let layout = self.layout();
        if layout.free {
            let mut f = vec![crate::__private::Dual::default(); M::DIM];
            let x = vec![crate::__private::Dual::default(); M::DIM];
            let u = vec![crate::__private::Dual::default(); M::NU];
            let t = crate::__private::Dual::new(self.t0, 1.0);
            let mut c = vec![crate::__private::Dual::default(); layout.ncc];
            if let Err(e @ Error::NotAvailable { .. }) =
                self.model
                    .configuration_residual_scalar(t, &x[..M::NQ], &mut c)
            {
                return Err(e);
            }
            if let Err(e @ Error::NotAvailable { .. }) = self.model.rhs_u_scalar(t, &x, &u, &mut f)
            {
                return Err(e);
            }
        }
        let start = self.start(&layout)?;
        let (dim, nz) = (layout.dim, layout.nz());
        self.path.check(self.t0, &start[..dim], &start[dim..nz])?;
        let cached = self
            .structures
            .borrow_mut()
            .take()
            .filter(|s| s.nodes == layout.nodes && s.scheme == layout.scheme);
        let (patterns, plan) = match cached {
            Some(s) => (s.patterns, Some(s.plan)),
            None => (self.patterns(&layout, &start)?, None),
        };
        let program = self.program(layout, patterns, start);
        let hessian = match plan {
            Some(plan) => plan,
            None => match self.hessian {
                Hessian::LimitedMemory => None,
                Hessian::Auto | Hessian::Exact => HessianPlan::probe(&program, &program.start),
            },
        };
        if hessian.is_none() && self.hessian == Hessian::Exact {
            return Err(Error::NotAvailable {
                what: "the exact Hessian (the model has no equations, or configuration \
                       constraints, in another scalar)",
            });
        }
        let mut options = self.options.clone();
        options.hessian_approximation_lbfgs = hessian.is_none();
        if let Some(d) = &self.warm {
            // the whole iterate of the last solve: its variables are the guess, its
            // multipliers start the duals and its final mu the barrier, pushed off the
            // bounds by little (Ipopt's warm_start_init_point, as MPC uses it).
            options.warm_start = true;
            // the least-squares estimate of y costs a factorization (with its symbolic
            // analysis): a third of a warm-started solve of the robot's MPC, then overwritten
            options.least_squares_mult_init = false;
            options.warm_start_target_mu = Some(d.mu.max(WARM_MU));
            options.warm_start_bound_push = WARM_PUSH;
            options.warm_start_bound_frac = WARM_PUSH;
            options.warm_start_mult_bound_push = WARM_PUSH;
            // ripopt pushes the starting point off its bounds by `bound_push` before its
            // warm start does by `warm_start_bound_push` (Ipopt uses only the latter):
            // a plan riding its torque limits would start 1e-2 inside them, its defects
            // off by 1e-2 and the barrier re-centred at 1e-5 (the robot's MPC: 8
            // iterations to re-solve the very problem just solved)
            options.bound_push = WARM_PUSH;
            options.bound_frac = WARM_PUSH;
        }
        let exact = hessian.is_some();
        let nlp = Nlp { program, hessian };
        let clock = std::time::Instant::now();
        let outcome = match self.solver {
            Solver::Ripopt => self.run_ripopt(&nlp, options),
            #[cfg(feature = "ipopt")]
            Solver::Ipopt => {
                super::ipopt::solve(&nlp, &options, &self.ipopt_options, self.warm.as_ref())?
            }
        };
        let seconds = clock.elapsed().as_secs_f64();
        let error = nlp.take_error();
        let Nlp { program, hessian } = nlp;
        // before the reconstruction: the program holds the cyclic components at the start
        let violation = program.violation(&outcome.x);
        let mut outcome = outcome;
        if outcome.optimal.is_some() {
            super::cyclic::reconstruct(self.model, &program.layout, &mut outcome.x)?;
        }
        let outside = program.outside_pattern();
        let (nodes, scheme) = (program.layout.nodes, program.layout.scheme);
        let layout = program.layout;
        *self.structures.borrow_mut() = Some(Structures {
            nodes,
            scheme,
            patterns: (program.jac_pattern, program.conf_pattern),
            plan: hessian,
        });
        if outside > 0.0 {
            return Err(Error::NotSolved {
                status: format!(
                    "the model's Jacobian has an entry of {outside:e} outside the structure \
                     found at the probes"
                ),
                iterations: outcome.iterations,
                objective: outcome.objective,
                violation,
                model: None,
            });
        }
        let Some(optimal) = outcome.optimal else {
            return Err(Error::NotSolved {
                status: outcome.status,
                iterations: outcome.iterations,
                objective: outcome.objective,
                violation,
                model: error.map(alloc::boxed::Box::new),
            });
        };
        Ok(Solution::new::<M>(
            self.model,
            &layout,
            outcome.x,
            outcome.objective,
            optimal,
            outcome.iterations,
            violation,
            seconds,
            exact,
        )?
        .with_duals(outcome.duals))
    }

    /// Solves `nlp` with ripopt under `options`, its multipliers started from the last
    /// solve's where [`Mpc`](super::Mpc) restarted the problem.
    fn run_ripopt(&self, nlp: &Nlp<'_, M, C, P>, mut options: ripopt::SolverOptions) -> Outcome {
        if let Some(d) = &self.warm {
            // ripopt solves without the fixed variables (the initial state, the final
            // conditions) and reads the bounds' multipliers in that reduced order
            let (lo, hi) = (&nlp.program.x_lower, &nlp.program.x_upper);
            let free: Vec<bool> = lo
                .iter()
                .zip(hi)
                .map(|(a, b)| !(a.is_finite() && b.is_finite() && (b - a).abs() < 1e-10))
                .collect();
            let reduced = |z: &[f64]| -> Vec<f64> {
                if free.iter().all(|f| *f) || z.len() != free.len() {
                    return z.to_vec();
                }
                z.iter()
                    .zip(&free)
                    .filter(|(_, f)| **f)
                    .map(|(v, _)| *v)
                    .collect()
            };
            options.warm_start_y = Some(d.y.clone());
            options.warm_start_z_l = Some(reduced(&d.z_l));
            options.warm_start_z_u = Some(reduced(&d.z_u));
        }
        let result = ripopt::solve(nlp, &options);
        let optimal = match result.status {
            ripopt::SolveStatus::Optimal => Some(true),
            ripopt::SolveStatus::Acceptable => Some(false),
            _ => None,
        };
        Outcome {
            x: result.x,
            objective: result.objective,
            optimal,
            status: format!("{:?}", result.status),
            iterations: result.iterations,
            duals: Duals {
                y: result.constraint_multipliers,
                z_l: result.bound_multipliers_lower,
                z_u: result.bound_multipliers_upper,
                mu: result.diagnostics.final_mu,
            },
        }
    }

    /// The program of `layout` with the structures `patterns`, starting at `start`.
    pub(super) fn program(
        &self,
        layout: Layout,
        patterns: (Pattern, Pattern),
        start: Vec<f64>,
    ) -> Program<'_, M, C, P> {
        let mut bounds = (
            self.variable_bounds(&layout),
            self.constraint_bounds(&layout),
        );
        // the cyclic components stay where the start has them (`cyclic.rs`)
        let ((lo, hi), nz) = (&mut bounds.0, layout.nz());
        for p in 0..layout.points() {
            for &j in &layout.cyclic {
                lo[p * nz + j] = start[p * nz + j];
                hi[p * nz + j] = start[p * nz + j];
            }
        }
        let mut program = Program::new(
            self.model,
            &self.cost,
            &self.path,
            layout,
            &self.effort,
            (self.has_running, self.has_terminal),
            patterns,
            bounds.0,
            bounds.1,
            start,
        );
        program.time_weight = self.time_weight;
        program
    }

    pub(super) fn layout(&self) -> Layout {
        let cyclic = self.cyclic_components();
        Layout {
            nodes: self.nodes,
            scheme: self.scheme,
            t0: self.t0,
            duration: match self.free {
                Some((lo, hi)) => self.duration.clamp(lo, hi),
                None => self.duration,
            },
            free: self.free.is_some(),
            dim: M::DIM,
            nu: M::NU,
            nq: M::NQ,
            ncc: M::CONFIGURATION_CONSTRAINTS.len(),
            np: self.path.len(),
            path_midpoints: self.path_midpoints && self.scheme.has_midpoints(),
            integrated: (0..M::DIM)
                .filter(|&i| {
                    i >= M::NQ || !M::CONFIGURATION_COORDINATES.contains(&M::COORDINATES[i])
                })
                .filter(|i| !cyclic.contains(i))
                .collect(),
            cyclic,
            conf_block: self.conf_blocks(),
        }
    }

    /// Which points have configuration constraint rows: every point, but the first
    /// (last) node when the initial (final) conditions fix every coordinate, where the
    /// rows would be constants (`check_conditions` checks them instead).
    pub(super) fn conf_blocks(&self) -> Vec<Option<usize>> {
        let points = if self.scheme.has_midpoints() {
            2 * self.nodes - 1
        } else {
            self.nodes
        };
        let mut next = 0;
        (0..points)
            .map(|p| {
                let fixed = |c: &[Option<f64>]| c[..M::NQ].iter().all(Option::is_some);
                let constant = (p == 0 && fixed(&self.initial))
                    || (p + 1 == self.nodes && fixed(&self.terminal));
                if M::CONFIGURATION_CONSTRAINTS.is_empty() || constant {
                    None
                } else {
                    next += 1;
                    Some(next - 1)
                }
            })
            .collect()
    }

    /// Conditions within the bounds, and a configuration the conditions fix whole on the
    /// configuration constraints.
    pub(super) fn check_conditions(&self) -> Result<(), Error> {
        if !M::CONFIGURATION_CONSTRAINTS.is_empty() {
            for (which, cond, t) in [
                ("initial", &self.initial, self.t0),
                ("final", &self.terminal, self.t0 + self.duration),
            ] {
                let q: Option<Vec<f64>> = cond[..M::NQ].iter().copied().collect();
                if let Some(q) = q {
                    let mut r = vec![0.0; M::CONFIGURATION_CONSTRAINTS.len()];
                    self.model.configuration_residual(t, &q, &mut r)?;
                    let worst = r.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                    if worst > 1e-8 * (1.0 + q.iter().fold(0.0f64, |m, v| m.max(v.abs()))) {
                        return Err(Error::InvalidOptions(format!(
                            "the {which} configuration {q:?} is off the configuration \
                             constraints (residual {worst:e})"
                        )));
                    }
                }
            }
        }
        let names: Vec<&str> = M::COORDINATES.iter().chain(M::SPEEDS).copied().collect();
        for (which, cond) in [("initial", &self.initial), ("final", &self.terminal)] {
            for (i, c) in cond.iter().enumerate() {
                let (lo, hi) = self.state_bounds[i];
                if let Some(v) = c
                    && (!v.is_finite() || *v < lo || *v > hi)
                {
                    return Err(Error::InvalidOptions(format!(
                        "the {which} value of `{}` is {v}, outside its bounds [{lo}, {hi}]",
                        names[i]
                    )));
                }
            }
        }
        Ok(())
    }
}
