//! A body rolling without slipping on a plane (`design/kinematics.md`, 5.5): its surface
//! touches the plane at its support point along `n = -up`, the point of the surface
//! farthest along n. With the surface's centre `C`, that point is `C + rho` with
//! - a thin disk of radius r about the unit axle `a` (`nu = n . a`, `s = sqrt(1 - nu^2)`):
//!   `rho = r d`, the lowest rim direction `d = (n - nu a) / s`, `n . rho = r s`;
//! - a torus (major radius R about the axle, crown radius rc): `rho = R d + rc n`,
//!   `n . rho = R s + rc` (rc = 0 is the disk);
//! - a sphere of radius R: `rho = R n`, `n . rho = R`;
//! - an ellipsoid of semi-axes (a, b, c) along its frame's axes, `A = diag(a^2, b^2, c^2)`
//!   there: `rho = A n / sigma`, `sigma = sqrt(n . A n) = n . rho` (its support function).
//!
//! The material contact point's velocity `v_m = v_C + omega_W x rho` has no tangent
//! component (two rows, one with `lateral: false`), and the contact height
//! `h = n . (C - O_G) + n . rho` is either identically zero (the contact built on the
//! plane) or a configuration constraint whose velocity row is `n . v_m`.

use super::vector::Vector;
use super::{Clock, Kin};
use crate::sym::linsolve::{probably_zero, within};
use crate::sym::{Func, Graph, Id};

/// The surface that rolls, in the engine.
pub enum Shape {
    /// A thin disk: its unit axle and radius.
    Disk { axis: Vector, radius: Id },
    /// A torus: its unit axle, major and crown radii.
    Torus { axis: Vector, major: Id, crown: Id },
    /// A sphere.
    Sphere { radius: Id },
    /// An ellipsoid: the frame its semi-axes lie along, and the semi-axes.
    Ellipsoid { frame: usize, semi: [Id; 3] },
}

impl Shape {
    /// The axle of a disk or a torus.
    pub fn axle(&self) -> Option<&Vector> {
        match self {
            Shape::Disk { axis, .. } | Shape::Torus { axis, .. } => Some(axis),
            Shape::Sphere { .. } | Shape::Ellipsoid { .. } => None,
        }
    }
}

pub struct Wheel {
    pub name: String,
    /// The body's frame (its angular velocity turns the material contact point).
    pub frame: usize,
    /// The surface's centre.
    pub center: Vector,
    /// The centre's velocity relative to the root.
    pub velocity: Vector,
    pub shape: Shape,
    pub contact: Option<Vector>,
    /// A point of the ground at the contact (the plane's point, or the contact itself on
    /// uneven ground) and the ground's unit normal there.
    pub plane_point: Vector,
    pub up: Vector,
    /// `up` is a plane's, fixed in space (on uneven ground it turns with the contact).
    pub fixed_up: bool,
    pub lateral: bool,
    pub solve: Option<u32>,
    /// A contact height within this (m) of 0 at every probe counts as on the plane by
    /// construction (0: only an identically zero one).
    pub height_tolerance: f64,
}

impl Wheel {
    /// The direction `ContactLoad` reads as the axle (`lateral` along its part in the
    /// tangent plane, `longitudinal` along `axle x up`): a disk's or a torus's own; for a
    /// surface without one, `up x F.x` of its body frame F, so that `longitudinal` is
    /// along F.x projected on the tangent plane and `lateral` along `up x` that.
    pub fn load_axle(&self, g: &mut Graph, kin: &Kin) -> Vector {
        match self.shape.axle() {
            Some(a) => a.clone(),
            None => {
                let x = Kin::unit(g, self.frame, 0);
                kin.tree.cross(g, &self.up, &x)
            }
        }
    }
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
    /// `frame: F` of an ellipsoid.
    Frame,
}

/// What a rolling contact adds to the model.
pub struct Contact {
    /// Velocity rows `= 0`, with their text.
    pub rows: Vec<(Id, String)>,
    /// Each row is `v_m . e`: its `e`, so that the row's multiplier `lambda` is the force
    /// `lambda e` on the body at the contact (`a x n` and `n x (a x n)` of length `s`, a
    /// tangent axis of a fixed frame, or `n` for the height row).
    pub directions: Vec<Vector>,
    /// The contact-height configuration constraint, when not identically zero.
    pub height: Option<Id>,
    /// The material contact point (from the origin) and its velocity `v_m`.
    pub point: Vector,
    pub velocity: Vector,
}

/// The support point's offset `rho` from the centre along `n`, and `n . rho` (the
/// module's table).
fn support(
    kin: &mut Kin,
    g: &mut Graph,
    w: &Wheel,
    n: &Vector,
) -> Result<(Vector, Id), (Site, String)> {
    let rim = |kin: &mut Kin, g: &mut Graph, axis: &Vector| {
        let nu = kin.tree.dot(g, n, axis);
        let nu = g.define_if_large(&format!("nu_{}", w.name), nu, 8);
        let nu2 = g.powi(nu, 2);
        let one = g.one();
        let one_minus = g.sub(one, nu2);
        let s = g.func(Func::Sqrt, one_minus);
        let s = g.define(&format!("s_{}", w.name), s);
        let nua = axis.scale(g, nu);
        let dn = n.sub(g, &nua);
        let inv_s = g.powi(s, -1);
        (dn.scale(g, inv_s), s)
    };
    Ok(match &w.shape {
        Shape::Disk { axis, radius } => {
            let (d, s) = rim(kin, g, axis);
            (d.scale(g, *radius), g.mul(*radius, s))
        }
        Shape::Torus { axis, major, crown } => {
            let (d, s) = rim(kin, g, axis);
            let rd = d.scale(g, *major);
            let cn = n.scale(g, *crown);
            let rs = g.mul(*major, s);
            (rd.add(g, &cn), g.add(rs, *crown))
        }
        Shape::Sphere { radius } => (n.scale(g, *radius), *radius),
        Shape::Ellipsoid { frame, semi } => {
            // the surface must turn with the body: its frame's angular velocity is the body's
            let rel = kin.omega(*frame).sub(g, &kin.omega(w.frame));
            let c = kin.tree.express(g, &rel, w.frame);
            if !c.iter().all(|x| probably_zero(g, *x)) {
                return Err((
                    Site::Frame,
                    format!(
                        "the ellipsoid's frame turns relative to the body `{}`",
                        w.name
                    ),
                ));
            }
            let nf = kin.tree.express(g, n, *frame);
            let nf = kin.atoms(g, &format!("n_{}", w.name), nf);
            let an: [Id; 3] = std::array::from_fn(|k| {
                let a2 = g.powi(semi[k], 2);
                g.mul(a2, nf[k])
            });
            let terms: Vec<Id> = (0..3).map(|k| g.mul(an[k], nf[k])).collect();
            let nan = g.add_all(&terms);
            let sigma = g.func(Func::Sqrt, nan);
            let sigma = g.define(&format!("sigma_{}", w.name), sigma);
            let inv = g.powi(sigma, -1);
            let rho: [Id; 3] = std::array::from_fn(|k| g.mul(an[k], inv));
            (Vector::in_frame(*frame, rho), sigma)
        }
    })
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
    // up: a constant unit vector (uneven ground's normal is unit by construction)
    if w.fixed_up && !kin.is_fixed(g, &w.up, &state) {
        return Err((
            Site::Up,
            "the plane's `up` must be a constant vector (fixed in the inertial frame)".into(),
        ));
    }
    let uu = kin.tree.dot(g, &w.up, &w.up);
    let one = g.one();
    let e = g.sub(uu, one);
    if w.fixed_up && !probably_zero(g, e) {
        return Err((Site::Up, "the plane's `up` must be a unit vector".into()));
    }
    let n = w.up.neg(g);
    let (support_offset, depth) = support(kin, g, w, &n)?;
    let rho = match &w.contact {
        Some(p) => {
            let rho = p.sub(g, &w.center);
            let diff = rho.sub(g, &support_offset);
            let frames: Vec<usize> = diff.frames().collect();
            if let Some(&x) = frames.first() {
                let c = kin.tree.express(g, &diff, x);
                if !c.iter().all(|x| probably_zero(g, *x)) {
                    let what = match w.shape {
                        Shape::Disk { .. } => {
                            "the lowest point of its rim (center - radius * (n - (n.a) a)/|..|)"
                        }
                        Shape::Torus { .. } => {
                            "the lowest point of its tyre (center + R (n - (n.a) a)/|..| + rc n)"
                        }
                        Shape::Sphere { .. } => "the lowest point of its sphere (center - R up)",
                        Shape::Ellipsoid { .. } => {
                            "the lowest point of its ellipsoid (center + A n / sqrt(n.A n), n = -up)"
                        }
                    };
                    return Err((
                        Site::Contact,
                        format!("`contact` of `{}` is not {what}", w.name),
                    ));
                }
            }
            rho
        }
        None => support_offset,
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
            // a x n (length s): the rolling direction; n x (a x n): the lateral one. A
            // surface without an axle takes a fixed axis across `up` in its place.
            let axis = match w.shape.axle() {
                Some(a) => a.clone(),
                None => fixed_across(kin, g, &n),
            };
            let long = kin.tree.cross(g, &axis, &n);
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
    let h = g.add(nc, depth);
    let height = if probably_zero(g, h) || within(g, h, w.height_tolerance) {
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
                "rolls {}: height of the contact, d/dt (n . (C - O) + n . rho) == 0",
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

/// A unit axis of the root frame not along `n` (for the rows of a surface without an axle
/// on a plane whose `up` is no frame's axis).
fn fixed_across(kin: &Kin, g: &mut Graph, n: &Vector) -> Vector {
    let root = n
        .frames()
        .next()
        .and_then(|f| kin.tree.path_to_root(f).last().copied())
        .unwrap_or(0);
    for k in 0..3 {
        let e = Kin::unit(g, root, k);
        let c = kin.tree.cross(g, &e, n);
        let x = kin.tree.express(g, &c, root);
        if !x.iter().all(|x| probably_zero(g, *x)) {
            return e;
        }
    }
    Kin::unit(g, root, 0)
}
