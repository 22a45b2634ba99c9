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

use super::bodies::MassBody;
use super::vector::Vector;
use super::Kin;
use crate::sym::{Graph, Id};

/// An applied load: a force at a point (the point from the origin) or a torque.
pub enum Applied {
    Force { point: Vector, force: Vector },
    Torque(Vector),
}

/// `[P, L_O]` in root components.
pub fn momenta(kin: &Kin, g: &mut Graph, bodies: &[MassBody]) -> [Id; 6] {
    let mut p = Vector::zero();
    let mut l = Vector::zero();
    for b in bodies {
        let mv = b.velocity.scale(g, b.mass);
        p = p.add(g, &mv);
        let r_mv = kin.tree.cross(g, &b.center, &mv);
        l = l.add(g, &r_mv);
        if let (Some(frame), Some((k, i))) = (b.frame, &b.inertia) {
            let w = kin.omega(frame);
            let w = kin.tree.express(g, &w, *k);
            let m = [[i[0], i[3], i[5]], [i[3], i[1], i[4]], [i[5], i[4], i[2]]];
            let h = crate::mechanics::rigid::mat_vec(g, &m, w);
            l = l.add(g, &Vector::in_frame(*k, h));
        }
    }
    root6(kin, g, &p, &l)
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
    let mut f = Vector::zero();
    let mut m = Vector::zero();
    let mut force_at = |g: &mut Graph, point: &Vector, force: &Vector| {
        f = f.add(g, force);
        let r_f = kin.tree.cross(g, point, force);
        m = m.add(g, &r_f);
    };
    if let Some(gv) = gravity {
        for b in bodies {
            let w = gv.scale(g, b.mass);
            force_at(g, &b.center, &w);
        }
    }
    for l in loads {
        if let Applied::Force { point, force } = l {
            force_at(g, point, force);
        }
    }
    for l in loads {
        if let Applied::Torque(t) = l {
            m = m.add(g, t);
        }
    }
    root6(kin, g, &f, &m)
}

/// A vector's root components.
pub fn root(kin: &Kin, g: &mut Graph, v: &Vector) -> [Id; 3] {
    kin.tree.express(g, v, 0)
}

fn root6(kin: &Kin, g: &mut Graph, a: &Vector, b: &Vector) -> [Id; 6] {
    let a = root(kin, g, a);
    let b = root(kin, g, b);
    [a[0], a[1], a[2], b[0], b[1], b[2]]
}
