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
use crate::sym::lower::Lowered;
use crate::sym::Id;
use std::fmt::Write;

/// The second method's pieces, all in q, dot(q), t.
pub struct MultiplierTerms {
    pub mass_matrix_a: Vec<Vec<Id>>,
    /// `L_i = F_i - h_i`.
    pub lagrange_l: Vec<Id>,
    /// `C^a_i = d C^a / d qd_i` (nc x n).
    pub constraint_jacobian: Vec<Vec<Id>>,
    /// `qd^j d_j C^a + d_t C^a`.
    pub drift: Vec<Id>,
    pub energy: Id,
    pub constraints: Vec<Id>,
    pub equations: String,
}

pub fn derive(
    low: &mut Lowered,
    lt: &LagrangeTerms,
    name: &str,
    coords: &[String],
) -> MultiplierTerms {
    let g = &mut low.graph;
    let s = &low.syms;
    let n = s.q.len();
    let lagrange_l: Vec<Id> = (0..n).map(|i| g.sub(low.forces[i], lt.h[i])).collect();
    let constraint_jacobian: Vec<Vec<Id>> = low
        .constraints
        .iter()
        .map(|c| s.qd.iter().map(|v| g.diff(*c, *v)).collect())
        .collect();
    let drift: Vec<Id> = low
        .constraints
        .iter()
        .map(|c| {
            let mut parts = Vec::with_capacity(n + 1);
            for j in 0..n {
                let d = g.diff(*c, s.q[j]);
                let qd = g.sym(s.qd[j]);
                parts.push(g.mul(d, qd));
            }
            parts.push(g.diff(*c, s.t));
            g.add_all(&parts)
        })
        .collect();
    let mut parts = Vec::with_capacity(n + 2);
    for i in 0..n {
        let qd = g.sym(s.qd[i]);
        parts.push(g.mul(qd, lt.momenta[i]));
    }
    parts.push(g.neg(low.kinetic));
    parts.push(low.potential);
    let energy = g.add_all(&parts);

    let mut text = String::new();
    let _ = writeln!(
        text,
        "{name}: Lagrange multipliers (Benenti's second method, eqs. 8.5–8.14, rheonomic form)"
    );
    let _ = writeln!(text, "state (q, dot(q)), q = ({})", coords.join(", "));
    let _ = writeln!(
        text,
        "\nA qdd = L + C_qd^T lambda,  C_qd qdd = -(C_q qd + C_t),  R = C_qd^T lambda"
    );
    let _ = writeln!(text, "\nA (kinetic-energy matrix):");
    for i in 0..n {
        for j in i..n {
            if !g.is_zero(lt.mass_matrix_a[i][j]) {
                let _ = writeln!(
                    text,
                    "  A[{},{}] = {}",
                    coords[i],
                    coords[j],
                    g.display(lt.mass_matrix_a[i][j])
                );
            }
        }
    }
    let _ = writeln!(
        text,
        "\nL = F - h (free Lagrange equations A qdd = L, eq. 7.3):"
    );
    for i in 0..n {
        let _ = writeln!(text, "  L[{}] = {}", coords[i], g.display(lagrange_l[i]));
    }
    for (a, row) in constraint_jacobian.iter().enumerate() {
        let _ = writeln!(text, "\nconstraint {a}:");
        for (i, c) in row.iter().enumerate() {
            if !g.is_zero(*c) {
                let _ = writeln!(text, "  dC/d dot({}) = {}", coords[i], g.display(*c));
            }
        }
        let _ = writeln!(text, "  qd . dC/dq + dC/dt = {}", g.display(drift[a]));
    }
    let _ = writeln!(text, "\nenergy = {}", g.display(energy));

    MultiplierTerms {
        mass_matrix_a: lt.mass_matrix_a.clone(),
        lagrange_l,
        constraint_jacobian,
        drift,
        energy,
        constraints: low.constraints.clone(),
        equations: text,
    }
}
