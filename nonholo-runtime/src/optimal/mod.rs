//! Optimal motions: trajectory optimization by direct collocation on a compiled model
//! (feature `optimal`).
//!
//! A [`Problem`] states what to reach and what to minimize on any model with inputs; its
//! [`Problem::solve`] transcribes the dynamics `dx/dt = f(t, x, u)` on a grid of nodes
//! ([`Scheme`]: backward Euler, trapezoidal, Hermite–Simpson) into a sparse nonlinear
//! program and solves it with [ripopt](https://crates.io/crates/ripopt), a pure-Rust
//! interior-point solver that follows Ipopt's algorithm, or with IPOPT itself where the
//! system has it (feature `ipopt`: [`Solver`]`::Ipopt`). The [`Solution`] gives the
//! states and inputs at the nodes, a [`Trajectory`](crate::Trajectory) and an
//! [`InputSeries`](crate::InputSeries) for `simulate_controlled` to replay on the
//! continuous model. [`Mpc`] re-solves a problem over a receding horizon at every
//! sampling instant: a [`Controller`](crate::Controller) for `simulate_controlled`.
//!
//! # The program
//!
//! With `N` nodes `t_k = t_0 + k h`, `h = T / (N - 1)`, the unknowns are the states and
//! inputs at the nodes (and the interval midpoints for Hermite–Simpson); the constraints
//! are the scheme's defects (see [`Scheme`]) of every state but the coordinates the
//! configuration constraints solve for, the configuration constraints at every point, the
//! path constraints at every point (nodes and midpoints), and the bounds (initial and final conditions are fixed
//! bounds). The objective is the input effort and the [`Cost`]'s
//! running term by the scheme's quadrature, plus its terminal term.
//!
//! # Derivatives
//!
//! Exact and sparse: the dynamics' blocks are the model's own [`Model::jacobians`](crate::Model::jacobians)
//! (closed form in generated models), placed into the program's Jacobian by a structure
//! computed once; the cost's and path constraints' by forward-mode dual numbers. No
//! finite differences. The Hessian of the Lagrangian is exact where the model gives its
//! equations in any scalar ([`Model::rhs_u_scalar`](crate::Model::rhs_u_scalar), every
//! generated model): block diagonal by point, each point's block one recording of its
//! terms on a tape and one forward-over-reverse pair of sweeps, every entry of the block
//! at once ([`Hessian`]). Otherwise, and on request, L-BFGS (Ipopt's
//! `limited-memory` option).
//!
//! # Licence
//!
//! ripopt is under the Eclipse Public License 2.0, a weak (file-level) copyleft: using it
//! as a dependency puts no condition on the rest of a program, but a program distributed
//! with it must offer ripopt's source (unmodified: a link to the crate's) and keep its
//! notices. That is why this module is an opt-in feature.
//!
//! ```
//! use nonholo_runtime::optimal::{Problem, Scheme};
//! # use nonholo_runtime::__private::doc_models::ForcedOscillator;
//! // a unit mass from rest to rest over 1 m in 1 s with the least integral of f^2
//! let particle = ForcedOscillator { m: 1.0, k: 0.0 };
//! let sol = Problem::new(&particle, 21)
//!     .scheme(Scheme::Trapezoidal)
//!     .initial_state(&[0.0, 0.0])
//!     .final_state(&[1.0, 0.0])
//!     .minimize_input_effort(&[1.0])
//!     .solve()?;
//! assert!((sol.objective() - 12.0).abs() < 0.15); // 12 + O(h^2)
//! # Ok::<(), nonholo_runtime::Error>(())
//! ```

mod assemble;
mod choices;
mod colouring;
mod cost;
mod cyclic;
mod diagnostics;
mod friction;
mod hessian;
#[cfg(feature = "ipopt")]
mod ipopt;
mod layout;
mod mpc;
mod nlp;
mod pattern;
mod problem;
mod scheme;
mod solution;
mod tape;
mod transcription;

pub use choices::{Hessian, Solver};
pub use cost::{Cost, NoCost, NoPath, PathConstraint};
pub use friction::{FrictionMargin, MAX_CONTACTS};
#[cfg(feature = "ipopt")]
pub use ipopt::IpoptValue;
pub use mpc::Mpc;
pub use problem::Problem;
pub use scheme::Scheme;
pub use solution::{Solution, Status};

/// The NLP solver, for its options ([`Problem::solver_options`]).
pub use ripopt;
