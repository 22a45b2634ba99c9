//! The 3D items: frames (one root, no cycles, simple rotations about x, y or z),
//! points (one origin, each built on points above it), bodies, particles, gravity,
//! planes, rolling contacts, loads and configuration constraints — names resolved,
//! entries checked, expressions typed. The maths is in `crate::kinematics`.

use super::exprs::{find_ident, Allowed};
use super::input::{scalar, typed, Entries, Input};
pub use super::model3d::{
    Body, Frame, GroundDef, Kinematics, Load, Particle, Plane, Rolling, Surface,
};
use super::names::{Kind, NameTable};
use super::types::Ty;
use crate::ctxt::Ctxt;
use crate::dsl::ast::{self, Expr, Object, Section};
use proc_macro2::Span;
use std::collections::HashMap;

use syn::Ident;

/// Declare the names of the 3D items (before any expression is checked).
pub fn declare(
    frames: &[ast::FrameDecl],
    points: &[ast::PointDecl],
    objects: &[Object],
    grounds: &[ast::Ground],
    names: &mut NameTable,
    cx: &Ctxt,
) {
    for g in grounds {
        names.declare(&g.name, Kind::Ground, cx);
    }
    for f in frames {
        names.declare(&f.name, Kind::Frame, cx);
    }
    for p in points {
        names.declare(&p.name, Kind::Point, cx);
    }
    for o in objects {
        let kind = if o.kw == "body" {
            Kind::Body
        } else {
            Kind::Object
        };
        // a body may carry the name of its own frame (`body L { frame: L, .. }`, as a URDF
        // link is both): the name stays the frame's, and `rolls`, `on`, `draw` find the body
        let own_frame = kind == Kind::Body
            && frames.iter().any(|f| f.name == o.name)
            && o.entries
                .iter()
                .any(|e| e.key == "frame" && matches!(&e.value, Expr::Ident(i) if *i == o.name));
        if !own_frame {
            names.declare(&o.name, kind, cx);
        }
    }
}

/// The 3D items of a model, as parsed.
pub struct Items {
    pub frames: Vec<ast::FrameDecl>,
    pub points: Vec<ast::PointDecl>,
    pub objects: Vec<Object>,
    pub gravity: Option<Section<Expr>>,
    pub grounds: Vec<ast::Ground>,
}

pub fn check(k: &Input, items: Items) -> Kinematics {
    let Items {
        frames,
        points,
        objects,
        gravity,
        grounds,
    } = items;
    let mut out = Kinematics::default();
    for g in grounds {
        ground(k, g, &mut out);
    }
    // frames that are declared but on a cycle are reported by `frame_tree`
    let no_frames = frames.is_empty();
    let first_point = points.first().map(|p| p.name.span());
    frame_tree(k, frames, &mut out);
    point_list(k, points, &mut out);
    for o in objects {
        object(k, o, &mut out);
    }
    if let Some(g) = gravity {
        k.v.expr(&g.value, Allowed::positions("gravity"));
        k.ty.expect(&g.value, Ty::Vector, "gravity");
        out.gravity = Some(g.value);
    }
    if no_frames && (!out.points.is_empty() || !out.bodies.is_empty()) {
        let span = out
            .bodies
            .first()
            .map(|b| b.name.span())
            .or(first_point)
            .unwrap_or_else(Span::call_site);
        k.cx.error_help(
            span,
            "points and bodies need frames",
            "declare the inertial frame: `frame N;`",
        );
    }
    out
}

/// One root, known parents, no cycles; returned parents-first.
fn frame_tree(k: &Input, decls: Vec<ast::FrameDecl>, out: &mut Kinematics) {
    let index: HashMap<String, usize> = decls
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name.to_string(), i))
        .collect();
    let mut parent: Vec<Option<usize>> = vec![None; decls.len()];
    let mut root: Option<&Ident> = None;
    let mut unknown_parent = false;
    for (i, f) in decls.iter().enumerate() {
        match &f.parent {
            None => match root {
                // a repeated name is reported by the name table
                Some(r) if *r == f.name => {}
                Some(r) => k.cx.error_help(
                    f.name.span(),
                    format!("a second root frame: `{r}` is already the inertial frame"),
                    format!(
                        "give `{}` a parent: `frame {} = {r}.rotate(z, angle);`",
                        f.name, f.name
                    ),
                ),
                None => root = Some(&f.name),
            },
            Some((p, rotations)) => {
                match index.get(&p.to_string()) {
                    Some(j) => parent[i] = Some(*j),
                    None => {
                        k.names.unknown_frame(p, false, Some(&f.name), k.cx);
                        unknown_parent = true;
                    }
                }
                for r in rotations {
                    if !["x", "y", "z"].contains(&r.axis.to_string().as_str()) {
                        k.cx.error_help(
                            r.axis.span(),
                            format!("unknown axis `{}`", r.axis),
                            "rotate about `x`, `y` or `z` of the frame being rotated",
                        );
                    }
                    k.v.expr(&r.angle, Allowed::positions("a frame's angle"));
                    k.ty.expect(&r.angle, Ty::Scalar, "a frame's angle");
                }
            }
        }
    }
    // (an unknown parent is reported already, with `frame P;` as its help)
    if root.is_none() && !decls.is_empty() && !unknown_parent {
        k.cx.error_help(
            decls[0].name.span(),
            "no inertial frame",
            "declare the root frame without a parent: `frame N;`",
        );
    }
    // depth-first from the roots: frames never reached are on a cycle
    let mut order = Vec::with_capacity(decls.len());
    let mut placed = vec![false; decls.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..decls.len() {
            if !placed[i] && parent[i].is_none_or(|p| placed[p]) {
                placed[i] = true;
                order.push(i);
                changed = true;
            }
        }
    }
    for (i, f) in decls.iter().enumerate() {
        if !placed[i] {
            k.cx.error_help(
                f.name.span(),
                format!(
                    "frame `{}` is defined in terms of itself (a cycle of frames)",
                    f.name
                ),
                "every frame must descend from the root frame",
            );
        }
    }
    let mut decls: Vec<Option<ast::FrameDecl>> = decls.into_iter().map(Some).collect();
    for i in order {
        let Some(f) = decls[i].take() else { continue };
        let name = f.name.to_string();
        match f.parent {
            None => {
                out.frame_of.insert(name.clone(), out.frames.len());
                out.frames.push(Frame {
                    name,
                    parent: None,
                    axis: 2,
                    angle: Expr::Error(f.name.span()),
                });
            }
            Some((p, rotations)) => {
                let mut at = out.frame_of.get(&p.to_string()).copied();
                let n = rotations.len();
                for (j, r) in rotations.into_iter().enumerate() {
                    let axis = match r.axis.to_string().as_str() {
                        "x" => 0,
                        "y" => 1,
                        _ => 2,
                    };
                    let fname = if j + 1 == n {
                        name.clone()
                    } else {
                        format!("{name}'{}", j + 1)
                    };
                    out.frames.push(Frame {
                        name: fname,
                        parent: at,
                        axis,
                        angle: r.angle,
                    });
                    at = Some(out.frames.len() - 1);
                }
                // no rotations (a URDF link on a fixed joint without rpy): the parent's frame
                out.frame_of
                    .insert(name, at.unwrap_or(out.frames.len().saturating_sub(1)));
            }
        }
    }
}

/// One origin; each point built on points declared above it.
fn point_list(k: &Input, decls: Vec<ast::PointDecl>, out: &mut Kinematics) {
    let mut origin: Option<Ident> = None;
    let mut seen: Vec<String> = Vec::new();
    for p in decls {
        match &p.def {
            None => {
                // (a repeated name is reported by the name table)
                if let Some(o) = origin.as_ref().filter(|o| **o != p.name) {
                    k.cx.error_help(
                        p.name.span(),
                        format!("a second origin: `{o}` is already the point fixed at the origin"),
                        format!(
                            "place `{}` from it: `point {} = {o} + N[a, b, c];`",
                            p.name, p.name
                        ),
                    );
                }
                origin = Some(p.name.clone());
            }
            Some(e) => {
                k.v.expr(e, Allowed::positions("a point's position"));
                k.ty.expect(e, Ty::Point, &format!("the position of `{}`", p.name));
                find_ident(e, &mut |id| {
                    let key = id.to_string();
                    if matches!(k.names.get(&key), Some((Kind::Point, _))) && !seen.contains(&key) {
                        k.cx.error_help(
                            id.span(),
                            format!("point `{key}` is used before its declaration"),
                            "declare points in order: each is built on points above it",
                        );
                    }
                });
            }
        }
        seen.push(p.name.to_string());
        out.points.push((p.name.to_string(), p.def));
    }
    if origin.is_none()
        && let Some((_, Some(e))) = out.points.first()
    {
        k.cx.error_help(
            e.span(),
            "no origin point",
            "declare the point fixed at the origin: `point O;`",
        );
    }
}

/// The index of the frame (or body's frame) an expression names.
pub(super) fn frame_named(k: &Input, out: &Kinematics, e: &Expr) -> Option<usize> {
    match e {
        Expr::Ident(id) => {
            let key = id.to_string();
            if let Some(i) = out.frame_of.get(&key) {
                return Some(*i);
            }
            if let Some(b) = out.body_of.get(&key) {
                return Some(out.bodies[*b].frame);
            }
            if k.names.get(&key).is_none() {
                k.names.unknown_frame(id, true, None, k.cx);
            } else {
                k.cx.error_help(
                    id.span(),
                    format!("`{key}` is not a frame"),
                    "name a frame declared with `frame`",
                );
            }
            None
        }
        Expr::Error(_) => None,
        other => {
            k.cx.error_help(
                other.span(),
                "expected the name of a frame",
                "name a frame declared with `frame`",
            );
            None
        }
    }
}

fn object(k: &Input, o: Object, out: &mut Kinematics) {
    let kw = o.kw.to_string();
    let what = format!("{kw} {}", o.name);
    match kw.as_str() {
        "body" => {
            let mut e = Entries::new(
                k,
                &what,
                o.name.span(),
                o.entries,
                &["frame", "center", "mass", "inertia"],
            );
            let frame = e.required(k, &what, "frame");
            let center = e.required(k, &what, "center");
            let mass = e.required(k, &what, "mass");
            let inertia = e.optional("inertia");
            typed(k, &center, Ty::Point, "a body's center");
            scalar(k, &mass, "a body's mass");
            let frame = frame_named(k, out, &frame).unwrap_or(0);
            let inertia = inertia.and_then(|i| {
                k.v.expr(&i, Allowed::positions("an inertia"));
                k.ty.expect(&i, Ty::Inertia, "a body's inertia");
                match i {
                    Expr::Call { func, args } if func == "inertia" && args.len() >= 4 => {
                        let f = frame_named(k, out, &args[0])?;
                        Some((f, func.span(), args[1..].to_vec()))
                    }
                    _ => None,
                }
            });
            out.body_of.insert(o.name.to_string(), out.bodies.len());
            out.bodies.push(Body {
                name: o.name,
                frame,
                center,
                mass,
                inertia,
            });
        }
        "particle" => {
            let mut e = Entries::new(k, &what, o.name.span(), o.entries, &["point", "mass"]);
            let point = e.required(k, &what, "point");
            let mass = e.required(k, &what, "mass");
            typed(k, &point, Ty::Point, "a particle's point");
            scalar(k, &mass, "a particle's mass");
            out.particles.push(Particle {
                name: o.name.clone(),
                point,
                mass,
            });
        }
        _ => {
            let mut e = Entries::new(k, &what, o.name.span(), o.entries, &["point", "up"]);
            let point = e.required(k, &what, "point");
            let up = e.required(k, &what, "up");
            typed(k, &point, Ty::Point, "a plane's point");
            typed(k, &up, Ty::Vector, "a plane's `up`");
            out.plane_of.insert(o.name.to_string(), out.planes.len());
            out.planes.push(Plane { point, up });
        }
    }
}

/// `ground G { height(u, v) = h }`: `u` and `v` are names of their own (used nowhere else in
/// the model), `h` a scalar of them and the parameters.
fn ground(k: &Input, g: ast::Ground, out: &mut Kinematics) {
    let what = format!("the height of `{}`", g.name);
    for x in [&g.u, &g.v] {
        if let Some((kind, _)) = k.names.get(&x.to_string()) {
            k.cx.error_help(
                x.span(),
                format!(
                    "`{x}` is already {} of the model: a ground's variables are names of their own",
                    super::names::kind_name(*kind)
                ),
                "name them after nothing else in the model, e.g. `height(u, v)`",
            );
        }
    }
    if g.u == g.v {
        k.cx.error_help(
            g.v.span(),
            format!("`{}` is named twice", g.v),
            "write `height(u, v)`",
        );
    }
    let (u, v) = (g.u.to_string(), g.v.to_string());
    // the height checked as any scalar of the parameters, its variables read as numbers
    let as_numbers = super::exprs::replace_idents(&g.height, &|id| {
        (*id == u || *id == v).then(|| Expr::Lit {
            value: crate::sym::number::Number::int(0),
            span: id.span(),
        })
    });
    k.v.expr(&as_numbers, Allowed::positions("a ground's height"));
    k.ty.expect(&as_numbers, Ty::Scalar, "a ground's height");
    find_ident(&g.height, &mut |id| {
        let key = id.to_string();
        if key == u || key == v {
            return;
        }
        if let Some((kind, _)) = k.names.get(&key)
            && !matches!(kind, Kind::Param)
        {
            k.cx.error_help(
                id.span(),
                format!(
                    "{what} depends on {} `{key}`",
                    super::names::kind_name(*kind)
                ),
                format!(
                    "a ground is fixed: its height is a function of `{u}`, `{v}` and parameters"
                ),
            );
        }
    });
    out.ground_of.insert(g.name.to_string(), out.grounds.len());
    out.grounds.push(GroundDef {
        name: g.name.to_string(),
        u,
        v,
        height: g.height,
    });
}
