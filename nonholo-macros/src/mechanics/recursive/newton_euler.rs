//! Recursive Newton–Euler (Featherstone 2008, table 5.1) on the tree [`super::derive()`]
//! reads: the reactions `R = A qdd + h - F` at the solved accelerations.

use super::super::spatial::{define, dot6, mat6_vec, Mat6, Six};
use super::tree::{carried_down, carried_up, Joint, Port, Up};
use crate::model::Symbols;
use crate::sym::HashMap;
use crate::sym::{Graph, Id};

/// Adds a root body's work along its partial velocities to the reactions: `(d x / d
/// dot(q_i)) . load` for the coordinates `partial_coords` (at `dot(q) = psi`); none at all
/// where `x` moves with a joint's velocity (the body is not the root's).
pub(super) fn add_partial_work(
    g: &mut Graph,
    (x, load): (&[Id; 3], [Id; 3]),
    (syms, at_psi): (&Symbols, &HashMap<u32, Id>),
    (joint_qd, partial_coords): (&[u32], &[usize]),
    reactions: &mut Option<Vec<Id>>,
) {
    if x.iter().any(|e| g.depends_on_any(*e, joint_qd)) {
        *reactions = None;
    }
    let Some(r) = reactions.as_mut() else {
        return;
    };
    for i in partial_coords {
        let d = x.map(|e| g.diff(e, syms.qd[*i]));
        if d.iter().all(|e| g.is_zero(*e)) {
            continue;
        }
        let d = d.map(|e| g.subst(e, at_psi));
        let terms: Vec<Id> = (0..3).map(|k| g.mul(d[k], load[k])).collect();
        let w = g.add_all(&terms);
        r[*i] = g.add(r[*i], w);
    }
}

/// The links' spatial forces by recursive Newton–Euler at given accelerations.
pub(super) struct LinkForces {
    /// Each joint's link and subtree: `f = I a + v x* I v - f_ext` summed from the leaves
    /// up, in its frame at its point.
    pub(super) f: Vec<Six>,
    /// Each port's subtree force in the root's frame at the port (`X^T f`), by joint.
    pub(super) at_ports: Vec<(usize, Six)>,
}

/// Recursive Newton–Euler (Featherstone 2008, table 5.1) at the accelerations `zdot`:
/// each link's `f = I a + v x* I v - f_ext` summed from the leaves up.
pub(super) fn newton_euler(
    g: &mut Graph,
    (kin, joints, ports): (&crate::kinematics::Kin, &[Joint], &[Port]),
    (bias_c, links): (&[Six], &[(Mat6, Six)]),
    (root_speeds, zdot): (&[usize], &[u32]),
) -> Option<LinkForces> {
    let nj = joints.len();
    let z0 = g.zero();
    let mut acc: Vec<Six> = vec![[z0; 6]; nj];
    let zd: Vec<Id> = zdot.iter().map(|z| g.sym(*z)).collect();
    for j in 0..nj {
        let name = format!("rnea_{}", kin.names[joints[j].frame]);
        let mut a = carried_down(
            g,
            (kin, joints, ports),
            j,
            (&acc, Some(&bias_c[j])),
            (root_speeds, &zd),
        )?;
        let axis = joints[j].axis;
        a[axis] = g.add(a[axis], zd[joints[j].speed]);
        acc[j] = a.map(|x| define(g, &format!("{name}_a"), x));
    }
    let mut total: Vec<Six> = (0..nj)
        .map(|j| {
            let (i, p) = &links[j];
            let ia = mat6_vec(g, i, acc[j]);
            [0, 1, 2, 3, 4, 5].map(|k| g.add(ia[k], p[k]))
        })
        .collect();
    let mut at_ports = Vec::new();
    for j in (0..nj).rev() {
        let name = format!("rnea_{}", kin.names[joints[j].frame]);
        let f = total[j].map(|x| define(g, &format!("{name}_f"), x));
        total[j] = f;
        let up = carried_up(g, kin, &joints[j], f);
        match joints[j].parent {
            Up::Joint(p) => {
                for k in 0..6 {
                    total[p][k] = g.add(total[p][k], up[k]);
                }
            }
            Up::Root(_) => at_ports.push((j, up.map(|x| define(g, &format!("{name}_port"), x)))),
        }
    }
    Some(LinkForces { f: total, at_ports })
}

/// Adds the links' share of the reactions to `r`: a joint coordinate's `S^T f` and each
/// port's force along its partial velocities.
pub(super) fn add_link_reactions(
    g: &mut Graph,
    (joints, ports): (&[Joint], &[Port]),
    forces: &LinkForces,
    r: &mut [Id],
) -> Option<()> {
    for (j, f) in joints.iter().zip(&forces.f) {
        r[j.coord] = g.add(r[j.coord], f[j.axis]);
    }
    for (j, up) in &forces.at_ports {
        let port = ports.iter().find(|p| p.joint == *j)?;
        for (i, d) in &port.partials {
            let w = dot6(g, *d, *up);
            r[*i] = g.add(r[*i], w);
        }
    }
    Some(())
}
