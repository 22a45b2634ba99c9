//! The context the 3D items are checked in (`Input`) and what their checks share:
//! a brace item's entries by key (`Entries`), typed expressions (`scalar`, `typed`).

use super::exprs::{Allowed, Validator};
use super::names::NameTable;
use super::types::{Ty, Typer};
use crate::ctxt::{nearest, Ctxt};
use crate::dsl::ast::{Entry, Expr};
use proc_macro2::Span;
use std::collections::hash_map::Entry as MapEntry;
use std::collections::HashMap;
use syn::Ident;

pub struct Input<'a> {
    pub cx: &'a Ctxt,
    pub names: &'a NameTable,
    pub v: &'a Validator<'a>,
    pub ty: &'a Typer<'a>,
    pub coords: &'a [Ident],
}

/// Take the entries of a brace item by key: unknown and repeated keys reported.
pub(super) struct Entries {
    map: HashMap<String, Expr>,
    span: Span,
    /// Keys suggested for misspelled ones (not reported again as missing).
    suggested: Vec<String>,
}

impl Entries {
    pub(super) fn new(
        k: &Input,
        what: &str,
        span: Span,
        entries: Vec<Entry>,
        keys: &[&str],
    ) -> Entries {
        let mut map = HashMap::new();
        let mut suggested = Vec::new();
        for e in entries {
            let key = e.key.to_string();
            if !keys.contains(&key.as_str()) {
                let msg = format!("`{what}` has no entry `{key}`");
                match nearest(&key, keys.iter().copied()) {
                    Some(s) => {
                        k.cx.error_help(e.key.span(), msg, format!("did you mean `{s}`?"));
                        suggested.push(s.to_string());
                    }
                    None => k.cx.error_help(
                        e.key.span(),
                        msg,
                        format!("its entries are {}", keys.join(", ")),
                    ),
                }
            } else {
                match map.entry(key) {
                    MapEntry::Occupied(o) => {
                        k.cx.error(e.key.span(), format!("`{}` is given twice", o.key()))
                    }
                    MapEntry::Vacant(v) => {
                        v.insert(e.value);
                    }
                }
            }
        }
        Entries {
            map,
            span,
            suggested,
        }
    }

    pub(super) fn required(&mut self, k: &Input, what: &str, key: &str) -> Expr {
        self.map.remove(key).unwrap_or_else(|| {
            if self.suggested.iter().any(|s| s == key) {
                return Expr::Error(self.span);
            }
            k.cx.error_help(
                self.span,
                format!("`{what}` needs `{key}: ..`"),
                format!("add `{key}: ..` to its entries"),
            );
            Expr::Error(self.span)
        })
    }

    pub(super) fn optional(&mut self, key: &str) -> Option<Expr> {
        self.map.remove(key)
    }
}

pub(super) fn scalar(k: &Input, e: &Expr, what: &'static str) {
    k.v.expr(e, Allowed::positions(what));
    k.ty.expect(e, Ty::Scalar, what);
}

pub(super) fn typed(k: &Input, e: &Expr, ty: Ty, what: &'static str) {
    k.v.expr(e, Allowed::positions(what));
    k.ty.expect(e, ty, what);
}
