//! The independent diagonal blocks of G and how the speeds of each get their `dz/dt`: the
//! plan that the rhs ([`super::first_method`]) and the Jacobian ([`super::jacobians`])
//! both follow.

use crate::mechanics::first_method::FirstMethod;
use crate::sym::Graph;

/// How the speeds of one independent block of G get their `dz/dt`, in the rhs
/// ([`super::first_method`]'s `g_rhs`) and in the Jacobian ([`super::jacobians`]) alike.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum BlockSolve {
    /// No forcing on them (nor a closed form): constant speeds.
    Constant,
    /// A speed alone in its block with `dz/dt` in closed form (`FirstMethod::explicit`).
    Explicit,
    /// From the block of G and the forcing.
    Solved,
}

/// The independent blocks of G ([`g_blocks`]), each with how it is solved.
pub(super) fn block_plan(
    g: &Graph,
    d: &FirstMethod,
    diagonal: bool,
) -> Vec<(Vec<usize>, BlockSolve)> {
    g_blocks(g, d, diagonal)
        .into_iter()
        .map(|blk| {
            let how = if blk
                .iter()
                .all(|a| g.is_zero(d.explicit[*a].unwrap_or(d.forcing_rest[*a])))
            {
                BlockSolve::Constant
            } else if d.explicit[blk[0]].is_some() {
                BlockSolve::Explicit
            } else {
                BlockSolve::Solved
            };
            (blk, how)
        })
        .collect()
}

/// The independent diagonal blocks of G (e.g. the momenta and the lean of the unicycle)
/// among the speeds not assigned in closed form.
fn g_blocks(g: &Graph, d: &FirstMethod, diagonal: bool) -> Vec<Vec<usize>> {
    let nz = d.forcing.len();
    let solved = |a: usize| d.explicit[a].is_some() && !d.alone[a];
    if diagonal {
        return (0..nz).map(|a| vec![a]).collect();
    }
    let mut block_of: Vec<usize> = (0..nz).collect();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for a in (0..nz).filter(|a| !solved(*a)) {
        for b in (0..a).filter(|b| !solved(*b)) {
            if !g.is_zero(d.mass_matrix_g.at(a, b)) {
                let (ra, rb) = (root(&mut block_of, a), root(&mut block_of, b));
                block_of[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    let mut blocks: Vec<Vec<usize>> = Vec::new();
    for a in (0..nz).filter(|a| !solved(*a)) {
        let r = root(&mut block_of, a);
        match blocks.iter_mut().find(|b| b[0] == r) {
            Some(b) => b.push(a),
            None => blocks.push(vec![a]),
        }
    }
    blocks
}
