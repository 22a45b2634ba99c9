//! Expressions: names resolved, `dot` only of coordinates and only where velocities are
//! allowed, speeds only in `velocities(..)`, functions by the engine's table with their
//! arities, `let`s used after their definition.

use super::names::{kind_name, Kind, NameTable};
use super::types::{KINEMATIC_FUNCTIONS, VECTOR_METHODS};
use crate::ctxt::{nearest, Ctxt};
use crate::dsl::ast::{self, Expr};
use crate::sym::{Function, FUNCTION_NAMES};
use proc_macro2::Span;
use syn::Ident;

/// Which symbols an expression may use.
#[derive(Clone, Copy)]
pub struct Allowed {
    pub what: &'static str,
    pub velocities: bool,
    pub speeds: bool,
    /// Runtime inputs: only where loads enter (forces, V).
    pub inputs: bool,
}

impl Allowed {
    /// Positions and velocities, no speeds (T, forces, constraints, speeds' definitions).
    pub const fn velocities(what: &'static str) -> Allowed {
        Allowed {
            what,
            velocities: true,
            speeds: false,
            inputs: false,
        }
    }

    /// Positions only (V).
    pub const fn positions(what: &'static str) -> Allowed {
        Allowed {
            what,
            velocities: false,
            speeds: false,
            inputs: false,
        }
    }

    /// The same, runtime inputs allowed too (forces and the potential: where loads enter).
    pub const fn with_inputs(self) -> Allowed {
        Allowed {
            inputs: true,
            ..self
        }
    }
}

/// What a `let` (transitively) uses: velocities, speeds, inputs.
#[derive(Clone, Copy, Default)]
struct Uses {
    velocities: bool,
    speeds: bool,
    inputs: bool,
}

pub struct Validator<'a> {
    cx: &'a Ctxt,
    names: &'a NameTable,
    let_deps: Vec<Uses>,
}

impl<'a> Validator<'a> {
    /// A validator that knows what each `let` uses (and has reported misuse inside lets).
    pub fn new(cx: &'a Ctxt, names: &'a NameTable, lets: &'a [ast::Named]) -> Self {
        let mut v = Validator {
            cx,
            names,
            let_deps: Vec::with_capacity(lets.len()),
        };
        for i in 0..lets.len() {
            let mut u = Uses::default();
            v.walk(&lets[i].expr, Some(i), &mut u, None);
            v.let_deps.push(u);
        }
        v
    }

    pub fn expr(&self, e: &Expr, allowed: Allowed) {
        let mut u = Uses::default();
        self.walk(e, None, &mut u, Some(allowed));
    }

    /// A parameter default: a constant expression.
    pub fn constant(&self, e: &Expr) {
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
            Expr::Ident(id) => self.walk_ident(id, in_let, uses, allowed),
            Expr::Dot { arg, span } => self.walk_dot(arg, *span, uses, allowed),
            Expr::Neg { expr, .. } => self.walk(expr, in_let, uses, allowed),
            Expr::Bin { lhs, rhs, .. } => self.walk_binary(lhs, rhs, in_let, uses, allowed),
            Expr::Call { func, args } => self.walk_call(func, args, in_let, uses, allowed),
            Expr::Field { recv, field } => self.walk_field(recv, field, in_let, uses, allowed),
            Expr::Components { frame, comps, .. } => {
                self.walk_components(frame, comps, in_let, uses, allowed)
            }
            Expr::Method { recv, func, args } => {
                self.walk_method(recv, func, args, in_let, uses, allowed)
            }
        }
    }

    /// A name: declared; a `let` only after its definition and only if what it uses is
    /// allowed here; speeds and inputs only where allowed.
    fn walk_ident(
        &self,
        id: &Ident,
        in_let: Option<usize>,
        uses: &mut Uses,
        allowed: Option<Allowed>,
    ) {
        let key = id.to_string();
        match self.names.get(&key) {
            Some((Kind::Let(j), _)) => self.walk_let(id, *j, in_let, uses, allowed),
            Some((Kind::Speed, _)) => {
                uses.speeds = true;
                if let Some(a) = allowed
                    && !a.speeds
                {
                    self.cx.error_help(
                        id.span(),
                        format!("the speed `{key}` cannot be used in {}", a.what),
                        "speeds may only appear in `velocities(..)`; write it with `dot(..)`",
                    );
                }
            }
            Some((Kind::Input, _)) => {
                uses.inputs = true;
                if let Some(a) = allowed
                    && !a.inputs
                {
                    self.cx.error_help(
                        id.span(),
                        format!("the input `{key}` cannot be used in {}", a.what),
                        INPUT_HELP,
                    );
                }
            }
            Some(_) => {}
            None => self.unknown(id),
        }
    }

    /// A use of the `let` number `j`: written above the `let` being defined, and using
    /// only what is allowed here (its velocities, speeds and inputs count as this use's).
    fn walk_let(
        &self,
        id: &Ident,
        j: usize,
        in_let: Option<usize>,
        uses: &mut Uses,
        allowed: Option<Allowed>,
    ) {
        let key = id.to_string();
        if let Some(i) = in_let
            && j >= i
        {
            self.cx.error_help(
                id.span(),
                format!("`{key}` is used before its `let`"),
                "a `let` may only use the ones written above it",
            );
            return;
        }
        if let Some(d) = self.let_deps.get(j) {
            if let Some(a) = allowed {
                if d.velocities && !a.velocities {
                    self.cx.error_help(
                        id.span(),
                        format!("`{key}` depends on velocities, which {} cannot use", a.what),
                        velocity_help(a.what),
                    );
                }
                if d.speeds && !a.speeds {
                    self.cx.error_help(
                        id.span(),
                        format!("`{key}` depends on speeds, which {} cannot use", a.what),
                        "speeds may only appear in `velocities(..)`",
                    );
                }
                if d.inputs && !a.inputs {
                    self.cx.error_help(
                        id.span(),
                        format!("`{key}` depends on an input, which {} cannot use", a.what),
                        INPUT_HELP,
                    );
                }
            }
            uses.velocities |= d.velocities;
            uses.speeds |= d.speeds;
            uses.inputs |= d.inputs;
        }
    }

    /// `dot(arg)`: `arg` names a coordinate, and velocities are allowed here.
    fn walk_dot(&self, arg: &Expr, span: Span, uses: &mut Uses, allowed: Option<Allowed>) {
        uses.velocities = true;
        match arg {
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
        if let Some(a) = allowed
            && !a.velocities
        {
            self.cx.error_help(
                span,
                format!("{} cannot depend on velocities", a.what),
                velocity_help(a.what),
            );
        }
    }

    /// `lhs op rhs`: both operands, left first.
    fn walk_binary(
        &self,
        lhs: &Expr,
        rhs: &Expr,
        in_let: Option<usize>,
        uses: &mut Uses,
        allowed: Option<Allowed>,
    ) {
        self.walk(lhs, in_let, uses, allowed);
        self.walk(rhs, in_let, uses, allowed);
    }

    /// `func(args)`: `velocity`/`angular_velocity` only where velocities are allowed (their
    /// undeclared argument reported as a point or frame); other functions by the table and
    /// their arity; then the arguments.
    fn walk_call(
        &self,
        func: &Ident,
        args: &[Expr],
        in_let: Option<usize>,
        uses: &mut Uses,
        allowed: Option<Allowed>,
    ) {
        if func == "velocity" || func == "angular_velocity" {
            uses.velocities = true;
            if let Some(a) = allowed
                && !a.velocities
            {
                self.cx.error_help(
                    func.span(),
                    format!("{} cannot depend on velocities", a.what),
                    velocity_help(a.what),
                );
            }
        } else if !KINEMATIC_FUNCTIONS.contains(&func.to_string().as_str()) {
            self.function(func, args.len(), false, args.first());
        }
        for a in args {
            match a {
                // `velocity(Q)`, `angular_velocity(M)` with the name undeclared
                Expr::Ident(id)
                    if func == "velocity" && self.names.get(&id.to_string()).is_none() =>
                {
                    self.names.unknown_point(id, self.cx)
                }
                Expr::Ident(id)
                    if func == "angular_velocity" && self.names.get(&id.to_string()).is_none() =>
                {
                    self.names.unknown_frame(id, true, None, self.cx)
                }
                _ => self.walk(a, in_let, uses, allowed),
            }
        }
    }

    /// `recv.field`: an undeclared `M` in `M.x`, `M.y`, `M.z` is reported as a frame;
    /// otherwise the receiver is walked.
    fn walk_field(
        &self,
        recv: &Expr,
        field: &Ident,
        in_let: Option<usize>,
        uses: &mut Uses,
        allowed: Option<Allowed>,
    ) {
        match recv {
            // `M.x` with `M` undeclared: a frame is meant
            Expr::Ident(id)
                if self.names.get(&id.to_string()).is_none()
                    && ["x", "y", "z"].contains(&field.to_string().as_str()) =>
            {
                self.names.unknown_frame(id, false, None, self.cx)
            }
            _ => self.walk(recv, in_let, uses, allowed),
        }
    }

    /// `F[a, b, c]`: the frame declared, then the components.
    fn walk_components(
        &self,
        frame: &Ident,
        comps: &[Expr],
        in_let: Option<usize>,
        uses: &mut Uses,
        allowed: Option<Allowed>,
    ) {
        if self.names.get(&frame.to_string()).is_none() {
            self.names.unknown_frame(frame, false, None, self.cx);
        }
        for c in comps {
            self.walk(c, in_let, uses, allowed);
        }
    }

    /// `recv.func(args)`: a vector method, or a function by the table with its arity
    /// (the receiver counted); then the receiver and the arguments.
    fn walk_method(
        &self,
        recv: &Expr,
        func: &Ident,
        args: &[Expr],
        in_let: Option<usize>,
        uses: &mut Uses,
        allowed: Option<Allowed>,
    ) {
        let name = func.to_string();
        // `G.at(x, y)`, `G.normal(x, y)` of a ground: the typer checks the method
        let ground = matches!(recv, Expr::Ident(id) if matches!(self.names.get(&id.to_string()), Some((Kind::Ground, _))));
        if !ground && !VECTOR_METHODS.iter().any(|(m, _)| *m == name) {
            self.function(func, args.len() + 1, true, args.first());
        }
        self.walk(recv, in_let, uses, allowed);
        for a in args {
            self.walk(a, in_let, uses, allowed);
        }
    }

    fn unknown(&self, id: &Ident) {
        let key = id.to_string();
        let cands = self.names.sorted_names();
        let msg = format!("cannot find `{key}` in this model");
        if Function::by_name(&key).is_some() {
            self.cx.error_help(
                id.span(),
                msg,
                format!("`{key}` is a function: call it, `{key}(x)`"),
            );
        } else {
            match nearest(&key, cands) {
                Some(s) => self
                    .cx
                    .error_help(id.span(), msg, format!("did you mean `{s}`?")),
                None => self.cx.error_help(
                    id.span(),
                    msg,
                    "declare it in `parameters`, `inputs`, `coordinates`, a `let`, a `frame` or a `point`",
                ),
            }
        }
    }

    fn function(&self, func: &Ident, arity: usize, method: bool, first_arg: Option<&Expr>) {
        let name = func.to_string();
        let Some(n) = Function::by_name(&name).map(Function::arity) else {
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
            match alias.or_else(|| nearest(&name, FUNCTION_NAMES.iter().copied())) {
                Some(s) => self
                    .cx
                    .error_help(func.span(), msg, format!("did you mean `{s}`?")),
                None => self.cx.error_help(
                    func.span(),
                    msg,
                    format!("the functions are {}", FUNCTION_NAMES.join(" ")),
                ),
            }
            return;
        };
        if n != arity {
            let form = if method { "method" } else { "function" };
            self.cx.error(
                func.span(),
                format!(
                    "`{name}` takes {} argument(s) as a {form}, not {}",
                    if method { n - 1 } else { n },
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
            if let Some(e) = exp
                && !exp_ok(e)
            {
                self.cx.error_help(
                    e.span(),
                    "`powi` takes an integer literal exponent",
                    "use `powf` for other exponents",
                );
            }
        }
    }
}

const INPUT_HELP: &str = "inputs act as loads: use them in `forces { .. }` or `potential_energy`; \
     a motion prescribed in time is a function of `t` (a `let` of `t`)";

fn velocity_help(what: &str) -> &'static str {
    match what {
        "potential_energy" => "the potential V(q, t) depends on positions only; velocity-dependent forces go in `forces { .. }`",
        "velocities" => "`velocities(..)` gives dot(q) in terms of the speeds",
        "a frame's angle" | "a point's position" => {
            "the configuration is a function of the coordinates and `t`; velocities follow from it"
        }
        "a `holonomic` equation" => {
            "a configuration constraint relates coordinates; a velocity constraint goes in `constraints { .. }`"
        }
        _ => "velocities are not allowed here",
    }
}

pub fn find_ident(e: &Expr, f: &mut impl FnMut(&Ident)) {
    match e {
        Expr::Ident(id) => f(id),
        Expr::Lit { .. } | Expr::Error(_) | Expr::Dot { .. } => {}
        Expr::Neg { expr, .. } => find_ident(expr, f),
        Expr::Field { recv, .. } => find_ident(recv, f),
        Expr::Components { frame, comps, .. } => {
            f(frame);
            comps.iter().for_each(|a| find_ident(a, f));
        }
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

pub fn find_dot(e: &Expr) -> Option<Span> {
    match e {
        Expr::Dot { span, .. } => Some(*span),
        Expr::Neg { expr, .. } => find_dot(expr),
        Expr::Bin { lhs, rhs, .. } => find_dot(lhs).or_else(|| find_dot(rhs)),
        Expr::Call { args, .. } => args.iter().find_map(find_dot),
        Expr::Field { recv, .. } => find_dot(recv),
        Expr::Components { comps, .. } => comps.iter().find_map(find_dot),
        Expr::Method { recv, args, .. } => {
            find_dot(recv).or_else(|| args.iter().find_map(find_dot))
        }
        _ => None,
    }
}

/// `e` with every identifier for which `f` gives an expression replaced by it.
pub fn replace_idents(e: &Expr, f: &impl Fn(&Ident) -> Option<Expr>) -> Expr {
    let r = |x: &Expr| Box::new(replace_idents(x, f));
    match e {
        Expr::Ident(id) => f(id).unwrap_or_else(|| e.clone()),
        Expr::Lit { .. } | Expr::Error(_) | Expr::Dot { .. } => e.clone(),
        Expr::Neg { expr, span } => Expr::Neg {
            expr: r(expr),
            span: *span,
        },
        Expr::Bin { op, lhs, rhs, span } => Expr::Bin {
            op: *op,
            lhs: r(lhs),
            rhs: r(rhs),
            span: *span,
        },
        Expr::Call { func, args } => Expr::Call {
            func: func.clone(),
            args: args.iter().map(|a| replace_idents(a, f)).collect(),
        },
        Expr::Method { recv, func, args } => Expr::Method {
            recv: r(recv),
            func: func.clone(),
            args: args.iter().map(|a| replace_idents(a, f)).collect(),
        },
        Expr::Field { recv, field } => Expr::Field {
            recv: r(recv),
            field: field.clone(),
        },
        Expr::Components { frame, comps, span } => Expr::Components {
            frame: frame.clone(),
            comps: comps.iter().map(|a| replace_idents(a, f)).collect(),
            span: *span,
        },
    }
}
