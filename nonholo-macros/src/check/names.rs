//! The model's names: one table of what each name is, each declared once, none shadowing
//! time, a function of the DSL or a reserved word.

use crate::ctxt::{nearest, Ctxt};
use crate::sym::Function;
use proc_macro2::Span;
use std::collections::HashMap;
use syn::Ident;

/// What a name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Time,
    Param,
    /// A runtime input (`inputs { .. }`).
    Input,
    Coord,
    Speed,
    Let(usize),
    Frame,
    Point,
    Body,
    /// A particle or a plane.
    Object,
    /// Uneven ground (`ground G { height(u, v) = h }`).
    Ground,
}

pub fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Time => "time",
        Kind::Param => "a parameter",
        Kind::Input => "an input",
        Kind::Coord => "a coordinate",
        Kind::Speed => "a speed",
        Kind::Let(_) => "a `let`",
        Kind::Frame => "a frame",
        Kind::Point => "a point",
        Kind::Body => "a body",
        Kind::Object => "a particle or plane",
        Kind::Ground => "a ground",
    }
}

/// Every declared name with its kind and span (`t` is predeclared).
pub struct NameTable {
    names: HashMap<String, (Kind, Span)>,
}

impl NameTable {
    pub fn new() -> Self {
        let mut names = HashMap::new();
        names.insert("t".into(), (Kind::Time, Span::call_site()));
        NameTable { names }
    }

    pub fn get(&self, name: &str) -> Option<&(Kind, Span)> {
        self.names.get(name)
    }

    /// All names, sorted (for "did you mean" suggestions).
    pub fn sorted_names(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.names.keys().map(|s| s.as_str()).collect();
        v.sort();
        v
    }

    /// The names of the given kinds, sorted (for "did you mean" suggestions).
    pub fn names_of(&self, kinds: &[Kind]) -> Vec<&str> {
        let mut v: Vec<&str> = self
            .names
            .iter()
            .filter(|(_, (k, _))| kinds.contains(k))
            .map(|(n, _)| n.as_str())
            .collect();
        v.sort();
        v
    }

    /// Report `id`, used as a frame (or, with `bodies`, a frame or body), as unknown:
    /// suggestions among the frames (and bodies) only, never `not` (the frame being
    /// defined).
    pub fn unknown_frame(&self, id: &Ident, bodies: bool, not: Option<&Ident>, cx: &Ctxt) {
        let kinds: &[Kind] = if bodies {
            &[Kind::Frame, Kind::Body]
        } else {
            &[Kind::Frame]
        };
        let cands = self
            .names_of(kinds)
            .into_iter()
            .filter(|n| not.is_none_or(|x| x != n));
        let msg = format!("cannot find frame `{id}` in this model");
        match nearest(&id.to_string(), cands) {
            Some(s) => cx.error_help(id.span(), msg, format!("did you mean `{s}`?")),
            None => cx.error_help(
                id.span(),
                msg,
                format!("declare it: `frame {id};` (the inertial frame) or `frame {id} = <parent>.rotate(z, angle);`"),
            ),
        }
    }

    /// Report `id`, used as a point, as unknown (suggestions among the points).
    pub fn unknown_point(&self, id: &Ident, cx: &Ctxt) {
        let msg = format!("cannot find point `{id}` in this model");
        match nearest(&id.to_string(), self.names_of(&[Kind::Point])) {
            Some(s) => cx.error_help(id.span(), msg, format!("did you mean `{s}`?")),
            None => cx.error_help(
                id.span(),
                msg,
                format!("declare it: `point {id} = O + N[a, b, c];`"),
            ),
        }
    }

    /// Declare `id`, reporting a clash with time, a reserved word, a function or an
    /// earlier declaration.
    pub fn declare(&mut self, id: &Ident, kind: Kind, cx: &Ctxt) {
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
        if Function::by_name(&key).is_some() {
            cx.error_help(
                id.span(),
                format!("`{key}` is a function of the DSL"),
                "choose another name",
            );
            return;
        }
        if let Some((prev, _)) = self.names.get(&key) {
            cx.error_help(
                id.span(),
                format!("`{key}` is already declared as {}", kind_name(*prev)),
                "every parameter, input, coordinate, speed, `let`, frame, point and body needs its own name",
            );
            return;
        }
        self.names.insert(key, (kind, id.span()));
    }
}
