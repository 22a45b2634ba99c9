//! The residual's derivatives in each port's frame, after Carpentier and Mansard (2018,
//! *Analytical derivatives of rigid body dynamics algorithms*): what a joint's coordinate
//! or speed does to the subtree below it is the same for every body of that subtree once
//! their spatial vectors are written in one frame, so a column of `dr/dx` costs a few
//! products with the subtree's composite terms instead of a pass down it.
//!
//! In the frame `P` of a port (the root frame it hangs from, at its point) the links'
//! geometry depends on the joint angles only; `v_k`, `a_k` (with `-g` folded into the
//! port's acceleration) and the link forces `f_k = I_k a_k + v_k x* I_k v_k` obey
//! `v_j = v_λ + S_j z_j`, `a_j = a_λ + S_j zdot_j + (v_j x S_j) z_j`. For incoming
//! perturbations `dv`, `da` at joint `j` (every body below `j` sees the same ones), the
//! subtree's force changes by
//!
//! `dF = I^C da~ - M^C dv + dv x* h^C`, `da~ = da + v_λ x dv`,
//!
//! with the composites `I^C = Σ I_k`, `h^C = Σ I_k v_k`, `M^C = Σ (I_k crm(v_k) +
//! (I_k crm(v_k))^T)` over the subtree. A joint's speed is `dv = S_j`, `da = v_λ x S_j`; its
//! coordinate turns the subtree by `S_j` (`dv = -S_j x v_λ`, `da = -S_j x a_λ`, and the
//! subtree's force turns: `+ S_j x* F_j` seen from above); a root column is the port's
//! `d nu/dx`, `d a_0/dx`. A row `i` below the column's joint reads `S_i . dF_i =
//! rho_i . da~ + sigma_i . dv` (`rho = I^C S`, `sigma = -M^C S - S x* h^C`), a row above
//! it or a root row `S_i . dF_j` (and a root column also `ds/dx . F` on the root's rows). The runtime's `tree_tangents` assembles these; here are
//! the per-joint terms it reads.

use super::super::spatial::{cross_motion, define, mat6_vec, spatial_inertia, Mat6, Six};
use super::tree::{Joint, Port, Up};
use crate::kinematics::bodies::MassBody;
use crate::kinematics::vector::{cross3, dot3, mat_vec, Vector};
use crate::kinematics::Kin;
use crate::sym::HashMap;
use crate::sym::{Graph, Id};

/// Per joint, in its port's frame: `S`, `v_λ`, `a_λ` (with `-g`), `F` (its subtree's
/// force), `h^C`, `I^C` (36, row-major), `M^C` (36).
pub const TERMS: usize = 102;

/// What [`super::Recursive::tangents`] gives `jacobians`.
pub struct TreeTangents {
    pub joints: Vec<TangentJoint>,
    pub ports: Vec<TangentPort>,
    /// The root's speeds, the rows of the ports' `s`.
    pub root_speeds: Vec<usize>,
    /// The rest of the residual, for forward mode: a joint's `-torque`, a root speed's
    /// `K zdot - f` of the root bodies and forces.
    pub rest: Vec<Id>,
}

impl TreeTangents {
    /// What forward mode differentiates: [`Self::rest`], then each port's motion.
    pub fn outputs(&self) -> impl Iterator<Item = Id> + '_ {
        let motions = self.ports.iter().flat_map(|p| p.motion.iter());
        self.rest.iter().chain(motions).copied()
    }

    /// What the runtime's `tree_tangents` reads: each joint's [`TERMS`], then each port's
    /// `s` by root speed.
    pub fn values(&self) -> impl Iterator<Item = Id> + '_ {
        let terms = self.joints.iter().flat_map(|j| j.terms.iter());
        let s = self.ports.iter().flat_map(|p| p.s.iter().flatten());
        terms.chain(s).copied()
    }

    /// The ports' motions' outputs: `nu`, `a_0` and `s` of each.
    pub fn motions(&self) -> usize {
        self.ports.iter().map(|p| p.motion.len()).sum()
    }

    /// About the arithmetic of the runtime's `tree_tangents` without the root columns: per
    /// joint `rho`, `sigma` and its two columns' `dF` (530), for each joint on a row's way
    /// up two products of twelve with its columns, and one of six the other way, and the
    /// root's rows of each column.
    pub fn assembly_cost(&self) -> usize {
        let k = self.root_speeds.len();
        let mut cost = 0;
        for joint in &self.joints {
            let mut above = 0;
            let mut p = joint.parent;
            while let Some(a) = p {
                above += 1;
                p = self.joints[a].parent;
            }
            cost += 530 + 2 * 23 * (above + 1) + 2 * 11 * (above + k);
        }
        cost
    }
}

pub struct TangentJoint {
    /// Its parent joint (`None` at a port).
    pub parent: Option<usize>,
    pub port: usize,
    pub speed: usize,
    pub coord: usize,
    /// [`TERMS`] values.
    pub terms: Vec<Id>,
}

pub struct TangentPort {
    /// The joint it carries.
    pub top: usize,
    /// `d nu / d z_R`, by root speed.
    pub s: Vec<Six>,
    /// `nu`, `a_0 = bias + s zdot_R - g` and `s`: forward mode gives their columns.
    pub motion: Vec<Id>,
}

/// The trees' terms, or `None` where a port's motion depends on a joint (the residual's
/// own tangents are taken then).
#[allow(clippy::too_many_arguments)]
pub(super) fn tree_tangents(
    g: &mut Graph,
    (kin, joints, ports): (&Kin, &[Joint], &[Port]),
    (bodies, centre, gravity): (&[MassBody], &HashMap<usize, [Id; 3]>, Option<&Vector>),
    link_f: &[Six],
    (z, root_speeds, zdot, joint_coords): (&[u32], &[usize], &[u32], &[u32]),
    (torque, k_bodies, f_bodies): (&[Id], &[Vec<Id>], &[Id]),
) -> Option<TreeTangents> {
    let z0 = g.zero();
    let one = g.one();
    let nj = joints.len();
    let zd: Vec<Id> = zdot.iter().map(|z| g.sym(*z)).collect();
    // each joint's rotation into its port's frame (rows), its point there
    let mut rot: Vec<[[Id; 3]; 3]> = Vec::with_capacity(nj);
    let mut at: Vec<[Id; 3]> = Vec::with_capacity(nj);
    let mut port_of = vec![0usize; nj];
    let mut s_p: Vec<Six> = Vec::with_capacity(nj);
    let mut vel: Vec<Six> = Vec::with_capacity(nj);
    let mut acc: Vec<Six> = Vec::with_capacity(nj);
    let mut incoming: Vec<(Six, Six)> = Vec::with_capacity(nj);
    let mut t_ports = Vec::new();
    for (j, joint) in joints.iter().enumerate() {
        let f = joint.frame;
        let name = format!("cm_{}", kin.names[f]);
        let (rows, p, v0, a0) = match joint.parent {
            Up::Root(rf) => {
                let port = ports.iter().position(|p| p.joint == j)?;
                let pt = &ports[port];
                let gp = match gravity {
                    Some(gv) => kin.tree.express(g, gv, rf),
                    None => [z0; 3],
                };
                let mut a0 = pt.bias;
                for (k, s) in root_speeds.iter().zip(&pt.s) {
                    for r in 0..6 {
                        let e = g.mul(s[r], zd[*k]);
                        a0[r] = g.add(a0[r], e);
                    }
                }
                for r in 0..3 {
                    a0[3 + r] = g.sub(a0[3 + r], gp[r]);
                }
                let nu = pt.nu;
                let moves = nu
                    .iter()
                    .chain(&a0)
                    .chain(pt.s.iter().flatten())
                    .any(|x| g.depends_on_any(*x, joint_coords));
                if moves {
                    return None;
                }
                port_of[j] = t_ports.len();
                let motion: Vec<Id> = nu
                    .iter()
                    .chain(&a0)
                    .chain(pt.s.iter().flatten())
                    .copied()
                    .collect();
                t_ports.push(TangentPort {
                    top: j,
                    s: pt.s.clone(),
                    motion,
                });
                let a0 = a0.map(|x| define(g, &format!("{name}_a0"), x));
                let id = [[one, z0, z0], [z0, one, z0], [z0, z0, one]];
                (id, [z0; 3], nu, a0)
            }
            Up::Joint(p) => {
                port_of[j] = port_of[p];
                let mut pj = at[p];
                if let Some(r) = joint.offset {
                    let rr = mat_vec(g, &rot[p], r);
                    pj = [0, 1, 2].map(|k| g.add(pj[k], rr[k]));
                }
                (rot[p], pj, vel[p], acc[p])
            }
        };
        let r: [[Id; 3]; 3] = [0, 1, 2].map(|k| {
            kin.tree
                .down(g, f, rows[k])
                .map(|x| define(g, &format!("{name}_R"), x))
        });
        let p = p.map(|x| define(g, &format!("{name}_p"), x));
        let axis = [0, 1, 2].map(|k| r[k][joint.axis]);
        let m = cross3(g, p, axis);
        let s: Six = [axis[0], axis[1], axis[2], m[0], m[1], m[2]];
        let s = s.map(|x| define(g, &format!("{name}_S"), x));
        let zj = g.sym(z[joint.speed]);
        let v: Six = [0, 1, 2, 3, 4, 5].map(|k| {
            let e = g.mul(s[k], zj);
            g.add(v0[k], e)
        });
        let v = v.map(|x| define(g, &format!("{name}_v"), x));
        let vs = cross_motion(g, v, s);
        let a: Six = [0, 1, 2, 3, 4, 5].map(|k| {
            let e = g.mul(s[k], zd[joint.speed]);
            let c = g.mul(vs[k], zj);
            g.add_all(&[a0[k], e, c])
        });
        let a = a.map(|x| define(g, &format!("{name}_a"), x));
        rot.push(r);
        at.push(p);
        s_p.push(s);
        vel.push(v);
        acc.push(a);
        incoming.push((v0, a0));
    }
    // the links' composites, from the leaves up (one frame: plain sums)
    let mut ic: Vec<Mat6> = vec![[[z0; 6]; 6]; nj];
    let mut mc: Vec<Mat6> = vec![[[z0; 6]; 6]; nj];
    let mut hc: Vec<Six> = vec![[z0; 6]; nj];
    for (j, joint) in joints.iter().enumerate() {
        for b in &joint.bodies {
            let body = &bodies[*b];
            let ibar = match &body.inertia {
                None => [z0; 6],
                Some((_, i)) => *i,
            };
            let c = mat_vec(g, &rot[j], centre[b]);
            let c = [0, 1, 2].map(|k| g.add(at[j][k], c[k]));
            let ip = rotate_inertia(g, &rot[j], ibar);
            let i6 = spatial_inertia(g, body.mass, c, ip);
            let i6 = i6.map(|row| row.map(|x| define(g, "cm_I", x)));
            let h = mat6_vec(g, &i6, vel[j]);
            // I crm(v), column by column: I (v x e_c)
            let m1_cols: [Six; 6] = [0, 1, 2, 3, 4, 5].map(|c| {
                let mut e = [z0; 6];
                e[c] = one;
                let ve = cross_motion(g, vel[j], e);
                mat6_vec(g, &i6, ve)
            });
            let m1: Mat6 = [0, 1, 2, 3, 4, 5].map(|r| [0, 1, 2, 3, 4, 5].map(|c| m1_cols[c][r]));
            for r in 0..6 {
                hc[j][r] = g.add(hc[j][r], h[r]);
                for col in 0..6 {
                    ic[j][r][col] = g.add(ic[j][r][col], i6[r][col]);
                    let e = g.add(m1[r][col], m1[col][r]);
                    mc[j][r][col] = g.add(mc[j][r][col], e);
                }
            }
        }
    }
    for j in (0..nj).rev() {
        let name = format!("cm_{}", kin.names[joints[j].frame]);
        ic[j] = super::super::spatial::sym_define(g, &format!("{name}_IC"), &ic[j]);
        mc[j] = super::super::spatial::sym_define(g, &format!("{name}_MC"), &mc[j]);
        hc[j] = hc[j].map(|x| define(g, &format!("{name}_hC"), x));
        if let Up::Joint(p) = joints[j].parent {
            for r in 0..6 {
                hc[p][r] = g.add(hc[p][r], hc[j][r]);
                for c in 0..6 {
                    ic[p][r][c] = g.add(ic[p][r][c], ic[j][r][c]);
                    mc[p][r][c] = g.add(mc[p][r][c], mc[j][r][c]);
                }
            }
        }
    }
    let mut t_joints = Vec::with_capacity(nj);
    for (j, joint) in joints.iter().enumerate() {
        // the subtree's force (recursive Newton–Euler's, in the joint's frame) in P
        let fj = link_f[j];
        let n = mat_vec(g, &rot[j], [fj[0], fj[1], fj[2]]);
        let fl = mat_vec(g, &rot[j], [fj[3], fj[4], fj[5]]);
        let pf = cross3(g, at[j], fl);
        let fp: Six =
            [0, 1, 2, 3, 4, 5].map(|k| if k < 3 { g.add(n[k], pf[k]) } else { fl[k - 3] });
        let mut terms = Vec::with_capacity(TERMS);
        terms.extend(s_p[j]);
        terms.extend(incoming[j].0);
        terms.extend(incoming[j].1);
        terms.extend(fp);
        terms.extend(hc[j]);
        terms.extend(ic[j].iter().flatten());
        terms.extend(mc[j].iter().flatten());
        t_joints.push(TangentJoint {
            parent: match joint.parent {
                Up::Joint(p) => Some(p),
                Up::Root(_) => None,
            },
            port: port_of[j],
            speed: joint.speed,
            coord: joint.coord,
            terms,
        });
    }
    // the rest of the residual: the torques, the root bodies' share
    let nz = torque.len();
    let mut rest: Vec<Id> = (0..nz).map(|k| g.neg(torque[k])).collect();
    for (a, ra) in root_speeds.iter().enumerate() {
        let mut terms = vec![g.neg(f_bodies[a])];
        for (b, rb) in root_speeds.iter().enumerate() {
            terms.push(g.mul(k_bodies[a][b], zd[*rb]));
        }
        rest[*ra] = g.add_all(&terms);
    }
    Some(TreeTangents {
        joints: t_joints,
        ports: t_ports,
        root_speeds: root_speeds.to_vec(),
        rest,
    })
}

/// `R I R^T` of `(ixx, iyy, izz, ixy, iyz, izx)`, in the same order.
fn rotate_inertia(g: &mut Graph, r: &[[Id; 3]; 3], i: [Id; 6]) -> [Id; 6] {
    let m = [[i[0], i[3], i[5]], [i[3], i[1], i[4]], [i[5], i[4], i[2]]];
    // t[b] = I r_b (r_b: row b of R)
    let t: [[Id; 3]; 3] = [0, 1, 2].map(|b| mat_vec(g, &m, r[b]));
    let mut e = |a: usize, b: usize| dot3(g, r[a], t[b]);
    [e(0, 0), e(1, 1), e(2, 2), e(0, 1), e(1, 2), e(2, 0)]
}
