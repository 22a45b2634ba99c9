//! A thin wheel rolling without slipping on a plane (`design/kinematics.md`, 5.5):
//! with `n = -up`, the unit axle `a` and `nu = n . a`, the lowest rim direction is
//! `d = (n - nu a) / s`, `s = sqrt(1 - nu^2)`; the material contact point's velocity
//! `v_m = v_C + omega_W x r d` has no tangent component (two rows, one with
//! `lateral: false`), and the contact height `h = n . (C - O_G) + r s` is either
//! identically zero (the contact built on the plane) or a configuration constraint
//! whose velocity row is `n . v_m`.

use super::vector::Vector;
use super::{Clock, Kin};
use crate::sym::linsolve::probably_zero;
use crate::sym::{Func, Graph, Id};

pub struct Wheel {
    pub name: String,
    pub frame: usize,
    pub center: Vector,
    /// The centre's velocity relative to the root.
    pub velocity: Vector,
    pub axis: Vector,
    pub radius: Id,
    pub contact: Option<Vector>,
    pub plane_point: Vector,
    pub up: Vector,
    pub lateral: bool,
    pub solve: Option<u32>,
}

/// The entry a mistake in a rolling contact is about (it is reported on that entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// The `rolls` item as a whole.
    Rolls,
    /// The plane's `up`.
    Up,
    /// `contact: P`.
    Contact,
    /// `solve: q`.
    Solve,
}

/// What a rolling contact adds to the model.
pub struct Contact {
    /// Velocity rows `= 0`, with their text.
    pub rows: Vec<(Id, String)>,
    /// Each row is `v_m . e`: its `e`, so that the row's multiplier `lambda` is the force
    /// `lambda e` on the wheel at the contact (a unit vector, `a x n` and `n x (a x n)` of
    /// length `s`, or `n` for the height row).
    pub directions: Vec<Vector>,
    /// The contact-height configuration constraint, when not identically zero.
    pub height: Option<Id>,
    /// The material contact point (from the origin) and its velocity `v_m`.
    pub point: Vector,
    pub velocity: Vector,
}

/// The unit vector `up = +-F.k` of a fixed frame, if `up` is one: (F, k, sign).
fn axis_of(g: &Graph, kin: &Kin, up: &Vector) -> Option<(usize, usize, bool)> {
    let [(f, c)] = up.0.as_slice() else {
        return None;
    };
    let nonzero: Vec<usize> = (0..3).filter(|k| !g.is_zero(c[*k])).collect();
    let [k] = nonzero.as_slice() else { return None };
    let v = g.as_number(c[*k])?;
    let fixed = kin.tree.path_to_root(*f).iter().all(|x| kin.constant[*x]);
    (fixed && (v.is_one() || v.neg().is_one())).then_some((*f, *k, v.is_one()))
}

pub fn roll(
    kin: &mut Kin,
    g: &mut Graph,
    clock: &Clock,
    w: &Wheel,
) -> Result<Contact, (Site, String)> {
    let state: Vec<u32> = std::iter::once(clock.t)
        .chain(clock.q.iter().copied())
        .collect();
    // up: a constant unit vector
    if !kin.is_fixed(g, &w.up, &state) {
        return Err((
            Site::Up,
            "the plane's `up` must be a constant vector (fixed in the inertial frame)".into(),
        ));
    }
    let uu = kin.tree.dot(g, &w.up, &w.up);
    let one = g.one();
    let e = g.sub(uu, one);
    if !probably_zero(g, e) {
        return Err((Site::Up, "the plane's `up` must be a unit vector".into()));
    }
    let n = w.up.neg(g);
    let nu = kin.tree.dot(g, &n, &w.axis);
    let nu = g.define_if_large(&format!("nu_{}", w.name), nu, 8);
    let nu2 = g.powi(nu, 2);
    let one_minus = g.sub(one, nu2);
    let s = g.func(Func::Sqrt, one_minus);
    let s = g.define(&format!("s_{}", w.name), s);
    // the rim direction d and the contact offset rho = r d
    let nua = w.axis.scale(g, nu);
    let dn = n.sub(g, &nua);
    let inv_s = g.powi(s, -1);
    let d = dn.scale(g, inv_s);
    let rd = d.scale(g, w.radius);
    let rho = match &w.contact {
        Some(p) => {
            let rho = p.sub(g, &w.center);
            let diff = rho.sub(g, &rd);
            let frames: Vec<usize> = diff.frames().collect();
            if let Some(&x) = frames.first() {
                let c = kin.tree.express(g, &diff, x);
                if !c.iter().all(|x| probably_zero(g, *x)) {
                    return Err((
                        Site::Contact,
                        format!(
                            "`contact` is not the lowest point of the rim of `{}` (center - radius * (n - (n.a) a)/|..|)",
                            w.name
                        ),
                    ));
                }
            }
            rho
        }
        None => rd,
    };
    let omega = kin.omega(w.frame);
    let spin = kin.tree.cross(g, &omega, &rho);
    let v_m = w.velocity.add(g, &spin);
    let mut rows = Vec::new();
    let mut directions = Vec::new();
    let axes = ["x", "y", "z"];
    match (w.lateral, axis_of(g, kin, &w.up)) {
        (true, Some((f, k, _))) => {
            // the heading frame: the deepest ancestor of W reached from F by rotations
            // about k only; its tangent axes give the two rows with the fewest terms
            let path = kin.tree.path_to_root(w.frame);
            let mut heading = f;
            if let Some(pos) = path.iter().position(|x| *x == f) {
                for x in path[..pos].iter().rev() {
                    if kin.tree.joints[*x].axis == k {
                        heading = *x;
                    } else {
                        break;
                    }
                }
            }
            for t in [(k + 1) % 3, (k + 2) % 3] {
                let e = Kin::unit(g, heading, t);
                let row = kin.tree.dot(g, &v_m, &e);
                directions.push(e);
                rows.push((
                    row,
                    format!(
                        "rolls {}: velocity of the contact along {}.{} == 0",
                        w.name, kin.names[heading], axes[t]
                    ),
                ));
            }
        }
        (lateral, _) => {
            // a x n (length s): the rolling direction; n x (a x n): the lateral one
            let long = kin.tree.cross(g, &w.axis, &n);
            let row = kin.tree.dot(g, &v_m, &long);
            directions.push(long.clone());
            rows.push((
                row,
                format!(
                    "rolls {}: velocity of the contact along axis x n == 0",
                    w.name
                ),
            ));
            if lateral {
                let lat = kin.tree.cross(g, &n, &long);
                let row = kin.tree.dot(g, &v_m, &lat);
                directions.push(lat);
                rows.push((
                    row,
                    format!(
                        "rolls {}: velocity of the contact along n x (axis x n) == 0",
                        w.name
                    ),
                ));
            }
        }
    }
    // the contact height
    let rel = w.center.sub(g, &w.plane_point);
    let nc = kin.tree.dot(g, &n, &rel);
    let rs = g.mul(w.radius, s);
    let h = g.add(nc, rs);
    let height = if probably_zero(g, h) {
        if w.solve.is_some() {
            return Err((
                Site::Solve,
                format!(
                    "the contact of `{}` is on the plane by construction (its height is identically 0): remove `solve`",
                    w.name
                ),
            ));
        }
        None
    } else {
        let Some(q) = w.solve else {
            return Err((
                Site::Rolls,
                format!(
                    "the contact height of `{}` is not identically 0: name the coordinate it determines with `solve: q`",
                    w.name
                ),
            ));
        };
        let dh = g.diff(h, q);
        if probably_zero(g, dh) {
            return Err((
                Site::Solve,
                format!(
                    "the contact height of `{}` does not depend on `{}`",
                    w.name,
                    g.symbol_name(q)
                ),
            ));
        }
        let row = kin.tree.dot(g, &v_m, &n);
        directions.push(n.clone());
        rows.push((
            row,
            format!(
                "rolls {}: height of the contact, d/dt (n . (C - O) + r s) == 0",
                w.name
            ),
        ));
        Some(h)
    };
    let point = w.center.add(g, &rho);
    Ok(Contact {
        rows,
        directions,
        height,
        point,
        velocity: v_m,
    })
}
