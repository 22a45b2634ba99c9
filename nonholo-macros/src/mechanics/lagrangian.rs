//! The pieces of the free Lagrange equations `A qdd + h = F` (DESIGN.md, "The core
//! equation"): the kinetic-energy matrix, the momenta and h, for
//! `T = 1/2 qd^T A(q,t) qd + b(q,t)^T qd + c(q,t)` and `L = T - V`.

use crate::ctxt::Ctxt;
use crate::model::Lowered;
use crate::sym::linsolve::probably_zero;
use crate::sym::Id;

pub struct LagrangeTerms {
    /// Momenta `p_i = dT/d qd_i` (in q, qd, t).
    pub momenta: Vec<Id>,
    /// `A_ij = d^2 T / d qd_i d qd_j` (in q, t).
    pub mass_matrix_a: Vec<Vec<Id>>,
    /// `h_i = sum_j dp_i/dq_j qd_j + dp_i/dt - dT/dq_i + dV/dq_i` (in q, qd, t): with
    /// `p = A qd + b` this is Benenti's `Gamma_jki qd_j qd_k` plus Talamucci's
    /// rheonomic terms `(dA/dt + db/dq - db/dq^T) qd + db/dt - dc/dq`, plus `dV/dq`.
    pub h: Vec<Id>,
    /// Energy `sum_i qd_i p_i - T + V` (the Legendre transform of L, Talamucci eq. 18's
    /// conserved quantity when nothing depends on t), in q, qd, t.
    pub energy: Id,
}

/// Derive the Lagrange terms; reports (and returns `None`) when a third derivative of T
/// in the velocities does not vanish (T is not quadratic in `dot(q)`).
pub fn lagrange_terms(low: &mut Lowered, cx: &Ctxt) -> Option<LagrangeTerms> {
    let g = &mut low.graph;
    let s = &low.syms;
    let n = s.q.len();
    let momenta: Vec<Id> = (0..n).map(|i| g.diff(low.kinetic, s.qd[i])).collect();
    let mut a = vec![Vec::with_capacity(n); n];
    for i in 0..n {
        for j in 0..n {
            let aij = if j < i {
                a[j][i]
            } else {
                g.diff(momenta[i], s.qd[j])
            };
            a[i].push(aij);
        }
    }
    for i in 0..n {
        for j in i..n {
            for k in 0..n {
                let d = g.diff(a[i][j], s.qd[k]);
                if !probably_zero(g, d) {
                    let c = &low.names.coords;
                    cx.error_help(
                        low.sites.kinetic,
                        format!(
                            "the kinetic energy is not quadratic in the velocities (d^3 T / d dot({}) d dot({}) d dot({}) != 0)",
                            c[i], c[j], c[k]
                        ),
                        "T must be 1/2 dot(q)^T A(q,t) dot(q) + b(q,t) . dot(q) + c(q,t)",
                    );
                    return None;
                }
            }
        }
    }
    let mut h = Vec::with_capacity(n);
    for i in 0..n {
        let mut parts = Vec::with_capacity(n + 3);
        for j in 0..n {
            let dp = g.diff(momenta[i], s.q[j]);
            let qdj = g.sym(s.qd[j]);
            parts.push(g.mul(dp, qdj));
        }
        parts.push(g.diff(momenta[i], s.t));
        let dt = g.diff(low.kinetic, s.q[i]);
        parts.push(g.neg(dt));
        parts.push(g.diff(low.potential, s.q[i]));
        h.push(g.add_all(&parts));
    }
    let mut parts = Vec::with_capacity(n + 2);
    for i in 0..n {
        let qd = g.sym(s.qd[i]);
        parts.push(g.mul(qd, momenta[i]));
    }
    parts.push(g.neg(low.kinetic));
    parts.push(low.potential);
    let energy = g.add_all(&parts);
    Some(LagrangeTerms {
        momenta,
        mass_matrix_a: a,
        h,
        energy,
    })
}
