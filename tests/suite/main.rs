//! The integration tests, one binary with a module per topic (one link of the library and
//! its models instead of one per file). `common/` is the shared support: an independent
//! physics oracle (no macro), the papers' worked examples written by hand, the RNG.
//! The models are in `tests/models` (crate `nonholo-test-models`, a module per topic):
//! editing a test does not derive them again.
//!
//! `cargo test --test suite MODULE::` runs one topic, e.g. `cargo test --test suite whipple::`.

mod common;

mod benenti;
mod boltzmann_hamel;
mod contact_derivatives;
mod contact_forces;
mod contact_moments;
mod contact_series;
mod cyclic;
mod energy_balance;
mod ensemble;
mod events;
mod formulation_matrix;
mod geometry;
mod hybrid_events;
mod inputs;
mod jacobian;
mod kinematics;
mod linearize;
mod methods;
mod multipliers;
mod no_alloc;
mod no_std_ride;
mod optimal;
mod oracle_selfcheck;
mod papers;
mod parameters;
mod python_reference;
mod rhs_errors;
mod robot;
mod scalars;
mod sliding;
mod spatial;
mod speed_choices;
mod stiff;
mod surfaces;
mod sympy_reference;
mod urdf;
mod viz_browser;
mod voronec;
mod whipple;
