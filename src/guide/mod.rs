//! # The nonholo guide
//!
//! One chapter per task, each example a doctest that `cargo test` compiles and runs. Read
//! [writing a model](writing_a_model) first; the rest in any order.
//!
//! | chapter | what it covers |
//! | --- | --- |
//! | [`writing_a_model`] | the DSL section by section, the skate, what the macro emits |
//! | [`formulations`] | Gibbs–Appell, Boltzmann–Hamel, Voronec, multipliers: the same motion, and when each serves |
//! | [`frames_and_bodies`] | frames, points, bodies, loads, rolling contacts; the body-wise derivation |
//! | [`configuration_constraints`] | `holonomic(..)`, solving for a configuration, drift along a run |
//! | [`robots_from_urdf`] | `urdf "file" { .. }`: a robot's URDF as frames, bodies, coordinates and inputs; wheels that roll from one line |
//! | [`contact_forces`] | reactions in every formulation, the force at each rolling contact, friction, runs that stop where a wheel would slip or lift |
//! | [`simulation`] | `simulate`, the methods, sampling, events, trajectories and their output |
//! | [`hybrid_motion`] | events that continue a run: impacts with reset maps, the rimless wheel, Zeno piles |
//! | [`linearization`] | exact linearization, eliminated coordinates, eigenvalues, the bicycle's M, C1, K0, K2 |
//! | [`control`] | runtime inputs, exact Jacobians, controllers in the loop, LQR |
//! | [`optimal_control`] | optimal motions by direct collocation: problems, schemes, exact sparse derivatives, replaying a plan |
//! | [`geometry_and_animation`] | where every point is, the scene, `draw { .. }`, HTML and GIF animations |
//! | [`scalars_and_embedded`] | `f32`, dual numbers, `no_std` |
//! | [`large_models`] | how the engine keeps structure, build times, compiling the macro optimized |
//! | [`diagnostics`] | the compile errors, with the fix for each |
//! | [`from_sympy`] | a `KanesMethod` model and its nonholo version side by side |
//! | [`from_python`] | the Python package: models on NumPy arrays, `nonholo.build`, batches, Dask sweeps, PyDy's names |
//! | [`papers`] | how the code is checked, design choices, the papers' misprints, bibliography |

#[doc = include_str!("writing_a_model.md")]
pub mod writing_a_model {}

#[doc = include_str!("formulations.md")]
pub mod formulations {}

#[doc = include_str!("frames_and_bodies.md")]
pub mod frames_and_bodies {}

#[doc = include_str!("configuration_constraints.md")]
pub mod configuration_constraints {}

#[doc = include_str!("robots_from_urdf.md")]
pub mod robots_from_urdf {}

#[doc = include_str!("contact_forces.md")]
pub mod contact_forces {}

#[doc = include_str!("simulation.md")]
pub mod simulation {}

#[doc = include_str!("hybrid_motion.md")]
pub mod hybrid_motion {}

#[doc = include_str!("linearization.md")]
pub mod linearization {}

#[doc = include_str!("control.md")]
pub mod control {}

#[doc = include_str!("optimal_control.md")]
pub mod optimal_control {}

#[doc = include_str!("geometry_and_animation.md")]
pub mod geometry_and_animation {}

#[doc = include_str!("scalars_and_embedded.md")]
pub mod scalars_and_embedded {}

#[doc = include_str!("large_models.md")]
pub mod large_models {}

#[doc = include_str!("diagnostics.md")]
pub mod diagnostics {}

#[doc = include_str!("from_sympy.md")]
pub mod from_sympy {}

#[doc = include_str!("from_python.md")]
pub mod from_python {}

#[doc = include_str!("papers.md")]
pub mod papers {}
