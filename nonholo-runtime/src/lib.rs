//! Runtime of **nonholo**: the [`Model`] trait that `nonholonomic!` implements, the
//! integrators that run it, and the [`Trajectory`] they produce.
//!
//! # The equations
//!
//! A model has `NQ` generalized coordinates `q` and `NZ` speeds `z` (Benenti's parameters,
//! Talamucci's quasi-velocities `eta`, or the independent velocities of Voronec). Its state
//! is the plain array `[q, z]` of length `DIM = NQ + NZ`, and it evolves by
//!
//! ```text
//! dq/dt = psi(q, z, t)
//! G dz/dt = psi_z^T ( F - h - A (psi_q psi + psi_t) ),     G = psi_z^T A psi_z
//! ```
//!
//! where `T = 1/2 dot(q)^T A dot(q) + b^T dot(q) + c`, `h` collects the velocity-dependent
//! and potential terms of the free Lagrange equations `A ddot(q) + h = F`, and
//! `psi_z = d psi / d z` spans the virtual displacements allowed by the (ideal) constraints.
//! The velocities `dot(q) = psi(q, z, t)` satisfy the constraints `C(q, dot(q), t) = 0` for
//! every `z`, so the motion stays on them by construction. [`Model::rhs`] evaluates the
//! right-hand side with `dz/dt` already solved from `G` (see [`linalg`]).
//!
//! # Integrating
//!
//! - `simulate` (feature `diffsol`, on by default): adaptive integration by diffsol's
//!   Tsit45, BDF and ESDIRK34, or by the runtime's own DOP853 (`Method`), with dense output
//!   at requested times, configured by `Options`.
//! - [`rk4_step`] / [`integrate_rk4`]: classical fixed-step RK4, allocation-free per step,
//!   for embedded control loops.
//!
//! Errors are values ([`Error`], with the time and state), never panics; an integration
//! that fails part-way returns a [`SimulationError`] holding the trajectory so far.
//!
//! # `no_std`
//!
//! Without the `diffsol` feature (and without `std`) the crate is `no_std` + `alloc`: the
//! [`Model`] trait, the state layout, RK4 and [`Trajectory`] (CSV to a `String`; writing
//! files needs `std`).
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]

extern crate alloc;

#[doc(hidden)]
pub mod __private {
    //! Helpers for generated code.
    pub use crate::private::*;
}
pub mod contacts;
pub mod control;
pub mod controller;
// `Contacts` of the doctests' unicycle.
mod doc_contacts;
#[cfg(feature = "parallel")]
pub mod ensemble;
pub mod error;
#[cfg(feature = "std")]
pub mod files;
pub mod geometry;
pub mod linalg;
pub mod linearize;
pub mod model;
#[cfg(feature = "optimal")]
pub mod optimal;
#[cfg(feature = "plot")]
pub mod plot;
mod private;
pub mod rk4;
pub mod scalar;
// Private so that `simulate` names one thing, the function.
#[cfg(feature = "diffsol")]
mod simulate;
pub mod trajectory;
#[cfg(feature = "viz")]
pub mod viz;

pub use contacts::{ContactEvent, ContactLoad, ContactLoadOf, Contacts};
pub use controller::{Controller, InputSeries};
#[cfg(feature = "parallel")]
pub use ensemble::simulate_ensemble;
pub use error::{Error, SimulationError};
pub use geometry::{Geometry, Rgb, Shape};
pub use linearize::{eigenvalues, linearize, Linearization, Linearize};
pub use model::{check_velocities, Formulation, Model};
/// The linear algebra of [`Linearization`] (its matrices are `nalgebra::DMatrix<f64>`).
pub use nalgebra;
/// num-dual, whose dual numbers implement [`Scalar`] (feature `dual`).
#[cfg(feature = "dual")]
pub use num_dual;
pub use rk4::{integrate_rk4, rk4_step, rk4_step_generic};
pub use scalar::Scalar;
#[cfg(feature = "diffsol")]
pub use simulate::{
    simulate, simulate_controlled, simulate_hybrid, simulate_hybrid_controlled, Method, Options,
};
pub use trajectory::{Event, EventKind, Trajectory};
