//! The Newton–Euler balance of the whole system, for the normal forces that no constraint
//! row carries (`design/contact_forces.md`, 2.3–2.4): with `P = sum_b m_b v_b` and
//! `L_O = sum_b r_b x m_b v_b + I_b omega_b` about the fixed origin,
//!
//! ```text
//! dP/dt   = sum of the external forces                 (gravity, `at` loads, contacts)
//! dL_O/dt = sum of their moments about O and torques   (`on` torques; a `between` pair cancels)
//! ```
//!
//! Only P, L_O and the applied side are derived here, in root components; their rates
//! along the motion are taken at run time in dual numbers (`t -> 1`, `q -> dot(q)`,
//! `dot(q) -> ddot(q)`), so nothing is differentiated at compile time. The heave and tilt
//! auxiliary motions of Kane's method are projections of these six equations.

use super::axes::RootAxes;
use super::bodies::MassBody;
use super::vector::{cross3, mat_vec, Vector};
use super::Kin;
use crate::sym::{Graph, Id};

/// An applied load: a force at a point (the point from the origin) or a torque.
pub enum Applied {
    Force { point: Vector, force: Vector },
    Torque(Vector),
}

/// `[P, L_O]` in root components.
pub fn momenta(kin: &Kin, g: &mut Graph, bodies: &[MassBody]) -> [Id; 6] {
    let mut axes = RootAxes::new(kin);
    let z = g.zero();
    let (mut p, mut l) = ([z, z, z], [z, z, z]);
    for b in bodies {
        let v = axes.of(kin, g, &b.velocity_recursive);
        let mv = v.map(|x| g.mul(b.mass, x));
        let r = axes.of(kin, g, &b.center);
        let r_mv = cross3(g, r, mv);
        for k in 0..3 {
            p[k] = g.add(p[k], mv[k]);
            l[k] = g.add(l[k], r_mv[k]);
        }
        if let (Some(frame), Some((k, i))) = (b.frame, &b.inertia) {
            let w = kin.omega(frame);
            let w = kin.tree.express(g, &w, *k);
            let m = [[i[0], i[3], i[5]], [i[3], i[1], i[4]], [i[5], i[4], i[2]]];
            let h = mat_vec(g, &m, w);
            let h = axes.of(kin, g, &Vector::in_frame(*k, h));
            for k in 0..3 {
                l[k] = g.add(l[k], h[k]);
            }
        }
    }
    [p[0], p[1], p[2], l[0], l[1], l[2]]
}

/// `[F, M_O]`: the resultant of gravity on every mass and of the loads, and its moment
/// about the origin, in root components.
pub fn applied(
    kin: &Kin,
    g: &mut Graph,
    bodies: &[MassBody],
    gravity: Option<&Vector>,
    loads: &[Applied],
) -> [Id; 6] {
    let mut axes = RootAxes::new(kin);
    let z = g.zero();
    let (mut f, mut m) = ([z, z, z], [z, z, z]);
    let mut force_at = |g: &mut Graph, axes: &mut RootAxes, point: &Vector, force: &Vector| {
        let fr = axes.of(kin, g, force);
        let r = axes.of(kin, g, point);
        let r_f = cross3(g, r, fr);
        for k in 0..3 {
            f[k] = g.add(f[k], fr[k]);
            m[k] = g.add(m[k], r_f[k]);
        }
    };
    if let Some(gv) = gravity {
        for b in bodies {
            let w = gv.scale(g, b.mass);
            force_at(g, &mut axes, &b.center, &w);
        }
    }
    for l in loads {
        if let Applied::Force { point, force } = l {
            force_at(g, &mut axes, point, force);
        }
    }
    for l in loads {
        if let Applied::Torque(t) = l {
            let t = axes.of(kin, g, t);
            for k in 0..3 {
                m[k] = g.add(m[k], t[k]);
            }
        }
    }
    [f[0], f[1], f[2], m[0], m[1], m[2]]
}

/// A vector's root components.
pub fn root(kin: &Kin, g: &mut Graph, v: &Vector) -> [Id; 3] {
    kin.tree.express(g, v, 0)
}
