//! # nonholo
//!
//! Equations of motion of nonholonomic mechanical systems — skates, rolling disks,
//! sleighs, bicycles, wheeled robots — derived symbolically at compile time by the
//! [`nonholonomic!`] macro and integrated by the runtime (diffsol).
//!
//! ```
//! use nonholo::prelude::*;
//!
//! nonholonomic! {
//!     /// Skate: a rod sliding on a plane, its velocity along the rod (Benenti 2007, 9.1).
//!     pub struct Skate;
//!     parameters { m = 1.0, inertia = 0.1 }
//!     coordinates { x, y, theta }
//!     kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2))
//!                    + 0.5 * inertia * dot(theta).powi(2);
//!     constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
//!     speeds { v = cos(theta) * dot(x) + sin(theta) * dot(y); w = dot(theta); }
//! }
//!
//! let skate = Skate::default();
//! // Moving along the blade at 1 m/s while turning at 1 rad/s: a circle of radius 1.
//! let state = [0.0, 0.0, 0.0, 1.0, 1.0];
//! let mut d = [0.0; 5];
//! skate.rhs(0.0, &state, &mut d).unwrap();
//! assert_eq!(&d[..3], &[1.0, 0.0, 1.0]);
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]

// Lets the macro's absolute paths (`::nonholo::...`) resolve inside this crate too.
extern crate self as nonholo;

pub mod models;

pub use nonholo_macros::nonholonomic;
pub use nonholo_runtime::*;

/// Everything a model file needs: `use nonholo::prelude::*;`.
pub mod prelude {
    pub use crate::nonholonomic;
    #[cfg(feature = "parallel")]
    pub use nonholo_runtime::simulate_ensemble;
    pub use nonholo_runtime::{linearize, Linearize};
    #[cfg(feature = "diffsol")]
    pub use nonholo_runtime::{simulate, Method, Options};
    pub use nonholo_runtime::{Error, Formulation, Model, Scalar, Trajectory};
}

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
