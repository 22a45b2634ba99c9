//! The checked 3D items as the later stages read them: frames, points, bodies,
//! particles, planes, grounds, loads, rolling contacts and configuration constraints
//! (`kinematics` and `contacts` check them).

use crate::dsl::ast::Expr;
use proc_macro2::Span;
use std::collections::HashMap;
use syn::Ident;

/// A frame: `parent.rotate(axis, angle)`; chains of rotations become anonymous frames.
pub struct Frame {
    pub name: String,
    pub parent: Option<usize>,
    /// 0, 1, 2 for x, y, z.
    pub axis: usize,
    pub angle: Expr,
}

pub struct Body {
    pub name: Ident,
    pub frame: usize,
    pub center: Expr,
    pub mass: Expr,
    /// The frame of the inertia's components and (ixx, iyy, izz, ixy, iyz, izx).
    pub inertia: Option<(usize, Span, Vec<Expr>)>,
}

pub struct Particle {
    pub name: Ident,
    pub point: Expr,
    pub mass: Expr,
}

pub struct Plane {
    pub point: Expr,
    pub up: Expr,
}

/// `ground G { height(u, v) = h }`: `h` of `u`, `v` and parameters.
pub struct GroundDef {
    pub name: String,
    pub u: String,
    pub v: String,
    pub height: Expr,
}

/// A force at a point or a torque on a frame (generalized forces by partial velocities).
pub enum Load {
    At {
        point: Expr,
        force: Expr,
    },
    On {
        frame: usize,
        torque: Expr,
        sign: f64,
    },
}

#[derive(Default)]
pub struct Kinematics {
    /// The shapes of `draw { .. }`, and the objects whose default shapes it hides.
    pub draw: Vec<super::draw::Draw>,
    pub hidden: Vec<String>,
    /// Parents before children.
    pub frames: Vec<Frame>,
    pub frame_of: HashMap<String, usize>,
    /// Declaration order; `None` for the origin.
    pub points: Vec<(String, Option<Expr>)>,
    pub bodies: Vec<Body>,
    pub body_of: HashMap<String, usize>,
    pub particles: Vec<Particle>,
    pub planes: Vec<Plane>,
    pub plane_of: HashMap<String, usize>,
    pub grounds: Vec<GroundDef>,
    pub ground_of: HashMap<String, usize>,
    pub gravity: Option<Expr>,
    pub rolls: Vec<Rolling>,
    pub loads: Vec<Load>,
    pub holonomic: Vec<Holonomic>,
}

impl Kinematics {
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty() && self.points.is_empty() && self.holonomic.is_empty()
    }

    /// Constraint rows the 3D items add to `constraints { .. }`.
    pub fn rows(&self) -> usize {
        self.rolls.iter().map(Rolling::rows).sum::<usize>()
            + self
                .holonomic
                .iter()
                .map(|h| h.equations.len())
                .sum::<usize>()
    }
}

/// The surface that rolls (`surface: ..`, or the thin disk of `radius` and `axis`).
pub enum Surface {
    /// `axis: a, radius: r`: a thin disk.
    Disk { axis: Expr, radius: Expr },
    /// `surface: torus(R, rc), axis: a`: major radius R about the axle, crown radius rc.
    Torus {
        axis: Expr,
        major: Expr,
        crown: Expr,
    },
    /// `surface: sphere(R)`.
    Sphere { radius: Expr },
    /// `surface: ellipsoid(a, b, c)`: semi-axes along the axes of `frame`.
    Ellipsoid { semi: [Expr; 3] },
}

impl Surface {
    /// Whether the surface turns about an axle (a disk, a torus): its rows and loads are
    /// along and across the rolling direction `axle x up`.
    pub fn axle(&self) -> Option<&Expr> {
        match self {
            Surface::Disk { axis, .. } | Surface::Torus { axis, .. } => Some(axis),
            Surface::Sphere { .. } | Surface::Ellipsoid { .. } => None,
        }
    }
}

/// `rolls W on G { .. }`.
pub struct Rolling {
    pub span: Span,
    pub body: usize,
    pub plane: usize,
    /// Rolling on uneven ground (`ground G { .. }`) rather than a plane.
    pub ground: Option<usize>,
    pub center: Expr,
    pub surface: Surface,
    /// The frame the surface is given in (`frame: F`, by default the body's frame), and
    /// where `frame` was written.
    pub frame: usize,
    pub frame_span: Option<Span>,
    pub contact: Option<Expr>,
    /// The coordinate the contact-height equation is solved for.
    pub solve: Option<(usize, Span)>,
    /// `solve` was given (even if wrong): the height row counts among the constraints.
    pub height_row: bool,
    pub lateral: bool,
    /// `friction: mu`, an expression of the parameters.
    pub friction: Option<Expr>,
    /// How far a constant contact height may be from 0 and count as on the plane
    /// ([`crate::dsl::ast::Rolls::height_tolerance`]).
    pub height_tolerance: f64,
}

impl Rolling {
    /// Velocity rows this contact adds (tangent rows, and the height row with `solve`).
    pub fn rows(&self) -> usize {
        1 + usize::from(self.lateral) + usize::from(self.height_row)
    }
}

/// `holonomic(..) { f == g }`: the equations and the coordinates they are solved for.
pub struct Holonomic {
    pub span: Span,
    pub solve: Vec<usize>,
    pub equations: Vec<(Expr, Expr, String)>,
}

impl Kinematics {
    /// `"W on G"` for every `rolls`, in declaration order (`Contacts::CONTACTS`).
    pub fn contact_names(&self) -> Vec<String> {
        self.rolls
            .iter()
            .map(|r| {
                let body = self
                    .bodies
                    .get(r.body)
                    .map_or_else(String::new, |b| b.name.to_string());
                let on = if r.ground.is_some() {
                    &self.ground_of
                } else {
                    &self.plane_of
                };
                let plane = on
                    .iter()
                    .find(|(_, i)| Some(**i) == r.ground.or(Some(r.plane)))
                    .map_or("", |(n, _)| n.as_str());
                format!("{body} on {plane}")
            })
            .collect()
    }
}
