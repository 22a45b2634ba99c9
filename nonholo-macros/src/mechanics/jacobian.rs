//! The exact Jacobian of the right-hand side, as a Jacobian-vector product (what implicit
//! integrators need): symbolic forward-mode derivatives of every symbolic piece in a
//! direction `v` of state space; the small linear solves are differentiated at run time
//! (`d(G^-1 f) = G^-1 (df - dG G^-1 f)`).

use super::lagrangian::LagrangeTerms;
use crate::model::{Lowered, Symbols};
use crate::sym::HashMap;
use crate::sym::{Graph, Id, Mat};

/// Directional derivatives of a first-method model's pieces.
pub struct Jvp {
    /// One direction symbol per state component (`[q, z]` or `[q, dot(q)]`).
    pub dirs: Vec<u32>,
    pub dqdot: Vec<Id>,
    pub dg: Mat,
    pub dforcing: Vec<Id>,
}

/// One direction symbol `prefix[k]` per symbol of `state`, and the map to them.
fn directions(g: &mut Graph, state: &[u32], prefix: &str) -> (Vec<u32>, HashMap<u32, Id>) {
    let dirs: Vec<u32> = (0..state.len())
        .map(|k| g.new_symbol(&format!("{prefix}[{k}]")))
        .collect();
    let map = state
        .iter()
        .zip(&dirs)
        .map(|(s, d)| (*s, g.sym(*d)))
        .collect();
    (dirs, map)
}

/// JVP pieces for a model with state `[q, z]`: d psi, dG, d forcing along `v`.
pub fn first_method(
    g: &mut Graph,
    syms: &Symbols,
    qdot: &[Id],
    mass_matrix_g: &Mat,
    forcing: &[Id],
) -> Jvp {
    let state: Vec<u32> = syms.q.iter().chain(&syms.z).copied().collect();
    let (dirs, map) = directions(g, &state, "v");
    along(g, dirs, map, qdot, mass_matrix_g, forcing)
}

/// JVP pieces along the parameters that enter only the generalized forces (inputs:
/// torques, forces; `inputs[k]`), state `[q, z]` held: d forcing in a direction `dp` of
/// parameter space, for the input matrix of a linearization. psi and G do not depend on
/// such parameters, so the pieces stay as small as the forces; parameters that enter the
/// geometry or the inertia are left out (their derivatives would be as large as the JVP).
pub fn first_method_params(
    g: &mut Graph,
    syms: &Symbols,
    inputs: &[bool],
    (qdot, mass_matrix_g, forcing): (&[Id], &Mat, &[Id]),
) -> Jvp {
    let (dirs, mut map) = directions(g, &syms.params, "dp");
    for (k, p) in syms.params.iter().enumerate() {
        if !inputs[k] {
            map.remove(p);
        }
    }
    along(g, dirs, map, qdot, mass_matrix_g, forcing)
}

fn along(
    g: &mut Graph,
    dirs: Vec<u32>,
    map: HashMap<u32, Id>,
    qdot: &[Id],
    mass_matrix_g: &Mat,
    forcing: &[Id],
) -> Jvp {
    let mut memo = HashMap::default();
    let dqdot = qdot
        .iter()
        .map(|e| g.directional(*e, &map, &mut memo))
        .collect();
    let dg = mass_matrix_g.directional(g, &map, &mut memo);
    let dforcing = forcing
        .iter()
        .map(|e| g.directional(*e, &map, &mut memo))
        .collect();
    Jvp {
        dirs,
        dqdot,
        dg,
        dforcing,
    }
}

/// JVP pieces of the second method (state `[q, dot(q)]`): dA, dL, dC, d drift.
pub struct MultiplierJvp {
    pub dirs: Vec<u32>,
    pub da: Mat,
    pub dl: Vec<Id>,
    pub dc: Mat,
    pub ddrift: Vec<Id>,
}

pub fn second_method(
    g: &mut Graph,
    syms: &Symbols,
    mass_matrix_a: &Mat,
    lagrange_l: &[Id],
    constraint_jacobian: &Mat,
    drift: &[Id],
) -> MultiplierJvp {
    let state: Vec<u32> = syms.q.iter().chain(&syms.qd).copied().collect();
    let (dirs, map) = directions(g, &state, "v");
    let mut memo = HashMap::default();
    let da = mass_matrix_a.directional(g, &map, &mut memo);
    let dc = constraint_jacobian.directional(g, &map, &mut memo);
    let mut memo = HashMap::default();
    let dl = lagrange_l
        .iter()
        .map(|e| g.directional(*e, &map, &mut memo))
        .collect();
    let ddrift = drift
        .iter()
        .map(|e| g.directional(*e, &map, &mut memo))
        .collect();
    MultiplierJvp {
        dirs,
        da,
        dl,
        dc,
        ddrift,
    }
}

/// The power balance of a first-method model (Talamucci eq. 18 in Lagrangian form):
/// `d/dt energy = F . qd - dL/dt|_explicit + R . qd`, where R is the reaction that the
/// formulation's accelerations imply, `R = A qdd + h - F` with `qdd = d/dt psi`.
pub struct PowerTerms {
    /// Symbols standing for dz/dt (bound at run time to the model's own `rhs`).
    pub zdot: Vec<u32>,
    /// `[F . qd, -dL/dt, R . qd]` in q, z, t and `zdot`.
    pub terms: [Id; 3],
}

pub fn power_terms(low: &mut Lowered, lt: &LagrangeTerms, qdot: &[Id]) -> PowerTerms {
    let g = &mut low.graph;
    let s = &low.syms;
    let n = s.q.len();
    let at_psi: HashMap<u32, Id> = s.qd.iter().copied().zip(qdot.iter().copied()).collect();
    let zdot: Vec<u32> = (0..s.z.len())
        .map(|k| g.new_symbol(&format!("zdot[{k}]")))
        .collect();
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
    let h = g.subst_many(&lt.h, &at_psi);
    let mut p_forces = Vec::with_capacity(n);
    let mut p_react = Vec::with_capacity(n);
    for i in 0..n {
        p_forces.push(g.mul(f[i], qdot[i]));
        let mut r = Vec::with_capacity(n + 2);
        for j in 0..n {
            r.push(g.mul(lt.mass_matrix_a[i][j], qdd[j]));
        }
        r.push(h[i]);
        r.push(g.neg(f[i]));
        let ri = g.add_all(&r);
        let ri = g.define_if_large(&format!("R[{i}]"), ri, 24);
        p_react.push(g.mul(ri, qdot[i]));
    }
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
    }
}
