//! [`Problem`]: an optimal-control problem on a model, stated by a builder and solved by
//! direct collocation.

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use super::choices::{Hessian, Solver};
use super::cost::{Cost, NoCost, NoPath, PathConstraint};
use super::friction::FrictionMargin;
use super::hessian::HessianPlan;
use super::pattern::Pattern;
use super::scheme::Scheme;
use super::solution::Duals;
use crate::{Contacts, Error, Model, Trajectory};

mod solving;

/// An optimal-control problem on `model`: find inputs `u(t)` and states `x(t)` on
/// `[t0, t0 + T]` that minimize `Phi(x(T)) + integral of L(t, x, u) dt` subject to
/// `dx/dt = f(t, x, u)` (the model's [`Model::rhs_u`]), bounds on states and inputs,
/// initial and final conditions, path constraints (friction limits among them), and the
/// model's configuration constraints, all of them at every point of the grid.
///
/// Direct collocation: the states and inputs at `nodes` equally spaced times are the
/// unknowns of a sparse nonlinear program (see [`Scheme`]), solved by ripopt's
/// interior-point method (Ipopt's algorithm in Rust). The dynamics' derivatives are the
/// model's exact [`Model::jacobians`], assembled into the program's sparse Jacobian
/// whose structure is found once; the cost's and the path constraints' are exact too
/// (dual numbers). The Hessian of the Lagrangian is exact (reverse mode over a tape of
/// the model's equations) where the model gives its equations in any scalar, L-BFGS otherwise or on request
/// ([`Hessian`]).
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
    pub(super) model: &'m M,
    pub(super) nodes: usize,
    pub(super) scheme: Scheme,
    pub(super) t0: f64,
    pub(super) duration: f64,
    pub(super) initial: Vec<Option<f64>>,
    pub(super) terminal: Vec<Option<f64>>,
    pub(super) state_bounds: Vec<(f64, f64)>,
    pub(super) input_bounds: Vec<(f64, f64)>,
    pub(super) effort: Vec<f64>,
    /// Free final time: the duration's bounds.
    pub(super) free: Option<(f64, f64)>,
    /// The weight of the duration in the objective.
    pub(super) time_weight: f64,
    pub(super) cost: C,
    pub(super) has_running: bool,
    pub(super) has_terminal: bool,
    pub(super) path: P,
    pub(super) path_bounds: (Vec<f64>, Vec<f64>),
    pub(super) guess: Option<Trajectory>,
    pub(super) guess_inputs: Option<Vec<f64>>,
    pub(super) options: ripopt::SolverOptions,
    pub(super) solver: Solver,
    /// IPOPT's options by name, set after those translated from `options`.
    #[cfg(feature = "ipopt")]
    pub(super) ipopt_options: Vec<(std::ffi::CString, super::ipopt::IpoptValue)>,
    pub(super) hessian: Hessian,
    pub(super) path_midpoints: bool,
    /// Whether cyclic components are left to quadrature (`cyclic.rs`).
    pub(super) quadrature: bool,
    /// The structures found by the probes, kept for the next solve of the same layout
    /// (model predictive control solves one problem again and again).
    pub(super) structures: core::cell::RefCell<Option<Structures>>,
    /// The last solve's multipliers, where the next solve starts from them (set by
    /// [`Mpc`](super::Mpc)'s restarts).
    pub(super) warm: Option<Duals>,
    /// The first mistake made while stating the problem, reported by `solve`.
    pub(super) mistake: Option<Error>,
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
        // ripopt's guess of which constraints are linear compares the Jacobian at the
        // start and at one shifted point, and drops the Hessians of those that agree. A
        // contact's normal force is quadratic in the yaw rate, whose derivative is zero at
        // both points when the shift moves both wheels alike, so a friction row can be
        // taken as linear and its curvature lost. The Hessian here is exact anyway.
        options.detect_linear_constraints = false;
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
            solver: Solver::Ripopt,
            #[cfg(feature = "ipopt")]
            ipopt_options: Vec::new(),
            hessian: Hessian::Auto,
            path_midpoints: true,
            quadrature: false,
            structures: core::cell::RefCell::new(None),
            warm: None,
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

    /// `lo <= state <= hi` at every point of the grid, for a coordinate or speed by name.
    pub fn state_bounds(mut self, name: &str, lo: f64, hi: f64) -> Self {
        if let Some(i) = self.state_index(name)
            && self.check_bounds(name, lo, hi)
        {
            self.state_bounds[i] = (lo, hi);
        }
        self
    }

    /// `lo <= u <= hi` at every point of the grid, for an input by name.
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

    /// Path constraints `lo <= g(t, x, u) <= hi` at every point of the grid (the nodes and,
    /// for Hermite–Simpson, the midpoints, whose inputs are variables too; `lo`, `hi` of length
    /// `path.len()`; infinite for a one-sided bound), after those stated before (their
    /// rows first).
    pub fn path<P2: PathConstraint>(
        self,
        path: P2,
        lo: &[f64],
        hi: &[f64],
    ) -> Problem<'m, M, C, (P, P2)> {
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
        let mut p = self.retype(|cost, before| (cost, (before, path)));
        p.path_bounds.0.extend_from_slice(lo);
        p.path_bounds.1.extend_from_slice(hi);
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
            solver: self.solver,
            #[cfg(feature = "ipopt")]
            ipopt_options: self.ipopt_options,
            hessian: self.hessian,
            path_midpoints: self.path_midpoints,
            quadrature: self.quadrature,
            structures: core::cell::RefCell::new(None),
            warm: None,
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
}

impl<'m, M: Contacts + Sync, C: Cost, P: PathConstraint> Problem<'m, M, C, P> {
    /// Keeps every contact with `friction: mu` inside its friction cone at every point, with
    /// the leftover capacity at least `margin mu N`:
    /// `(mu N)^2 - |F_t|^2 >= (margin mu N)^2` and `N >= 0` ([`FrictionMargin`], whose rows
    /// follow the path constraints stated before). The loads are the model's own
    /// ([`Contacts::contact_loads_scalar`]), differentiated exactly. `margin` in `[0, 1)`;
    /// a model without such contacts, or whose loads it cannot derive, is
    /// [`Problem::solve`]'s error.
    ///
    /// ```
    /// use nonholo_runtime::optimal::Problem;
    /// # use nonholo_runtime::__private::doc_models::Unicycle;
    /// // the unicycle has no inputs: its motion is its start; a turn at 3 m/s and 3 rad/s
    /// // needs 9 m/s^2 sideways, more than mu g = 7.8
    /// let wheel = Unicycle::default();
    /// let err = Problem::new(&wheel, 5)
    ///     .initial_state(&[0.0, 0.0, 0.0, 0.0, 3.0, 3.0])
    ///     .friction_margin_at_least(0.05)
    ///     .solve()
    ///     .unwrap_err();
    /// assert!(err.to_string().contains("not solved"), "{err}");
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    pub fn friction_margin_at_least(
        self,
        margin: f64,
    ) -> Problem<'m, M, C, (P, FrictionMargin<'m, M>)> {
        let limits = FrictionMargin::new(self.model, margin);
        let (lo, hi) = (limits.lower(), limits.upper());
        self.path(limits, &lo, &hi)
    }
}

/// What the probes found: the Jacobians' structures and the Hessian's plan, for a layout.
pub(crate) struct Structures {
    pub(super) nodes: usize,
    pub(super) scheme: Scheme,
    pub(super) patterns: (Pattern, Pattern),
    /// `None`: L-BFGS.
    pub(super) plan: Option<HessianPlan>,
}
