//! The models the integration tests use, in a crate of their own so that editing a test
//! does not re-expand them: one module per test module of `tests/suite` that defines
//! models, of the same name.

pub mod boltzmann_hamel;
pub mod contact_forces;
pub mod energy_balance;
pub mod formulation_matrix;
pub mod geometry;
pub mod hybrid_events;
pub mod inputs;
pub mod jacobian;
pub mod kinematics;
pub mod linearize;
pub mod multipliers;
pub mod optimal;
pub mod papers;
pub mod scalars;
pub mod spatial;
pub mod speed_choices;
pub mod surfaces;
mod systems;
pub mod urdf;
pub mod voronec;
pub mod whipple;
