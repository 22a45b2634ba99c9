//! The constraint items of the 3D layer: `rolls W on G { .. }` (entries, the surface, the
//! rolling body, the plane, `solve`, `lateral`) and `holonomic(q..) { f == g; }` (solved coordinates,
//! equation count, no velocities).

use super::exprs::Allowed;
use super::input::{scalar, typed, Entries, Input};
use super::model3d::{Holonomic, Kinematics, Rolling, Surface};
use super::types::Ty;
use crate::dsl::ast::{self, Expr};

/// Check the contacts and configuration constraints of a model whose frames, points,
/// bodies, planes and grounds `out` holds, and add them to it.
pub(super) fn check(
    k: &Input,
    rolls: Vec<ast::Rolls>,
    holonomic: Vec<ast::Holonomic>,
    out: &mut Kinematics,
) {
    for r in rolls {
        let roll = rolling(k, r, out);
        out.rolls.push(roll);
    }
    for h in holonomic {
        out.holonomic.push(configuration(k, h));
    }
}

fn rolling(k: &Input, r: ast::Rolls, out: &Kinematics) -> Rolling {
    let what = format!("rolls {} on {}", r.wheel, r.plane);
    let keys = [
        "center", "surface", "frame", "axis", "radius", "contact", "solve", "lateral", "friction",
    ];
    let mut e = Entries::new(k, &what, r.kw.span(), r.entries, &keys);
    let center = e.required(k, &what, "center");
    let given = e.optional("surface");
    let surface = match given {
        None => Surface::Disk {
            axis: e.required(k, &what, "axis"),
            radius: e.required(k, &what, "radius"),
        },
        Some(s) => surface(k, &what, s, &mut e),
    };
    let frame_entry = e.optional("frame");
    let frame_span = frame_entry.as_ref().map(Expr::span);
    let contact = e.optional("contact");
    let solve = e.optional("solve");
    let mut height_row = solve.is_some();
    let lateral = e.optional("lateral");
    let friction = e.optional("friction");
    if let Some(mu) = &friction {
        scalar(k, mu, "a contact's friction coefficient");
        super::exprs::find_ident(mu, &mut |id| {
            if k.coords.iter().any(|q| q == id) {
                k.cx.error_help(
                    id.span(),
                    format!("the friction coefficient depends on the coordinate `{id}`"),
                    "`friction` is a constant of the contact: write a parameter or a number, e.g. `friction: mu`",
                );
            }
        });
    }
    typed(k, &center, Ty::Point, "a rolling body's center");
    match &surface {
        Surface::Disk { axis, radius } => {
            typed(k, axis, Ty::Vector, "a wheel's axis");
            scalar(k, radius, "a wheel's radius");
        }
        Surface::Torus { axis, major, crown } => {
            typed(k, axis, Ty::Vector, "a wheel's axis");
            scalar(k, major, "a torus's major radius");
            scalar(k, crown, "a torus's crown radius");
        }
        Surface::Sphere { radius } => scalar(k, radius, "a sphere's radius"),
        Surface::Ellipsoid { semi } => {
            for a in semi {
                scalar(k, a, "an ellipsoid's semi-axis");
            }
        }
    }
    if let Some(c) = &contact {
        typed(k, c, Ty::Point, "a wheel's contact point");
    }
    let body = match out.body_of.get(&r.wheel.to_string()) {
        Some(b) => *b,
        None => {
            k.cx.error_help(
                r.wheel.span(),
                format!("`{}` is not a body", r.wheel),
                "a rolling body is declared with `body W { .. }`",
            );
            0
        }
    };
    let body_frame = out.bodies.get(body).map_or(0, |b| b.frame);
    let frame = match frame_entry {
        None => body_frame,
        Some(f) if surface.axle().is_some() => {
            k.cx.error_help(
                f.span(),
                "`frame` is for a sphere or an ellipsoid: a disk or a torus is placed by its `axis`",
                "remove `frame`",
            );
            body_frame
        }
        Some(f) => super::kinematics::frame_named(k, out, &f).unwrap_or(body_frame),
    };
    let ground = out.ground_of.get(&r.plane.to_string()).copied();
    let plane = match (out.plane_of.get(&r.plane.to_string()), ground) {
        (Some(p), _) => *p,
        (None, Some(_)) => 0,
        (None, None) => {
            k.cx.error_help(
                r.plane.span(),
                format!("`{}` is not a plane", r.plane),
                "declare it with `plane G { point: O, up: N.z }` (or uneven ground with `ground G { height(u, v) = .. }`)",
            );
            0
        }
    };
    if ground.is_some() {
        // the contact on uneven ground is where the coordinates put it: its normal is the
        // ground's there
        if contact.is_none() {
            k.cx.error_help(
                r.kw.span(),
                format!("`{what}` needs `contact: P`: on uneven ground the contact is built on it"),
                format!(
                    "write `point P = {}.at(x, y);`, build the centre from it and add `contact: P`",
                    r.plane
                ),
            );
        }
        if let Some(s) = &solve {
            // refused, so no height row: the row count is no second error
            height_row = false;
            k.cx.error_help(
                s.span(),
                "`solve` is for a contact on a plane: on uneven ground the contact is built on it",
                format!(
                    "remove `solve`; build the contact with `{}.at(x, y)` and the centre from it",
                    r.plane
                ),
            );
        }
    }
    let solve = solve.and_then(|s| match &s {
        Expr::Ident(id) => match k.coords.iter().position(|q| q == id) {
            Some(i) => Some((i, id.span())),
            None => {
                k.cx.error_help(
                    id.span(),
                    format!("`solve: {id}`: `{id}` is not a coordinate"),
                    "name the coordinate the contact height determines",
                );
                None
            }
        },
        other => {
            k.cx.error_help(
                other.span(),
                "`solve` names a coordinate",
                "write `solve: pitch`",
            );
            None
        }
    });
    let lateral = match lateral {
        None => true,
        Some(Expr::Lit { value, span }) if value.is_zero() || value.is_one() => {
            let refused = value.is_zero() && surface.axle().is_none();
            if refused {
                k.cx.error_help(
                    span,
                    "`lateral: false` is for the second wheel on an axle: a sphere or an ellipsoid has no axle",
                    "remove `lateral`",
                );
            }
            // a refused `lateral: false` keeps both tangent rows: the row count is no second error
            refused || value.is_one()
        }
        Some(other) => {
            k.cx.error_help(
                other.span(),
                "`lateral` is `true` or `false`",
                "write `lateral: false` for the second wheel on an axle",
            );
            true
        }
    };
    Rolling {
        height_tolerance: r.height_tolerance,
        span: r.kw.span(),
        body,
        plane,
        ground,
        center,
        surface,
        frame,
        frame_span,
        contact,
        solve,
        height_row,
        lateral,
        friction,
    }
}

/// `surface: sphere(R) | ellipsoid(a, b, c) | torus(R, rc)`, with the entries each needs
/// (a torus its `axis`) and refuses (`radius`; `axis` for a surface without an axle).
fn surface(k: &Input, what: &str, s: Expr, e: &mut Entries) -> Surface {
    let help =
        "write `surface: sphere(R)`, `surface: ellipsoid(a, b, c)` or `surface: torus(R, rc)`";
    if let Some(r) = e.optional("radius") {
        k.cx.error_help(
            r.span(),
            "`radius` is the thin disk's: with `surface` the surface gives its own size",
            "remove `radius` (a torus is `surface: torus(R, rc)` with its `axis`)",
        );
    }
    let Expr::Call { func, args } = s else {
        k.cx.error_help(s.span(), "expected a surface", help);
        return Surface::Sphere {
            radius: Expr::Error(s.span()),
        };
    };
    let name = func.to_string();
    let arity = match name.as_str() {
        "sphere" => 1,
        "torus" => 2,
        "ellipsoid" => 3,
        _ => {
            k.cx.error_help(func.span(), format!("unknown surface `{name}`"), help);
            return Surface::Sphere {
                radius: Expr::Error(func.span()),
            };
        }
    };
    if args.len() != arity {
        k.cx.error_help(
            func.span(),
            format!("`{name}` takes {arity} argument(s), here {}", args.len()),
            help,
        );
    }
    let arg = |i: usize| args.get(i).cloned().unwrap_or(Expr::Error(func.span()));
    match name.as_str() {
        "torus" => Surface::Torus {
            axis: e.required(k, what, "axis"),
            major: arg(0),
            crown: arg(1),
        },
        other => {
            if let Some(a) = e.optional("axis") {
                k.cx.error_help(
                    a.span(),
                    format!("a {other} has no axle: `axis` is for a disk or a torus"),
                    "remove `axis`",
                );
            }
            if other == "sphere" {
                Surface::Sphere { radius: arg(0) }
            } else {
                Surface::Ellipsoid {
                    semi: [arg(0), arg(1), arg(2)],
                }
            }
        }
    }
}

fn configuration(k: &Input, h: ast::Holonomic) -> Holonomic {
    let mut solve = Vec::new();
    for q in &h.solve {
        match k.coords.iter().position(|c| c == q) {
            Some(i) if solve.contains(&i) => k.cx.error(q.span(), format!("`{q}` is listed twice")),
            Some(i) => solve.push(i),
            None => k.cx.error_help(
                q.span(),
                format!("`{q}` is not a coordinate"),
                "`holonomic(..)` names the coordinates its equations are solved for",
            ),
        }
    }
    if h.equations.len() != h.solve.len() {
        k.cx.error_help(
            h.kw.span(),
            format!(
                "{} equation(s) solved for {} coordinate(s)",
                h.equations.len(),
                h.solve.len()
            ),
            "name one coordinate per equation in `holonomic(..)`",
        );
    }
    let mut equations = Vec::new();
    for c in h.equations {
        let text = c.text();
        for side in [&c.lhs, &c.rhs] {
            k.v.expr(side, Allowed::positions("a `holonomic` equation"));
            k.ty.expect(side, Ty::Scalar, "a `holonomic` equation");
        }
        equations.push((c.lhs, c.rhs, text));
    }
    Holonomic {
        span: h.kw.span(),
        solve,
        equations,
    }
}
