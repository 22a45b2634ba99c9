//! Straight-line Rust from the DAG: shared subexpressions (nodes used more than once)
//! become `let`s, auxiliary atoms are computed once before their uses, everything else is
//! inlined. A [`Layout`] names the outputs of one block so that callers never compute
//! offsets.

use crate::check::Checked;
use crate::model::Symbols;
use crate::sym::{Func, Graph, Id, Mat, Node, Number};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};
use std::collections::HashMap;

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

/// Straight-line `f64` code computing `outputs` ([`block_in`]).
pub fn block(
    g: &Graph,
    outputs: &[Id],
    bind: &Bindings,
    prefix: &str,
) -> (TokenStream, Vec<TokenStream>) {
    block_in(g, outputs, bind, prefix, Num::F64)
}

/// Straight-line code computing `outputs` in `num`: (let statements, one expression per
/// output). Auxiliary symbols (`Graph::define`) reachable from the outputs are computed
/// first, in definition order, each once.
pub fn block_in(
    g: &Graph,
    outputs: &[Id],
    bind: &Bindings,
    prefix: &str,
    num: Num,
) -> (TokenStream, Vec<TokenStream>) {
    let ty = num.ty();
    // Auxiliary symbols reachable from the outputs, through their definitions too
    // (those bound by the caller are computed there).
    let defined: Vec<u32> = g
        .atoms_under(outputs)
        .into_iter()
        .filter(|s| !bind.contains_key(s))
        .collect();
    let roots: Vec<Id> = defined.iter().filter_map(|s| g.definition(*s)).collect();

    // Count parents of every node reachable from the definitions and the outputs.
    let mut uses: HashMap<Id, u32> = HashMap::new();
    let mut seen: HashMap<Id, ()> = HashMap::new();
    let mut order_all: Vec<Id> = Vec::new();
    for o in roots.iter().chain(outputs) {
        *uses.entry(*o).or_insert(0) += 1;
        visit(g, *o, &mut uses, &mut seen, &mut order_all);
    }
    let mut bind = bind.clone();
    let mut names: HashMap<Id, TokenStream> = HashMap::new();
    let mut lets = TokenStream::new();
    let mut k = 0usize;
    let mut emitted: HashMap<Id, ()> = HashMap::new();
    let mut emit_shared = |root: Id,
                           bind: &Bindings,
                           names: &mut HashMap<Id, TokenStream>,
                           lets: &mut TokenStream| {
        let mut order = Vec::new();
        let mut local_uses = HashMap::new();
        visit(g, root, &mut local_uses, &mut emitted, &mut order);
        for id in order {
            let shared = uses.get(&id).copied().unwrap_or(0) >= 2;
            let leaf = matches!(g.node(id), Node::Num(_) | Node::Sym(_));
            if shared && !leaf && id != root {
                let e = render(
                    &Ctx {
                        g,
                        bind,
                        names,
                        num,
                    },
                    id,
                );
                let name = format_ident!("__{}{}", prefix, k);
                k += 1;
                lets.extend(quote! { let #name: #ty = #e; });
                names.insert(id, quote! { #name });
            }
        }
    };
    for (s, root) in defined.iter().zip(&roots) {
        emit_shared(*root, &bind, &mut names, &mut lets);
        let e = render(
            &Ctx {
                g,
                bind: &bind,
                names: &names,
                num,
            },
            *root,
        );
        let name = format_ident!("__{}d{}", prefix, s);
        lets.extend(quote! { let #name: #ty = #e; });
        bind.insert(*s, quote! { #name });
        names.insert(*root, quote! { #name });
    }
    for o in outputs {
        emit_shared(*o, &bind, &mut names, &mut lets);
    }
    let cx = Ctx {
        g,
        bind: &bind,
        names: &names,
        num,
    };
    let outs = outputs.iter().map(|o| render(&cx, *o)).collect();
    (lets, outs)
}

fn visit(
    g: &Graph,
    id: Id,
    uses: &mut HashMap<Id, u32>,
    seen: &mut HashMap<Id, ()>,
    order: &mut Vec<Id>,
) {
    if seen.insert(id, ()).is_some() {
        return;
    }
    let children = g.children(id);
    for c in children {
        *uses.entry(c).or_insert(0) += 1;
        visit(g, c, uses, seen, order);
    }
    order.push(id);
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

/// What rendering a node needs: the graph, how symbols and shared nodes are read, the
/// number type.
struct Ctx<'a> {
    g: &'a Graph,
    bind: &'a Bindings,
    names: &'a HashMap<Id, TokenStream>,
    num: Num,
}

fn render(cx: &Ctx, id: Id) -> TokenStream {
    let g = cx.g;
    if let Some(n) = cx.names.get(&id) {
        return n.clone();
    }
    match g.node(id) {
        Node::Num(n) => cx.num.lit(*n),
        Node::Sym(s) => cx
            .bind
            .get(s)
            .cloned()
            .unwrap_or_else(|| cx.num.wrap(quote! { ::core::f64::NAN })),
        Node::Add(c, ts) => {
            let terms: Vec<Term> = ts
                .iter()
                .map(|(k, t)| Term {
                    k: *k,
                    fs: match g.node(*t) {
                        Node::Mul(fs) => fs.to_vec(),
                        _ => vec![(*t, 1)],
                    },
                })
                .collect();
            let mut out = factored(cx, terms);
            if !c.is_zero() {
                let neg = c.is_negative();
                let l = cx.num.lit(if neg { c.neg() } else { *c });
                out.extend(if neg {
                    quote! { - #l }
                } else {
                    quote! { + #l }
                });
            }
            quote! { (#out) }
        }
        Node::Mul(fs) => product(cx, fs),
        // Through the trait, so the code names no std item and works in any scalar.
        Node::Fn(f, a) => {
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
        Node::Fn2(f, a, b) => {
            let a = render(cx, *a);
            let b = render(cx, *b);
            let m = Ident::new(f.name(), Span::call_site());
            quote! { ::nonholo::Scalar::#m(#a, #b) }
        }
    }
}

/// One term `k * prod b^e` of a sum being rendered.
struct Term {
    k: Number,
    fs: Vec<(Id, i32)>,
}

/// A sum's terms (without parentheses), common factors pulled out greedily (multivariate
/// Horner): the base shared by most terms is factored out of them, recursively, so
/// `a*x*y + a*x*z + b` renders as `a*x*(y + z) + b` and a shared divisor is divided once.
/// Ties go to the smaller node id, so the output is deterministic.
fn factored(cx: &Ctx, terms: Vec<Term>) -> TokenStream {
    let mut count: std::collections::BTreeMap<(Id, bool), (usize, i32)> = Default::default();
    for t in &terms {
        for (b, e) in &t.fs {
            let c = count.entry((*b, *e > 0)).or_insert((0, i32::MAX));
            c.0 += 1;
            c.1 = c.1.min(e.abs());
        }
    }
    let best = count
        .iter()
        .filter(|(_, (n, _))| *n >= 2)
        .max_by(|x, y| x.1 .0.cmp(&y.1 .0).then(y.0.cmp(x.0)))
        .map(|((b, pos), (_, e))| (*b, *pos, *e));
    let Some((base, positive, e)) = best else {
        return plain_sum(cx, &terms);
    };
    let mut with = Vec::new();
    let mut without = Vec::new();
    for mut t in terms {
        match t
            .fs
            .iter()
            .position(|(b, x)| *b == base && (*x > 0) == positive)
        {
            Some(i) => {
                t.fs[i].1 -= if positive { e } else { -e };
                if t.fs[i].1 == 0 {
                    t.fs.remove(i);
                }
                with.push(t);
            }
            None => without.push(t),
        }
    }
    let inner = factored(cx, with);
    let b = power(cx, base, e);
    let grouped = if positive {
        quote! { #b * (#inner) }
    } else {
        quote! { (#inner) / #b }
    };
    if without.is_empty() {
        grouped
    } else {
        let rest = factored(cx, without);
        quote! { #grouped + #rest }
    }
}

/// Terms written out one by one, `k*x*y - z + ...`.
fn plain_sum(cx: &Ctx, terms: &[Term]) -> TokenStream {
    let mut out = TokenStream::new();
    for (i, t) in terms.iter().enumerate() {
        let neg = t.k.is_negative();
        let ak = if neg { t.k.neg() } else { t.k };
        let term = match (t.fs.is_empty(), ak.is_one()) {
            (true, _) => cx.num.lit(ak),
            (false, true) => product(cx, &t.fs),
            (false, false) => {
                let l = cx.num.lit(ak);
                let e = product(cx, &t.fs);
                quote! { #l * #e }
            }
        };
        out.extend(match (i == 0, neg) {
            (true, false) => term,
            (true, true) => quote! { -#term },
            (false, false) => quote! { + #term },
            (false, true) => quote! { - #term },
        });
    }
    out
}

/// `b^e` for `e >= 1`, squares as a product.
fn power(cx: &Ctx, b: Id, e: i32) -> TokenStream {
    let base = render(cx, b);
    match e {
        1 => base,
        2 => quote! { (#base * #base) },
        _ => {
            let e = Literal::i32_unsuffixed(e);
            quote! { ::nonholo::Scalar::powi(#base, #e) }
        }
    }
}

/// `prod b^e` as `(num / (den))`.
fn product(cx: &Ctx, fs: &[(Id, i32)]) -> TokenStream {
    let num: Vec<TokenStream> = fs
        .iter()
        .filter(|(_, e)| *e > 0)
        .map(|(b, e)| power(cx, *b, *e))
        .collect();
    let den: Vec<TokenStream> = fs
        .iter()
        .filter(|(_, e)| *e < 0)
        .map(|(b, e)| power(cx, *b, -*e))
        .collect();
    let chain = |xs: Vec<TokenStream>| -> TokenStream {
        let mut it = xs.into_iter();
        let mut acc = it.next().unwrap_or_else(|| cx.num.lit(Number::ONE));
        for x in it {
            acc = quote! { #acc * #x };
        }
        acc
    };
    let num = chain(num);
    if den.is_empty() {
        quote! { (#num) }
    } else {
        let den = chain(den);
        quote! { (#num / (#den)) }
    }
}

/// `return Err(SingularMassMatrix { t, state })`, for the generated functions with `t`
/// and `state` in scope whose linear solve failed.
pub fn singular_mass_matrix() -> TokenStream {
    quote! {
        return ::core::result::Result::Err(::nonholo::Error::SingularMassMatrix { t: ::nonholo::Scalar::re(t), state: ::nonholo::__private::to_vec(state) });
    }
}

pub fn ident_for(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// Bindings of parameters (to locals of the same name) and t, and the `let`s of those
/// locals in `num`.
pub fn param_bindings(m: &Checked, syms: &Symbols, num: Num) -> (Bindings, TokenStream) {
    let mut b = Bindings::new();
    b.insert(syms.t, quote! { t });
    let ty = num.ty();
    let mut lets = TokenStream::new();
    for ((p, _), s) in m.params.iter().zip(&syms.params) {
        b.insert(*s, quote! { #p });
        lets.extend(quote! { let #p: #ty = self.#p; });
    }
    (b, lets)
}

pub fn bind_array(b: &mut Bindings, syms: &[u32], arr: &Ident) {
    for (i, s) in syms.iter().enumerate() {
        let i = Literal::usize_unsuffixed(i);
        b.insert(*s, quote! { #arr[#i] });
    }
}

pub fn lit_usize(n: usize) -> Literal {
    Literal::usize_unsuffixed(n)
}

/// Where one group of outputs sits in a block.
#[derive(Clone, Copy)]
pub struct Slot {
    start: usize,
    len: usize,
    cols: usize,
}

/// The outputs of one generated block, added by name (a vector or a matrix at a time).
#[derive(Default)]
pub struct Layout {
    ids: Vec<Id>,
}

impl Layout {
    pub fn new() -> Layout {
        Layout::default()
    }

    pub fn vec(&mut self, v: &[Id]) -> Slot {
        let start = self.ids.len();
        self.ids.extend_from_slice(v);
        Slot {
            start,
            len: v.len(),
            cols: 1,
        }
    }

    pub fn mat(&mut self, m: &Mat) -> Slot {
        let start = self.ids.len();
        self.ids.extend_from_slice(&m.e);
        Slot {
            start,
            len: m.e.len(),
            cols: m.c.max(1),
        }
    }

    /// The block's `let`s and its rendered outputs, in `f64`.
    pub fn block(&self, g: &Graph, bind: &Bindings, prefix: &str) -> (TokenStream, Rendered) {
        self.block_in(g, bind, prefix, Num::F64)
    }

    /// The block's `let`s and its rendered outputs, in `num`.
    pub fn block_in(
        &self,
        g: &Graph,
        bind: &Bindings,
        prefix: &str,
        num: Num,
    ) -> (TokenStream, Rendered) {
        let (lets, out) = block_in(g, &self.ids, bind, prefix, num);
        (lets, Rendered(out))
    }
}

/// The rendered outputs of a [`Layout`]'s block.
pub struct Rendered(Vec<TokenStream>);

impl Rendered {
    pub fn vec(&self, s: Slot) -> &[TokenStream] {
        &self.0[s.start..s.start + s.len]
    }

    pub fn at(&self, s: Slot, i: usize, j: usize) -> &TokenStream {
        &self.0[s.start + i * s.cols + j]
    }

    /// A matrix as rows of an array literal, `[[a, b], [c, d]]`'s inner rows.
    pub fn rows(&self, s: Slot) -> Vec<TokenStream> {
        self.vec(s)
            .chunks(s.cols)
            .map(|row| quote! { [#(#row),*] })
            .collect()
    }
}
