//! How a [`Problem`] is solved: the checks of its conditions, the program's layout, guess,
//! bounds and structures (found by probing the model, kept for the next solve), the NLP
//! solver's run and the [`Solution`].

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use super::choices::{Hessian, Solver};
use super::cost::{Cost, PathConstraint};
use super::hessian::HessianPlan;
use super::layout::Layout;
use super::nlp::{Nlp, Outcome};
use super::pattern::{Pattern, Probe};
use super::problem::{Problem, Structures};
use super::scheme::Scheme;
use super::solution::{Duals, Solution};
use super::transcription::Program;

use crate::{Error, Model};

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

    /// Starts the problem at `(t, state)` with the guess `guess` (model predictive
    /// control's step).
    pub(crate) fn restart(
        &mut self,
        t: f64,
        state: &[f64],
        guess: Option<&Solution>,
    ) -> Result<(), Error> {
        if state.len() != M::DIM {
            return Err(Error::Dimension {
                what: "state",
                expected: M::DIM,
                found: state.len(),
            });
        }
        // how far the horizon moved, in intervals: the last plan's multipliers are read
        // that much later along the grid, like its trajectory
        let moved = (t - self.t0) / self.duration * (self.nodes - 1) as f64;
        self.t0 = t;
        for (i, v) in self.initial.iter_mut().zip(state) {
            *i = Some(*v);
        }
        if let Some(g) = guess {
            self.guess = Some(g.trajectory().clone());
            let l = self.layout();
            self.warm = g
                .duals()
                .filter(|d| d.z_l.len() == l.variables() && d.y.len() == l.constraints())
                .map(|d| shifted(d, &l, moved));
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

    /// The initial point of the solver: the guess at every point.
    pub(super) fn start(&self, l: &Layout) -> Result<Vec<f64>, Error> {
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
                    // the next sample's inputs; for the last plan read at a receding
                    // horizon's shifted nodes (`restart`), linear in time between its
                    // nodes, as the trapezoidal scheme's dynamics have them: the next
                    // node's input would leave an error of the input's jump times its
                    // gain (0.5 rad/s in the robot's wheel rates after a torque switch)
                    // in the defects, for the solver to remove
                    let times = tr.times();
                    if let Some(i) = times.iter().position(|&ti| ti >= t)
                        && let Some(u) = tr.input(i)
                        && u.len() == l.nu
                    {
                        z[dim..].copy_from_slice(u);
                        if self.warm.is_some()
                            && let Some(before) = i.checked_sub(1).and_then(|j| tr.input(j))
                            && times[i] > times[i - 1]
                        {
                            let w = (t - times[i - 1]) / (times[i] - times[i - 1]);
                            for (zi, (a, b)) in z[dim..].iter_mut().zip(before.iter().zip(u)) {
                                *zi = a + w * (b - a);
                            }
                        }
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
    /// given against the pattern and fails if one has an entry outside it). The model's
    /// own [`Model::JACOBIAN_PATTERN`], emitted by the macro, replaces the first where it
    /// holds the probes' entries.
    pub(super) fn patterns(&self, l: &Layout, start: &[f64]) -> Result<(Pattern, Pattern), Error> {
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
        // the macro's structural pattern where the model has one: no entry of it is left
        // out because it vanished at the probes (the probes' entries lie in it; every
        // Jacobian the solve is given is checked against it)
        if let Some(pairs) = M::JACOBIAN_PATTERN {
            let mut structural = Pattern::empty(dim, nz);
            for &(i, c) in pairs {
                structural.set(usize::from(i), usize::from(c));
            }
            if structural.contains(&jac) {
                jac = structural;
            }
        }
        Ok((jac, conf))
    }

    /// Every variable's bounds: the states' and inputs' bounds, the initial conditions
    /// at node 0 and the final ones at the last node as fixed values.
    pub(super) fn variable_bounds(&self, l: &Layout) -> (Vec<f64>, Vec<f64>) {
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
    pub(super) fn constraint_bounds(&self, l: &Layout) -> (Vec<f64>, Vec<f64>) {
        let equalities = l.defect_rows() + l.conf_points() * l.ncc;
        let mut lo = vec![0.0; equalities];
        let mut hi = vec![0.0; equalities];
        for _ in 0..l.path_points() {
            lo.extend(&self.path_bounds.0);
            hi.extend(&self.path_bounds.1);
        }
        (lo, hi)
    }
}

/// The multipliers of the last solve moved `by` intervals along the grid (a receding
/// horizon's next solve starts that much later): each kind of block (the nodes' and the
/// midpoints' variables and path rows, the intervals' defect rows) read by linear
/// interpolation between its neighbours, the last held past the end. The configuration
/// constraints' rows and the duration's bounds stay as they were.
fn shifted(d: &Duals, l: &Layout, by: f64) -> Duals {
    let (nz, mids) = (l.nz(), l.points() - l.nodes);
    let mut out = d.clone();
    let shift = |v: &[f64], out: &mut [f64], (start, count, size): (usize, usize, usize)| {
        if count == 0 || size == 0 {
            return;
        }
        let block = |k: usize| &v[start + k.min(count - 1) * size..][..size];
        for k in 0..count {
            let at = (k as f64 + by).max(0.0);
            let (i, a) = (at.floor() as usize, at.fract());
            let (lo, hi) = (block(i), block(i + 1));
            for (j, o) in out[start + k * size..][..size].iter_mut().enumerate() {
                *o = (1.0 - a) * lo[j] + a * hi[j];
            }
        }
    };
    for (z, o) in [(&d.z_l, &mut out.z_l), (&d.z_u, &mut out.z_u)] {
        shift(z, o, (0, l.nodes, nz));
        shift(z, o, (l.nodes * nz, mids, nz));
    }
    let defects = l.defect_rows();
    shift(
        &d.y,
        &mut out.y,
        (0, l.intervals(), defects / l.intervals()),
    );
    let path = l.path_row(0);
    let path_mids = l.path_points() - l.nodes.min(l.path_points());
    shift(&d.y, &mut out.y, (path, l.nodes.min(l.path_points()), l.np));
    shift(&d.y, &mut out.y, (path + l.nodes * l.np, path_mids, l.np));
    out
}
