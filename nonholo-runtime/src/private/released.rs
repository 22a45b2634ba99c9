//! What `nonholonomic!` emits for a model whose contacts may slip: the released model on
//! `[q, dot(q)]` with every row (`design/contact_forces.md`, 6.4), which the hybrid runs
//! assemble with some contacts' rolling rows switched off.

use super::ContactRows;
use crate::Error;

/// The sizes and the contacts of a released model.
#[derive(Clone, Copy, Debug)]
pub struct ReleasedSpec {
    /// Coordinates.
    pub nq: usize,
    /// Constraint rows (the model's constraints, in order).
    pub nc: usize,
    /// Inputs.
    pub nu: usize,
    /// Entries of the momenta and the applied wrench: 3 (`P`, `F`) or 6 (with `L_O`, `M_O`).
    pub nb: usize,
    /// Length of [`Released::terms`]' output.
    pub len: usize,
    /// Whether the balance sees every external force (anchored normals need it).
    pub balanced: bool,
    /// Each contact's rows.
    pub contacts: &'static [ContactRows],
    /// Whether each contact declares `friction`.
    pub friction: &'static [bool],
    /// `"W on G"` per contact.
    pub names: &'static [&'static str],
    /// `dot(q_i)` per coordinate.
    pub velocities: &'static [&'static str],
}

/// The released model of a model with `friction` (emitted by `nonholonomic!`).
pub trait Released {
    /// Its sizes and contacts.
    fn spec(&self) -> &'static ReleasedSpec;
    /// At `(t, q, dot(q))` with the inputs `u`, into `out` ([`ReleasedSpec::len`]): `A`
    /// (row-major), `L = F - h`, `C = d rows / d dot(q)` (row-major), the drift
    /// `qd . dC/dq + dC/dt`, the rows' values, the applied `[F, M_O]` (`nb` entries), then
    /// the contacts' geometry as [`super::contact_loads`] reads it.
    fn terms(&self, t: f64, q: &[f64], qd: &[f64], u: &[f64], out: &mut [f64])
        -> Result<(), Error>;
    /// The derivative of the momenta `[P, L_O]` (root components, `nb` entries) at
    /// `(t[0], q[0], qd[0])` along the tangent `(t[1], q[1], qd[1])`.
    fn momenta_tangent(
        &self,
        t: [f64; 2],
        q: [&[f64]; 2],
        qd: [&[f64]; 2],
        u: &[f64],
        out: &mut [f64; 6],
    ) -> Result<(), Error>;
}
