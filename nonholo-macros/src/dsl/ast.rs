//! The typed model AST produced by the parser: everything the user wrote, with spans.

use crate::sym::number::Number;
use proc_macro2::Span;
use syn::{Attribute, Ident, Visibility};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// An expression of the DSL (a Rust subset).
#[derive(Clone, Debug)]
pub enum Expr {
    Lit {
        value: Number,
        span: Span,
    },
    Ident(Ident),
    /// `dot(q)`: the velocity of coordinate `q`.
    Dot {
        arg: Box<Expr>,
        span: Span,
    },
    Neg {
        expr: Box<Expr>,
        span: Span,
    },
    Bin {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        span: Span,
    },
    /// `f(args)`.
    Call {
        func: Ident,
        args: Vec<Expr>,
    },
    /// `recv.f(args)`.
    Method {
        recv: Box<Expr>,
        func: Ident,
        args: Vec<Expr>,
    },
    /// `recv.field` without parentheses: a frame's unit vector `F.x`.
    Field {
        recv: Box<Expr>,
        field: Ident,
    },
    /// `F[a, b, c]`: a vector by its components in frame `F`.
    Components {
        frame: Ident,
        comps: Vec<Expr>,
        span: Span,
    },
    /// A placeholder after a parse error already reported.
    Error(Span),
}

impl Expr {
    pub fn span(&self) -> Span {
        match self {
            Expr::Lit { span, .. }
            | Expr::Dot { span, .. }
            | Expr::Neg { span, .. }
            | Expr::Bin { span, .. }
            | Expr::Components { span, .. }
            | Expr::Error(span) => *span,
            Expr::Ident(i) => i.span(),
            Expr::Field { recv, .. } => recv.span(),
            Expr::Call { func, .. } => func.span(),
            Expr::Method { recv, .. } => recv.span(),
        }
    }

    /// Readable source text (for `CONSTRAINTS` and messages).
    pub fn text(&self) -> String {
        let mut s = String::new();
        self.fmt_rec(0, &mut s);
        s
    }

    fn fmt_rec(&self, prec: u8, out: &mut String) {
        match self {
            Expr::Lit { value, .. } => out.push_str(&value.to_string()),
            Expr::Ident(i) => out.push_str(&i.to_string()),
            Expr::Dot { arg, .. } => {
                out.push_str("dot(");
                arg.fmt_rec(0, out);
                out.push(')');
            }
            Expr::Neg { expr, .. } => {
                out.push('-');
                expr.fmt_rec(3, out);
            }
            Expr::Bin { op, lhs, rhs, .. } => {
                let (p, sym) = match op {
                    BinOp::Add => (1, " + "),
                    BinOp::Sub => (1, " - "),
                    BinOp::Mul => (2, " * "),
                    BinOp::Div => (2, " / "),
                };
                if prec > p {
                    out.push('(');
                }
                lhs.fmt_rec(p, out);
                out.push_str(sym);
                rhs.fmt_rec(p + 1, out);
                if prec > p {
                    out.push(')');
                }
            }
            Expr::Call { func, args } => {
                out.push_str(&func.to_string());
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    a.fmt_rec(0, out);
                }
                out.push(')');
            }
            Expr::Method { recv, func, args } => {
                recv.fmt_rec(4, out);
                out.push('.');
                out.push_str(&func.to_string());
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    a.fmt_rec(0, out);
                }
                out.push(')');
            }
            Expr::Field { recv, field } => {
                recv.fmt_rec(4, out);
                out.push('.');
                out.push_str(&field.to_string());
            }
            Expr::Components { frame, comps, .. } => {
                out.push_str(&frame.to_string());
                out.push('[');
                for (i, a) in comps.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    a.fmt_rec(0, out);
                }
                out.push(']');
            }
            Expr::Error(_) => out.push_str("<error>"),
        }
    }
}

pub struct Param {
    pub name: Ident,
    pub default: Option<Expr>,
}

pub struct Named {
    pub name: Ident,
    pub expr: Expr,
}

pub struct Constraint {
    pub lhs: Expr,
    pub rhs: Expr,
    pub span: Span,
}

impl Constraint {
    pub fn text(&self) -> String {
        format!("{} == {}", self.lhs.text(), self.rhs.text())
    }
}

/// `velocities(z1, z2) { dot(q) = psi; ... }`.
pub struct Velocities {
    pub params: Vec<Ident>,
    /// (coordinate named inside `dot(..)`, its expression).
    pub defs: Vec<(Ident, Expr)>,
}

/// `frame A = P.rotate(axis, angle).rotate(..);` (or the root, `frame N;`).
pub struct FrameDecl {
    pub name: Ident,
    /// The parent frame and the body-fixed sequence of simple rotations.
    pub parent: Option<(Ident, Vec<Rotation>)>,
}

/// `.rotate(axis, angle)`.
pub struct Rotation {
    pub axis: Ident,
    pub angle: Expr,
}

/// `point P = Q + v;` (or the origin, `point O;`).
pub struct PointDecl {
    pub name: Ident,
    pub def: Option<Expr>,
}

/// `key: value` of a brace item (`body`, `particle`, `plane`, `rolls`).
pub struct Entry {
    pub key: Ident,
    pub value: Expr,
}

/// `body W { .. }`, `particle Q { .. }`, `plane G { .. }`.
pub struct Object {
    pub kw: Ident,
    pub name: Ident,
    pub entries: Vec<Entry>,
}

/// `rolls W on G { .. }`.
pub struct Rolls {
    pub kw: Ident,
    pub wheel: Ident,
    pub plane: Ident,
    pub entries: Vec<Entry>,
    /// How far (m) a constant contact height may be from 0 and still count as on the plane
    /// by construction: 0 in the DSL; 1e-9 for a URDF link's wheel, whose offsets and angles
    /// the file writes rounded (`1.5707963` for pi/2).
    pub height_tolerance: f64,
}

/// `ground G { height(u, v) = h }`: uneven ground `z = h(u, v)` along the root frame's
/// third axis, `u`, `v` along its first two.
pub struct Ground {
    pub name: Ident,
    pub u: Ident,
    pub v: Ident,
    pub height: Expr,
}

/// One item of `draw { .. }`: `segment { .. }`, `sphere { .. }`, `cylinder { .. }`,
/// `cuboid { .. }` with their entries, or `hide W` (`target`).
pub struct DrawItem {
    pub kw: Ident,
    pub target: Option<Ident>,
    pub entries: Vec<Entry>,
}

/// `holonomic(q_a, ..) { f == g; .. }`.
pub struct Holonomic {
    pub kw: Ident,
    pub solve: Vec<Ident>,
    pub equations: Vec<Constraint>,
}

/// One entry of `forces { .. }`.
pub enum Force {
    /// `q: F`: a generalized force on coordinate q.
    Coordinate(Named),
    /// `at P: F`: a force at point P.
    At { point: Ident, force: Expr },
    /// `on W: T`: a torque on body (or frame) W.
    On { body: Ident, torque: Expr },
    /// `between W, V: T`: +T on W, -T on V.
    Between {
        on: Ident,
        against: Ident,
        torque: Expr,
    },
}

/// `root: ..` of a `urdf` item: how the URDF's root link moves in `world`.
pub enum UrdfRoot {
    /// `fixed`: the root link is `world`.
    Fixed,
    /// `planar(x, y, yaw [, height: h])`.
    Planar {
        coords: [Ident; 3],
        height: Option<Expr>,
    },
    /// `floating(x, y, z, yaw, pitch, roll)`.
    Floating { coords: [Ident; 6] },
}

/// `actuated: all` or `actuated { j, .. }`.
pub enum Actuated {
    None,
    All,
    Joints(Vec<Ident>),
}

/// `urdf "file.urdf" { root: .., hold { .. }, actuated: .., packages { .. } }`: a robot
/// read from a URDF file at compile time (the `urdf` front-end stage turns it into the
/// frames, points, bodies, coordinates, inputs and forces the DSL would declare).
pub struct Urdf {
    pub path: syn::LitStr,
    /// `None` when `root` is missing (reported) or did not parse.
    pub root: Option<(Span, UrdfRoot)>,
    pub hold: Vec<Ident>,
    pub actuated: Actuated,
    pub packages: Vec<syn::LitStr>,
}

/// A section keyword and where it was written (for duplicate/combination errors).
pub struct Section<T> {
    pub span: Span,
    pub value: T,
}

#[derive(Default)]
pub struct Model {
    pub attrs: Vec<Attribute>,
    pub vis: Option<Visibility>,
    pub name: Option<Ident>,
    pub parameters: Option<Section<Vec<Param>>>,
    pub coordinates: Option<Section<Vec<Ident>>>,
    /// `inputs { u1, u2 }`: runtime inputs, read where loads enter.
    pub inputs: Option<Section<Vec<Ident>>>,
    pub lets: Vec<Named>,
    pub kinetic: Option<Section<Expr>>,
    pub potential: Option<Section<Expr>>,
    pub forces: Option<Section<Vec<Force>>>,
    pub constraints: Option<Section<Vec<Constraint>>>,
    pub speeds: Option<Section<Vec<Named>>>,
    pub velocities: Option<Section<Velocities>>,
    pub dependent: Option<Section<Vec<Ident>>>,
    pub formulation: Option<Section<Ident>>,
    /// `jacobians = closed_form | dual;`.
    pub jacobians: Option<Section<Ident>>,
    pub frames: Vec<FrameDecl>,
    pub points: Vec<PointDecl>,
    /// `body`, `particle` and `plane` items, in order.
    pub objects: Vec<Object>,
    pub gravity: Option<Section<Expr>>,
    pub rolls: Vec<Rolls>,
    /// `ground G { height(u, v) = h }` items.
    pub grounds: Vec<Ground>,
    pub holonomic: Vec<Holonomic>,
    /// `draw { .. }`: shapes added to (or hidden from) the default scene.
    pub draw: Option<Section<Vec<DrawItem>>>,
    /// `urdf "file" { .. }`: a robot from a URDF file.
    pub urdf: Option<Section<Urdf>>,
    /// Sections whose parse failed (already reported): not to be reported missing.
    pub failed: Vec<String>,
}
