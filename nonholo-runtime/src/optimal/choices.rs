//! The choices of how a [`Problem`](super::Problem) is solved: the NLP solver and how it
//! has the Hessian of the Lagrangian.

/// How the solver has the Hessian of the Lagrangian.
///
/// ```
/// use nonholo_runtime::optimal::Hessian;
/// assert_eq!(Hessian::default(), Hessian::Auto);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Hessian {
    /// Exact where the model allows it (its equations and configuration constraints in
    /// any scalar: every generated model), L-BFGS otherwise.
    #[default]
    Auto,
    /// Exact, or [`Error::NotAvailable`](crate::Error::NotAvailable) from
    /// [`Problem::solve`](super::Problem::solve).
    Exact,
    /// L-BFGS (Ipopt's `limited-memory`): no second derivatives; more iterations, each
    /// cheaper.
    LimitedMemory,
}

/// The NLP solver a [`Problem`](super::Problem) is solved by. Both run Ipopt's
/// interior-point algorithm on the same program, with the same exact Jacobian and Hessian.
///
/// ```
/// use nonholo_runtime::optimal::Solver;
/// assert_eq!(Solver::default(), Solver::Ripopt);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Solver {
    /// [ripopt](https://crates.io/crates/ripopt): pure Rust, its KKT systems factored by
    /// feral's sparse LDL^T; nothing to install.
    #[default]
    Ripopt,
    /// IPOPT itself, the system library through its C interface (feature `ipopt`; Debian's
    /// `coinor-libipopt-dev`, IPOPT 3.11 with MUMPS, or any IPOPT from 3.9 on, found by the
    /// linker as `-lipopt`). Its MUMPS factors the large KKT systems faster than feral in
    /// the default build: the Whipple bicycle's lane change in 54 ms against 93, the
    /// robot's parking in 1.0 s against 2.3; on the small systems of an MPC step MUMPS's
    /// fixed cost per factorization makes it slower (worst 5.8 ms against 4.0; see
    /// BENCHMARKS.md). One IPOPT run at a time in a process: MUMPS's sequential build
    /// keeps global state, so runs from several threads wait for each other. IPOPT is
    /// under the Eclipse Public License 2.0, as ripopt; MUMPS under CeCILL-C.
    #[cfg(feature = "ipopt")]
    Ipopt,
}
