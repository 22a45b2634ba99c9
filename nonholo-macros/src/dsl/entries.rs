//! The pieces inside an item of the `nonholonomic!` DSL: equations, `{ key: value }`
//! entries, force entries, separated lists (an error per bad entry, the rest kept) and a
//! ground's height.

use super::ast::*;
use super::expr::parse_expr;
use crate::ctxt::Ctxt;
use crate::sym::number::Number;
use proc_macro2::TokenTree;
use syn::parse::ParseStream;
use syn::{braced, parenthesized, Ident, Token};

/// `lhs == rhs`.
pub(super) fn equation(s: ParseStream, cx: &Ctxt) -> syn::Result<Constraint> {
    let span = s.span();
    let lhs = parse_expr(s, cx)?;
    if s.peek(Token![=]) && !s.peek(Token![==]) {
        return Err(s.error("a constraint is written `lhs == rhs` (two `=`)"));
    }
    s.parse::<Token![==]>()?;
    let rhs = parse_expr(s, cx)?;
    Ok(Constraint { lhs, rhs, span })
}

/// `{ key: value, .. }` of a `body`, `particle`, `plane` or `rolls` item.
pub(super) fn entries(input: ParseStream, cx: &Ctxt) -> syn::Result<Vec<Entry>> {
    let content;
    braced!(content in input);
    let mut entries = Vec::new();
    list(&content, cx, |s| {
        let key: Ident = s.parse()?;
        s.parse::<Token![:]>()?;
        // `lateral: false`: a bool, kept as the number 0 or 1
        let value = if s.peek(syn::LitBool) {
            let b: syn::LitBool = s.parse()?;
            Expr::Lit {
                value: Number::int(i64::from(b.value)),
                span: b.span,
            }
        } else {
            parse_expr(s, cx)?
        };
        entries.push(Entry { key, value });
        Ok(())
    });
    Ok(entries)
}

/// One entry of `forces { .. }`: `q: F`, `at P: F`, `on W: T` or `between W, V: T`.
pub(super) fn force_entry(s: ParseStream, cx: &Ctxt) -> syn::Result<Force> {
    let name: Ident = s.parse()?;
    if s.peek(Token![=]) {
        return Err(s.error("write `coordinate: force`, with a colon"));
    }
    if s.peek(Token![:]) {
        s.parse::<Token![:]>()?;
        let expr = parse_expr(s, cx)?;
        return Ok(Force::Coordinate(Named { name, expr }));
    }
    let kw = name.to_string();
    let target: Ident = s.parse().map_err(|_| {
        syn::Error::new(
            name.span(),
            "write `coordinate: F`, `at P: F`, `on W: T` or `between W, V: T`",
        )
    })?;
    let force = match kw.as_str() {
        "at" | "on" => {
            s.parse::<Token![:]>()?;
            let e = parse_expr(s, cx)?;
            if kw == "at" {
                Force::At {
                    point: target,
                    force: e,
                }
            } else {
                Force::On {
                    body: target,
                    torque: e,
                }
            }
        }
        "between" => {
            s.parse::<Token![,]>()?;
            let against: Ident = s.parse()?;
            s.parse::<Token![:]>()?;
            Force::Between {
                on: target,
                against,
                torque: parse_expr(s, cx)?,
            }
        }
        _ => {
            return Err(syn::Error::new(
                name.span(),
                format!("unknown force entry `{name} {target}`\n\nhelp: write `coordinate: F`, `at P: F`, `on W: T` or `between W, V: T`"),
            ))
        }
    };
    Ok(force)
}

/// `{ a, b, .. }`: a braced list of one kind of token (names, strings), an error per bad
/// one.
pub(super) fn braced_list<T: syn::parse::Parse>(
    input: ParseStream,
    cx: &Ctxt,
) -> syn::Result<Vec<T>> {
    let content;
    braced!(content in input);
    let mut items = Vec::new();
    list(&content, cx, |s| {
        items.push(s.parse::<T>()?);
        Ok(())
    });
    Ok(items)
}

/// Parse `entry (sep entry)* sep?` with `sep` = `,` or `;`, recording an error per bad
/// entry and skipping to the next separator.
pub(super) fn list(
    s: ParseStream,
    cx: &Ctxt,
    mut entry: impl FnMut(ParseStream) -> syn::Result<()>,
) {
    while !s.is_empty() {
        match entry(s) {
            Ok(()) => {
                if s.is_empty() {
                    break;
                }
                if s.peek(Token![,]) {
                    let _ = s.parse::<Token![,]>();
                } else if s.peek(Token![;]) {
                    let _ = s.parse::<Token![;]>();
                } else {
                    cx.push(s.error("expected `,` or `;` between entries"));
                    skip_entry(s);
                }
            }
            Err(e) => {
                cx.push(e);
                skip_entry(s);
            }
        }
    }
}

fn skip_entry(s: ParseStream) {
    let _ = s.step(|cursor| {
        let mut rest = *cursor;
        while let Some((tt, next)) = rest.token_tree() {
            rest = next;
            if let TokenTree::Punct(p) = &tt
                && (p.as_char() == ';' || p.as_char() == ',')
            {
                break;
            }
        }
        Ok(((), rest))
    });
}

/// `{ height(u, v) = h }` of a `ground`.
pub(super) fn ground_body(
    input: ParseStream,
    name: &Ident,
    cx: &Ctxt,
) -> syn::Result<(Ident, Ident, Expr)> {
    let content;
    braced!(content in input);
    let head: Ident = content.parse()?;
    if head != "height" {
        return Err(syn::Error::new(
            head.span(),
            format!("write `ground {name} {{ height(u, v) = .. }}`"),
        ));
    }
    let args;
    parenthesized!(args in content);
    let u: Ident = args.parse()?;
    args.parse::<Token![,]>()?;
    let v: Ident = args.parse()?;
    if !args.is_empty() {
        return Err(args.error("`height` takes two variables: `height(u, v)`"));
    }
    content.parse::<Token![=]>()?;
    let height = parse_expr(&content, cx)?;
    if content.peek(Token![;]) {
        content.parse::<Token![;]>()?;
    }
    if !content.is_empty() {
        return Err(content.error("a ground has one entry: `height(u, v) = ..`"));
    }
    Ok((u, v, height))
}
