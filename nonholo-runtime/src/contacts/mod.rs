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

use crate::{Error, Model, Scalar};

mod event;
mod load;
pub use event::ContactEvent;
pub use load::{ContactLoad, ContactLoadOf};

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

    /// For each contact of [`CONTACTS`](Self::CONTACTS), whether it declares a friction
    /// coefficient (`friction: mu`): the contacts that can slip, and whose friction an
    /// optimal motion can limit. Empty without rolling contacts.
    const FRICTION: &'static [bool] = &[];

    /// The generalized reaction forces `R_i` (`NQ` of them, one per coordinate) that the
    /// constraints exert at `(t, state)` with the inputs `u` held: `R = A ddot(q) + h - F`
    /// at the constrained acceleration, forces and inputs included. In the `multipliers`
    /// formulation they equal `reaction_forces_u`. Configuration constraints' forces are
    /// part of `R`.
    ///
    /// [`Error::Dimension`] for a `state`, `u` or `out` of the wrong length; the errors of
    /// [`Model::rhs_u`] otherwise.
    fn reactions(&self, t: f64, state: &[f64], u: &[f64], out: &mut [f64]) -> Result<(), Error>;

    /// For each contact of [`CONTACTS`](Self::CONTACTS), the force that the ground exerts
    /// on the wheel at the contact point ([`ContactLoad::force`], root components) with
    /// its normal, longitudinal and lateral parts and the friction it needs, at
    /// `(t, state)` with the inputs `u` held.
    ///
    /// How each part is found:
    /// - a contact's velocity rows (`v_m . e = 0`) have multipliers `lambda`, from the
    ///   reactions, `lambda = (C C^T)^-1 C R`; each exerts the force `lambda e` at the
    ///   contact: the tangential forces, and the normal of a contact with `solve: q`
    ///   (its height row);
    /// - the normal force of a contact the coordinates keep on the plane (`contact: P`, or a
    ///   wheel centre built at the wheel's height) does no virtual work, so no reaction
    ///   carries it: it follows from the Newton–Euler balance of the whole system,
    ///   `dP/dt = F` and `dL_O/dt = M_O` with gravity, the `at` forces and the `on` torques,
    ///   solved in least squares for those normals (exact when the balance is
    ///   consistent; minimum-norm when the normals are not determined, e.g. four wheels on
    ///   a rigid chassis). That needs every external force to be one the balance sees:
    ///   a model with a scalar kinetic or potential energy, scalar constraints or
    ///   coordinate forces besides its bodies gets [`Error::NotAvailable`].
    /// - Two wheels on one axle (one with `lateral: false`) share one lateral row, so the
    ///   rigid model fixes only the sum `S` of their lateral forces. With `friction` it
    ///   is split in proportion to the lateral friction each wheel can still give,
    ///   `F_i = S c_i / (c_1 + c_2)` with `c_i = sqrt((mu N_i)^2 - F_long,i^2)`: both
    ///   reach the friction limit together, when `|S| = c_1 + c_2` and the pair can no
    ///   longer hold the axle sideways, never one before the other while a split that
    ///   holds exists (under a pure lateral load, `F_i = S N_i / (N_1 + N_2)`). Without
    ///   `friction` it is split in proportion to the normals. The friction check uses
    ///   the same split.
    ///
    /// [`Error::Dimension`] for slices of the wrong length, [`Error::NotAvailable`] as
    /// above; the errors of [`Model::rhs_u`] otherwise. Allocates nothing.
    fn contact_loads(
        &self,
        t: f64,
        state: &[f64],
        u: &[f64],
        out: &mut [ContactLoad],
    ) -> Result<(), Error> {
        let _ = (t, state, u);
        if Self::CONTACTS.is_empty() && out.is_empty() {
            return Ok(());
        }
        Err(Error::NotAvailable {
            what: "contact_loads",
        })
    }

    /// [`contact_loads`](Self::contact_loads) in any [`Scalar`]: the same loads, computed by
    /// the same steps in `S` (the model's equations, the momenta's rates in dual numbers
    /// over `S`, the balance's least squares by an LDL^T factor), so that in dual numbers
    /// they carry their exact derivatives with respect to `t`, the state and the inputs.
    /// That is what makes a friction limit a differentiable constraint of an optimal
    /// motion (`optimal::FrictionMargin`, feature `optimal`).
    ///
    /// One difference: normals the Newton–Euler balance does not determine (four wheels on a
    /// rigid chassis) have no derivative, so where `contact_loads` gives the least-norm
    /// split, this gives [`Error::NotAvailable`].
    ///
    /// ```
    /// use nonholo_runtime::__private::doc_models::Skate;
    /// use nonholo_runtime::__private::Dual;
    /// use nonholo_runtime::{ContactLoadOf, Contacts, Scalar};
    /// // a model without rolling contacts has no loads, in any scalar
    /// let skate = Skate { m: 2.0, i: 0.5 };
    /// let s = [Dual::from_f64(0.0); 5];
    /// let mut out: [ContactLoadOf<Dual>; 0] = [];
    /// skate.contact_loads_scalar(Dual::from_f64(0.0), &s, &[], &mut out)?;
    /// # Ok::<(), nonholo_runtime::Error>(())
    /// ```
    fn contact_loads_scalar<S: Scalar>(
        &self,
        t: S,
        state: &[S],
        u: &[S],
        out: &mut [ContactLoadOf<S>],
    ) -> Result<(), Error> {
        let _ = (t, state, u);
        if Self::CONTACTS.is_empty() && out.is_empty() {
            return Ok(());
        }
        Err(Error::NotAvailable {
            what: "contact_loads_scalar",
        })
    }

    /// The force that the ground exerts on each wheel at its contact point, in root
    /// components: [`ContactLoad::force`] of [`contact_loads`](Self::contact_loads).
    fn contact_forces(
        &self,
        t: f64,
        state: &[f64],
        u: &[f64],
        out: &mut [[f64; 3]],
    ) -> Result<(), Error> {
        let _ = (t, state, u);
        if Self::CONTACTS.is_empty() && out.is_empty() {
            return Ok(());
        }
        Err(Error::NotAvailable {
            what: "contact_forces",
        })
    }
}
