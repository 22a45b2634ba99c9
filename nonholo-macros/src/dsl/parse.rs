//! Parser for the `nonholonomic!` DSL. The input is split into items first (each ends at
//! a top-level `;` or brace group) so a mistake in one item never hides the next.

use super::ast::*;
use super::entries::{braced_list, entries, equation, force_entry, ground_body, list};
pub use super::expr::parse_expr;
use crate::ctxt::{nearest, Ctxt};
use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::parse::{ParseStream, Parser};
use syn::{braced, parenthesized, token, Attribute, Ident, Token, Visibility};

/// Section keywords, for "did you mean" hints.
pub const SECTIONS: &[&str] = &[
    "parameters",
    "coordinates",
    "inputs",
    "let",
    "kinetic_energy",
    "potential_energy",
    "forces",
    "constraints",
    "speeds",
    "velocities",
    "dependent",
    "formulation",
    "jacobians",
    "frame",
    "point",
    "body",
    "particle",
    "gravity",
    "plane",
    "ground",
    "rolls",
    "holonomic",
    "draw",
    "urdf",
];

/// Parse the whole macro input, recording every error in `cx`.
pub fn parse_model(input: TokenStream, cx: &Ctxt) -> Model {
    let mut model = Model::default();
    for item in split_items(input) {
        let head = item_head(&item);
        let parser = |s: ParseStream| parse_item(s, &mut model, cx);
        if let Err(e) = parser.parse2(item) {
            cx.push(e);
            model.failed.push(head);
        }
    }
    if model.name.is_none() && !model.failed.iter().any(|h| h == "struct") {
        cx.error_help(
            Span::call_site(),
            "missing the model's struct declaration",
            "start with `pub struct Name;`",
        );
    }
    model
}

/// The keyword an item starts with (`struct` for the declaration), for error bookkeeping.
fn item_head(item: &TokenStream) -> String {
    let mut it = item.clone().into_iter().peekable();
    while let Some(tt) = it.next() {
        match tt {
            TokenTree::Punct(p) if p.as_char() == '#' => {
                it.next();
            }
            TokenTree::Ident(i) if i == "pub" || i == "struct" => return "struct".into(),
            TokenTree::Ident(i) => return i.to_string(),
            _ => return String::new(),
        }
    }
    String::new()
}

/// Split at top-level `;` (kept with the item) and after top-level brace groups.
fn split_items(input: TokenStream) -> Vec<TokenStream> {
    let mut items = Vec::new();
    let mut cur: Vec<TokenTree> = Vec::new();
    let mut after_hash = false;
    for tt in input {
        let end = match &tt {
            TokenTree::Punct(p) if p.as_char() == ';' => true,
            // `#[...]` groups are bracketed, never braces; a brace group ends an item.
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => !after_hash,
            _ => false,
        };
        after_hash = matches!(&tt, TokenTree::Punct(p) if p.as_char() == '#');
        cur.push(tt);
        if end {
            items.push(cur.drain(..).collect());
        }
    }
    if !cur.is_empty() {
        items.push(cur.into_iter().collect());
    }
    items
}

fn set_once<T>(slot: &mut Option<Section<T>>, kw: &Ident, value: T, cx: &Ctxt) {
    if let Some(prev) = slot {
        let _ = prev.span;
        cx.error_help(
            kw.span(),
            format!("duplicate section `{kw}`"),
            format!("merge the two `{kw}` sections into one"),
        );
    } else {
        *slot = Some(Section {
            span: kw.span(),
            value,
        });
    }
}

fn parse_item(input: ParseStream, m: &mut Model, cx: &Ctxt) -> syn::Result<()> {
    let attrs = input.call(Attribute::parse_outer)?;
    if input.peek(Token![pub]) || input.peek(Token![struct]) {
        let vis: Visibility = input.parse()?;
        let kw: Token![struct] = input.parse()?;
        let name: Ident = input.parse()?;
        if input.peek(token::Brace) || input.peek(token::Paren) {
            return Err(syn::Error::new(
                name.span(),
                format!(
                    "write `struct {name};`: its fields are generated from `parameters`\n\nhelp: declare fields in `parameters {{ .. }}`"
                ),
            ));
        }
        if input.peek(Token![<]) {
            return Err(input.error("the model struct cannot be generic"));
        }
        input.parse::<Token![;]>()?;
        if m.name.is_some() {
            cx.error(
                kw.span,
                "only one model struct per `nonholonomic!` invocation",
            );
        } else {
            m.attrs = attrs;
            m.vis = Some(vis);
            m.name = Some(name);
        }
        return Ok(());
    }
    if let Some(a) = attrs.first() {
        cx.error_help(
            a.pound_token.span,
            "attributes and doc comments belong on the model struct",
            "move it above `pub struct Name;`",
        );
    }
    if input.peek(Token![let]) {
        input.parse::<Token![let]>()?;
        let name: Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        let expr = parse_expr(input, cx)?;
        input.parse::<Token![;]>()?;
        m.lets.push(Named { name, expr });
        return Ok(());
    }
    let kw: Ident = input.parse()?;
    match kw.to_string().as_str() {
        "parameters" => {
            let content;
            braced!(content in input);
            let mut params = Vec::new();
            list(&content, cx, |s| {
                let name: Ident = s.parse()?;
                let default = if s.peek(Token![=]) {
                    s.parse::<Token![=]>()?;
                    Some(parse_expr(s, cx)?)
                } else {
                    None
                };
                params.push(Param { name, default });
                Ok(())
            });
            set_once(&mut m.parameters, &kw, params, cx);
        }
        "coordinates" | "dependent" | "inputs" => {
            let names = braced_list::<Ident>(input, cx)?;
            if kw == "coordinates" {
                set_once(&mut m.coordinates, &kw, names, cx);
            } else if kw == "inputs" {
                set_once(&mut m.inputs, &kw, names, cx);
            } else {
                set_once(&mut m.dependent, &kw, names, cx);
            }
        }
        "kinetic_energy" | "potential_energy" => {
            input.parse::<Token![=]>()?;
            let e = parse_expr(input, cx)?;
            expect_semi(input, &kw)?;
            if kw == "kinetic_energy" {
                set_once(&mut m.kinetic, &kw, e, cx);
            } else {
                set_once(&mut m.potential, &kw, e, cx);
            }
        }
        "forces" => {
            let content;
            braced!(content in input);
            let mut forces = Vec::new();
            list(&content, cx, |s| {
                forces.push(force_entry(s, cx)?);
                Ok(())
            });
            set_once(&mut m.forces, &kw, forces, cx);
        }
        "frame" => {
            let name: Ident = input.parse()?;
            let parent = if input.peek(Token![;]) {
                None
            } else {
                input.parse::<Token![=]>()?;
                let parent: Ident = input.parse()?;
                let mut rotations = Vec::new();
                while input.peek(Token![.]) {
                    input.parse::<Token![.]>()?;
                    let f: Ident = input.parse()?;
                    if f != "rotate" {
                        return Err(syn::Error::new(
                            f.span(),
                            format!("a frame is its parent turned by `.rotate(axis, angle)`, not `.{f}`"),
                        ));
                    }
                    let args;
                    parenthesized!(args in input);
                    let axis: Ident = args.parse()?;
                    args.parse::<Token![,]>()?;
                    let angle = parse_expr(&args, cx)?;
                    if !args.is_empty() {
                        return Err(args.error("`.rotate` takes an axis and an angle"));
                    }
                    rotations.push(Rotation { axis, angle });
                }
                if rotations.is_empty() {
                    return Err(syn::Error::new(
                        parent.span(),
                        format!("write `frame {name} = {parent}.rotate(z, angle);`: a frame is made by rotations of its parent"),
                    ));
                }
                Some((parent, rotations))
            };
            expect_semi(input, &kw)?;
            m.frames.push(FrameDecl { name, parent });
        }
        "point" => {
            let name: Ident = input.parse()?;
            let def = if input.peek(Token![;]) {
                None
            } else {
                input.parse::<Token![=]>()?;
                Some(parse_expr(input, cx)?)
            };
            expect_semi(input, &kw)?;
            m.points.push(PointDecl { name, def });
        }
        "body" | "particle" | "plane" => {
            let name: Ident = input.parse()?;
            let entries = entries(input, cx)?;
            m.objects.push(Object {
                kw: kw.clone(),
                name,
                entries,
            });
            return Ok(());
        }
        "ground" => {
            let name: Ident = input.parse()?;
            let parsed = ground_body(input, &name, cx);
            // a ground whose body does not parse is still declared: no follow-on errors
            // where its name is used
            let (u, v, height) = match parsed {
                Ok(x) => x,
                Err(e) => {
                    m.grounds.push(Ground {
                        name: name.clone(),
                        u: Ident::new("__u", name.span()),
                        v: Ident::new("__v", name.span()),
                        height: Expr::Error(name.span()),
                    });
                    return Err(e);
                }
            };
            m.grounds.push(Ground { name, u, v, height });
            return Ok(());
        }
        "rolls" => {
            let wheel: Ident = input.parse()?;
            let on: Ident = input.parse()?;
            if on != "on" {
                return Err(syn::Error::new(
                    on.span(),
                    format!("write `rolls {wheel} on ground {{ .. }}`"),
                ));
            }
            let plane: Ident = input.parse()?;
            // `rolls LINK on G;`: a URDF link's wheel, everything taken from the file
            let entries = if input.peek(Token![;]) {
                input.parse::<Token![;]>()?;
                Vec::new()
            } else {
                entries(input, cx)?
            };
            m.rolls.push(Rolls {
                kw: kw.clone(),
                wheel,
                plane,
                entries,
                height_tolerance: 0.0,
            });
            return Ok(());
        }
        "urdf" => {
            let item = super::urdf::urdf_item(input, cx)?;
            set_once(&mut m.urdf, &kw, item, cx);
            return Ok(());
        }
        "draw" => {
            let content;
            braced!(content in input);
            let mut items = Vec::new();
            while !content.is_empty() {
                let kw: Ident = content.parse()?;
                if kw == "hide" {
                    let target: Ident = content.parse()?;
                    items.push(DrawItem {
                        kw,
                        target: Some(target),
                        entries: Vec::new(),
                    });
                } else {
                    let entries = entries(&content, cx)?;
                    items.push(DrawItem {
                        kw,
                        target: None,
                        entries,
                    });
                }
                if content.peek(Token![;]) {
                    content.parse::<Token![;]>()?;
                }
            }
            set_once(&mut m.draw, &kw, items, cx);
        }
        "gravity" => {
            input.parse::<Token![=]>()?;
            let e = parse_expr(input, cx)?;
            expect_semi(input, &kw)?;
            set_once(&mut m.gravity, &kw, e, cx);
        }
        "holonomic" => {
            let pcontent;
            parenthesized!(pcontent in input);
            let mut solve = Vec::new();
            list(&pcontent, cx, |s| {
                solve.push(s.parse::<Ident>()?);
                Ok(())
            });
            let content;
            braced!(content in input);
            let mut equations = Vec::new();
            list(&content, cx, |s| {
                equations.push(equation(s, cx)?);
                Ok(())
            });
            m.holonomic.push(Holonomic {
                kw: kw.clone(),
                solve,
                equations,
            });
        }
        "constraints" => {
            let content;
            braced!(content in input);
            let mut cs = Vec::new();
            list(&content, cx, |s| {
                cs.push(equation(s, cx)?);
                Ok(())
            });
            set_once(&mut m.constraints, &kw, cs, cx);
        }
        "speeds" => {
            let content;
            braced!(content in input);
            let mut speeds = Vec::new();
            list(&content, cx, |s| {
                let name: Ident = s.parse()?;
                s.parse::<Token![=]>()?;
                let expr = parse_expr(s, cx)?;
                speeds.push(Named { name, expr });
                Ok(())
            });
            set_once(&mut m.speeds, &kw, speeds, cx);
        }
        "velocities" => {
            let pcontent;
            parenthesized!(pcontent in input);
            let mut params = Vec::new();
            list(&pcontent, cx, |s| {
                params.push(s.parse::<Ident>()?);
                Ok(())
            });
            let content;
            braced!(content in input);
            let mut defs = Vec::new();
            list(&content, cx, |s| {
                let dot: Ident = s.parse()?;
                if dot != "dot" {
                    return Err(syn::Error::new(
                        dot.span(),
                        format!("expected `dot(coordinate) = ...`, found `{dot}`"),
                    ));
                }
                let inner;
                parenthesized!(inner in s);
                let q: Ident = inner.parse()?;
                s.parse::<Token![=]>()?;
                let expr = parse_expr(s, cx)?;
                defs.push((q, expr));
                Ok(())
            });
            set_once(&mut m.velocities, &kw, Velocities { params, defs }, cx);
        }
        "formulation" => {
            input.parse::<Token![=]>()?;
            let f: Ident = input.parse()?;
            expect_semi(input, &kw)?;
            set_once(&mut m.formulation, &kw, f, cx);
        }
        "jacobians" => {
            input.parse::<Token![=]>()?;
            let j: Ident = input.parse()?;
            expect_semi(input, &kw)?;
            set_once(&mut m.jacobians, &kw, j, cx);
        }
        other => {
            let msg = format!("unknown section `{other}`");
            let err = match nearest(other, SECTIONS.iter().copied()) {
                Some(s) => format!("{msg}\n\nhelp: did you mean `{s}`?"),
                None => format!("{msg}\n\nhelp: the sections are {}", SECTIONS.join(", ")),
            };
            return Err(syn::Error::new(kw.span(), err));
        }
    }
    if !input.is_empty() {
        return Err(input.error(format!("unexpected tokens after section `{kw}`")));
    }
    Ok(())
}

fn expect_semi(input: ParseStream, kw: &Ident) -> syn::Result<()> {
    if input.peek(Token![;]) {
        input.parse::<Token![;]>()?;
        Ok(())
    } else if input.is_empty() {
        Err(syn::Error::new(
            kw.span(),
            format!("`{kw} = ...` must end with `;`"),
        ))
    } else {
        Err(input.error("expected an operator or `;`"))
    }
}
