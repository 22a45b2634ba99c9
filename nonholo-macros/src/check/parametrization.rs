//! The parametrization sections: `speeds { .. }`, `velocities(..) { .. }`, or neither
//! (independent velocities, optionally `dependent { .. }`), with their counts checked
//! against coordinates - constraints.

use super::exprs::{Allowed, Validator};
use super::types::{Ty, Typer};
use crate::ctxt::Ctxt;
use crate::dsl::ast::{Expr, Named, Section, Velocities};
use crate::model::Parametrization;
use proc_macro2::Span;
use syn::Ident;

/// What the parametrization checks need to know about the rest of the model.
pub struct Context<'a> {
    pub cx: &'a Ctxt,
    pub v: &'a Validator<'a>,
    pub ty: &'a Typer<'a>,
    pub coords: &'a [Ident],
    pub nc: usize,
    /// How many of the `nc` rows come from `rolls` and `holonomic` (3D items).
    pub kinematic_rows: usize,
    pub constraints_span: Option<Span>,
    pub model_span: Span,
}

pub fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The one parametrization of the model and the span to report its errors on.
pub fn parametrization(
    k: &Context,
    speeds: Option<Section<Vec<Named>>>,
    velocities: Option<Section<Velocities>>,
    dependent: Option<Section<Vec<Ident>>>,
) -> (Parametrization<Expr>, Span) {
    let cx = k.cx;
    match (speeds, velocities, dependent) {
        (Some(s), vel, dep) => {
            if let Some(vel) = vel {
                cx.error_help(
                    vel.span,
                    "`speeds` and `velocities` cannot both be given",
                    "keep one parametrization of the velocities",
                );
            }
            if let Some(dep) = dep {
                cx.error_help(
                    dep.span,
                    "`dependent` goes with independent velocities, not with `speeds`",
                    "remove `dependent { .. }` or `speeds { .. }`",
                );
            }
            quasi_velocities(k, s)
        }
        (None, Some(vel), dep) => {
            if let Some(dep) = dep {
                cx.error_help(
                    dep.span,
                    "`dependent` goes with independent velocities, not with `velocities(..)`",
                    "remove one of them",
                );
            }
            parametric(k, vel)
        }
        (None, None, dep) => independent(k, dep),
    }
}

/// `speeds { z = Z(q,t) dot(q) + psi(q,t); .. }` (Talamucci eq. 11).
fn quasi_velocities(k: &Context, s: Section<Vec<Named>>) -> (Parametrization<Expr>, Span) {
    let n = k.coords.len();
    for z in &s.value {
        k.v.expr(&z.expr, Allowed::velocities("speeds"));
        k.ty.expect(&z.expr, Ty::Scalar, "a speed");
    }
    if n > 0 && s.value.len() + k.nc != n {
        k.cx.error_help(
            s.span,
            format!(
                "{} for {} and {}: there must be coordinates - constraints = {}",
                plural(s.value.len(), "speed"),
                plural(n, "coordinate"),
                plural(k.nc, "constraint"),
                n.saturating_sub(k.nc)
            ),
            "every velocity must follow from the speeds and the constraints",
        );
    }
    (
        Parametrization::Speeds(s.value.into_iter().map(|z| z.expr).collect()),
        s.span,
    )
}

/// `velocities(z..) { dot(q) = psi(q, z, t); .. }` (Benenti's eq. 2.1).
fn parametric(k: &Context, vel: Section<Velocities>) -> (Parametrization<Expr>, Span) {
    let (cx, coords, n, nc) = (k.cx, k.coords, k.coords.len(), k.nc);
    let vel_span = vel.span;
    let mut per_coord: Vec<Option<Expr>> = coords.iter().map(|_| None).collect();
    for (q, e) in vel.value.defs {
        k.v.expr(
            &e,
            Allowed {
                what: "velocities",
                velocities: false,
                speeds: true,
                inputs: false,
            },
        );
        k.ty.expect(&e, Ty::Scalar, "a velocity");
        match coords.iter().position(|c| *c == q) {
            Some(i) if per_coord[i].is_some() => {
                cx.error(q.span(), format!("`dot({q})` is defined twice"))
            }
            Some(i) => per_coord[i] = Some(e),
            None => cx.error(q.span(), format!("`{q}` is not a coordinate")),
        }
    }
    let mut exprs = Vec::with_capacity(n);
    for (i, e) in per_coord.into_iter().enumerate() {
        match e {
            Some(e) => exprs.push(e),
            None => {
                cx.error_help(
                    vel_span,
                    format!("`velocities` leaves `dot({})` undefined", coords[i]),
                    format!("add `dot({}) = ...;`", coords[i]),
                );
                exprs.push(Expr::Error(vel_span));
            }
        }
    }
    let m = vel.value.params.len();
    if nc > 0 && m + nc != n {
        cx.error_help(
            vel_span,
            format!(
                "{} for {} and {}: there must be {}",
                plural(m, "speed"),
                plural(n, "coordinate"),
                plural(nc, "constraint"),
                n.saturating_sub(nc)
            ),
            "the parameters of `velocities(..)` must number coordinates - constraints",
        );
    }
    if m == 0 {
        cx.error(vel_span, "`velocities(..)` needs at least one parameter");
    }
    (Parametrization::Velocities(exprs), vel_span)
}

/// Neither section: independent velocities, the dependent ones named or chosen later.
fn independent(k: &Context, dep: Option<Section<Vec<Ident>>>) -> (Parametrization<Expr>, Span) {
    let (cx, coords, n, nc) = (k.cx, k.coords, k.coords.len(), k.nc);
    let span = dep.as_ref().map(|d| d.span).unwrap_or(k.model_span);
    let dependent = dep.map(|d| {
        let mut idx = Vec::new();
        for q in &d.value {
            match coords.iter().position(|c| c == q) {
                Some(i) if idx.contains(&i) => cx.error(q.span(), format!("`{q}` is listed twice")),
                Some(i) => idx.push(i),
                None => cx.error(q.span(), format!("`{q}` is not a coordinate")),
            }
        }
        if d.value.len() != nc {
            let help = if k.kinematic_rows > 0 {
                format!(
                    "name one dependent coordinate per constraint; {} of the {nc} come from `rolls` (2 per wheel, 1 with `lateral: false`, 1 more for a contact height with `solve`) and `holonomic` (1 per equation)",
                    k.kinematic_rows
                )
            } else {
                "name one dependent coordinate per constraint".to_string()
            };
            cx.error_help(
                d.span,
                format!(
                    "{} dependent velocities for {nc} constraints",
                    d.value.len()
                ),
                help,
            );
        }
        idx
    });
    if nc >= n && n > 0 {
        cx.error_help(
            k.constraints_span.unwrap_or(span),
            format!(
                "{} for {}: no velocity is left free",
                plural(nc, "constraint"),
                plural(n, "coordinate")
            ),
            "a model needs fewer independent constraints than coordinates",
        );
    }
    (Parametrization::Independent { dependent }, span)
}
