//! The pieces of the free Lagrange equations `A qdd + h = F` (DESIGN.md, "The core
//! equation"): the kinetic-energy matrix, the momenta and h, for
//! `T = 1/2 qd^T A(q,t) qd + b(q,t)^T qd + c(q,t)` and `L = T - V`.

use crate::ctxt::Ctxt;
use crate::kinematics::vector::{dot3, mat_vec};
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
    /// How the bodies' share was derived.
    pub route: Route,
}

/// Body by body: the momenta of the part of T not in bodies, and the bodies' motions, for
/// the energy.
struct BodyEnergy {
    momenta_rest: Vec<Id>,
    motions: Vec<super::rigid::Motion>,
}

/// Which way the bodies' terms were derived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Differentiating T (one expression for the whole model).
    Expression,
    /// Body by body ([`super::rigid`]).
    BodyWise,
}

#[cfg(test)]
thread_local! {
    /// A route forced for the tests of this thread.
    pub static TEST_ROUTE: std::cell::Cell<Option<Route>> = const { std::cell::Cell::new(None) };
}

/// Up to this many coordinates both routes are derived and the smaller kept; above it a
/// model with bodies goes body by body (differentiating a large chain's T is what swells).
const BOTH_ROUTES_UP_TO: usize = 14;

/// Derive the Lagrange terms; reports (and returns `None`) when a third derivative of T
/// in the velocities does not vanish (T is not quadratic in `dot(q)`). A model with
/// bodies gets its bodies' share body by body ([`super::rigid`]) when that is smaller (by
/// [`crate::sym::Graph::ops_outside`] of A and h) or the model is large.
pub fn lagrange_terms(low: &mut Lowered, cx: &Ctxt) -> Option<LagrangeTerms> {
    #[cfg(test)]
    let forced = TEST_ROUTE.with(|r| r.get());
    #[cfg(not(test))]
    let forced: Option<Route> = None;
    let n = low.syms.q.len();
    let body_wise = !low.rigid.is_empty() && forced != Some(Route::Expression);
    let expression = low.rigid.is_empty()
        || forced == Some(Route::Expression)
        || (forced.is_none() && n <= BOTH_ROUTES_UP_TO);
    let by_t = if expression {
        Some(differentiated(low, (low.kinetic, low.potential), cx)?)
    } else {
        None
    };
    let by_body = if body_wise {
        let rest = differentiated(low, (low.kinetic_rest, low.potential_rest), cx)?;
        let s = &low.syms;
        let r = super::rigid::lagrange_terms(&mut low.graph, (&s.q, &s.qd, s.t), &low.rigid);
        let g = &mut low.graph;
        let mut total = Differentiated {
            momenta: Vec::with_capacity(n),
            mass_matrix_a: vec![Vec::with_capacity(n); n],
            h: Vec::with_capacity(n),
        };
        for i in 0..n {
            total.momenta.push(g.add(rest.momenta[i], r.momenta[i]));
            total.h.push(g.add(rest.h[i], r.h[i]));
            for j in 0..n {
                let e = g.add(rest.mass_matrix_a[i][j], r.mass_matrix_a[i][j]);
                total.mass_matrix_a[i].push(e);
            }
        }
        let body_energy = BodyEnergy {
            momenta_rest: rest.momenta,
            motions: r.motions,
        };
        Some((total, body_energy))
    } else {
        None
    };
    let cost = |g: &crate::sym::Graph, t: &Differentiated| {
        let roots: Vec<Id> = t
            .mass_matrix_a
            .iter()
            .flatten()
            .chain(&t.h)
            .copied()
            .collect();
        g.ops_outside(&roots, &Default::default())
    };
    let (route, d, body_energy) = match (by_t, by_body) {
        (Some(a), Some((b, p))) => {
            if cost(&low.graph, &b) < cost(&low.graph, &a) {
                (Route::BodyWise, b, Some(p))
            } else {
                (Route::Expression, a, None)
            }
        }
        (Some(a), None) => (Route::Expression, a, None),
        (None, Some((b, p))) => (Route::BodyWise, b, Some(p)),
        (None, None) => return None,
    };
    let g = &mut low.graph;
    let s = &low.syms;
    let mut parts = Vec::with_capacity(n + 2);
    // dot(q) . p - T + V; body by body, a body's share is T2 - T0 = 1/2 v.M v - v.M v0
    // with v0 = v - sum_i P_i dot(q_i) (0 when nothing moves it explicitly in time)
    let (momenta, kinetic) = match &body_energy {
        Some(bp) => (&bp.momenta_rest, low.kinetic_rest),
        None => (&d.momenta, low.kinetic),
    };
    for i in 0..n {
        let qd = g.sym(s.qd[i]);
        parts.push(g.mul(qd, momenta[i]));
    }
    parts.push(g.neg(kinetic));
    parts.push(low.potential);
    let half = g.num(crate::sym::Number::rat(1, 2));
    for m in body_energy.iter().flat_map(|bp| &bp.motions) {
        let mv = mat_vec(g, &m.inertia, m.velocity);
        let vmv = dot3(g, m.velocity, mv);
        parts.push(g.mul(half, vmv));
        if m.velocity.iter().any(|x| g.depends_on(*x, s.t)) {
            let v0: [Id; 3] = [0, 1, 2].map(|k| {
                let mut terms = vec![m.velocity[k]];
                for (i, p) in &m.partials {
                    let qd = g.sym(s.qd[*i]);
                    let t = g.mul(p[k], qd);
                    terms.push(g.neg(t));
                }
                g.add_all(&terms)
            });
            let e = dot3(g, v0, mv);
            parts.push(g.neg(e));
        }
    }
    let energy = g.add_all(&parts);
    Some(LagrangeTerms {
        momenta: d.momenta,
        mass_matrix_a: d.mass_matrix_a,
        h: d.h,
        energy,
        route,
    })
}

/// Momenta, A and h (with dV/dq) of `kinetic` and `potential` by differentiation.
struct Differentiated {
    momenta: Vec<Id>,
    mass_matrix_a: Vec<Vec<Id>>,
    h: Vec<Id>,
}

fn differentiated(
    low: &mut Lowered,
    (kinetic, potential): (Id, Id),
    cx: &Ctxt,
) -> Option<Differentiated> {
    let g = &mut low.graph;
    let s = &low.syms;
    let n = s.q.len();
    let momenta: Vec<Id> = (0..n).map(|i| g.diff(kinetic, s.qd[i])).collect();
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
        let dt = g.diff(kinetic, s.q[i]);
        parts.push(g.neg(dt));
        parts.push(g.diff(potential, s.q[i]));
        h.push(g.add_all(&parts));
    }
    Some(Differentiated {
        momenta,
        mass_matrix_a: a,
        h,
    })
}
