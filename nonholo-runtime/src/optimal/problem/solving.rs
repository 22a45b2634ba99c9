//! How a [`Problem`] is transcribed and solved: the builders of the path rows at the
//! midpoints, the cyclic components left to quadrature, and the NLP solver with its
//! options (the tolerance, the iteration cap, the Hessian, ripopt's and IPOPT's own).

use alloc::format;

use super::Problem;
use crate::optimal::choices::{Hessian, Solver};
use crate::optimal::cost::{Cost, PathConstraint};
use crate::{Error, Model};

impl<'m, M: Model, C: Cost, P: PathConstraint> Problem<'m, M, C, P> {
    /// The NLP solver's convergence tolerance (`1e-8` unless set): Ipopt's `tol`, on the
    /// scaled KKT conditions.
    pub fn tolerance(mut self, tol: f64) -> Self {
        if tol.is_nan() || tol <= 0.0 {
            self.note(Error::InvalidOptions(format!(
                "the tolerance must be positive, got {tol}"
            )));
        }
        self.options.tol = tol;
        self.options.constr_viol_tol = tol;
        self
    }

    /// How the Hessian of the Lagrangian is had ([`Hessian::Auto`] unless set).
    pub fn hessian(mut self, hessian: Hessian) -> Self {
        self.hessian = hessian;
        self
    }

    /// Whether the path constraints hold at Hermite–Simpson's midpoints as well as at the
    /// nodes (they do unless `false`; the other schemes have no midpoints). A midpoint's
    /// inputs are variables of their own, and the plan's input between two nodes is the
    /// parabola through them: a constraint on the nodes alone leaves it free there, and a
    /// friction limit so imposed can be met at every node by a plan that slips between.
    /// A pure state constraint (a speed limit, an obstacle) is another matter: the nodes
    /// suffice, and riding it along an arc at both nodes and midpoints costs iterations or
    /// stalls ripopt's complementarity (the robot's parking: 237 iterations against 136;
    /// the skate's speed limit in the tests: 3000 iterations at `5e-5`).
    ///
    /// ```
    /// use nonholo_runtime::optimal::{Problem, Scheme};
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    /// let osc = ForcedOscillator { m: 1.0, k: 4.0 };
    /// let p = Problem::new(&osc, 5)
    ///     .scheme(Scheme::HermiteSimpson)
    ///     .initial_state(&[1.0, 0.0])
    ///     .minimize_input_effort(&[1.0])
    ///     .path_at_midpoints(false);
    /// assert!(p.solve().is_ok());
    /// ```
    pub fn path_at_midpoints(mut self, midpoints: bool) -> Self {
        self.path_midpoints = midpoints;
        self
    }

    /// Whether the cyclic state components are left out of the NLP and reconstructed by
    /// the scheme's quadrature after the solve (not unless `true`: the transcription as
    /// written, as other tools solve it). A component is cyclic when nothing the solver
    /// sees reads it: no equation of motion (by the macro's structural Jacobian pattern;
    /// a model without one keeps every component), no configuration constraint, cost or
    /// path constraint, and it has no bounds and no final condition — a wheel's rolling
    /// angle, or `x` when only `y` is asked for. Its defects constrain nothing else, so
    /// the other components' optimum is the same without them, and the component follows
    /// from that optimum by the defects themselves, exactly.
    ///
    /// The NLP is smaller and each iteration cheaper (the robot's MPC keeps 6 of its 9
    /// state components: a third off every iteration). The optimum is the same, but the
    /// interior-point method's path to it is not: on the problems of `BENCHMARKS.md` the
    /// bicycle's lane change and the robot's dash take the same iterations, the
    /// manipulator's swing half as many again; a cold solve of the robot's MPC horizon
    /// from ripopt's least-squares multipliers, and IPOPT on the parking, end in other
    /// local optima, or none. On a nonconvex problem it is a choice to measure, like a
    /// solver option. [`Solution::cyclic`](crate::optimal::Solution::cyclic) names what was
    /// reconstructed.
    ///
    /// ```
    /// use nonholo_runtime::optimal::Problem;
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    /// let osc = ForcedOscillator { m: 1.0, k: 4.0 };
    /// let p = Problem::new(&osc, 5)
    ///     .initial_state(&[1.0, 0.0])
    ///     .minimize_input_effort(&[1.0])
    ///     .cyclic_by_quadrature(true);
    /// // the spring reads the position and the position the speed: nothing is cyclic
    /// assert!(p.solve()?.cyclic().is_empty());
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn cyclic_by_quadrature(mut self, on: bool) -> Self {
        self.quadrature = on;
        self
    }

    /// The most iterations of the NLP solver (3000 unless set).
    pub fn max_iterations(mut self, n: usize) -> Self {
        self.options.max_iter = n;
        self
    }

    /// The NLP solver ([`Solver::Ripopt`] unless set).
    ///
    /// ```
    /// use nonholo_runtime::optimal::{Problem, Solver};
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    /// let particle = ForcedOscillator { m: 1.0, k: 0.0 };
    /// let sol = Problem::new(&particle, 11)
    ///     .initial_state(&[0.0, 0.0])
    ///     .final_state(&[1.0, 0.0])
    ///     .minimize_input_effort(&[1.0])
    ///     .solver(Solver::Ripopt)
    ///     .solve()?;
    /// assert!(sol.status() == nonholo_runtime::optimal::Status::Optimal);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn solver(mut self, solver: Solver) -> Self {
        self.solver = solver;
        self
    }

    /// An option of IPOPT's own by its name, for [`Solver::Ipopt`]: a number, an integer or
    /// a string (`"linear_solver"` to `"ma57"` where the HSL library is installed,
    /// `"mumps_pivot_order"`, ...), set after those [`Problem::solver_options`] gives and
    /// over them. A name IPOPT does not know, or a value of the wrong kind, is
    /// [`Problem::solve`]'s [`Error::InvalidOptions`].
    ///
    /// ```
    /// use nonholo_runtime::optimal::{Problem, Solver};
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    /// let particle = ForcedOscillator { m: 1.0, k: 0.0 };
    /// let p = Problem::new(&particle, 11)
    ///     .initial_state(&[0.0, 0.0])
    ///     .final_state(&[1.0, 0.0])
    ///     .minimize_input_effort(&[1.0])
    ///     .solver(Solver::Ipopt)
    ///     .ipopt_option("mu_strategy", "adaptive")
    ///     .ipopt_option("acceptable_iter", 5);
    /// assert!(p.solve()?.objective() > 0.0);
    /// let wrong = p.ipopt_option("no_such_option", 1.0).solve();
    /// assert!(matches!(wrong, Err(nonholo_runtime::Error::InvalidOptions(_))));
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    #[cfg(feature = "ipopt")]
    pub fn ipopt_option(
        mut self,
        name: &str,
        value: impl Into<crate::optimal::ipopt::IpoptValue>,
    ) -> Self {
        let value = value.into();
        match std::ffi::CString::new(name) {
            Ok(_) if value == crate::optimal::ipopt::IpoptValue::Str(None) => self.note(
                Error::InvalidOptions(format!("IPOPT's option `{name}`: a string with a NUL byte")),
            ),
            Ok(key) => self.ipopt_options.push((key, value)),
            Err(_) => self.note(Error::InvalidOptions(format!(
                "an IPOPT option's name holds a NUL byte: {name:?}"
            ))),
        }
        self
    }

    /// Any option of the NLP solver (ripopt's `SolverOptions`, Ipopt's names), set by
    /// `f`: for example `.solver_options(|o| o.print_level = 5)` to watch the iterations.
    /// `Solver::Ipopt` (feature `ipopt`) reads those IPOPT has under the same name (the tolerances, the
    /// iteration cap, the print level, the barrier's strategy and start, the bound
    /// pushes, the warm start, the Hessian's approximation); the others are ripopt's own.
    pub fn solver_options(mut self, f: impl FnOnce(&mut ripopt::SolverOptions)) -> Self {
        f(&mut self.options);
        self
    }
}
