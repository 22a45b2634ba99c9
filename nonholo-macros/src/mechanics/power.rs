//! The power balance of a first-method model (Talamucci eq. 18 in Lagrangian form), the
//! check `power_balance` offers at run time.

use super::lagrangian::LagrangeTerms;
use crate::model::Lowered;
use crate::sym::{HashMap, Id};

/// The power balance of a first-method model (Talamucci eq. 18 in Lagrangian form):
/// `d/dt energy = F . qd - dL/dt|_explicit + R . qd`, where R is the reaction that the
/// formulation's accelerations imply, `R = A qdd + h - F` with `qdd = d/dt psi`.
pub struct PowerTerms {
    /// Symbols standing for dz/dt (bound at run time to the model's own `rhs`).
    pub zdot: Vec<u32>,
    /// `[F . qd, -dL/dt, R . qd]` in q, z, t and `zdot`.
    pub terms: [Id; 3],
    /// The generalized reactions `R = A qdd + h - F` (one per coordinate) in q, z, t and
    /// `zdot`: what the constraints exert along the motion (Benenti's Def. 3.2, eq. 3.10).
    pub reactions: Vec<Id>,
    /// `ddot(q) = d/dt psi` along `(psi, zdot, 1)`, in q, z, t and `zdot`.
    pub qdd: Vec<Id>,
}

/// With `given` (dz/dt's symbols and R in them, from recursive Newton–Euler) the
/// reactions are those, not `A qdd + h - F` of the Lagrange terms.
pub fn power_terms(
    low: &mut Lowered,
    lt: &LagrangeTerms,
    qdot: &[Id],
    given: Option<(&[u32], &[Id])>,
) -> PowerTerms {
    let g = &mut low.graph;
    let s = &low.syms;
    let n = s.q.len();
    let at_psi: HashMap<u32, Id> = s.qd.iter().copied().zip(qdot.iter().copied()).collect();
    let zdot: Vec<u32> = match given {
        Some((zdot, _)) => zdot.to_vec(),
        None => (0..s.z.len())
            .map(|k| g.new_symbol(&format!("zdot[{k}]")))
            .collect(),
    };
    // qdd = d psi / dt along (dq, dz, dt) = (psi, zdot, 1)
    let mut along: HashMap<u32, Id> = s.q.iter().copied().zip(qdot.iter().copied()).collect();
    for (z, zd) in s.z.iter().zip(&zdot) {
        let zd = g.sym(*zd);
        along.insert(*z, zd);
    }
    let one = g.one();
    along.insert(s.t, one);
    let mut memo = HashMap::default();
    let qdd: Vec<Id> = qdot
        .iter()
        .map(|p| g.directional(*p, &along, &mut memo))
        .collect();
    let f = g.subst_many(&low.forces, &at_psi);
    let reactions: Vec<Id> = match given {
        Some((_, r)) => r.to_vec(),
        None => {
            let h = g.subst_many(&lt.h, &at_psi);
            (0..n)
                .map(|i| {
                    let mut r = Vec::with_capacity(n + 2);
                    for j in 0..n {
                        r.push(g.mul(lt.mass_matrix_a[i][j], qdd[j]));
                    }
                    r.push(h[i]);
                    r.push(g.neg(f[i]));
                    let ri = g.add_all(&r);
                    g.define_if_large(&format!("R[{i}]"), ri, 24)
                })
                .collect()
        }
    };
    let p_forces: Vec<Id> = (0..n).map(|i| g.mul(f[i], qdot[i])).collect();
    let p_react: Vec<Id> = (0..n).map(|i| g.mul(reactions[i], qdot[i])).collect();
    let p_forces = g.add_all(&p_forces);
    let p_react = g.add_all(&p_react);
    let dt_t = g.diff(low.kinetic, s.t);
    let dt_v = g.diff(low.potential, s.t);
    let dl_dt = g.sub(dt_t, dt_v);
    let dl_dt = g.subst(dl_dt, &at_psi);
    let p_time = g.neg(dl_dt);
    PowerTerms {
        zdot,
        terms: [p_forces, p_time, p_react],
        reactions,
        qdd,
    }
}
