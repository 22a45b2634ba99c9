//! Stage 4: derivations of the equations of motion, pure functions over symbolic
//! matrices. `velocities` turns the user's parametrization into `dot(q) = psi(q, z, t)`;
//! `lagrangian` extracts A, the momenta and the free Lagrange terms h; each formulation
//! module assembles its equations from them.

pub mod boltzmann_hamel;
pub mod gibbs_appell;
pub mod jacobian;
pub mod lagrangian;
pub mod multipliers;
pub mod velocities;
pub mod voronec;

use crate::sym::Id;

/// How `state_from_qdot` recovers the speeds from velocities.
pub enum SpeedsFromQdot {
    /// `z = S(q, dot(q), t)` in closed form.
    Explicit(Vec<Id>),
    /// Benenti's parametric form: solve `psi(q, z, t) = dot(q)` for z by Gauss–Newton
    /// in the kinetic-energy metric (one step when psi is linear in z).
    Parametric { linear: bool },
}

/// Everything code generation needs, for any formulation whose state is `[q, z]`
/// with `dq/dt = psi(q, z, t)` and `G dz/dt = forcing`.
pub struct Derived {
    /// Which derivation produced `mass_matrix_g` and `forcing`.
    pub formulation: crate::check::Formulation,
    /// `dot(q) = psi(q, z, t)`.
    pub qdot: Vec<Id>,
    /// `d psi / d z` (n x m), for the parametric inverse.
    pub psi_z: Vec<Vec<Id>>,
    /// Kinetic-energy matrix A(q, t) (n x n).
    pub mass_matrix_a: Vec<Vec<Id>>,
    /// `G = psi_z^T A psi_z` (m x m), in q, z, t.
    pub mass_matrix_g: Vec<Vec<Id>>,
    /// Right-hand side of `G dz/dt = forcing`.
    pub forcing: Vec<Id>,
    /// Legendre transform of L at `dot(q) = psi`.
    pub energy: Id,
    /// Constraint residuals in q, dot(q), t.
    pub constraints: Vec<Id>,
    pub speeds_from_qdot: SpeedsFromQdot,
    /// Names of the speeds (user names, or `dot(q)` for independent velocities).
    pub speed_names: Vec<String>,
    /// Readable derived equations.
    pub equations: String,
    /// Named contributions whose sum is `-forcing` (Boltzmann–Hamel's Q, Lambda, N, ...),
    /// each with one entry per speed; empty when the formulation has no such split.
    pub terms: Vec<(String, Vec<Id>)>,
}
