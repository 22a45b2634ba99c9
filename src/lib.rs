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
//!
//! The [`guide`] explains every feature with examples; the [`models`] are ready-made
//! systems.
//!
//! # Where each part lives
//!
//! | folder | what is there |
//! | --- | --- |
//! | `nonholo-macros/src/` | the macro, one folder per stage: `dsl` (parse), `check` (every mistake, spanned), `lower` and `kinematics` (frames, bodies, contacts to T, V, forces, constraints), `mechanics` (one module per formulation), `emit` (straight-line Rust), all on the symbolic engine `sym` |
//! | `nonholo-runtime/src/` | what the emitted code implements and runs on: `model` (the [`Model`] trait), `contacts` ([`Contacts`]), `simulate` (diffsol and DOP853 runs, events), `trajectory`, `linearize`, `control`, `geometry`, `viz` and `plot` |
//! | `src/` | this facade, the ready-made [`models`] and the [`guide`] |
//! | `tests/suite/` | the integration tests, one binary, a module per topic; `common/` holds the independent oracle and the papers' systems written by hand |
//! | `tests/models/` | the models those tests use, a crate of their own so that editing a test does not expand them again |
//! | `nonholo-macros/tests/ui/` | one file per compile-time diagnostic with its expected `.stderr` |
//! | `nonholo-runtime/tests/runtime/` | the runtime's tests on hand-written models (no macro) |
//! | `benches/`, `bench/` | criterion benches; scripts that time builds and the comparisons with SymPy (see `BENCHMARKS.md`) |
//! | `examples/` | runnable examples, the bicycle first |
//!
//! # Control, geometry, animation
//!
//! `inputs { .. }` declares runtime inputs (torques, forces) used in `forces` and the
//! potential: `rhs_u`, the exact Jacobians `jacobians` (df/dx, df/du), controllers in the
//! simulation loop ([`simulate_controlled`], continuous or sampled at
//! `Options::control_period`), and gains from [`control`] (`lqr`, `discretize`, `dlqr`).
//! Models written with frames implement [`Geometry`] (where every point is, how every
//! frame is turned, the default scene); with the feature `viz`,
//! `Trajectory::animate_html` writes a self-contained 3D animation and `animate_gif` a GIF.
//!
//! # Other scalars, `no_std`
//!
//! The macro emits `SkateOf<S>` with `type Skate = SkateOf<f64>`; `rhs_generic`,
//! `qdot_generic` and `energy_generic` run in any [`Scalar`]: `f32` for single-precision
//! hardware, num-dual's dual numbers (feature `dual`) for exact derivatives with respect to
//! parameters, through whole trajectories with [`rk4_step_generic`]. Without default
//! features the crate is `#![no_std]` + `alloc` (the emitted code calls libm through
//! [`Scalar`]).
//!
//! ```
//! # use nonholo::prelude::*;
//! # nonholonomic! {
//! #     pub struct Skate;
//! #     parameters { m = 1.0, inertia = 0.1 }
//! #     coordinates { x, y, theta }
//! #     kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2))
//! #                    + 0.5 * inertia * dot(theta).powi(2);
//! #     constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
//! #     speeds { v = cos(theta) * dot(x) + sin(theta) * dot(y); w = dot(theta); }
//! # }
//! // The same skate in single precision, stepped by RK4.
//! let skate = Skate::default().cast::<f32>();
//! let mut state = [0.0f32, 0.0, 0.0, 1.0, 1.0];
//! for i in 0..100 {
//!     let t = i as f32 * 0.01;
//!     nonholo::rk4_step_generic(|t, s, d| skate.rhs_generic(t, s, d), t, &mut state, 0.01)?;
//! }
//! // Along the unit circle: one radian after 1 s.
//! assert!((state[0] - 1.0f32.sin()).abs() < 1e-5);
//! assert!((state[1] - (1.0 - 1.0f32.cos())).abs() < 1e-5);
//! # Ok::<(), nonholo::Error>(())
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]

// Lets the macro's absolute paths (`::nonholo::...`) resolve inside this crate too.
extern crate self as nonholo;

pub mod guide;
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
    pub use nonholo_runtime::{
        simulate, simulate_controlled, simulate_hybrid, simulate_hybrid_controlled, Method, Options,
    };
    pub use nonholo_runtime::{
        Contacts, Controller, Error, Formulation, Geometry, Model, Scalar, Trajectory,
    };
}

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
