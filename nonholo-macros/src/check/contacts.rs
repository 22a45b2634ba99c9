//! The constraint items of the 3D layer: `rolls W on G { .. }` (entries, the wheel body,
//! the plane, `solve`, `lateral`) and `holonomic(q..) { f == g; }` (solved coordinates,
//! equation count, no velocities).

use super::exprs::Allowed;
use super::input::{scalar, typed, Entries, Input};
use super::types::Ty;
use crate::dsl::ast::{self, Expr};
use proc_macro2::Span;
use std::collections::HashMap;

/// `rolls W on G { .. }`.
pub struct Rolling {
    pub span: Span,
    pub body: usize,
    pub plane: usize,
    pub center: Expr,
    pub axis: Expr,
    pub radius: Expr,
    pub contact: Option<Expr>,
    /// The coordinate the contact-height equation is solved for.
    pub solve: Option<(usize, Span)>,
    /// `solve` was given (even if wrong): the height row counts among the constraints.
    pub height_row: bool,
    pub lateral: bool,
    /// `friction: mu`, an expression of the parameters.
    pub friction: Option<Expr>,
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

pub(super) fn rolling(
    k: &Input,
    r: ast::Rolls,
    body_of: &HashMap<String, usize>,
    plane_of: &HashMap<String, usize>,
) -> Rolling {
    let what = format!("rolls {} on {}", r.wheel, r.plane);
    let keys = [
        "center", "axis", "radius", "contact", "solve", "lateral", "friction",
    ];
    let mut e = Entries::new(k, &what, r.kw.span(), r.entries, &keys);
    let center = e.required(k, &what, "center");
    let axis = e.required(k, &what, "axis");
    let radius = e.required(k, &what, "radius");
    let contact = e.optional("contact");
    let solve = e.optional("solve");
    let height_row = solve.is_some();
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
    typed(k, &center, Ty::Point, "a wheel's center");
    typed(k, &axis, Ty::Vector, "a wheel's axis");
    scalar(k, &radius, "a wheel's radius");
    if let Some(c) = &contact {
        typed(k, c, Ty::Point, "a wheel's contact point");
    }
    let body = match body_of.get(&r.wheel.to_string()) {
        Some(b) => *b,
        None => {
            k.cx.error_help(
                r.wheel.span(),
                format!("`{}` is not a body", r.wheel),
                "a wheel is declared with `body W { .. }`",
            );
            0
        }
    };
    let plane = match plane_of.get(&r.plane.to_string()) {
        Some(p) => *p,
        None => {
            k.cx.error_help(
                r.plane.span(),
                format!("`{}` is not a plane", r.plane),
                "declare it with `plane G { point: O, up: N.z }`",
            );
            0
        }
    };
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
        Some(Expr::Lit { value, .. }) if value.is_zero() || value.is_one() => !value.is_zero(),
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
        span: r.kw.span(),
        body,
        plane,
        center,
        axis,
        radius,
        contact,
        solve,
        height_row,
        lateral,
        friction,
    }
}

pub(super) fn configuration(k: &Input, h: ast::Holonomic) -> Holonomic {
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
