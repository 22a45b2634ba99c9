//! The exact Jacobian of the right-hand side, as a Jacobian-vector product (what implicit
//! integrators need): symbolic forward-mode derivatives of every symbolic piece in a
//! direction `v` of state space; the small linear solves are differentiated at run time
//! (`d(G^-1 f) = G^-1 (df - dG G^-1 f)`).

use super::multipliers::MultiplierTerms;
use super::Derived;
use crate::sym::lower::Symbols;
use crate::sym::{Graph, Id};
use std::collections::HashMap;

/// Directional derivatives of a first-method model's pieces.
pub struct Jvp {
    /// One direction symbol per state component (`[q, z]` or `[q, dot(q)]`).
    pub dirs: Vec<u32>,
    pub dqdot: Vec<Id>,
    pub dg: Vec<Vec<Id>>,
    pub dforcing: Vec<Id>,
}

fn directions(g: &mut Graph, state: &[u32]) -> (Vec<u32>, HashMap<u32, Id>) {
    let dirs: Vec<u32> = (0..state.len())
        .map(|k| g.new_symbol(&format!("v[{k}]")))
        .collect();
    let map = state
        .iter()
        .zip(&dirs)
        .map(|(s, d)| (*s, g.sym(*d)))
        .collect();
    (dirs, map)
}

/// JVP pieces for a model with state `[q, z]`.
pub fn first_method(g: &mut Graph, syms: &Symbols, d: &Derived) -> Jvp {
    let state: Vec<u32> = syms.q.iter().chain(&syms.z).copied().collect();
    let (dirs, map) = directions(g, &state);
    let mut memo = HashMap::new();
    let dqdot = d
        .qdot
        .iter()
        .map(|e| g.directional(*e, &map, &mut memo))
        .collect();
    let dg = d
        .mass_matrix_g
        .iter()
        .map(|row| {
            row.iter()
                .map(|e| g.directional(*e, &map, &mut memo))
                .collect()
        })
        .collect();
    let dforcing = d
        .forcing
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
    pub da: Vec<Vec<Id>>,
    pub dl: Vec<Id>,
    pub dc: Vec<Vec<Id>>,
    pub ddrift: Vec<Id>,
}

pub fn second_method(g: &mut Graph, syms: &Symbols, mt: &MultiplierTerms) -> MultiplierJvp {
    let state: Vec<u32> = syms.q.iter().chain(&syms.qd).copied().collect();
    let (dirs, map) = directions(g, &state);
    let mut memo = HashMap::new();
    let mut dmat = |g: &mut Graph, m: &[Vec<Id>]| -> Vec<Vec<Id>> {
        m.iter()
            .map(|row| {
                row.iter()
                    .map(|e| g.directional(*e, &map, &mut memo))
                    .collect()
            })
            .collect()
    };
    let da = dmat(g, &mt.mass_matrix_a);
    let dc = dmat(g, &mt.constraint_jacobian);
    let mut memo = HashMap::new();
    let dl = mt
        .lagrange_l
        .iter()
        .map(|e| g.directional(*e, &map, &mut memo))
        .collect();
    let ddrift = mt
        .drift
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
