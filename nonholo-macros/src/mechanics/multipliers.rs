//! Benenti's second method (eqs. 8.5–8.14), generalized to rheonomic and nonlinear
//! constraints `C(q, dot(q), t) = 0`: the state is `[q, dot(q)]` on the whole of TQ and
//!
//! ```text
//! A qdd + h = F + C_qd^T lambda,        C_qd qdd + C_q qd + C_t = 0     (8.1, 8.8)
//! lambda = (C_qd A^-1 C_qd^T)^-1 ( -(C_q qd + C_t) - C_qd A^-1 (F - h) )  (8.6)
//! qdd = A^-1 (F - h + C_qd^T lambda) = (g - pi)(F - h) - qd^j d_j C^a C_a  (8.12)
//! R = C_qd^T lambda                                                        (8.13)
//! ```
//!
//! The symbolic stage derives A, `L = F - h` (Benenti's L_j, eq. 7.3), `C_qd` and the
//! drift `C_q qd + C_t`; the two small SPD systems are solved numerically at run time
//! (nalgebra's fixed-size Cholesky), which is Benenti's `g^ij`, `G_ab` and `pi^ij` without
//! forming the inverses.

use super::lagrangian::LagrangeTerms;
use super::text::Text;
use super::{Equations, Layout};
use crate::ctxt::Ctxt;
use crate::model::{Formulation, Lowered};
use crate::sym::{Id, Mat};

/// The second method's pieces, all in q, dot(q), t.
pub struct SecondMethod {
    pub mass_matrix_a: Mat,
    /// `L_i = F_i - h_i` (Benenti's eq. 7.3).
    pub lagrange_l: Vec<Id>,
    /// `C^a_i = d C^a / d qd_i` (nc x n).
    pub constraint_jacobian: Mat,
    /// `qd^j d_j C^a + d_t C^a`.
    pub drift: Vec<Id>,
}

/// Benenti's second method; the parametrization was checked against
/// [`Formulation::rejects`] (independent velocities, none named).
pub fn derive(low: &mut Lowered, lt: &LagrangeTerms, _cx: &Ctxt) -> Option<Equations> {
    let g = &mut low.graph;
    let s = &low.syms;
    let n = s.q.len();
    let coords = &low.names.coords;
    let lagrange_l: Vec<Id> = (0..n).map(|i| g.sub(low.forces[i], lt.h[i])).collect();
    let constraint_jacobian = Mat::jac(g, &Mat::col(&low.constraints), &s.qd);
    let drift = drift(g, &low.constraints, &s.q, &s.qd, s.t);
    let mass_matrix_a = Mat::from_rows(&lt.mass_matrix_a, n);

    let mut text = Text::new(format!(
        "{}: Lagrange multipliers (Benenti's second method, eqs. 8.5–8.14, rheonomic form)",
        low.names.model
    ));
    text.prose(format!("state (q, dot(q)), q = ({})", coords.join(", ")));
    text.prose("\nA qdd = L + C_qd^T lambda,  C_qd qdd = -(C_q qd + C_t),  R = C_qd^T lambda");
    text.prose("\nA (kinetic-energy matrix):");
    text.symmetric(g, "A", &mass_matrix_a, coords);
    text.prose("\nL = F - h (free Lagrange equations A qdd = L, eq. 7.3):");
    text.rows("L", &lagrange_l, coords);
    for a in 0..constraint_jacobian.r {
        text.prose(format!("\nconstraint {a}:"));
        for (i, c) in constraint_jacobian.row(a).iter().enumerate() {
            if !g.is_zero(*c) {
                text.entry(format!("dC/d dot({})", coords[i]), *c);
            }
        }
        text.entry("qd . dC/dq + dC/dt", drift[a]);
    }
    text.prose("");
    text.entry("energy", lt.energy);

    Some(Equations {
        formulation: Formulation::Multipliers,
        speed_names: coords.iter().map(|c| format!("dot({c})")).collect(),
        energy: lt.energy,
        constraints: low.constraints.clone(),
        text,
        layout: Layout::Second(Box::new(SecondMethod {
            mass_matrix_a,
            lagrange_l,
            constraint_jacobian,
            drift,
        })),
    })
}

/// `qd^j d_j C^a + d_t C^a` of every constraint `C^a(q, dot(q), t)`: with `C_qd qdd` the rest
/// of `d C^a / dt` (Benenti eq. 8.8).
pub fn drift(
    g: &mut crate::sym::Graph,
    constraints: &[Id],
    q: &[u32],
    qd: &[u32],
    t: u32,
) -> Vec<Id> {
    constraints
        .iter()
        .map(|c| {
            let mut parts = Vec::with_capacity(q.len() + 1);
            for (qj, qdj) in q.iter().zip(qd) {
                let d = g.diff(*c, *qj);
                let v = g.sym(*qdj);
                parts.push(g.mul(d, v));
            }
            parts.push(g.diff(*c, t));
            g.add_all(&parts)
        })
        .collect()
}
