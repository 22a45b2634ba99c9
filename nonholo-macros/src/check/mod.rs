//! Stage 2: validate the parsed model and resolve names. Every error is recorded with the
//! user's span; the result is usable (with placeholders) even when errors were found, so
//! one mistake does not hide the next.

mod contacts;
pub mod draw;
mod exprs;
mod input;
pub mod kinematics;
mod loads;
mod model3d;
mod names;
mod parametrization;
pub mod types;

use crate::ctxt::{nearest, Ctxt};
use crate::dsl::ast::{self, Expr, Model, Named, Section};
use crate::model::{Formulation, Jacobians, Parametrization};
use exprs::{Allowed, Validator};
use kinematics::Kinematics;
use names::{Kind, NameTable};
use proc_macro2::Span;
use syn::Ident;
use types::{Ty, Typer};

pub struct Constraint {
    /// `lhs - rhs`.
    pub lhs: Expr,
    pub rhs: Expr,
    pub span: Span,
    pub text: String,
}

/// The validated model.
pub struct Checked {
    pub attrs: Vec<syn::Attribute>,
    pub vis: syn::Visibility,
    pub name: Ident,
    pub params: Vec<(Ident, Option<Expr>)>,
    /// Runtime inputs u, in order.
    pub inputs: Vec<Ident>,
    pub coords: Vec<Ident>,
    pub speeds: Vec<Ident>,
    pub lets: Vec<(Ident, Expr)>,
    pub kinetic: Expr,
    pub kinetic_span: Span,
    pub potential: Option<Expr>,
    pub forces: Vec<Option<Expr>>,
    pub constraints: Vec<Constraint>,
    pub parametrization: Parametrization<Expr>,
    pub parametrization_span: Span,
    pub formulation: Formulation,
    pub jacobians: Jacobians,
    /// Frames, points, bodies, rolling contacts, loads (empty for a scalar model).
    pub kinematics: Kinematics,
}

pub fn check(m: Model, cx: &Ctxt) -> Option<Checked> {
    let name = m.name.clone()?;
    let mut names = NameTable::new();
    let params: Vec<(Ident, Option<Expr>)> = m
        .parameters
        .map(|s| s.value.into_iter().map(|p| (p.name, p.default)).collect())
        .unwrap_or_default();
    for (p, _) in &params {
        names.declare(p, Kind::Param, cx);
    }
    let inputs: Vec<Ident> = m.inputs.map(|s| s.value).unwrap_or_default();
    for u in &inputs {
        names.declare(u, Kind::Input, cx);
    }
    let coords = coordinates(m.coordinates, &m.failed, &name, cx);
    for q in &coords {
        names.declare(q, Kind::Coord, cx);
    }
    let speeds: Vec<Ident> = match (&m.speeds, &m.velocities) {
        (Some(s), _) => s.value.iter().map(|n| n.name.clone()).collect(),
        (None, Some(v)) => v.value.params.clone(),
        (None, None) => vec![],
    };
    for z in &speeds {
        names.declare(z, Kind::Speed, cx);
    }
    for (i, l) in m.lets.iter().enumerate() {
        names.declare(&l.name, Kind::Let(i), cx);
    }
    kinematics::declare(&m.frames, &m.points, &m.objects, &m.grounds, &mut names, cx);
    let v = Validator::new(cx, &names, &m.lets);
    let ty = Typer::new(cx, &names, &m.lets);
    let k = input::Input {
        cx,
        names: &names,
        v: &v,
        ty: &ty,
        coords: &coords,
    };
    let mut kin = kinematics::check(
        &k,
        kinematics::Items {
            frames: m.frames,
            points: m.points,
            objects: m.objects,
            gravity: m.gravity,
            grounds: m.grounds,
        },
    );
    contacts::check(&k, m.rolls, m.holonomic, &mut kin);
    let coordinate_forces = loads::forces(&k, &mut kin, m.forces);
    let drawing = draw::draw(
        &k,
        |name| {
            kin.body_of.contains_key(name)
                || kin.plane_of.contains_key(name)
                || kin.ground_of.contains_key(name)
                || kin.particles.iter().any(|p| p.name == name)
        },
        m.draw,
    );
    kin.draw = drawing.draw;
    kin.hidden = drawing.hidden;

    for d in params.iter().filter_map(|(_, d)| d.as_ref()) {
        v.constant(d);
    }
    let has_mass = !kin.bodies.is_empty() || !kin.particles.is_empty();
    let (kinetic, kinetic_span) =
        kinetic_energy(m.kinetic, &m.failed, &name, has_mass, &v, &ty, cx);
    let potential = m.potential.map(|s| {
        v.expr(
            &s.value,
            Allowed::positions("potential_energy").with_inputs(),
        );
        ty.expect(&s.value, Ty::Scalar, "potential_energy");
        s.value
    });
    let forces = forces(coordinate_forces, &coords, &v, cx);
    let constraints_span = m.constraints.as_ref().map(|c| c.span);
    let constraints = constraints(m.constraints, &v, &ty);
    let pk = parametrization::Context {
        cx,
        v: &v,
        ty: &ty,
        coords: &coords,
        nc: constraints.len() + kin.rows(),
        kinematic_rows: kin.rows(),
        constraints_span,
        model_span: name.span(),
    };
    let (parametrization, parametrization_span) =
        parametrization::parametrization(&pk, m.speeds, m.velocities, m.dependent);
    let (formulation, _) = formulation(m.formulation, &name, cx);
    if let Some((msg, help)) = formulation.rejects(parametrization.kind()) {
        cx.error_help(parametrization_span, msg, help);
    }
    let jacobians = jacobians(m.jacobians, formulation, cx);

    Some(Checked {
        attrs: m.attrs,
        vis: m.vis.unwrap_or(syn::Visibility::Inherited),
        name,
        params,
        inputs,
        coords,
        speeds,
        lets: m.lets.into_iter().map(|l| (l.name, l.expr)).collect(),
        kinetic,
        kinetic_span,
        potential,
        forces,
        constraints,
        parametrization,
        parametrization_span,
        formulation,
        jacobians,
        kinematics: kin,
    })
}

fn coordinates(
    section: Option<Section<Vec<Ident>>>,
    failed: &[String],
    name: &Ident,
    cx: &Ctxt,
) -> Vec<Ident> {
    match section {
        Some(s) if !s.value.is_empty() => s.value,
        Some(s) => {
            cx.error(s.span, "a model needs at least one coordinate");
            vec![]
        }
        None if failed.iter().any(|h| h == "coordinates") => vec![],
        None => {
            cx.error_help(
                name.span(),
                "missing `coordinates { .. }`",
                "declare the generalized coordinates, e.g. `coordinates { x, y, theta }`",
            );
            vec![]
        }
    }
}

fn kinetic_energy(
    section: Option<Section<Expr>>,
    failed: &[String],
    name: &Ident,
    has_mass: bool,
    v: &Validator,
    ty: &Typer,
    cx: &Ctxt,
) -> (Expr, Span) {
    match section {
        Some(s) => {
            v.expr(&s.value, Allowed::velocities("kinetic_energy"));
            ty.expect(&s.value, Ty::Scalar, "kinetic_energy");
            (s.value, s.span)
        }
        None if has_mass => (
            Expr::Lit {
                value: crate::sym::Number::int(0),
                span: name.span(),
            },
            name.span(),
        ),
        None => {
            if !failed.iter().any(|h| h == "kinetic_energy") {
                cx.error_help(
                    name.span(),
                    "missing `kinetic_energy = ...;`",
                    "write T as a function of the coordinates and `dot(q)`, or declare bodies and particles",
                );
            }
            (Expr::Error(name.span()), name.span())
        }
    }
}

/// `forces { q: F_q, .. }`: one generalized force per coordinate at most.
fn forces(section: Vec<Named>, coords: &[Ident], v: &Validator, cx: &Ctxt) -> Vec<Option<Expr>> {
    let mut forces: Vec<Option<Expr>> = coords.iter().map(|_| None).collect();
    for f in section {
        v.expr(&f.expr, Allowed::velocities("forces").with_inputs());
        match coords.iter().position(|q| *q == f.name) {
            Some(i) if forces[i].is_some() => cx.error_help(
                f.name.span(),
                format!("two forces on coordinate `{}`", f.name),
                "add them in one entry",
            ),
            Some(i) => forces[i] = Some(f.expr),
            None => {
                let msg = format!(
                    "forces are given per coordinate; `{}` is not a coordinate",
                    f.name
                );
                let names: Vec<String> = coords.iter().map(|c| c.to_string()).collect();
                match nearest(&f.name.to_string(), names.iter().map(|s| s.as_str())) {
                    Some(s) => cx.error_help(f.name.span(), msg, format!("did you mean `{s}`?")),
                    None => cx.error(f.name.span(), msg),
                }
            }
        }
    }
    forces
}

fn constraints(
    section: Option<Section<Vec<ast::Constraint>>>,
    v: &Validator,
    ty: &Typer,
) -> Vec<Constraint> {
    section
        .map(|s| s.value)
        .unwrap_or_default()
        .into_iter()
        .map(|c| {
            v.expr(&c.lhs, Allowed::velocities("constraints"));
            v.expr(&c.rhs, Allowed::velocities("constraints"));
            ty.expect(&c.lhs, Ty::Scalar, "a constraint");
            ty.expect(&c.rhs, Ty::Scalar, "a constraint");
            let text = c.text();
            Constraint {
                lhs: c.lhs,
                rhs: c.rhs,
                span: c.span,
                text,
            }
        })
        .collect()
}

/// `jacobians = closed_form | dual;` (default: closed form up to a size). The closed form
/// is derived from the first methods' rhs; `multipliers` takes dual passes.
fn jacobians(section: Option<Section<Ident>>, formulation: Formulation, cx: &Ctxt) -> Jacobians {
    let Some(j) = section else {
        return Jacobians::Auto;
    };
    let span = j.value.span();
    let given = j.value.to_string();
    let Some(known) = Jacobians::from_name(&given) else {
        let msg = format!("unknown way to emit `jacobians`: `{given}`");
        match nearest(&given, Jacobians::NAMES.iter().copied()) {
            Some(k) => cx.error_help(span, msg, format!("did you mean `{k}`?")),
            None => cx.error_help(span, msg, "choose `closed_form` or `dual`".to_string()),
        }
        return Jacobians::Auto;
    };
    if known == Jacobians::ClosedForm && formulation == Formulation::Multipliers {
        cx.error_help(
            span,
            "`jacobians = closed_form` is derived from the speeds' equations of `gibbs_appell`, `boltzmann_hamel` and `voronec`; `formulation = multipliers` takes one dual pass per column",
            "remove `jacobians = closed_form;`, or choose a first-method formulation".to_string(),
        );
    }
    known
}

/// `formulation = name;` (default Gibbs–Appell).
fn formulation(section: Option<Section<Ident>>, name: &Ident, cx: &Ctxt) -> (Formulation, Span) {
    let Some(f) = section else {
        return (Formulation::GibbsAppell, name.span());
    };
    let span = f.value.span();
    let given = f.value.to_string();
    if let Some(known) = Formulation::from_name(&given) {
        return (known, span);
    }
    let known: Vec<&str> = Formulation::ALL.iter().map(|f| f.name()).collect();
    let msg = format!("unknown formulation `{given}`");
    match nearest(&given, known.iter().copied()) {
        Some(k) => cx.error_help(span, msg, format!("did you mean `{k}`?")),
        None => cx.error_help(span, msg, format!("choose one of {}", known.join(", "))),
    }
    (Formulation::GibbsAppell, span)
}
