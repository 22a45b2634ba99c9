//! What the ground and the constraints must supply: the [`Contacts`] trait, implemented by
//! `nonholonomic!` for every model.
//!
//! A nonholonomic model assumes its constraints hold. They hold because forces make them:
//! with `A ddot(q) + h = F` the free Lagrange equations, the constraints exert the
//! generalized reactions
//!
//! ```text
//! R = A ddot(q) + h - F        at the constrained acceleration ddot(q)
//! ```
//!
//! (Benenti 2007, Def. 3.2 and eqs. 3.10–3.11). Ideal constraints make `R` orthogonal to the
//! virtual displacements, `psi_z^T R = 0`, which is the first method's equation of motion
//! itself; the second method (`formulation = multipliers`) writes the same `R` as
//! `C_qd^T lambda` (eq. 8.13). Every formulation gives the same `R` at the same motion.
//! Fixed ideal constraints do no work: `R . dot(q) = 0`.

use crate::{Error, Model};

/// The constraint forces of a model; `nonholonomic!` implements it for every model.
///
/// ```
/// use nonholo_runtime::__private::doc_models::Skate;
/// use nonholo_runtime::{Contacts, Model};
///
/// let skate = Skate { m: 2.0, i: 0.5 };
/// // state [x, y, theta, v, w]: sliding along the blade at 1 m/s while turning at 0.5 rad/s
/// let state = [0.0, 0.0, 0.3, 1.0, 0.5];
/// let mut r = [0.0; 3];
/// skate.reactions(0.0, &state, &[], &mut r)?;
/// // the blade pushes sideways (normal to it) with m v w: the centripetal force
/// let lateral = -r[0] * 0.3f64.sin() + r[1] * 0.3f64.cos();
/// assert!((lateral - skate.m * 1.0 * 0.5).abs() < 1e-12);
/// // and does no work
/// let qdot = [0.3f64.cos(), 0.3f64.sin(), 0.5];
/// assert!((r[0] * qdot[0] + r[1] * qdot[1] + r[2] * qdot[2]).abs() < 1e-12);
/// # Ok::<(), nonholo_runtime::Error>(())
/// ```
pub trait Contacts: Model {
    /// One name per `rolls W on G` of the model, `"W on G"`, in declaration order (empty
    /// without rolling contacts).
    const CONTACTS: &'static [&'static str];

    /// The generalized reaction forces `R_i` (`NQ` of them, one per coordinate) that the
    /// constraints exert at `(t, state)` with the inputs `u` held: `R = A ddot(q) + h - F`
    /// at the constrained acceleration, forces and inputs included. In the `multipliers`
    /// formulation they equal `reaction_forces_u`. Configuration constraints' forces are
    /// part of `R`.
    ///
    /// [`Error::Dimension`] for a `state`, `u` or `out` of the wrong length; the errors of
    /// [`Model::rhs_u`] otherwise.
    fn reactions(&self, t: f64, state: &[f64], u: &[f64], out: &mut [f64]) -> Result<(), Error>;
}
