//! One op of a [`Program`] as a Rust expression: sums and products in the order their
//! operands are ready, numbers as literals of the block's number type ([`Num`]), shared
//! ops and symbols by name ([`Bindings`]).

use super::program::{earliest_first, factor_ready, term_ready, Op, OpId, Program, DIV};
use crate::sym::{Func, HashMap, Number};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

/// How each symbol is read in a generated function.
pub type Bindings = HashMap<u32, TokenStream>;

/// The number type a generated function computes in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Num {
    /// `f64` (the `Model` impl).
    F64,
    /// The struct's type parameter `__S: ::nonholo::Scalar` (`rhs_generic` and friends):
    /// literals through `__S::from_f64`.
    Generic,
}

impl Num {
    /// The type of the `let`s.
    pub fn ty(self) -> TokenStream {
        match self {
            Num::F64 => quote! { f64 },
            Num::Generic => quote! { __S },
        }
    }

    /// A literal of this type.
    pub fn lit(self, x: Number) -> TokenStream {
        self.wrap(lit(x))
    }

    /// An `f64` expression as this type.
    pub fn wrap(self, e: TokenStream) -> TokenStream {
        match self {
            Num::F64 => e,
            Num::Generic => quote! { <__S as ::nonholo::Scalar>::from_f64(#e) },
        }
    }
}

pub fn lit(x: Number) -> TokenStream {
    let v = x.to_f64();
    if v.is_nan() {
        quote! { ::core::f64::NAN }
    } else if v.is_infinite() {
        if v > 0.0 {
            quote! { ::core::f64::INFINITY }
        } else {
            quote! { ::core::f64::NEG_INFINITY }
        }
    } else {
        let l = Literal::f64_suffixed(v.abs());
        if v < 0.0 {
            quote! { (-#l) }
        } else {
            quote! { #l }
        }
    }
}

/// What rendering an op needs: the program, how symbols and shared ops are read, the
/// number type.
pub(super) struct Ctx<'a> {
    pub(super) p: &'a Program<'a>,
    /// [`Program::ready_times`]: operands are written in increasing order of these.
    pub(super) ready: &'a [u32],
    pub(super) bind: &'a Bindings,
    pub(super) names: &'a HashMap<OpId, TokenStream>,
    pub(super) num: Num,
}

pub(super) fn render(cx: &Ctx, id: OpId) -> TokenStream {
    if let Some(n) = cx.names.get(&id) {
        return n.clone();
    }
    match cx.p.op(id) {
        Op::Num(n) => cx.num.lit(*n),
        Op::Sym(s) => cx
            .bind
            .get(s)
            .cloned()
            .unwrap_or_else(|| cx.num.wrap(quote! { ::core::f64::NAN })),
        Op::Sum(c, ts) => {
            let (mut c, mut terms) = (*c, Vec::new());
            sum_terms(cx, ts, Number::ONE, &mut c, &mut terms);
            // (ready, negative, |k| x)
            let mut xs: Vec<(u32, bool, TokenStream)> = terms
                .iter()
                .map(|(k, x)| {
                    let neg = k.is_negative();
                    let ak = if neg { k.neg() } else { *k };
                    let r = render(cx, *x);
                    let ready = term_ready(cx.ready[x.0 as usize], k);
                    if ak.is_one() {
                        (ready, neg, r)
                    } else {
                        let l = cx.num.lit(ak);
                        (ready, neg, quote! { (#l * #r) })
                    }
                })
                .collect();
            if !c.is_zero() {
                let neg = c.is_negative();
                xs.push((0, neg, cx.num.lit(if neg { c.neg() } else { c })));
            }
            let xs = xs.into_iter().map(|(r, n, t)| (r, (n, t))).collect();
            let (neg, sum) = earliest_first(xs, |(na, a), (nb, b)| match (na, nb) {
                (false, false) => (false, quote! { (#a + #b) }),
                (false, true) => (false, quote! { (#a - #b) }),
                (true, false) => (false, quote! { (#b - #a) }),
                (true, true) => (true, quote! { (#a + #b) }),
            })
            .map_or_else(|| (false, cx.num.lit(Number::ZERO)), |(_, s)| s);
            if neg {
                quote! { (-#sum) }
            } else {
                sum
            }
        }
        Op::Mul(fs) => {
            // factors, and the denominators of reciprocals not computed on their own
            let mut num = Vec::new();
            let mut den = Vec::new();
            mul_factors(cx, fs, &mut num, &mut den);
            let product = |xs: Vec<(u32, TokenStream)>| {
                earliest_first(xs, |a, b| quote! { (#a * #b) })
                    .unwrap_or_else(|| (0, cx.num.lit(Number::ONE)))
            };
            if den.is_empty() {
                product(num).1
            } else {
                // divide the factors ready by the time the denominator is (at least one),
                // then multiply in the later ones: the division's latency overlaps the
                // wait for them instead of following it
                let (rd, d) = product(den);
                num.sort_by_key(|(r, _)| *r);
                let early = num.iter().take_while(|(r, _)| *r <= rd).count().max(1);
                let late = num.split_off(early.min(num.len()));
                let (re, n) = product(num);
                let mut xs = vec![(re.max(rd) + DIV, quote! { (#n / #d) })];
                xs.extend(late);
                product(xs).1
            }
        }
        Op::Recip(d) => {
            let one = cx.num.lit(Number::ONE);
            let d = render(cx, *d);
            quote! { (#one / #d) }
        }
        // Through the trait, so the code names no std item and works in any scalar.
        Op::Fn(f, a) => {
            let a = render(cx, *a);
            let m = Ident::new(
                if *f == Func::Sign {
                    "signum0"
                } else {
                    f.name()
                },
                Span::call_site(),
            );
            quote! { ::nonholo::Scalar::#m(#a) }
        }
        Op::Fn2(f, a, b) => {
            let a = render(cx, *a);
            let b = render(cx, *b);
            let m = Ident::new(f.name(), Span::call_site());
            quote! { ::nonholo::Scalar::#m(#a, #b) }
        }
    }
}

/// The terms of a sum, scaled by `sign` (+-1), with every term that is itself a unit
/// multiple of a sum written inline (not a `let`) opened into its terms: the operands of
/// one [`earliest_first`] tree instead of a tree inside a tree. As many additions either
/// way, and the value ready last costs one addition after it is ready, not one per level
/// of nesting. Constants are collected in `c`.
fn sum_terms(
    cx: &Ctx,
    ts: &[(Number, OpId)],
    sign: Number,
    c: &mut Number,
    out: &mut Vec<(Number, OpId)>,
) {
    for (k, x) in ts {
        let k = k.mul(sign);
        match cx.p.op(*x) {
            Op::Sum(c2, ts2) if !cx.names.contains_key(x) && (k.is_one() || k.neg().is_one()) => {
                *c = c.add(c2.mul(k));
                sum_terms(cx, ts2, k, c, out);
            }
            _ => out.push((k, *x)),
        }
    }
}

/// The factors of a product, with every factor that is itself a product written inline
/// opened into its factors (and its reciprocals into the denominator), as (ready, code)
/// operands of one [`earliest_first`] tree: `m_d * (kappa * x)` with a late `x` becomes
/// `(m_d * kappa) * x`, one multiplication after `x` instead of two. As many
/// multiplications either way.
fn mul_factors(
    cx: &Ctx,
    fs: &[(OpId, i32)],
    num: &mut Vec<(u32, TokenStream)>,
    den: &mut Vec<(u32, TokenStream)>,
) {
    for (x, e) in fs {
        let inline = !cx.names.contains_key(x) && *e == 1;
        match cx.p.op(*x) {
            Op::Mul(fs2) if inline => mul_factors(cx, fs2, num, den),
            Op::Recip(d) if inline => den.push((cx.ready[d.0 as usize], render(cx, *d))),
            _ => num.push((factor_ready(cx.ready[x.0 as usize], *e), power(cx, *x, *e))),
        }
    }
}

/// `x^e` for `e >= 1`, squares as a product.
fn power(cx: &Ctx, x: OpId, e: i32) -> TokenStream {
    let base = render(cx, x);
    match e {
        1 => base,
        2 => quote! { (#base * #base) },
        _ => {
            let e = Literal::i32_unsuffixed(e);
            quote! { ::nonholo::Scalar::powi(#base, #e) }
        }
    }
}
