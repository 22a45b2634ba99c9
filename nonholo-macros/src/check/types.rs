//! The types of the 3D layer: every expression is a scalar, a vector or a point (frames
//! and bodies are names, not values), and each slot of the DSL wants one of them.
//! Mistakes such as `point + point` or a vector where a scalar belongs are reported here,
//! once, on the smallest expression that is wrong.

use super::names::{Kind, NameTable};
use crate::ctxt::Ctxt;
use crate::dsl::ast::{self, BinOp, Expr};
use proc_macro2::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Scalar,
    Vector,
    Point,
    /// A frame's name (usable as `F.x`, `F[..]`, `angular_velocity(F)`).
    Frame,
    /// A body's name.
    Body,
    /// A particle's or a plane's name.
    Object,
    /// `inertia(F, ..)`: only as a body's `inertia`.
    Inertia,
    /// Already reported.
    Error,
}

impl Ty {
    fn article(self) -> &'static str {
        match self {
            Ty::Scalar => "a scalar",
            Ty::Vector => "a vector",
            Ty::Point => "a point",
            Ty::Frame => "a frame",
            Ty::Body => "a body",
            Ty::Object => "a particle or plane",
            Ty::Inertia => "an inertia",
            Ty::Error => "an error",
        }
    }
}

/// The vector methods of the DSL and their argument counts (beyond the receiver).
pub const VECTOR_METHODS: &[(&str, usize)] = &[("dot", 1), ("cross", 1), ("norm", 0), ("unit", 0)];
/// Functions of the 3D layer that are not scalar functions.
pub const KINEMATIC_FUNCTIONS: &[&str] = &["velocity", "angular_velocity", "inertia"];

pub struct Typer<'a> {
    cx: &'a Ctxt,
    names: &'a NameTable,
    lets: Vec<Ty>,
}

impl<'a> Typer<'a> {
    /// A typer that knows the type of every `let` (errors inside lets reported once).
    pub fn new(cx: &'a Ctxt, names: &'a NameTable, lets: &[ast::Named]) -> Self {
        let mut t = Typer {
            cx,
            names,
            lets: Vec::with_capacity(lets.len()),
        };
        for l in lets {
            let ty = t.ty(&l.expr);
            t.lets.push(ty);
        }
        t
    }

    /// Report unless `e` has type `want` (`what` names the slot, e.g. "kinetic_energy").
    pub fn expect(&self, e: &Expr, want: Ty, what: &str) {
        let got = self.ty(e);
        if got != want && got != Ty::Error {
            let help = match (want, got) {
                (Ty::Scalar, Ty::Vector) => {
                    "take a component with `.dot(F.x)`, or its length with `.norm()`"
                }
                (Ty::Vector, Ty::Scalar) => {
                    "write a vector as `F[a, b, c]` or a multiple of a unit vector `F.x`"
                }
                (Ty::Point, Ty::Vector) => "a point is a point plus a vector: `O + v`",
                (Ty::Vector, Ty::Point) => "the vector between two points is `P - Q`",
                (Ty::Point, Ty::Scalar) => "name a declared point, or build one: `O + N[a, b, c]`",
                (Ty::Inertia, _) => {
                    "write `inertia(F, ixx, iyy, izz)` or `inertia(F, ixx, iyy, izz, ixy, iyz, izx)`"
                }
                (_, Ty::Inertia) => "`inertia(F, ..)` is only a body's `inertia: ..` entry",
                (_, Ty::Frame) => {
                    "a frame is not a value: use its unit vectors `F.x`, `F.y`, `F.z` or components `F[a, b, c]`"
                }
                (_, Ty::Body | Ty::Object) => {
                    "a body, particle or plane is not a value: use its frame or its points"
                }
                _ => "see the 3D kinematics section of the nonholo docs",
            };
            self.cx.error_help(
                e.span(),
                format!("{what} must be {}, found {}", want.article(), got.article()),
                help,
            );
        }
    }

    /// The type of `e`, reporting type errors inside it.
    pub fn ty(&self, e: &Expr) -> Ty {
        match e {
            Expr::Lit { .. } | Expr::Dot { .. } => Ty::Scalar,
            Expr::Error(_) => Ty::Error,
            Expr::Ident(id) => match self.names.get(&id.to_string()) {
                Some((Kind::Let(i), _)) => self.lets.get(*i).copied().unwrap_or(Ty::Error),
                Some((Kind::Frame, _)) => Ty::Frame,
                Some((Kind::Point, _)) => Ty::Point,
                Some((Kind::Body, _)) => Ty::Body,
                Some((Kind::Object | Kind::Ground, _)) => Ty::Object,
                Some(_) => Ty::Scalar,
                None => Ty::Error,
            },
            Expr::Neg { expr, span } => match self.ty(expr) {
                t @ (Ty::Scalar | Ty::Vector | Ty::Error) => t,
                t => self.bad(
                    *span,
                    format!("cannot negate {}", t.article()),
                    "negate vectors or scalars",
                ),
            },
            Expr::Bin { op, lhs, rhs, span } => {
                let (a, b) = (self.ty(lhs), self.ty(rhs));
                self.binary(*op, a, b, *span)
            }
            Expr::Field { recv, field } => {
                let axis = field.to_string();
                match self.ty(recv) {
                    Ty::Frame if ["x", "y", "z"].contains(&axis.as_str()) => Ty::Vector,
                    Ty::Frame => self.bad(
                        field.span(),
                        format!("unknown axis `{axis}`"),
                        "the unit vectors of a frame are `.x`, `.y` and `.z`",
                    ),
                    Ty::Error => Ty::Error,
                    t => self.bad(
                        field.span(),
                        format!("`.{axis}` of {}: only frames have axes", t.article()),
                        "write `F.x` with F a frame, or call a method: `.f(..)`",
                    ),
                }
            }
            Expr::Components { frame, comps, span } => {
                if let Some((k, _)) = self.names.get(&frame.to_string())
                    && *k != Kind::Frame
                {
                    self.cx.error_help(
                        frame.span(),
                        format!("`{frame}[..]`: `{frame}` is not a frame"),
                        "components are given in a frame: `N[a, b, c]`",
                    );
                }
                if comps.len() != 3 {
                    return self.bad(
                        *span,
                        format!("a vector has 3 components, found {}", comps.len()),
                        "write `F[a, b, c]`",
                    );
                }
                for c in comps {
                    self.expect(c, Ty::Scalar, "a vector's component");
                }
                Ty::Vector
            }
            Expr::Call { func, args } => self.call(func, args),
            Expr::Method { recv, func, args } if self.is_ground(recv) => {
                let name = func.to_string();
                let result = match name.as_str() {
                    "at" => Ty::Point,
                    "normal" => Ty::Vector,
                    _ => {
                        return self.bad(
                            func.span(),
                            format!("a ground has no method `.{name}(..)`"),
                            "`G.at(x, y)` is the point of ground G above (x, y), `G.normal(x, y)` its unit normal there",
                        )
                    }
                };
                if args.len() != 2 {
                    return self.bad(
                        func.span(),
                        format!("`.{name}` takes 2 arguments (x, y), not {}", args.len()),
                        format!("write `{}.{name}(x, y)`", recv.text()),
                    );
                }
                for a in args {
                    self.expect(a, Ty::Scalar, &format!("an argument of `.{name}`"));
                }
                result
            }
            Expr::Method { recv, func, args } => {
                let name = func.to_string();
                let r = self.ty(recv);
                if let Some((_, n)) = VECTOR_METHODS.iter().find(|(m, _)| *m == name) {
                    if r == Ty::Error {
                        return Ty::Error;
                    }
                    if r != Ty::Vector {
                        return self.bad(
                            func.span(),
                            format!("`.{name}(..)` is a vector method; its receiver is {}", r.article()),
                            if name == "dot" {
                                "the velocity of a coordinate is `dot(q)`; `u.dot(v)` is the scalar product of vectors"
                            } else {
                                "call it on a vector"
                            },
                        );
                    }
                    if args.len() != *n {
                        return self.bad(
                            func.span(),
                            format!("`.{name}` takes {n} argument(s), not {}", args.len()),
                            "`u.dot(v)`, `u.cross(v)`, `u.norm()`, `u.unit()`",
                        );
                    }
                    for a in args {
                        self.expect(a, Ty::Vector, &format!("the argument of `.{name}`"));
                    }
                    return match name.as_str() {
                        "dot" | "norm" => Ty::Scalar,
                        _ => Ty::Vector,
                    };
                }
                self.expect(recv, Ty::Scalar, &format!("the receiver of `.{name}(..)`"));
                for a in args {
                    self.expect(a, Ty::Scalar, &format!("an argument of `{name}`"));
                }
                Ty::Scalar
            }
        }
    }

    /// Whether `e` names a `ground`.
    fn is_ground(&self, e: &Expr) -> bool {
        matches!(e, Expr::Ident(id) if matches!(self.names.get(&id.to_string()), Some((Kind::Ground, _))))
    }

    fn call(&self, func: &syn::Ident, args: &[Expr]) -> Ty {
        let name = func.to_string();
        let one = |want: &[Ty], what: &str| -> Ty {
            if args.len() != 1 {
                return self.bad(
                    func.span(),
                    format!("`{name}` takes one {what}"),
                    format!("write `{name}(..)` of one {what}"),
                );
            }
            let t = self.ty(&args[0]);
            if t != Ty::Error && !want.contains(&t) {
                let help = match (name.as_str(), t) {
                    ("velocity", Ty::Frame | Ty::Body) => format!(
                        "`velocity(..)` is a point's; the rotation of a frame is `angular_velocity({})`",
                        args[0].text()
                    ),
                    _ => format!("write `{name}(..)` of a declared {what}"),
                };
                return self.bad(
                    args[0].span(),
                    format!("`{name}` takes a {what}, found {}", t.article()),
                    help,
                );
            }
            Ty::Vector
        };
        match name.as_str() {
            "velocity" => one(&[Ty::Point], "point"),
            "angular_velocity" => one(&[Ty::Frame, Ty::Body], "frame or body"),
            "inertia" => {
                if !(args.len() == 4 || args.len() == 7) {
                    return self.bad(
                        func.span(),
                        format!("`inertia` takes a frame and 3 or 6 components, found {} arguments", args.len()),
                        "write `inertia(F, ixx, iyy, izz)` or `inertia(F, ixx, iyy, izz, ixy, iyz, izx)`",
                    );
                }
                let t = self.ty(&args[0]);
                if t != Ty::Frame && t != Ty::Error {
                    self.cx.error_help(
                        args[0].span(),
                        format!(
                            "the first argument of `inertia` must be a frame, found {}",
                            t.article()
                        ),
                        "the components are given in a frame fixed in the body",
                    );
                }
                for a in &args[1..] {
                    self.expect(a, Ty::Scalar, "an inertia component");
                }
                Ty::Inertia
            }
            _ => {
                for a in args {
                    self.expect(a, Ty::Scalar, &format!("an argument of `{name}`"));
                }
                Ty::Scalar
            }
        }
    }

    fn binary(&self, op: BinOp, a: Ty, b: Ty, span: Span) -> Ty {
        use Ty::*;
        if a == Error || b == Error {
            return Error;
        }
        let r = match (op, a, b) {
            (_, Scalar, Scalar) => Some(Scalar),
            (BinOp::Add | BinOp::Sub, Vector, Vector) => Some(Vector),
            (BinOp::Add | BinOp::Sub, Point, Vector) => Some(Point),
            (BinOp::Sub, Point, Point) => Some(Vector),
            (BinOp::Mul, Scalar, Vector) | (BinOp::Mul | BinOp::Div, Vector, Scalar) => {
                Some(Vector)
            }
            _ => None,
        };
        if let Some(r) = r {
            return r;
        }
        let (msg, help) = match (op, a, b) {
            (BinOp::Add, Point, Point) => (
                "cannot add two points".to_string(),
                "a point plus a vector is a point; `P - Q` is the vector from Q to P",
            ),
            (BinOp::Add | BinOp::Sub, Vector, Point) => (
                "a vector plus a point".to_string(),
                "write the point first: `P + v`",
            ),
            (BinOp::Mul, Vector, Vector) => (
                "cannot multiply two vectors".to_string(),
                "write `u.dot(v)` for the scalar product or `u.cross(v)` for the vector product",
            ),
            (BinOp::Add | BinOp::Sub, Scalar, Vector)
            | (BinOp::Add | BinOp::Sub, Vector, Scalar) => (
                "cannot add a scalar and a vector".to_string(),
                "a vector where a scalar belongs: take a component with `.dot(F.x)`",
            ),
            _ => (
                format!("`{}` of {} and {}", op_text(op), a.article(), b.article()),
                "vectors add to vectors and scale by scalars; points move by vectors",
            ),
        };
        self.bad(span, msg, help)
    }

    fn bad(&self, span: Span, msg: impl std::fmt::Display, help: impl std::fmt::Display) -> Ty {
        self.cx.error_help(span, msg, help);
        Ty::Error
    }
}

fn op_text(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
    }
}
