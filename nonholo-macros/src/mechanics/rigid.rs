//! The Lagrange terms of the bodies body by body (Kane's form of Lagrange's equations),
//! the way recursive rigid-body algorithms keep a chain's structure:
//!
//! ```text
//! A_ij = sum_b m_b V_bi . V_bj + Omega_bi . I_b Omega_bj
//! h_i  = sum_b V_bi . m_b a_b + Omega_bi . (I_b alpha_b + omega_K x I_b omega_b)
//! p_i  = sum_b V_bi . m_b v_b + Omega_bi . I_b omega_b
//! ```
//!
//! with the partial velocities `V_bi = d v_b / d dot(q_i)`, `Omega_bi = d omega_b / d
//! dot(q_i)` (functions of q and t: velocities are affine in dot(q)), and `a_b`, `alpha_b`
//! the accelerations at `ddot(q) = 0`: the time derivative of the components in their frame
//! F along the motion plus the transport term `omega_F x v`. That
//! `d/dt dT_b/d dot(q_i) - dT_b/dq_i = V_bi . m a_b + Omega_bi . dH_b/dt` is the identity
//! behind Kane's equations (Kane & Levinson 1985, ch. 6), so the result equals
//! [`super::lagrangian`]'s derivatives of T exactly. Nothing is expanded: every component
//! is an atom of the frame tree's recurrences, and the derivatives of atoms are atoms.
//! Gravity enters the same way, `dV/dq_i = -sum_b m_b g . V_bi`, instead of differentiating
//! V (whose components in the inertial frame are the chain's rotations multiplied out).

use crate::kinematics::bodies::RigidTerm;
use crate::kinematics::vector::{cross3, dot3, mat_vec};
use crate::sym::HashMap;
use crate::sym::{Graph, Id};

/// The bodies' momenta, kinetic-energy matrix and `h` (without V), in q, dot(q), t.
pub struct RigidLagrange {
    pub momenta: Vec<Id>,
    pub mass_matrix_a: Vec<Vec<Id>>,
    pub h: Vec<Id>,
    /// The bodies' motions, for the energy ([`Motion`]).
    pub motions: Vec<Motion>,
}

/// A centre's velocity or a body's angular velocity (components, affine in dot(q)), its
/// partials `P_i` (in q, t) and the mass or inertia `M`: its share of the energy
/// `dot(q) . p - T` is `1/2 v . M v - v0 . M v` with `v0 = v - sum_i P_i dot(q_i)`.
pub struct Motion {
    pub velocity: [Id; 3],
    pub partials: Vec<(usize, [Id; 3])>,
    pub inertia: [[Id; 3]; 3],
}

/// Below this size a component stays inline (so that products can still simplify).
const INLINE: u32 = 12;

pub fn lagrange_terms(
    g: &mut Graph,
    (q, qd, t): (&[u32], &[u32], u32),
    terms: &[RigidTerm],
) -> RigidLagrange {
    let n = q.len();
    let mut along: HashMap<u32, Id> = q.iter().zip(qd).map(|(s, v)| (*s, g.sym(*v))).collect();
    let one = g.one();
    along.insert(t, one);
    let mut memo = HashMap::default();
    let mut parts = Parts {
        a: vec![vec![Vec::new(); n]; n],
        h: vec![Vec::new(); n],
        p: vec![Vec::new(); n],
    };
    let mut motions = Vec::with_capacity(2 * terms.len());
    for (b, term) in terms.iter().enumerate() {
        let z = g.zero();
        let v = term.velocity;
        if !v.iter().all(|x| g.is_zero(*x)) {
            let dv = v.map(|x| g.directional(x, &along, &mut memo));
            let wv = cross3(g, term.omega_velocity, v);
            // m (a - g): gravity's generalized force with the inertia force
            let acc: [Id; 3] = [0, 1, 2].map(|k| {
                let a = g.add(dv[k], wv[k]);
                let a = g.sub(a, term.gravity[k]);
                let ma = g.mul(term.mass, a);
                g.define_if_large(&format!("f_body{b}[{k}]"), ma, INLINE)
            });
            let mv = v.map(|x| g.mul(term.mass, x));
            let identity = [[one, z, z], [z, one, z], [z, z, one]];
            let m_mat = identity.map(|row| row.map(|x| g.mul(term.mass, x)));
            let partials = accumulate(
                g,
                qd,
                v,
                (mv, acc, m_mat),
                &mut parts,
                &format!("V_body{b}"),
            );
            motions.push(Motion {
                velocity: v,
                partials,
                inertia: m_mat,
            });
        }
        if let Some(spin) = &term.spin {
            let w = spin.omega;
            let i = spin.inertia;
            let iw = mat_vec(g, &i, w);
            let iw =
                [0, 1, 2].map(|k| g.define_if_large(&format!("H_body{b}[{k}]"), iw[k], INLINE));
            let dw = w.map(|x| g.directional(x, &along, &mut memo));
            let idw = mat_vec(g, &i, dw);
            let transport = cross3(g, spin.omega_frame, iw);
            let dh: [Id; 3] = [0, 1, 2].map(|k| {
                let e = g.add(idw[k], transport[k]);
                g.define_if_large(&format!("dH_body{b}[{k}]"), e, INLINE)
            });
            let name = format!("Omega_body{b}");
            let partials = accumulate(g, qd, w, (iw, dh, i), &mut parts, &name);
            motions.push(Motion {
                velocity: w,
                partials,
                inertia: i,
            });
        }
    }
    let mut mass_matrix_a = vec![Vec::with_capacity(n); n];
    for i in 0..n {
        for j in 0..n {
            let e = if j < i {
                mass_matrix_a[j][i]
            } else {
                g.add_all(&parts.a[i][j])
            };
            mass_matrix_a[i].push(e);
        }
    }
    RigidLagrange {
        momenta: parts.p.iter().map(|p| g.add_all(p)).collect(),
        mass_matrix_a,
        h: parts.h.iter().map(|p| g.add_all(p)).collect(),
        motions,
    }
}

/// The terms of each entry of A, h and p, summed at the end.
struct Parts {
    a: Vec<Vec<Vec<Id>>>,
    h: Vec<Vec<Id>>,
    p: Vec<Vec<Id>>,
}

/// One body's share of A, h and p for a velocity `v` (a centre's or an angular one):
/// partials `P_i = dv/d dot(q_i)`, then `A_ij += P_i . M P_j`, `h_i += P_i . force`,
/// `p_i += P_i . momentum`; returns the partials.
#[must_use]
fn accumulate(
    g: &mut Graph,
    qd: &[u32],
    v: [Id; 3],
    (momentum, force, m): ([Id; 3], [Id; 3], [[Id; 3]; 3]),
    parts: &mut Parts,
    name: &str,
) -> Vec<(usize, [Id; 3])> {
    let partials: Vec<(usize, [Id; 3])> = qd
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let d = v.map(|x| g.diff(x, *s));
            if d.iter().all(|x| g.is_zero(*x)) {
                return None;
            }
            let d = [0, 1, 2].map(|k| g.define_if_large(&format!("{name}_{i}[{k}]"), d[k], INLINE));
            Some((i, d))
        })
        .collect();
    for (i, pi) in &partials {
        let mp = mat_vec(g, &m, *pi);
        let mp = [0, 1, 2].map(|k| g.define_if_large(&format!("M{name}_{i}[{k}]"), mp[k], INLINE));
        for (j, pj) in &partials {
            if j >= i {
                let e = dot3(g, *pj, mp);
                parts.a[*i][*j].push(e);
            }
        }
        let e = dot3(g, *pi, force);
        parts.h[*i].push(e);
        let e = dot3(g, *pi, momentum);
        parts.p[*i].push(e);
    }
    partials
}
