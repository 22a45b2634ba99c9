//! Featherstone's articulated-body algorithm (Featherstone 2008, *Rigid Body Dynamics
//! Algorithms*, table 7.1) unrolled for the model: `dz/dt` of every speed at a cost linear
//! in the bodies, every joint velocity, bias, articulated inertia and force a named atom.
//!
//! The tree is read off the model's frames. A frame turned from its parent by a coordinate
//! whose velocity is a speed of its own (`dot(q_k) = z_j`, and `z_j` in no other velocity)
//! is a revolute *joint*; the bodies on such frames are the *links*, each with its joint
//! point (its centre less the terms written in its joint frames) fixed in the link above.
//! Everything else is the *root*: the bodies whose frames are not joints (a rolling disk
//! with its carrier, a robot's base with its wheels), whose motion is `S(q) z_R` in the
//! other speeds `z_R` whatever the constraints that gave it. Each subtree of links hangs
//! from a *port* of the root (a frame and a point); the root's equation in `z_R` is the
//! root bodies' (Kane's `sum_b J_b^T M_b J_b`, as [`super::rigid`]) plus each port's
//! articulated inertia and bias seen through its `S`, a `k x k` solve, and the forward
//! pass gives the links' accelerations from it.
//!
//! The reactions `R = A qdd + h - F` that `Contacts` and the power balance report come from
//! the same tree by recursive Newton–Euler (table 5.1) at the solved `dz/dt`: each link's
//! `f = I a + v x* I v - f_ext` summed from the leaves up, a joint coordinate's `S^T f`, and
//! the root coordinates' the root bodies' and ports' forces along their partial velocities
//! (Kane's form), linear in the bodies where `A qdd` is quadratic.
//!
//! For `jacobians`, the same Newton–Euler gives the residual `G zdot - forcing`
//! ([`Recursive::residual`]) and [`port_frame`] the terms of its derivatives by the
//! subtrees' composites (Carpentier and Mansard 2018), linear in the joints.
//!
//! Voronec's and Boltzmann–Hamel's equations take the route too ([`on_psi`]) where their
//! speeds leave the joints' velocities speeds of their own: every first-method formulation
//! projects the same Lagrange equations, so the same `dz/dt` solves them.
//!
//! Spatial vectors are `(angular, linear)` in the frame of their node at its reference
//! point, and their accelerations are the rates of those components (body coordinates:
//! `f = I a + v x* I v`, Featherstone 2.67). Gravity acts on each link as a force at its
//! centre. The generalized forces (`forces`, loads) act as joint torques on the joints'
//! speeds and through `psi_z^T F` on the root's; energy written as a scalar keeps the
//! body-wise route.

mod newton_euler;
pub mod port_frame;
mod tree;
mod unit_solve;

use super::spatial::{
    add_projection, cross_force, define, dot6, mat6_vec, rotate_up, shift, spatial_inertia,
    sym_define, v_of, w_of, Mat6, Six,
};
use crate::kinematics::vector::{cross3, mat_vec};
use crate::kinematics::Clock;
use crate::model::{Symbols, TreeSource};
use crate::sym::HashMap;
use crate::sym::{Graph, Id};
use newton_euler::{add_link_reactions, add_partial_work, newton_euler};
use tree::{carried_up, forward_pass, read_tree, Port, Reading, Up};
use unit_solve::unit_solve;

/// `dz/dt` from the articulated-body algorithm.
pub struct Recursive {
    /// `dz/dt` of every speed, in q, z, t.
    pub accelerations: Vec<Id>,
    /// `D_i = S_i^T I^A_i S_i` of every joint (table 7.1): positive where G is.
    pub pivots: Vec<Id>,
    /// Symbols standing for dz/dt in [`Self::reactions`] (bound at run time to the rhs's).
    pub zdot: Vec<u32>,
    /// The generalized reactions `R = A qdd + h - F` (one per coordinate) by recursive
    /// Newton–Euler (Featherstone 2008, table 5.1) at `zdot`, where every coordinate's
    /// partial velocities could be read off the tree.
    pub reactions: Option<Vec<Id>>,
    /// The equations' residual `r = G zdot - forcing` (one per speed) by recursive
    /// Newton–Euler, in q, z, t and `zdot`: zero at the solved `dz/dt`, and `dr/d zdot =
    /// G`, so `d(dz/dt)/dx = -G^-1 dr/dx` at `zdot` held (Carpentier and Mansard 2018's
    /// route to the articulated-body algorithm's derivatives: differentiate inverse
    /// dynamics, not the forward recursion).
    pub residual: Vec<Id>,
    /// `G^-1 b` for the symbols `b` (one per speed): the passes again without velocities,
    /// gravity or forces, sharing the articulated inertias and pivots of
    /// [`Self::accelerations`].
    pub solve: (Vec<u32>, Vec<Id>),
    /// The residual's derivatives by the subtrees' composites ([`port_frame`]), where the
    /// ports' motions do not depend on the joints.
    pub tangents: Option<port_frame::TreeTangents>,
}

/// [`derive()`] for a formulation that keeps `psi` as it derived it (Voronec's, Boltzmann–
/// Hamel's): its components named where large, as Gibbs–Appell names them.
pub fn on_psi(low: &mut crate::model::Lowered, psi: &[Id]) -> Option<Recursive> {
    let src = low.tree.as_deref_mut()?;
    let g = &mut low.graph;
    let psi_atoms: Vec<Id> = psi
        .iter()
        .enumerate()
        .map(|(i, p)| g.define_if_large(&format!("psi[{}]", low.names.coords[i]), *p, 24))
        .collect();
    derive(
        g,
        &low.syms,
        &low.rigid,
        src,
        (psi, &psi_atoms),
        &low.forces,
    )
}

/// The accelerations by the articulated-body algorithm, or `None` where the model is not
/// a tree of revolute joints on a root (or has loads the route does not take).
pub fn derive(
    g: &mut Graph,
    syms: &Symbols,
    rigid: &[crate::kinematics::bodies::RigidTerm],
    src: &mut TreeSource,
    (psi, psi_atoms): (&[Id], &[Id]),
    forces: &[Id],
) -> Option<Recursive> {
    let (nq, nz) = (syms.q.len(), syms.z.len());
    let Reading {
        joints,
        root_body,
        centre,
    } = read_tree(g, syms, psi, src)?;
    let kin = &mut src.kin;
    let joint_speeds: Vec<usize> = joints.iter().map(|j| j.speed).collect();
    let root_speeds: Vec<usize> = (0..nz).filter(|a| !joint_speeds.contains(a)).collect();
    let joint_syms: Vec<u32> = joint_speeds.iter().map(|j| syms.z[*j]).collect();
    let at_psi: HashMap<u32, Id> = syms
        .qd
        .iter()
        .copied()
        .zip(psi_atoms.iter().copied())
        .collect();
    let mut along: HashMap<u32, Id> = syms
        .q
        .iter()
        .copied()
        .zip(psi_atoms.iter().copied())
        .collect();
    let one = g.one();
    along.insert(syms.t, one);
    let mut memo = HashMap::default();
    // for the reactions: along (dq, dz, dt) = (psi, zdot, 1)
    let zdot: Vec<u32> = (0..nz)
        .map(|k| g.new_symbol(&format!("zdot[{k}]")))
        .collect();
    let mut along_full = along.clone();
    for (z, zd) in syms.z.iter().zip(&zdot) {
        let zd = g.sym(*zd);
        along_full.insert(*z, zd);
    }
    let mut memo_full = HashMap::default();
    let joint_coords: Vec<usize> = joints.iter().map(|j| j.coord).collect();
    let partial_coords: Vec<usize> = (0..nq).filter(|i| !joint_coords.contains(i)).collect();
    let joint_qd: Vec<u32> = joint_coords.iter().map(|i| syms.qd[*i]).collect();
    // R = A qdd + h - F, built up as the passes go; None once a partial velocity is not
    // the tree's
    let mut reactions: Option<Vec<Id>> = Some(vec![g.zero(); nq]);
    let clock = Clock {
        t: syms.t,
        q: syms.q.clone(),
        qd: syms.qd.clone(),
    };
    let z0 = g.zero();
    let mut k_root = vec![vec![z0; root_speeds.len()]; root_speeds.len()];
    let mut f_root = vec![z0; root_speeds.len()];

    // the generalized forces: a joint coordinate's on its own speed, the rest through
    // psi_z^T F on the root's speeds
    let mut torque = vec![z0; nz];
    for (i, f) in forces.iter().enumerate() {
        if g.is_zero(*f) {
            continue;
        }
        let f = g.subst(*f, &at_psi);
        match joints.iter().find(|j| j.coord == i) {
            Some(j) => torque[j.speed] = g.add(torque[j.speed], f),
            None => {
                for (r, a) in root_speeds.iter().enumerate() {
                    let d = g.diff(psi[i], syms.z[*a]);
                    if !g.is_zero(d) {
                        let e = g.mul(d, f);
                        f_root[r] = g.add(f_root[r], e);
                    }
                }
            }
        }
    }

    // the root bodies: their share of the root's equation, body-wise
    for (b, term) in rigid.iter().enumerate() {
        if !root_body.get(b).copied().unwrap_or(true) {
            continue;
        }
        let v = term.velocity.map(|x| g.subst(x, &at_psi));
        let w_f = term.omega_velocity.map(|x| g.subst(x, &at_psi));
        if v.iter().any(|x| g.depends_on_any(*x, &joint_syms)) {
            return None;
        }
        let dv = v.map(|x| g.directional(x, &along, &mut memo));
        let wv = cross3(g, w_f, v);
        let bias = [0, 1, 2].map(|k| {
            let a = g.add(dv[k], wv[k]);
            let a = g.sub(a, term.gravity[k]);
            g.mul(term.mass, a)
        });
        let s: Vec<[Id; 3]> = root_speeds
            .iter()
            .map(|a| v.map(|x| g.diff(x, syms.z[*a])))
            .collect();
        let ms: Vec<[Id; 3]> = s.iter().map(|c| c.map(|x| g.mul(term.mass, x))).collect();
        add_projection(g, (&s, &ms, bias), &mut k_root, &mut f_root);
        if reactions.is_some() {
            // m (a - g) along its partial velocities
            let da = v.map(|x| g.directional(x, &along_full, &mut memo_full));
            let force = [0, 1, 2].map(|k| {
                let a = g.add(da[k], wv[k]);
                let a = g.sub(a, term.gravity[k]);
                g.mul(term.mass, a)
            });
            add_partial_work(
                g,
                (&term.velocity, force),
                (syms, &at_psi),
                (&joint_qd, &partial_coords),
                &mut reactions,
            );
        }
        if let Some(spin) = &term.spin {
            let w = spin.omega.map(|x| g.subst(x, &at_psi));
            let wk = spin.omega_frame.map(|x| g.subst(x, &at_psi));
            if w.iter().any(|x| g.depends_on_any(*x, &joint_syms)) {
                return None;
            }
            let h = mat_vec(g, &spin.inertia, w);
            let dw = w.map(|x| g.directional(x, &along, &mut memo));
            let idw = mat_vec(g, &spin.inertia, dw);
            let t = cross3(g, wk, h);
            let bias = [0, 1, 2].map(|k| g.add(idw[k], t[k]));
            let s: Vec<[Id; 3]> = root_speeds
                .iter()
                .map(|a| w.map(|x| g.diff(x, syms.z[*a])))
                .collect();
            let is: Vec<[Id; 3]> = s.iter().map(|c| mat_vec(g, &spin.inertia, *c)).collect();
            add_projection(g, (&s, &is, bias), &mut k_root, &mut f_root);
            if reactions.is_some() {
                // I dw/dt + w_K x I w along its partial angular velocities
                let dw = w.map(|x| g.directional(x, &along_full, &mut memo_full));
                let idw = mat_vec(g, &spin.inertia, dw);
                let torque = [0, 1, 2].map(|k| g.add(idw[k], t[k]));
                add_partial_work(
                    g,
                    (&spin.omega, torque),
                    (syms, &at_psi),
                    (&joint_qd, &partial_coords),
                    &mut reactions,
                );
            }
        }
    }

    // velocities, biases and gravity down the joints
    let nj = joints.len();
    let mut ports: Vec<Port> = Vec::new();
    let mut velocity: Vec<Six> = Vec::with_capacity(nj);
    let mut gravity: Vec<[Id; 3]> = Vec::with_capacity(nj);
    let mut bias_c: Vec<Six> = Vec::with_capacity(nj);
    for j in 0..nj {
        let (f, axis, speed) = (joints[j].frame, joints[j].axis, joints[j].speed);
        let name = format!("aba_{}", kin.names[f]);
        let (wp, vp, gp) = match joints[j].parent {
            Up::Root(rf) => {
                // a port: the root frame's motion at this joint's point
                let w_qd = kin.omega_in(g, rf);
                let v = kin.velocity_of(g, joints[j].point.as_ref()?, &clock);
                let v_qd = kin.tree.express(g, &v, rf);
                let nu_qd: Six = [w_qd[0], w_qd[1], w_qd[2], v_qd[0], v_qd[1], v_qd[2]];
                if nu_qd.iter().any(|x| g.depends_on_any(*x, &joint_qd)) {
                    reactions = None;
                }
                let mut partials = Vec::new();
                for i in &partial_coords {
                    let d = nu_qd.map(|x| g.diff(x, syms.qd[*i]));
                    if d.iter().all(|x| g.is_zero(*x)) {
                        continue;
                    }
                    let d = d.map(|x| g.subst(x, &at_psi));
                    partials.push((*i, d.map(|x| define(g, &format!("{name}_port_J"), x))));
                }
                let nu = nu_qd.map(|x| g.subst(x, &at_psi));
                let nu = nu.map(|x| define(g, &format!("{name}_port_v"), x));
                if nu.iter().any(|x| g.depends_on_any(*x, &joint_syms)) {
                    return None;
                }
                let mut s: Vec<Six> = Vec::with_capacity(root_speeds.len());
                for a in &root_speeds {
                    let c = nu.map(|x| g.diff(x, syms.z[*a]));
                    s.push(c.map(|x| define(g, &format!("{name}_port_s"), x)));
                }
                let bias = nu.map(|x| g.directional(x, &along, &mut memo));
                let bias = bias.map(|x| define(g, &format!("{name}_port_a"), x));
                let gr = match &src.gravity {
                    Some(gv) => kin.tree.express(g, gv, rf),
                    None => [z0, z0, z0],
                };
                ports.push(Port {
                    joint: j,
                    nu,
                    s,
                    bias,
                    partials,
                });
                (w_of(&nu), v_of(&nu), gr)
            }
            Up::Joint(p) => (w_of(&velocity[p]), v_of(&velocity[p]), gravity[p]),
        };
        let (wp, vp) = match (joints[j].parent, joints[j].offset) {
            (Up::Joint(_), Some(r)) => {
                let wr = cross3(g, wp, r);
                (wp, [0, 1, 2].map(|k| g.add(vp[k], wr[k])))
            }
            _ => (wp, vp),
        };
        let mut w = kin.tree.down(g, f, wp);
        let zj = g.sym(syms.z[speed]);
        w[axis] = g.add(w[axis], zj);
        let v = kin.tree.down(g, f, vp);
        let gr = kin.tree.down(g, f, gp);
        let nu: Six =
            [w[0], w[1], w[2], v[0], v[1], v[2]].map(|x| define(g, &format!("{name}_v"), x));
        let gr = gr.map(|x| define(g, &format!("{name}_g"), x));
        // c = v x (S dot(q)): S = e_axis (angular)
        let mut e = [z0, z0, z0];
        e[axis] = zj;
        let cw = cross3(g, w_of(&nu), e);
        let cv = cross3(g, v_of(&nu), e);
        let c: Six =
            [cw[0], cw[1], cw[2], cv[0], cv[1], cv[2]].map(|x| define(g, &format!("{name}_c"), x));
        velocity.push(nu);
        gravity.push(gr);
        bias_c.push(c);
    }

    // the links' inertias and forces, then the articulated ones from the leaves up
    let mut ia: Vec<Mat6> = vec![[[z0; 6]; 6]; nj];
    let mut pa: Vec<Six> = vec![[z0; 6]; nj];
    for j in 0..nj {
        for &b in &joints[j].bodies.clone() {
            let body = &src.bodies[b];
            let ibar = match &body.inertia {
                None => [z0; 6],
                Some((fi, i)) if *fi == joints[j].frame => *i,
                Some(_) => return None,
            };
            let c = centre[&b];
            let inertia = spatial_inertia(g, body.mass, c, ibar);
            let nu = velocity[j];
            let inu = mat6_vec(g, &inertia, nu);
            let mut p = cross_force(g, nu, inu);
            // gravity: m g at the centre
            let mg = gravity[j].map(|x| g.mul(body.mass, x));
            let n = cross3(g, c, mg);
            let f_ext = [n[0], n[1], n[2], mg[0], mg[1], mg[2]];
            for k in 0..6 {
                p[k] = g.sub(p[k], f_ext[k]);
            }
            for r in 0..6 {
                pa[j][r] = g.add(pa[j][r], p[r]);
                for c in 0..6 {
                    ia[j][r][c] = g.add(ia[j][r][c], inertia[r][c]);
                }
            }
        }
    }
    let links: Vec<(Mat6, Six)> = (0..nj).map(|j| (ia[j], pa[j])).collect();
    let mut u_col: Vec<Six> = vec![[z0; 6]; nj];
    let mut d_inv: Vec<Id> = vec![z0; nj];
    let mut u_over_d: Vec<Id> = vec![z0; nj];
    let mut pivots = Vec::with_capacity(nj);
    let mut port_inertia: HashMap<usize, (Mat6, Six)> = HashMap::default();
    for j in (0..nj).rev() {
        let name = format!("aba_{}", kin.names[joints[j].frame]);
        let axis = joints[j].axis;
        let i_a = sym_define(g, &format!("{name}_IA"), &ia[j]);
        let p_a = pa[j].map(|x| define(g, &format!("{name}_pA"), x));
        let u = [0, 1, 2, 3, 4, 5].map(|r| i_a[r][axis]);
        let d = i_a[axis][axis];
        pivots.push(d);
        let one = g.one();
        let inv = g.div(one, d);
        let inv = define(g, &format!("{name}_Dinv"), inv);
        let uu = g.sub(torque[joints[j].speed], p_a[axis]);
        let ud = g.mul(uu, inv);
        let ud = define(g, &format!("{name}_u_D"), ud);
        u_col[j] = u;
        d_inv[j] = inv;
        u_over_d[j] = ud;
        // I^a = I^A - U U^T / D, p^a = p^A + I^a c + U u / D
        let mut i_small = [[z0; 6]; 6];
        for r in 0..6 {
            for c in r..6 {
                let uu = g.mul_all(&[u[r], u[c], inv]);
                i_small[r][c] = g.sub(i_a[r][c], uu);
                i_small[c][r] = i_small[r][c];
            }
        }
        let i_small = sym_define(g, &format!("{name}_Ia"), &i_small);
        let ic = mat6_vec(g, &i_small, bias_c[j]);
        let p_small: Six = [0, 1, 2, 3, 4, 5].map(|r| {
            let a = g.add(p_a[r], ic[r]);
            let b = g.mul(u[r], ud);
            g.add(a, b)
        });
        let p_small = p_small.map(|x| define(g, &format!("{name}_pa"), x));
        // to the parent's frame and point
        let mut i_up = rotate_up(g, kin, joints[j].frame, &i_small);
        if let Some(r) = joints[j].offset {
            i_up = shift(g, &i_up, r);
        }
        let p_up = carried_up(g, kin, &joints[j], p_small);
        match joints[j].parent {
            Up::Joint(p) => {
                for r in 0..6 {
                    pa[p][r] = g.add(pa[p][r], p_up[r]);
                    for c in 0..6 {
                        ia[p][r][c] = g.add(ia[p][r][c], i_up[r][c]);
                    }
                }
            }
            Up::Root(_) => {
                let i_up = sym_define(g, &format!("{name}_Iport"), &i_up);
                let p_up = p_up.map(|x| define(g, &format!("{name}_pport"), x));
                port_inertia.insert(j, (i_up, p_up));
            }
        }
    }

    // the root bodies' and the forces' share of the root's equation, for the residual
    let (k_bodies, f_bodies) = (k_root.clone(), f_root.clone());
    // the root: sum_ports S^T I (S dz_R + bias) + S^T p, with the root bodies'
    for port in &ports {
        let (i, p) = &port_inertia[&port.joint];
        let is: Vec<Six> = port.s.iter().map(|s| mat6_vec(g, i, *s)).collect();
        let ib = mat6_vec(g, i, port.bias);
        let f = [0, 1, 2, 3, 4, 5].map(|k| g.add(ib[k], p[k]));
        for (a, sa) in port.s.iter().enumerate() {
            for (b, isb) in is.iter().enumerate() {
                let e = dot6(g, *sa, *isb);
                k_root[a][b] = g.add(k_root[a][b], e);
            }
            let e = dot6(g, *sa, f);
            f_root[a] = g.sub(f_root[a], e);
        }
    }
    let mut zd = vec![z0; nz];
    let n = root_speeds.len();
    let mut k_named = vec![vec![z0; n]; n];
    if !root_speeds.is_empty() {
        for a in 0..n {
            for b in a..n {
                k_named[a][b] = define(g, "aba_root_K", k_root[a][b]);
                k_named[b][a] = k_named[a][b];
            }
        }
        let f_named: Vec<Id> = f_root.iter().map(|e| define(g, "aba_root_f", *e)).collect();
        let names: Vec<String> = root_speeds
            .iter()
            .map(|a| format!("aba_root_zd[{a}]"))
            .collect();
        let x = crate::sym::linsolve::solve_named(g, &k_named, &f_named, &names)?;
        for (a, xa) in root_speeds.iter().zip(x) {
            zd[*a] = xa;
        }
    }
    // the forward pass: a = X a_parent + c, dz_j = (u - U^T a) / D, a += S dz_j
    forward_pass(
        g,
        (kin, &joints, &ports),
        Some(&bias_c),
        (&u_col, &d_inv, &u_over_d),
        (&root_speeds, &mut zd),
        "aba",
    )?;
    let solve = {
        let up = (&joints[..], &ports[..]);
        let speeds = (&root_speeds[..], &k_named[..]);
        unit_solve(g, kin, up, speeds, (&u_col, &d_inv), nz)?
    };
    let link_forces = newton_euler(
        g,
        (kin, &joints, &ports),
        (&bias_c, &links),
        (&root_speeds, &zdot),
    )?;
    let tangents = {
        let joint_q: Vec<u32> = joint_coords.iter().map(|i| syms.q[*i]).collect();
        port_frame::tree_tangents(
            g,
            (kin, &joints, &ports),
            (&src.bodies, &centre, src.gravity.as_ref()),
            &link_forces.f,
            (&syms.z, &root_speeds, &zdot, &joint_q),
            (&torque, &k_bodies, &f_bodies),
        )
    };
    // G dz/dt - forcing at zdot: a joint's S^T f - torque, the root's
    // K_bodies zdot_R - f_bodies + sum_ports S^T f_port
    let mut residual = vec![z0; nz];
    for (j, f) in joints.iter().zip(&link_forces.f) {
        residual[j.speed] = g.sub(f[j.axis], torque[j.speed]);
    }
    for (a, ra) in root_speeds.iter().enumerate() {
        let mut terms = vec![g.neg(f_bodies[a])];
        for (b, rb) in root_speeds.iter().enumerate() {
            let zb = g.sym(zdot[*rb]);
            terms.push(g.mul(k_bodies[a][b], zb));
        }
        for (j, up) in &link_forces.at_ports {
            let port = ports.iter().find(|p| p.joint == *j)?;
            terms.push(dot6(g, port.s[a], *up));
        }
        residual[*ra] = g.add_all(&terms);
    }
    let reactions = reactions.and_then(|mut r| {
        add_link_reactions(g, (&joints, &ports), &link_forces, &mut r)?;
        let f = g.subst_many(forces, &at_psi);
        for (i, ri) in r.iter_mut().enumerate() {
            let e = g.sub(*ri, f[i]);
            *ri = g.define_if_large(&format!("R[{i}]"), e, 24);
        }
        Some(r)
    });
    Some(Recursive {
        accelerations: zd,
        pivots,
        zdot,
        reactions,
        residual,
        solve,
        tangents,
    })
}
