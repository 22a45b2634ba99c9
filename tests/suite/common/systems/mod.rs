//! The worked examples of Benenti 2007 (§9.1–9.4) and Talamucci 2015 (§3.1–3.4), one file
//! each: a hand-written [`System`] for the oracle with random-but-fixed parameters
//! (`new(rng)`), its kinetic energy derived from the geometry (point positions as functions
//! of q and t, velocities by AD, plus rotational terms), transcriptions of the printed
//! equations (`printed_rhs`: state [q, z] in the paper's own speeds, every misprint corrected
//! and marked `// ERRATA`; `printed_rhs_mode(.., Print::Verbatim)` keeps the print as is),
//! the model it checks (the library's `nonholo::models` type, or the test model where the
//! forces differ), and the paper-specific checks the self-check runs ([`PaperSystem`]).
//!
//! Conventions: Benenti's active forces A_i are our `forces` (V = 0); Talamucci's force
//! function U is V = -U. Talamucci's forces are zero in the paper; we add damping (and a
//! pedalling torque in 3.3) so that the force path is exercised; the printed equations
//! then get the extra term -Gamma^T F.
//!
//! Two findings about the papers' general equations (not misprints of the examples):
//! * Benenti (6.1)–(7.4) drop the term g_ik (d psi^i/d q^j) psi^j psi^k_alpha of the
//!   acceleration energy (a_0 contains d_i r psi^i_j psi^j). It vanishes in 9.1–9.4, so the
//!   examples are right; the DESIGN core equation has it (A psi_q psi). See `ExpLine`.
//! * Talamucci (16)–(17) (hence (20), (26)) drop
//!   Gamma^T (alphadot^T - J_q^T (alpha qd + beta)) Theta^T grad_qd L, because
//!   grad_qd L = Z^T grad_eta Lt + alpha^T Theta^T grad_qd L, not Z^T grad_eta Lt. The term is
//!   nonzero whenever alpha depends on q or t (3.1, 3.3, 3.4; zero in 3.2). See
//!   `oracle::hamel_residual`.

pub mod assigned_front;
pub mod assigned_spin;
pub mod coaxial_disks;
pub mod parallel_points;
pub mod pendulum_skate;
pub mod rolling_disk;
pub mod rolling_disk_pendulum;
pub mod skate;
pub mod talamucci;
pub mod vec3;

// (each test binary uses some of them)
#[allow(unused_imports)]
pub use self::{
    assigned_front::AssignedFront, assigned_spin::AssignedSpin, coaxial_disks::CoaxialDisks,
    parallel_points::ParallelPoints, pendulum_skate::PendulumSkate, rolling_disk::RollingDisk,
    rolling_disk_pendulum::RollingDiskPendulum, skate::Skate,
};

use super::oracle::{hamel_residual, QuasiVelocities, System};
use super::rng::SplitMix64;

/// Which version of a printed set of equations to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Print {
    /// exactly as printed (extraction glitches resolved, known ERRATA not applied)
    Verbatim,
    /// misprints fixed: what the paper's general equations (17)/(20)/(26) really give
    Eq17,
    /// additionally corrected for the term (16)-(17) drop: the true dynamics
    Corrected,
}

/// A printed first-order system on the state [q, z] (z in the paper's speeds).
pub type PrintedRhs<S> = fn(&S, f64, &[f64]) -> Vec<f64>;

/// Printed equations in Talamucci's layout, `coef . etadot + rest = 0`: (coef, rest).
pub type PrintedEquations = (Vec<Vec<f64>>, Vec<f64>);

/// A worked example as `tests/suite/oracle_selfcheck.rs` checks it: the generic checks (constraints,
/// printed systems and the core equation against the oracle, speeds, Talamucci's (17),
/// energy balance) run on every system of the table, in this order, with the hooks below
/// supplying what differs between papers.
pub trait PaperSystem: System + Clone {
    /// Section and name, e.g. "9.1 skate": the prefix of every reported line.
    const NAME: &'static str;
    /// Seed of the random parameters and states.
    const SEED: u64;
    /// The angles among q, as (index, half-width of their random range); the other
    /// coordinates are drawn in [-2, 2].
    const ANGLES: &'static [(usize, f64)];
    /// Talamucci's (17) is checked: the Boltzmann–Hamel residual against the oracle, and
    /// [`PaperSystem::printed_equations`] against it.
    const EQ17: bool = false;

    /// Random-but-fixed parameters.
    fn random(rng: &mut SplitMix64) -> Self;

    /// The printed first-order systems (misprints corrected) that must agree with the
    /// oracle: (label, rhs).
    fn printed_systems() -> Vec<(&'static str, PrintedRhs<Self>)>;

    /// The printed systems with their misprints (or with only some corrected), which must
    /// disagree with the oracle: (label, rhs).
    fn misprinted_systems() -> Vec<(&'static str, PrintedRhs<Self>)> {
        vec![]
    }

    /// The speeds, when they are quasi-velocities eta(q, qd, t) (checked: eta(psi(z)) = z).
    fn quasi_velocities(&self) -> Option<&dyn Quasi> {
        None
    }

    /// The printed equations in Talamucci's layout in the given mode, where transcribed.
    fn printed_equations(
        &self,
        _t: f64,
        _q: &[f64],
        _eta: &[f64],
        _mode: Print,
    ) -> Option<PrintedEquations> {
        None
    }

    /// The paper's other printed quantities (matrices, energies, speeds, geometry) at one
    /// random state; worst errors that are reported per parameter set go into `worst`.
    fn check_printed_terms(
        &self,
        t: f64,
        q: &[f64],
        z: &[f64],
        rng: &mut SplitMix64,
        worst: &mut Worst,
    );

    /// After the states of one parameter set: report and check what
    /// [`PaperSystem::check_printed_terms`] gathered.
    fn check_worst(&self, _worst: &Worst) {}

    /// The same system without its forces (or damping), for a second energy check:
    /// (label, system).
    fn unforced(&self) -> Option<(&'static str, Self)> {
        None
    }
}

/// [`QuasiVelocities`] at f64, object-safe, so that [`PaperSystem`] can offer it.
pub trait Quasi {
    /// eta(q, qd, t).
    fn eta_f64(&self, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64>;
    /// [`hamel_residual`].
    fn hamel_residual_f64(
        &self,
        t: f64,
        q: &[f64],
        eta: &[f64],
        etad: &[f64],
        complete: bool,
    ) -> Vec<f64>;
}

impl<S: QuasiVelocities> Quasi for S {
    fn eta_f64(&self, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64> {
        self.eta(t, q, qd)
    }
    fn hamel_residual_f64(
        &self,
        t: f64,
        q: &[f64],
        eta: &[f64],
        etad: &[f64],
        complete: bool,
    ) -> Vec<f64> {
        hamel_residual(self, t, q, eta, etad, complete)
    }
}

/// The worst value of named errors over the states of one parameter set.
#[derive(Debug, Default)]
pub struct Worst(Vec<(&'static str, f64)>);

impl Worst {
    /// Keep the larger of the stored value and `err`.
    pub fn update(&mut self, name: &'static str, err: f64) {
        match self.0.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => *v = v.max(err),
            None => self.0.push((name, err.max(0.0))),
        }
    }

    /// The worst value so far (0 if none).
    pub fn get(&self, name: &str) -> f64 {
        self.0
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(0.0, |(_, v)| *v)
    }
}
