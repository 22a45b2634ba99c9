//! Which derivation produced a model's equations ([`Formulation`]).

/// Which derivation produced a model's equations.
///
/// All four give the same motion; they differ in the state (what the speeds are) and so in
/// what an integrator has to watch: with speeds (`GibbsAppell`, `BoltzmannHamel`,
/// `Voronec`) the velocities `psi(q, z, t)` satisfy the constraints for every `z`, while the
/// state `[q, dot(q)]` of `Multipliers` can drift off them (see `Options::check_constraints`).
///
/// ```
/// use nonholo_runtime::{Formulation, Model};
/// # use nonholo_runtime::__private::doc_models::{Skate, SkateLagrange};
///
/// fn constraints_by_construction<M: Model>() -> bool {
///     M::FORMULATION != Formulation::Multipliers
/// }
/// // A skate in speeds [v, omega]: dot(q) = [v cos(theta), v sin(theta), omega] never
/// // slips sideways.
/// assert_eq!(Skate::FORMULATION, Formulation::GibbsAppell);
/// assert!(constraints_by_construction::<Skate>());
/// // The same skate by Lagrange multipliers, state [x, y, theta, dot(x), dot(y), dot(theta)].
/// assert!(!constraints_by_construction::<SkateLagrange>());
/// assert_eq!((Skate::NZ, SkateLagrange::NZ), (2, 3));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Formulation {
    /// Benenti's first method (Gibbs–Appell in explicit form, eqs. 6.3/7.1), state `[q, z]`.
    GibbsAppell,
    /// Boltzmann–Hamel with quasi-velocities (Talamucci 2015, eq. 20), state `[q, eta]`.
    BoltzmannHamel,
    /// Voronec equations (Talamucci), state `[q, independent dot(q)]`.
    Voronec,
    /// Benenti's second method (Lagrange multipliers, eqs. 8.5–8.14), state `[q, dot(q)]`.
    Multipliers,
}
