//! [`Problem`]: an optimal-control problem on a model, stated by a builder and solved by
//! direct collocation.

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use super::cost::{Cost, NoCost, NoPath, PathConstraint};
use super::hessian::HessianPlan;
use super::layout::Layout;
use super::nlp::Nlp;
use super::pattern::{Pattern, Probe};
use super::scheme::Scheme;
use super::solution::Solution;
use super::transcription::Program;
use crate::{Error, Model, Trajectory};

/// An optimal-control problem on `model`: find inputs `u(t)` and states `x(t)` on
/// `[t0, t0 + T]` that minimize `Phi(x(T)) + integral of L(t, x, u) dt` subject to
/// `dx/dt = f(t, x, u)` (the model's [`Model::rhs_u`]), bounds on states and inputs,
/// initial and final conditions, path constraints, and the model's configuration
/// constraints at every node.
///
/// Direct collocation: the states and inputs at `nodes` equally spaced times are the
/// unknowns of a sparse nonlinear program (see [`Scheme`]), solved by ripopt's
/// interior-point method (Ipopt's algorithm in Rust). The dynamics' derivatives are the
/// model's exact [`Model::jacobians`], assembled into the program's sparse Jacobian
/// whose structure is found once; the cost's and the path constraints' are exact too
/// (dual numbers). The Hessian of the Lagrangian is approximated by L-BFGS.
///
/// The builder never fails: a wrong name or length is reported by [`Problem::solve`],
/// before anything is solved.
///
/// ```
/// use nonholo_runtime::optimal::{Problem, Scheme};
/// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
/// // A unit mass (no spring) from rest at 0 to rest at 1 in 1 s, least integral of f^2:
/// // x = 3t^2 - 2t^3, f = 6 - 12 t, cost 12.
/// let particle = ForcedOscillator { m: 1.0, k: 0.0 };
/// let sol = Problem::new(&particle, 11)
///     .scheme(Scheme::HermiteSimpson)
///     .duration(1.0)
///     .initial_state(&[0.0, 0.0])
///     .final_state(&[1.0, 0.0])
///     .minimize_input_effort(&[1.0])
///     .solve()?;
/// assert!((sol.objective() - 12.0).abs() < 1e-6);
/// let x_half = sol.states()[5 * 2]; // node 5 is t = 0.5
/// assert!((x_half - 0.5).abs() < 1e-6);
/// # Ok::<(), nonholo_runtime::Error>(())
/// ```
pub struct Problem<'m, M: Model, C: Cost = NoCost, P: PathConstraint = NoPath> {
    model: &'m M,
    nodes: usize,
    scheme: Scheme,
    t0: f64,
    duration: f64,
    initial: Vec<Option<f64>>,
    terminal: Vec<Option<f64>>,
    state_bounds: Vec<(f64, f64)>,
    input_bounds: Vec<(f64, f64)>,
    effort: Vec<f64>,
    /// Free final time: the duration's bounds.
    free: Option<(f64, f64)>,
    /// The weight of the duration in the objective.
    time_weight: f64,
    cost: C,
    has_running: bool,
    has_terminal: bool,
    path: P,
    path_bounds: (Vec<f64>, Vec<f64>),
    guess: Option<Trajectory>,
    guess_inputs: Option<Vec<f64>>,
    options: ripopt::SolverOptions,
    hessian: Hessian,
    /// The structures found by the probes, kept for the next solve of the same layout
    /// (model predictive control solves one problem again and again).
    structures: core::cell::RefCell<Option<Structures>>,
    /// The first mistake made while stating the problem, reported by `solve`.
    mistake: Option<Error>,
}

impl<'m, M: Model> Problem<'m, M> {
    /// A problem on `model` with `nodes` nodes (at least 2), the trapezoidal scheme, a
    /// duration of 1 from `t0 = 0`, no conditions, no bounds and no cost.
    pub fn new(model: &'m M, nodes: usize) -> Self {
        let mut options = ripopt::SolverOptions {
            print_level: 0,
            tol: 1e-8,
            max_iter: 3000,
            ..Default::default()
        };
        // Ipopt's defaults for its acceptable level; the status tells which was reached.
        options.constr_viol_tol = 1e-8;
        let mistake = (nodes < 2).then(|| {
            Error::InvalidOptions(format!("a problem needs at least 2 nodes, got {nodes}"))
        });
        Problem {
            model,
            nodes,
            scheme: Scheme::default(),
            t0: 0.0,
            duration: 1.0,
            initial: vec![None; M::DIM],
            terminal: vec![None; M::DIM],
            state_bounds: vec![(f64::NEG_INFINITY, f64::INFINITY); M::DIM],
            input_bounds: vec![(f64::NEG_INFINITY, f64::INFINITY); M::NU],
            effort: Vec::new(),
            free: None,
            time_weight: 0.0,
            cost: NoCost,
            has_running: false,
            has_terminal: false,
            path: NoPath,
            path_bounds: (Vec::new(), Vec::new()),
            guess: None,
            guess_inputs: None,
            options,
            hessian: Hessian::Auto,
            structures: core::cell::RefCell::new(None),
            mistake,
        }
    }
}

impl<'m, M: Model, C: Cost, P: PathConstraint> Problem<'m, M, C, P> {
    fn note(&mut self, e: Error) {
        self.mistake.get_or_insert(e);
    }

    /// The transcription ([`Scheme::Trapezoidal`] unless set).
    pub fn scheme(mut self, scheme: Scheme) -> Self {
        self.scheme = scheme;
        self
    }

    /// The initial time (0 unless set).
    pub fn start_time(mut self, t0: f64) -> Self {
        if !t0.is_finite() {
            self.note(Error::InvalidOptions(format!(
                "the start time must be finite, got {t0}"
            )));
        }
        self.t0 = t0;
        self
    }

    /// The duration `T` (positive, finite).
    pub fn duration(mut self, duration: f64) -> Self {
        if !(duration > 0.0 && duration.is_finite()) {
            self.note(Error::InvalidOptions(format!(
                "the duration must be positive and finite, got {duration}"
            )));
        }
        self.duration = duration;
        self
    }

    /// A free final time: the duration is a variable within `[lo, hi]` (`0 < lo <= hi`),
    /// its guess the duration given by [`Problem::duration`] (clamped). The model's
    /// equations (and configuration constraints) are differentiated in time through
    /// [`Model::rhs_u_scalar`] and [`Model::configuration_residual_scalar`] (generated
    /// models have them; [`Error::NotAvailable`] otherwise).
    pub fn free_duration(mut self, lo: f64, hi: f64) -> Self {
        if !(lo > 0.0 && lo <= hi && hi.is_finite()) {
            self.note(Error::InvalidOptions(format!(
                "a free duration needs 0 < lo <= hi < infinity, got [{lo}, {hi}]"
            )));
        }
        self.free = Some((lo, hi));
        self
    }

    /// Adds the duration itself to the objective (with a free final time: the fastest
    /// motion, the other terms breaking ties).
    pub fn minimize_time(mut self) -> Self {
        self.time_weight = 1.0;
        self
    }

    /// The whole initial state `[q, z]`, as `simulate` takes it.
    pub fn initial_state(mut self, state: &[f64]) -> Self {
        self.set_state(state, "initial state", true);
        self
    }

    /// The whole final state `[q, z]`.
    pub fn final_state(mut self, state: &[f64]) -> Self {
        self.set_state(state, "final state", false);
        self
    }

    fn set_state(&mut self, state: &[f64], what: &'static str, initial: bool) {
        if !self.of_length(state, M::DIM, what) {
            return;
        }
        let target = if initial {
            &mut self.initial
        } else {
            &mut self.terminal
        };
        for (t, &v) in target.iter_mut().zip(state) {
            *t = Some(v);
        }
    }

    /// Some final states by name (coordinates or speeds); the others are free.
    pub fn final_coordinates(mut self, values: &[(&str, f64)]) -> Self {
        for &(name, v) in values {
            if let Some(i) = self.state_index(name) {
                self.terminal[i] = Some(v);
            }
        }
        self
    }

    /// Some initial states by name (coordinates or speeds); the others are free.
    pub fn initial_coordinates(mut self, values: &[(&str, f64)]) -> Self {
        for &(name, v) in values {
            if let Some(i) = self.state_index(name) {
                self.initial[i] = Some(v);
            }
        }
        self
    }

    /// All final speeds `z` (length `NZ`).
    pub fn final_speeds(mut self, speeds: &[f64]) -> Self {
        if self.of_length(speeds, M::NZ, "final speeds") {
            for (t, &v) in self.terminal[M::NQ..].iter_mut().zip(speeds) {
                *t = Some(v);
            }
        }
        self
    }

    /// Whether `values` has `expected` entries; notes the mistake if not.
    fn of_length(&mut self, values: &[f64], expected: usize, what: &'static str) -> bool {
        let ok = values.len() == expected;
        if !ok {
            self.note(Error::Dimension {
                what,
                expected,
                found: values.len(),
            });
        }
        ok
    }

    /// `lo <= state <= hi` at every node, for a coordinate or speed by name.
    pub fn state_bounds(mut self, name: &str, lo: f64, hi: f64) -> Self {
        if let Some(i) = self.state_index(name)
            && self.check_bounds(name, lo, hi)
        {
            self.state_bounds[i] = (lo, hi);
        }
        self
    }

    /// `lo <= u <= hi` at every node, for an input by name.
    pub fn input_bounds(mut self, name: &str, lo: f64, hi: f64) -> Self {
        match M::INPUTS.iter().position(|n| *n == name) {
            Some(i) => {
                if self.check_bounds(name, lo, hi) {
                    self.input_bounds[i] = (lo, hi);
                }
            }
            None => self.note(Error::UnknownName {
                what: "inputs",
                name: name.into(),
                known: M::INPUTS.to_vec(),
            }),
        }
        self
    }

    fn check_bounds(&mut self, name: &str, lo: f64, hi: f64) -> bool {
        let ok = lo <= hi && !lo.is_nan() && !hi.is_nan();
        if !ok {
            self.note(Error::InvalidOptions(format!(
                "the bounds of `{name}` are [{lo}, {hi}]: the lower must not exceed the upper"
            )));
        }
        ok
    }

    fn state_index(&mut self, name: &str) -> Option<usize> {
        let found = M::COORDINATES
            .iter()
            .chain(M::SPEEDS)
            .position(|n| *n == name);
        if found.is_none() {
            self.note(Error::UnknownName {
                what: "states",
                name: name.into(),
                known: M::COORDINATES.iter().chain(M::SPEEDS).copied().collect(),
            });
        }
        found
    }

    /// Adds `integral of sum_k w_k u_k^2 dt` to the objective (one weight per input).
    pub fn minimize_input_effort(mut self, weights: &[f64]) -> Self {
        if self.of_length(weights, M::NU, "input effort weights") {
            self.effort = weights.to_vec();
        }
        self
    }

    /// The general objective: `cost.running` integrated by the scheme's quadrature plus
    /// `cost.terminal` at the final node (added to the input effort, if any).
    pub fn cost<C2: Cost>(self, cost: C2) -> Problem<'m, M, C2, P> {
        let mut p = self.retype(|_, path| (cost, path));
        p.has_running = true;
        p.has_terminal = true;
        p
    }

    /// Path constraints `lo <= g(t, x, u) <= hi` at every node (`lo`, `hi` of length
    /// `path.len()`; infinite for a one-sided bound).
    pub fn path<P2: PathConstraint>(
        self,
        path: P2,
        lo: &[f64],
        hi: &[f64],
    ) -> Problem<'m, M, C, P2> {
        let mut mistake = self.mistake.clone();
        if lo.len() != path.len() || hi.len() != path.len() {
            mistake.get_or_insert(Error::Dimension {
                what: "path constraint bounds",
                expected: path.len(),
                found: if lo.len() != path.len() {
                    lo.len()
                } else {
                    hi.len()
                },
            });
        } else if lo
            .iter()
            .zip(hi)
            .any(|(l, h)| l.partial_cmp(h).is_none_or(|o| o.is_gt()))
        {
            mistake.get_or_insert(Error::InvalidOptions(format!(
                "path constraint bounds {lo:?} exceed {hi:?}"
            )));
        }
        let mut p = self.retype(|cost, _| (cost, path));
        p.path_bounds = (lo.to_vec(), hi.to_vec());
        p.mistake = mistake;
        p
    }

    /// The problem with its cost and path constraints replaced by `f(cost, path)`, every
    /// other field moved (the builders that change a type parameter).
    fn retype<C2: Cost, P2: PathConstraint>(
        self,
        f: impl FnOnce(C, P) -> (C2, P2),
    ) -> Problem<'m, M, C2, P2> {
        let (cost, path) = f(self.cost, self.path);
        Problem {
            model: self.model,
            nodes: self.nodes,
            scheme: self.scheme,
            t0: self.t0,
            duration: self.duration,
            initial: self.initial,
            terminal: self.terminal,
            state_bounds: self.state_bounds,
            input_bounds: self.input_bounds,
            effort: self.effort,
            free: self.free,
            time_weight: self.time_weight,
            cost,
            has_running: self.has_running,
            has_terminal: self.has_terminal,
            path,
            path_bounds: self.path_bounds,
            guess: self.guess,
            guess_inputs: self.guess_inputs,
            options: self.options,
            hessian: self.hessian,
            structures: core::cell::RefCell::new(None),
            mistake: self.mistake,
        }
    }

    /// The initial guess of the states (and inputs, if it has them) from a trajectory,
    /// for example a simulated one; interpolated at the nodes. Without it the guess is
    /// the straight line from the initial to the final conditions (free components held
    /// at their initial value, or zero) and zero inputs.
    pub fn guess(mut self, trajectory: &Trajectory) -> Self {
        if trajectory.dim() != M::DIM {
            self.note(Error::Dimension {
                what: "the guessed trajectory's states",
                expected: M::DIM,
                found: trajectory.dim(),
            });
        }
        self.guess = Some(trajectory.clone());
        self
    }

    /// Constant inputs for the initial guess (length `NU`).
    pub fn guess_inputs(mut self, u: &[f64]) -> Self {
        if self.of_length(u, M::NU, "guessed inputs") {
            self.guess_inputs = Some(u.to_vec());
        }
        self
    }

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

    /// The most iterations of the NLP solver (3000 unless set).
    pub fn max_iterations(mut self, n: usize) -> Self {
        self.options.max_iter = n;
        self
    }

    /// Any option of the NLP solver (ripopt's `SolverOptions`, Ipopt's names), set by
    /// `f`: for example `.solver_options(|o| o.print_level = 5)` to watch the iterations.
    pub fn solver_options(mut self, f: impl FnOnce(&mut ripopt::SolverOptions)) -> Self {
        f(&mut self.options);
        self
    }

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
        let x_bounds = self.variable_bounds(&layout);
        let g_bounds = self.constraint_bounds(&layout);
        let cached = self
            .structures
            .borrow_mut()
            .take()
            .filter(|s| s.nodes == layout.nodes && s.scheme == layout.scheme);
        let (patterns, plan) = match cached {
            Some(s) => (s.patterns, Some(s.plan)),
            None => (self.patterns(&layout, &start)?, None),
        };
        let mut program = Program::new(
            self.model,
            &self.cost,
            &self.path,
            layout,
            &self.effort,
            (self.has_running, self.has_terminal),
            patterns,
            x_bounds,
            g_bounds,
            start,
        );
        program.time_weight = self.time_weight;
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
        let exact = hessian.is_some();
        let nlp = Nlp { program, hessian };
        let clock = std::time::Instant::now();
        let result = ripopt::solve(&nlp, &options);
        let seconds = clock.elapsed().as_secs_f64();
        let error = nlp.take_error();
        let Nlp { program, hessian } = nlp;
        let violation = program.violation(&result.x);
        let outside = program.outside_pattern();
        let (nodes, scheme) = (program.layout.nodes, program.layout.scheme);
        let layout = program.layout;
        *self.structures.borrow_mut() = Some(Structures {
            nodes,
            scheme,
            patterns: (program.jac_pattern, program.conf_pattern),
            plan: hessian,
        });
        let solved = matches!(
            result.status,
            ripopt::SolveStatus::Optimal | ripopt::SolveStatus::Acceptable
        );
        if outside > 0.0 {
            return Err(Error::NotSolved {
                status: format!(
                    "the model's Jacobian has an entry of {outside:e} outside the structure \
                     found at the probes"
                ),
                iterations: result.iterations,
                objective: result.objective,
                violation,
                model: None,
            });
        }
        if !solved {
            return Err(Error::NotSolved {
                status: format!("{:?}", result.status),
                iterations: result.iterations,
                objective: result.objective,
                violation,
                model: error.map(alloc::boxed::Box::new),
            });
        }
        Solution::new::<M>(
            self.model,
            &layout,
            result.x,
            result.objective,
            result.status == ripopt::SolveStatus::Optimal,
            result.iterations,
            violation,
            seconds,
            exact,
        )
    }

    /// Compares the program's exact derivatives with central differences at the initial
    /// guess moved by a fixed pseudo-random step (Ipopt's `derivative_test`): the largest
    /// difference of an entry of the constraints' Jacobian, of the objective's gradient or
    /// (where the solve would have it exactly) of the Lagrangian's Hessian at
    /// pseudo-random multipliers, relative to `1 +` the entry's size. About `1e-6` or less when the model, the cost and
    /// the path constraints are differentiable there; a diagnostic, never used by
    /// [`Problem::solve`].
    ///
    /// ```
    /// use nonholo_runtime::optimal::Problem;
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    /// let osc = ForcedOscillator { m: 1.0, k: 4.0 };
    /// let p = Problem::new(&osc, 5).initial_state(&[0.0, 0.0]).minimize_input_effort(&[1.0]);
    /// assert!(p.derivative_check()? < 1e-6);
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn derivative_check(&self) -> Result<f64, Error> {
        if let Some(e) = &self.mistake {
            return Err(e.clone());
        }
        let layout = self.layout();
        let mut x = self.start(&layout)?;
        let mut probe = Probe::new();
        for v in &mut x {
            *v += 0.1 * probe.next();
        }
        let patterns = self.patterns(&layout, &x)?;
        let program = Program::new(
            self.model,
            &self.cost,
            &self.path,
            layout,
            &self.effort,
            (self.has_running, self.has_terminal),
            patterns,
            self.variable_bounds(&self.layout()),
            self.constraint_bounds(&self.layout()),
            x.clone(),
        );
        let mut program = program;
        program.time_weight = self.time_weight;
        let (n, m) = (program.layout.variables(), program.layout.constraints());
        let (rows, cols) = program.jacobian_structure();
        let mut vals = vec![0.0; rows.len()];
        if !program.jacobian_values(&x, &mut vals) {
            return Err(program.take_error().unwrap_or(Error::NotAvailable {
                what: "the program's Jacobian at the guess",
            }));
        }
        let mut dense = vec![0.0; m * n];
        for ((r, c), v) in rows.iter().zip(&cols).zip(&vals) {
            dense[r * n + c] += v;
        }
        let mut grad = vec![0.0; n];
        program.gradient(&x, &mut grad);
        let (mut gp, mut gm) = (vec![0.0; m], vec![0.0; m]);
        let mut worst: f64 = 0.0;
        for j in 0..n {
            let step = 1e-6 * (1.0 + x[j].abs());
            let keep = x[j];
            x[j] = keep + step;
            let ok_p = program.constraints(&x, &mut gp);
            let fp = program.objective(&x);
            x[j] = keep - step;
            let ok_m = program.constraints(&x, &mut gm);
            let fm = program.objective(&x);
            x[j] = keep;
            if !(ok_p && ok_m) {
                return Err(program.take_error().unwrap_or(Error::NotAvailable {
                    what: "the program's constraints near the guess",
                }));
            }
            for i in 0..m {
                let fd = (gp[i] - gm[i]) / (2.0 * step);
                let exact = dense[i * n + j];
                worst = worst.max((fd - exact).abs() / (1.0 + exact.abs()));
            }
            let fd = (fp - fm) / (2.0 * step);
            worst = worst.max((fd - grad[j]).abs() / (1.0 + grad[j].abs()));
        }
        // the Hessian of the Lagrangian (exact where the solve would have it) against
        // central differences of its gradient, at pseudo-random multipliers
        let hessian = match self.hessian {
            Hessian::LimitedMemory => None,
            Hessian::Auto | Hessian::Exact => HessianPlan::probe(&program, &x),
        };
        if let Some(plan) = hessian {
            let lambda: Vec<f64> = (0..m).map(|_| probe.next()).collect();
            let sigma = 0.7;
            let (hr, hc) = plan.structure(&program.layout);
            let mut hv = vec![0.0; hr.len()];
            if !plan.values(&program, &x, sigma, &lambda, &mut hv) {
                return Err(plan.take_error().unwrap_or(Error::NotAvailable {
                    what: "the program's Hessian at the guess",
                }));
            }
            let mut h = vec![0.0; n * n];
            for ((r, c), v) in hr.iter().zip(&hc).zip(&hv) {
                h[r * n + c] += v;
                if r != c {
                    h[c * n + r] += v;
                }
            }
            let mut lagrangian_gradient = |x: &[f64], out: &mut [f64]| -> bool {
                program.gradient(x, out);
                for o in out.iter_mut() {
                    *o *= sigma;
                }
                if !program.jacobian_values(x, &mut vals) {
                    return false;
                }
                for ((r, c), v) in rows.iter().zip(&cols).zip(&vals) {
                    out[*c] += lambda[*r] * v;
                }
                true
            };
            let (mut lp, mut lm) = (vec![0.0; n], vec![0.0; n]);
            for j in 0..n {
                let step = 1e-6 * (1.0 + x[j].abs());
                let keep = x[j];
                x[j] = keep + step;
                let ok_p = lagrangian_gradient(&x, &mut lp);
                x[j] = keep - step;
                let ok_m = lagrangian_gradient(&x, &mut lm);
                x[j] = keep;
                if !(ok_p && ok_m) {
                    return Err(program.take_error().unwrap_or(Error::NotAvailable {
                        what: "the program's Jacobian near the guess",
                    }));
                }
                for i in 0..n {
                    let fd = (lp[i] - lm[i]) / (2.0 * step);
                    let exact = h[i * n + j];
                    worst = worst.max((fd - exact).abs() / (1.0 + exact.abs()));
                }
            }
        }
        Ok(worst)
    }

    /// Builds the program and evaluates everything the solver asks for (objective,
    /// gradient, constraints, Jacobian, Hessian) `times` times at points that move: what
    /// a test counts allocations of (the evaluations' share is the difference between two
    /// counts). Not part of the API.
    #[doc(hidden)]
    pub fn __evaluate(&self, times: usize) -> Result<f64, Error> {
        use ripopt::NlpProblem;
        if let Some(e) = &self.mistake {
            return Err(e.clone());
        }
        let layout = self.layout();
        let mut x = self.start(&layout)?;
        let patterns = self.patterns(&layout, &x)?;
        let mut program = Program::new(
            self.model,
            &self.cost,
            &self.path,
            layout,
            &self.effort,
            (self.has_running, self.has_terminal),
            patterns,
            self.variable_bounds(&self.layout()),
            self.constraint_bounds(&self.layout()),
            x.clone(),
        );
        program.time_weight = self.time_weight;
        let hessian = HessianPlan::probe(&program, &program.start);
        let nlp = Nlp { program, hessian };
        let (n, m) = (nlp.num_variables(), nlp.num_constraints());
        let (jr, _) = nlp.jacobian_structure();
        let (hr, _) = nlp.hessian_structure();
        let (mut grad, mut g, mut jac, mut hess) = (
            vec![0.0; n],
            vec![0.0; m],
            vec![0.0; jr.len()],
            vec![0.0; hr.len()],
        );
        let lambda = vec![0.5; m];
        let mut total = 0.0;
        for i in 0..times {
            x[i % n] += 1e-3;
            let mut f = 0.0;
            let ok = nlp.objective(&x, true, &mut f)
                & nlp.gradient(&x, false, &mut grad)
                & nlp.constraints(&x, false, &mut g)
                & nlp.jacobian_values(&x, false, &mut jac)
                & (nlp.hessian.is_none() || nlp.hessian_values(&x, false, 1.0, &lambda, &mut hess));
            if !ok {
                return Err(nlp.take_error().unwrap_or(Error::NotAvailable {
                    what: "an evaluation of the program",
                }));
            }
            total += f + g[0] + jac[0] + hess.first().copied().unwrap_or(0.0);
        }
        Ok(total)
    }

    fn layout(&self) -> Layout {
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
            integrated: (0..M::DIM)
                .filter(|&i| {
                    i >= M::NQ || !M::CONFIGURATION_COORDINATES.contains(&M::COORDINATES[i])
                })
                .collect(),
            conf_block: self.conf_blocks(),
        }
    }

    /// Which points have configuration constraint rows: every point, but the first
    /// (last) node when the initial (final) conditions fix every coordinate, where the
    /// rows would be constants (`check_conditions` checks them instead).
    fn conf_blocks(&self) -> Vec<Option<usize>> {
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

    /// Starts the problem at `(t, state)` with the guess `guess` (model predictive
    /// control's step).
    pub(crate) fn restart(
        &mut self,
        t: f64,
        state: &[f64],
        guess: Option<&Trajectory>,
    ) -> Result<(), Error> {
        if state.len() != M::DIM {
            return Err(Error::Dimension {
                what: "state",
                expected: M::DIM,
                found: state.len(),
            });
        }
        self.t0 = t;
        for (i, v) in self.initial.iter_mut().zip(state) {
            *i = Some(*v);
        }
        if let Some(g) = guess {
            self.guess = Some(g.clone());
        }
        Ok(())
    }

    /// The scheme.
    pub(crate) fn scheme_in_use(&self) -> Scheme {
        self.scheme
    }

    /// The inputs' bounds.
    pub(crate) fn input_limits(&self) -> &[(f64, f64)] {
        &self.input_bounds
    }

    /// Conditions within the bounds, and a configuration the conditions fix whole on the
    /// configuration constraints.
    fn check_conditions(&self) -> Result<(), Error> {
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

    /// The initial point of the solver: the guess at every point.
    fn start(&self, l: &Layout) -> Result<Vec<f64>, Error> {
        let (dim, nz) = (l.dim, l.nz());
        let mut x = vec![0.0; l.points() * nz];
        let mut state = vec![0.0; dim];
        for p in 0..l.points() {
            let t = l.time(p, l.duration);
            let s = l.tau(p);
            let z = &mut x[p * nz..(p + 1) * nz];
            match &self.guess {
                Some(tr) => {
                    let (Some(&a), Some((b, _))) = (tr.times().first(), tr.last()) else {
                        return Err(Error::InvalidOptions(
                            "the guessed trajectory is empty".into(),
                        ));
                    };
                    tr.at_into(t.clamp(a, b), &mut state)?;
                    z[..dim].copy_from_slice(&state);
                    if let Some(i) = tr.times().iter().position(|&ti| ti >= t)
                        && let Some(u) = tr.input(i)
                        && u.len() == l.nu
                    {
                        z[dim..].copy_from_slice(u);
                    }
                }
                None => {
                    for (zi, (initial, terminal)) in
                        z.iter_mut().zip(self.initial.iter().zip(&self.terminal))
                    {
                        let a = initial.or(*terminal).unwrap_or(0.0);
                        let b = terminal.unwrap_or(a);
                        *zi = a + s * (b - a);
                    }
                }
            }
            if let Some(u) = &self.guess_inputs {
                z[dim..].copy_from_slice(u);
            }
            // inside the bounds
            for (v, (lo, hi)) in z
                .iter_mut()
                .zip(self.state_bounds.iter().chain(&self.input_bounds))
            {
                *v = v.clamp(*lo, *hi);
            }
        }
        if l.free {
            x.push(l.duration);
        }
        Ok(x)
    }

    /// The structural patterns of the model's Jacobian `[df/dx df/du]` and of its
    /// configuration constraints' Jacobian: the entries nonzero at any of a few
    /// pseudo-random points about the guess (an entry of an analytic function that is
    /// zero at random points is zero everywhere; the solve checks every Jacobian it is
    /// given against the pattern and fails if one has an entry outside it).
    fn patterns(&self, l: &Layout, start: &[f64]) -> Result<(Pattern, Pattern), Error> {
        let (dim, nu, nz, nq, ncc) = (l.dim, l.nu, l.nz(), l.nq, l.ncc);
        let mut jac = Pattern::empty(dim, nz);
        let mut conf = Pattern::empty(ncc, nq);
        let (mut a, mut b) = (vec![0.0; dim * dim], vec![0.0; dim * nu]);
        let mut j = vec![0.0; dim * nz];
        let mut cj = vec![0.0; ncc * nq];
        let mut probe = Probe::new();
        let mut z = vec![0.0; nz];
        let mut good = 0;
        let mut last_error = None;
        for n in 0..12 {
            if good >= 4 {
                break;
            }
            let p = (n * 7) % l.points();
            let t = l.time(p, l.duration);
            for (zi, &s) in z.iter_mut().zip(&start[p * nz..(p + 1) * nz]) {
                *zi = s + 0.5 * (1.0 + s.abs()) * probe.next();
            }
            let (xs, us) = z.split_at(dim);
            match self.model.jacobians(t, xs, us, &mut a, &mut b) {
                Ok(()) => {
                    for i in 0..dim {
                        j[i * nz..i * nz + dim].copy_from_slice(&a[i * dim..(i + 1) * dim]);
                        j[i * nz + dim..(i + 1) * nz].copy_from_slice(&b[i * nu..(i + 1) * nu]);
                    }
                    jac.add_nonzeros(&j);
                    if ncc > 0 {
                        self.model.configuration_jacobian(t, &xs[..nq], &mut cj)?;
                        conf.add_nonzeros(&cj);
                    }
                    good += 1;
                }
                Err(e) => last_error = Some(e),
            }
        }
        if good == 0 {
            return Err(last_error.unwrap_or(Error::NotAvailable {
                what: "the model's Jacobians about the initial guess",
            }));
        }
        Ok((jac, conf))
    }

    /// Every variable's bounds: the states' and inputs' bounds, the initial conditions
    /// at node 0 and the final ones at the last node as fixed values.
    fn variable_bounds(&self, l: &Layout) -> (Vec<f64>, Vec<f64>) {
        let nz = l.nz();
        let mut lo = Vec::with_capacity(l.variables());
        let mut hi = Vec::with_capacity(l.variables());
        for _ in 0..l.points() {
            for &(a, b) in self.state_bounds.iter().chain(&self.input_bounds) {
                lo.push(a);
                hi.push(b);
            }
        }
        let last = l.nodes - 1;
        for (node, cond) in [(0, &self.initial), (last, &self.terminal)] {
            for (i, c) in cond.iter().enumerate() {
                if let Some(v) = c {
                    lo[node * nz + i] = *v;
                    hi[node * nz + i] = *v;
                }
            }
        }
        if let Some((a, b)) = self.free {
            lo.push(a);
            hi.push(b);
        }
        (lo, hi)
    }

    /// Defects and configuration constraints are equalities; path constraints take their
    /// bounds.
    fn constraint_bounds(&self, l: &Layout) -> (Vec<f64>, Vec<f64>) {
        let equalities = l.defect_rows() + l.conf_points() * l.ncc;
        let mut lo = vec![0.0; equalities];
        let mut hi = vec![0.0; equalities];
        for _ in 0..l.nodes {
            lo.extend(&self.path_bounds.0);
            hi.extend(&self.path_bounds.1);
        }
        (lo, hi)
    }
}

/// How the solver has the Hessian of the Lagrangian.
///
/// ```
/// use nonholo_runtime::optimal::Hessian;
/// assert_eq!(Hessian::default(), Hessian::Auto);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Hessian {
    /// Exact where the model allows it (its equations and configuration constraints in
    /// any scalar: every generated model), L-BFGS otherwise.
    #[default]
    Auto,
    /// Exact, or [`Error::NotAvailable`] from [`Problem::solve`].
    Exact,
    /// L-BFGS (Ipopt's `limited-memory`): no second derivatives; more iterations, each
    /// cheaper.
    LimitedMemory,
}

/// What the probes found: the Jacobians' structures and the Hessian's plan, for a layout.
pub(crate) struct Structures {
    nodes: usize,
    scheme: Scheme,
    patterns: (Pattern, Pattern),
    /// `None`: L-BFGS.
    plan: Option<HessianPlan>,
}
