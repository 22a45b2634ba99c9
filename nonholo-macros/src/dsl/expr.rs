//! Expressions of the DSL: a Rust subset by precedence climbing, plus the 3D forms
//! `F[a, b, c]` and `F.x`.

use super::ast::*;
use crate::ctxt::Ctxt;
use crate::sym::number::Number;
use proc_macro2::Span;
use syn::parse::ParseStream;
use syn::{bracketed, parenthesized, token, Ident, LitFloat, LitInt, Token};

/// Parse an expression of the DSL (precedence climbing, Rust's precedences).
pub fn parse_expr(input: ParseStream, cx: &Ctxt) -> syn::Result<Expr> {
    binary(input, 0, cx)
}

fn binary(input: ParseStream, min_prec: u8, cx: &Ctxt) -> syn::Result<Expr> {
    let mut lhs = unary(input, cx)?;
    loop {
        if input.peek(Token![^]) {
            let caret: Token![^] = input.parse()?;
            cx.error_help(
                caret.span,
                "`^` is not a power: in Rust it is XOR, and it binds more loosely than `+`",
                "write `x.powi(2)` for an integer power or `x.powf(y)` for a real one",
            );
            let rhs = unary(input, cx)?;
            lhs = Expr::Method {
                recv: Box::new(lhs),
                func: Ident::new("powf", caret.span),
                args: vec![rhs],
            };
            continue;
        }
        let (op, prec) = if input.peek(Token![+]) {
            (BinOp::Add, 1)
        } else if input.peek(Token![-]) && !input.peek(Token![->]) {
            (BinOp::Sub, 1)
        } else if input.peek(Token![*]) {
            (BinOp::Mul, 2)
        } else if input.peek(Token![/]) {
            (BinOp::Div, 2)
        } else {
            break;
        };
        if prec < min_prec {
            break;
        }
        let span = input.span();
        match op {
            BinOp::Add => drop(input.parse::<Token![+]>()?),
            BinOp::Sub => drop(input.parse::<Token![-]>()?),
            BinOp::Mul => drop(input.parse::<Token![*]>()?),
            BinOp::Div => drop(input.parse::<Token![/]>()?),
        }
        if op == BinOp::Mul && input.peek(Token![*]) {
            cx.error_help(
                input.span(),
                "`**` is not a power in Rust",
                "write `x.powi(2)` for an integer power or `x.powf(y)` for a real one",
            );
            input.parse::<Token![*]>()?;
            let rhs = unary(input, cx)?;
            lhs = Expr::Method {
                recv: Box::new(lhs),
                func: Ident::new("powf", span),
                args: vec![rhs],
            };
            continue;
        }
        let rhs = binary(input, prec + 1, cx)?;
        lhs = Expr::Bin {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
            span,
        };
    }
    Ok(lhs)
}

fn unary(input: ParseStream, cx: &Ctxt) -> syn::Result<Expr> {
    if input.peek(Token![-]) {
        let span = input.span();
        input.parse::<Token![-]>()?;
        let e = unary(input, cx)?;
        return Ok(Expr::Neg {
            expr: Box::new(e),
            span,
        });
    }
    if input.peek(Token![+]) {
        input.parse::<Token![+]>()?;
        return unary(input, cx);
    }
    let e = primary(input, cx)?;
    postfix(input, e, cx)
}

fn postfix(input: ParseStream, mut e: Expr, cx: &Ctxt) -> syn::Result<Expr> {
    while input.peek(Token![.]) && !input.peek(Token![..]) {
        input.parse::<Token![.]>()?;
        let func: Ident = input.parse()?;
        let args = if input.peek(token::Paren) {
            call_args(input, cx)?
        } else {
            e = Expr::Field {
                recv: Box::new(e),
                field: func,
            };
            continue;
        };
        e = Expr::Method {
            recv: Box::new(e),
            func,
            args,
        };
    }
    Ok(e)
}

fn call_args(input: ParseStream, cx: &Ctxt) -> syn::Result<Vec<Expr>> {
    let content;
    parenthesized!(content in input);
    let mut args = Vec::new();
    while !content.is_empty() {
        args.push(parse_expr(&content, cx)?);
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    Ok(args)
}

fn primary(input: ParseStream, cx: &Ctxt) -> syn::Result<Expr> {
    if input.peek(LitFloat) {
        let lit: LitFloat = input.parse()?;
        return lit_number(lit.base10_digits(), lit.suffix(), lit.span());
    }
    if input.peek(LitInt) {
        let lit: LitInt = input.parse()?;
        return lit_number(lit.base10_digits(), lit.suffix(), lit.span());
    }
    if input.peek(token::Paren) {
        let content;
        parenthesized!(content in input);
        let e = parse_expr(&content, cx)?;
        if !content.is_empty() {
            return Err(content.error("expected `)`"));
        }
        return Ok(e);
    }
    if input.peek(Ident) {
        let id: Ident = input.parse()?;
        if input.peek(Token![::]) {
            return Err(syn::Error::new(
                id.span(),
                "paths are not expressions of the DSL\n\nhelp: write functions as `sin(x)` or `x.sin()`",
            ));
        }
        if input.peek(token::Bracket) {
            let content;
            bracketed!(content in input);
            let mut comps = Vec::new();
            while !content.is_empty() {
                comps.push(parse_expr(&content, cx)?);
                if content.is_empty() {
                    break;
                }
                content.parse::<Token![,]>()?;
            }
            let span = id.span();
            return Ok(Expr::Components {
                frame: id,
                comps,
                span,
            });
        }
        if input.peek(token::Paren) {
            let span = id.span();
            let args = call_args(input, cx)?;
            if id == "dot" {
                if args.len() != 1 {
                    return Err(syn::Error::new(
                        span,
                        "`dot` takes one coordinate: `dot(x)`",
                    ));
                }
                let arg = args
                    .into_iter()
                    .next()
                    .map(Box::new)
                    .unwrap_or_else(|| Box::new(Expr::Error(span)));
                return Ok(Expr::Dot { arg, span });
            }
            return Ok(Expr::Call { func: id, args });
        }
        return Ok(Expr::Ident(id));
    }
    Err(input.error("expected an expression"))
}

fn lit_number(digits: &str, suffix: &str, span: Span) -> syn::Result<Expr> {
    if !(suffix.is_empty() || suffix == "f64" || suffix == "f32") {
        return Err(syn::Error::new(
            span,
            format!("numbers are f64; remove the suffix `{suffix}`"),
        ));
    }
    match Number::parse_decimal(digits) {
        Some(value) => Ok(Expr::Lit { value, span }),
        None => Err(syn::Error::new(span, "cannot read this number")),
    }
}
