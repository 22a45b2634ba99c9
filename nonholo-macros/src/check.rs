//! Stage 2: validate the parsed model and resolve names. Every error is recorded with the
//! user's span; the result is usable (with placeholders) even when errors were found, so
//! one mistake does not hide the next.

use crate::ctxt::{nearest, Ctxt};
use crate::dsl::ast::{self, Expr, Model};
use proc_macro2::Span;
use std::collections::HashMap;
use syn::Ident;

/// Which derivation to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Formulation {
    GibbsAppell,
    BoltzmannHamel,
    Voronec,
    Multipliers,
}

/// How the velocities are parametrized.
pub enum Parametrization {
    /// `speeds { z = Z(q,t) dot(q) + psi(q,t) }` (quasi-velocities).
    Speeds(Vec<Expr>),
    /// `velocities(z..) { dot(q) = psi(q, z, t) }`, one expression per coordinate.
    Velocities(Vec<Expr>),
    /// Independent velocities; the dependent ones (coordinate indices) if named.
    Independent { dependent: Option<Vec<usize>> },
}

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
    pub coords: Vec<Ident>,
    pub speeds: Vec<Ident>,
    pub lets: Vec<(Ident, Expr)>,
    pub kinetic: Expr,
    pub kinetic_span: Span,
    pub potential: Option<Expr>,
    pub forces: Vec<Option<Expr>>,
    pub constraints: Vec<Constraint>,
    pub parametrization: Parametrization,
    pub parametrization_span: Span,
    pub formulation: Formulation,
    pub formulation_span: Span,
}

/// What a name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Time,
    Param,
    Coord,
    Speed,
    Let(usize),
}

/// Which symbols an expression may use.
#[derive(Clone, Copy)]
struct Allowed {
    what: &'static str,
    velocities: bool,
    speeds: bool,
}

/// The functions of the DSL with their arities (free-function form).
pub const FUNCTIONS: &[(&str, usize)] = &[
    ("sin", 1),
    ("cos", 1),
    ("tan", 1),
    ("asin", 1),
    ("acos", 1),
    ("atan", 1),
    ("atan2", 2),
    ("sinh", 1),
    ("cosh", 1),
    ("tanh", 1),
    ("exp", 1),
    ("ln", 1),
    ("sqrt", 1),
    ("abs", 1),
    ("powi", 2),
    ("powf", 2),
];

pub fn check(m: Model, cx: &Ctxt) -> Option<Checked> {
    let name = m.name.clone()?;
    let mut names: HashMap<String, (Kind, Span)> = HashMap::new();
    names.insert("t".into(), (Kind::Time, Span::call_site()));
    let declare = |id: &Ident, kind: Kind, names: &mut HashMap<String, (Kind, Span)>| {
        let key = id.to_string();
        if key == "t" {
            cx.error_help(
                id.span(),
                "`t` is time and cannot be redeclared",
                "choose another name",
            );
            return;
        }
        if key == "dot" || key == "self" || key.starts_with("__") {
            cx.error(id.span(), format!("`{key}` is reserved"));
            return;
        }
        if FUNCTIONS.iter().any(|(f, _)| *f == key) {
            cx.error_help(
                id.span(),
                format!("`{key}` is a function of the DSL"),
                "choose another name",
            );
            return;
        }
        if let Some((prev, _)) = names.get(&key) {
            cx.error_help(
                id.span(),
                format!("`{key}` is already declared as {}", kind_name(*prev)),
                "every parameter, coordinate, speed and `let` needs its own name",
            );
            return;
        }
        names.insert(key, (kind, id.span()));
    };

    let params: Vec<(Ident, Option<Expr>)> = m
        .parameters
        .map(|s| s.value.into_iter().map(|p| (p.name, p.default)).collect())
        .unwrap_or_default();
    for (p, _) in &params {
        declare(p, Kind::Param, &mut names);
    }
    let coords: Vec<Ident> = match m.coordinates {
        Some(s) if !s.value.is_empty() => s.value,
        Some(s) => {
            cx.error(s.span, "a model needs at least one coordinate");
            vec![]
        }
        None if m.failed.iter().any(|h| h == "coordinates") => vec![],
        None => {
            cx.error_help(
                name.span(),
                "missing `coordinates { .. }`",
                "declare the generalized coordinates, e.g. `coordinates { x, y, theta }`",
            );
            vec![]
        }
    };
    for q in &coords {
        declare(q, Kind::Coord, &mut names);
    }
    let speeds: Vec<Ident> = match (&m.speeds, &m.velocities) {
        (Some(s), _) => s.value.iter().map(|n| n.name.clone()).collect(),
        (None, Some(v)) => v.value.params.clone(),
        (None, None) => vec![],
    };
    for z in &speeds {
        declare(z, Kind::Speed, &mut names);
    }
    for (i, l) in m.lets.iter().enumerate() {
        declare(&l.name, Kind::Let(i), &mut names);
    }

    let mut v = Validator {
        cx,
        names: &names,
        lets: &m.lets,
        let_deps: vec![],
    };
    v.compute_let_deps();

    for (_, d) in &params {
        if let Some(d) = d {
            v.constant(d);
        }
    }
    let kinetic_span;
    let kinetic = match m.kinetic {
        Some(s) => {
            kinetic_span = s.span;
            v.expr(
                &s.value,
                Allowed {
                    what: "kinetic_energy",
                    velocities: true,
                    speeds: false,
                },
            );
            s.value
        }
        None => {
            kinetic_span = name.span();
            if !m.failed.iter().any(|h| h == "kinetic_energy") {
                cx.error_help(
                    name.span(),
                    "missing `kinetic_energy = ...;`",
                    "write T as a function of the coordinates and `dot(q)`",
                );
            }
            Expr::Error(name.span())
        }
    };
    let potential = m.potential.map(|s| {
        v.expr(
            &s.value,
            Allowed {
                what: "potential_energy",
                velocities: false,
                speeds: false,
            },
        );
        s.value
    });
    let mut forces: Vec<Option<Expr>> = coords.iter().map(|_| None).collect();
    if let Some(fs) = m.forces {
        for f in fs.value {
            v.expr(
                &f.expr,
                Allowed {
                    what: "forces",
                    velocities: true,
                    speeds: false,
                },
            );
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
                    match nearest(
                        &f.name.to_string(),
                        coords
                            .iter()
                            .map(|c| c.to_string())
                            .collect::<Vec<_>>()
                            .iter()
                            .map(|s| s.as_str()),
                    ) {
                        Some(s) => {
                            cx.error_help(f.name.span(), msg, format!("did you mean `{s}`?"))
                        }
                        None => cx.error(f.name.span(), msg),
                    }
                }
            }
        }
    }
    let constraints_span = m.constraints.as_ref().map(|c| c.span);
    let constraints: Vec<Constraint> = m
        .constraints
        .map(|s| s.value)
        .unwrap_or_default()
        .into_iter()
        .map(|c: ast::Constraint| {
            let a = Allowed {
                what: "constraints",
                velocities: true,
                speeds: false,
            };
            v.expr(&c.lhs, a);
            v.expr(&c.rhs, a);
            let text = c.text();
            Constraint {
                lhs: c.lhs,
                rhs: c.rhs,
                span: c.span,
                text,
            }
        })
        .collect();

    let n = coords.len();
    let nc = constraints.len();
    let (parametrization, parametrization_span) = match (m.speeds, m.velocities, m.dependent) {
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
            for z in &s.value {
                v.expr(
                    &z.expr,
                    Allowed {
                        what: "speeds",
                        velocities: true,
                        speeds: false,
                    },
                );
            }
            if n > 0 && s.value.len() + nc != n {
                cx.error_help(
                    s.span,
                    format!(
                        "{} for {} and {}: there must be coordinates - constraints = {}",
                        plural(s.value.len(), "speed"),
                        plural(n, "coordinate"),
                        plural(nc, "constraint"),
                        n.saturating_sub(nc)
                    ),
                    "every velocity must follow from the speeds and the constraints",
                );
            }
            (
                Parametrization::Speeds(s.value.into_iter().map(|z| z.expr).collect()),
                s.span,
            )
        }
        (None, Some(vel), dep) => {
            if let Some(dep) = dep {
                cx.error_help(
                    dep.span,
                    "`dependent` goes with independent velocities, not with `velocities(..)`",
                    "remove one of them",
                );
            }
            let vel_span = vel.span;
            let mut per_coord: Vec<Option<Expr>> = coords.iter().map(|_| None).collect();
            for (q, e) in vel.value.defs {
                v.expr(
                    &e,
                    Allowed {
                        what: "velocities",
                        velocities: false,
                        speeds: true,
                    },
                );
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
            let m_ = vel.value.params.len();
            if nc > 0 && m_ + nc != n {
                cx.error_help(
                    vel_span,
                    format!(
                        "{} for {} and {}: there must be {}",
                        plural(m_, "speed"),
                        plural(n, "coordinate"),
                        plural(nc, "constraint"),
                        n.saturating_sub(nc)
                    ),
                    "the parameters of `velocities(..)` must number coordinates - constraints",
                );
            }
            if m_ == 0 {
                cx.error(vel_span, "`velocities(..)` needs at least one parameter");
            }
            (Parametrization::Velocities(exprs), vel_span)
        }
        (None, None, dep) => {
            let span = dep.as_ref().map(|d| d.span).unwrap_or(name.span());
            let dependent = dep.map(|d| {
                let mut idx = Vec::new();
                for q in &d.value {
                    match coords.iter().position(|c| c == q) {
                        Some(i) if idx.contains(&i) => {
                            cx.error(q.span(), format!("`{q}` is listed twice"))
                        }
                        Some(i) => idx.push(i),
                        None => cx.error(q.span(), format!("`{q}` is not a coordinate")),
                    }
                }
                if d.value.len() != nc {
                    cx.error_help(
                        d.span,
                        format!(
                            "{} dependent velocities for {nc} constraints",
                            d.value.len()
                        ),
                        "name one dependent coordinate per constraint",
                    );
                }
                idx
            });
            if nc >= n && n > 0 {
                cx.error_help(
                    constraints_span.unwrap_or(span),
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
    };

    let formulation_span = m
        .formulation
        .as_ref()
        .map(|f| f.value.span())
        .unwrap_or(name.span());
    let formulation = match m.formulation {
        None => Formulation::GibbsAppell,
        Some(f) => match f.value.to_string().as_str() {
            "gibbs_appell" => Formulation::GibbsAppell,
            "boltzmann_hamel" => Formulation::BoltzmannHamel,
            "voronec" => Formulation::Voronec,
            "multipliers" => Formulation::Multipliers,
            other => {
                let known = ["gibbs_appell", "boltzmann_hamel", "voronec", "multipliers"];
                let msg = format!("unknown formulation `{other}`");
                match nearest(other, known) {
                    Some(k) => cx.error_help(f.value.span(), msg, format!("did you mean `{k}`?")),
                    None => cx.error_help(
                        f.value.span(),
                        msg,
                        format!("choose one of {}", known.join(", ")),
                    ),
                }
                Formulation::GibbsAppell
            }
        },
    };

    if formulation == Formulation::BoltzmannHamel
        && matches!(parametrization, Parametrization::Velocities(_))
    {
        cx.error_help(
            parametrization_span,
            "`formulation = boltzmann_hamel` needs quasi-velocities `speeds { .. }` or independent velocities, not `velocities(..)`",
            "write the speeds as eta = Z(q,t) dot(q) + psi(q,t) (Talamucci eq. 11) in `speeds { .. }`, or keep `velocities(..)` with `formulation = gibbs_appell;`",
        );
    }

    Some(Checked {
        attrs: m.attrs,
        vis: m.vis.unwrap_or(syn::Visibility::Inherited),
        name,
        params,
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
        formulation_span,
    })
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Time => "time",
        Kind::Param => "a parameter",
        Kind::Coord => "a coordinate",
        Kind::Speed => "a speed",
        Kind::Let(_) => "a `let`",
    }
}

/// What a `let` (transitively) uses: velocities, speeds.
#[derive(Clone, Copy, Default)]
struct Uses {
    velocities: bool,
    speeds: bool,
}

struct Validator<'a> {
    cx: &'a Ctxt,
    names: &'a HashMap<String, (Kind, Span)>,
    lets: &'a [ast::Named],
    let_deps: Vec<Uses>,
}

impl Validator<'_> {
    fn compute_let_deps(&mut self) {
        for i in 0..self.lets.len() {
            let mut u = Uses::default();
            let e = &self.lets[i].expr;
            self.walk(e, Some(i), &mut u, None);
            self.let_deps.push(u);
        }
    }

    fn expr(&self, e: &Expr, allowed: Allowed) {
        let mut u = Uses::default();
        self.walk(e, None, &mut u, Some(allowed));
    }

    /// A parameter default: a constant expression.
    fn constant(&self, e: &Expr) {
        let mut bad = None;
        find_ident(e, &mut |id: &Ident| {
            if bad.is_none() {
                bad = Some(id.clone());
            }
        });
        if let Some(id) = bad {
            self.cx.error_help(
                id.span(),
                "a parameter's default must be a number",
                "write a literal such as `9.81`",
            );
        }
        if let Some(span) = find_dot(e) {
            self.cx
                .error(span, "a parameter's default must be a number");
        }
    }

    /// Walk an expression, reporting unknown names, misuse of `dot` and functions.
    /// `in_let`: index of the `let` being defined (only earlier lets are visible);
    /// `allowed`: the context's rules (None while computing `let` dependencies).
    fn walk(&self, e: &Expr, in_let: Option<usize>, uses: &mut Uses, allowed: Option<Allowed>) {
        match e {
            Expr::Lit { .. } | Expr::Error(_) => {}
            Expr::Ident(id) => {
                let key = id.to_string();
                match self.names.get(&key) {
                    Some((Kind::Let(j), _)) => {
                        if let Some(i) = in_let {
                            if *j >= i {
                                self.cx.error_help(
                                    id.span(),
                                    format!("`{key}` is used before its `let`"),
                                    "a `let` may only use the ones written above it",
                                );
                                return;
                            }
                        }
                        if let Some(d) = self.let_deps.get(*j) {
                            if let Some(a) = allowed {
                                if d.velocities && !a.velocities {
                                    self.cx.error_help(
                                        id.span(),
                                        format!(
                                            "`{key}` depends on velocities, which {} cannot use",
                                            a.what
                                        ),
                                        velocity_help(a.what),
                                    );
                                }
                                if d.speeds && !a.speeds {
                                    self.cx.error_help(
                                        id.span(),
                                        format!(
                                            "`{key}` depends on speeds, which {} cannot use",
                                            a.what
                                        ),
                                        "speeds may only appear in `velocities(..)`",
                                    );
                                }
                            }
                            uses.velocities |= d.velocities;
                            uses.speeds |= d.speeds;
                        }
                    }
                    Some((Kind::Speed, _)) => {
                        uses.speeds = true;
                        if let Some(a) = allowed {
                            if !a.speeds {
                                self.cx.error_help(
                                    id.span(),
                                    format!("the speed `{key}` cannot be used in {}", a.what),
                                    "speeds may only appear in `velocities(..)`; write it with `dot(..)`",
                                );
                            }
                        }
                    }
                    Some(_) => {}
                    None => {
                        let mut cands: Vec<&str> = self.names.keys().map(|s| s.as_str()).collect();
                        cands.sort();
                        let msg = format!("cannot find `{key}` in this model");
                        if FUNCTIONS.iter().any(|(f, _)| *f == key) {
                            self.cx.error_help(
                                id.span(),
                                msg,
                                format!("`{key}` is a function: call it, `{key}(x)`"),
                            );
                        } else {
                            match nearest(&key, cands) {
                                Some(s) => self.cx.error_help(
                                    id.span(),
                                    msg,
                                    format!("did you mean `{s}`?"),
                                ),
                                None => self.cx.error_help(
                                    id.span(),
                                    msg,
                                    "declare it in `parameters`, `coordinates` or a `let`",
                                ),
                            }
                        }
                    }
                }
            }
            Expr::Dot { arg, span } => {
                uses.velocities = true;
                match &**arg {
                    Expr::Ident(id)
                        if matches!(self.names.get(&id.to_string()), Some((Kind::Coord, _))) => {}
                    Expr::Ident(id) => {
                        let what = self.names.get(&id.to_string()).map(|(k, _)| kind_name(*k));
                        self.cx.error_help(
                            id.span(),
                            match what {
                                Some(w) => format!("`dot` takes a coordinate; `{id}` is {w}"),
                                None => format!("`dot` takes a coordinate; `{id}` is not declared"),
                            },
                            "velocities exist only for the names in `coordinates`",
                        );
                    }
                    other => self.cx.error_help(
                        other.span(),
                        "`dot` takes a coordinate name",
                        "write `dot(x)`; the velocity of an expression is not defined",
                    ),
                }
                if let Some(a) = allowed {
                    if !a.velocities {
                        self.cx.error_help(
                            *span,
                            format!("{} cannot depend on velocities", a.what),
                            velocity_help(a.what),
                        );
                    }
                }
            }
            Expr::Neg { expr, .. } => self.walk(expr, in_let, uses, allowed),
            Expr::Bin { lhs, rhs, .. } => {
                self.walk(lhs, in_let, uses, allowed);
                self.walk(rhs, in_let, uses, allowed);
            }
            Expr::Call { func, args } => {
                self.function(func, args.len(), false, args.first());
                for a in args {
                    self.walk(a, in_let, uses, allowed);
                }
            }
            Expr::Method { recv, func, args } => {
                self.function(func, args.len() + 1, true, args.first());
                self.walk(recv, in_let, uses, allowed);
                for a in args {
                    self.walk(a, in_let, uses, allowed);
                }
            }
        }
    }

    fn function(&self, func: &Ident, arity: usize, method: bool, first_arg: Option<&Expr>) {
        let name = func.to_string();
        let Some((_, n)) = FUNCTIONS.iter().find(|(f, _)| *f == name) else {
            let msg = format!("unknown function `{name}`");
            let aliases = [
                ("log", "ln"),
                ("pow", "powf"),
                ("sq", "powi"),
                ("square", "powi"),
                ("arctan", "atan"),
                ("arctan2", "atan2"),
            ];
            let alias = aliases.iter().find(|(a, _)| *a == name).map(|(_, b)| *b);
            match alias.or_else(|| nearest(&name, FUNCTIONS.iter().map(|(f, _)| *f))) {
                Some(s) => self.cx.error_help(func.span(), msg, format!("did you mean `{s}`?")),
                None => self.cx.error_help(
                    func.span(),
                    msg,
                    "the functions are sin cos tan asin acos atan atan2 sinh cosh tanh exp ln sqrt abs powi powf",
                ),
            }
            return;
        };
        if *n != arity {
            let form = if method { "method" } else { "function" };
            self.cx.error(
                func.span(),
                format!(
                    "`{name}` takes {} argument(s) as a {form}, not {}",
                    if method { n - 1 } else { *n },
                    if method { arity - 1 } else { arity }
                ),
            );
            return;
        }
        if name == "powi" {
            let exp = if method { first_arg } else { None };
            let exp_ok = |e: &Expr| match e {
                Expr::Lit { value, .. } => value.as_int().is_some(),
                Expr::Neg { expr, .. } => {
                    matches!(&**expr, Expr::Lit { value, .. } if value.as_int().is_some())
                }
                _ => false,
            };
            if let Some(e) = exp {
                if !exp_ok(e) {
                    self.cx.error_help(
                        e.span(),
                        "`powi` takes an integer literal exponent",
                        "use `powf` for other exponents",
                    );
                }
            }
        }
    }
}

fn velocity_help(what: &str) -> &'static str {
    match what {
        "potential_energy" => "the potential V(q, t) depends on positions only; velocity-dependent forces go in `forces { .. }`",
        "velocities" => "`velocities(..)` gives dot(q) in terms of the speeds",
        _ => "velocities are not allowed here",
    }
}

fn find_ident(e: &Expr, f: &mut impl FnMut(&Ident)) {
    match e {
        Expr::Ident(id) => f(id),
        Expr::Lit { .. } | Expr::Error(_) | Expr::Dot { .. } => {}
        Expr::Neg { expr, .. } => find_ident(expr, f),
        Expr::Bin { lhs, rhs, .. } => {
            find_ident(lhs, f);
            find_ident(rhs, f);
        }
        Expr::Call { args, .. } => args.iter().for_each(|a| find_ident(a, f)),
        Expr::Method { recv, args, .. } => {
            find_ident(recv, f);
            args.iter().for_each(|a| find_ident(a, f));
        }
    }
}

fn find_dot(e: &Expr) -> Option<Span> {
    match e {
        Expr::Dot { span, .. } => Some(*span),
        Expr::Neg { expr, .. } => find_dot(expr),
        Expr::Bin { lhs, rhs, .. } => find_dot(lhs).or_else(|| find_dot(rhs)),
        Expr::Call { args, .. } => args.iter().find_map(find_dot),
        Expr::Method { recv, args, .. } => {
            find_dot(recv).or_else(|| args.iter().find_map(find_dot))
        }
        _ => None,
    }
}
