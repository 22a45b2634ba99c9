//! Straight-line Rust from the DAG: shared subexpressions (nodes used more than once)
//! become `let`s, auxiliary atoms are computed once before their uses, everything else is
//! inlined. A [`Layout`] names the outputs of one block so that callers never compute
//! offsets.

use super::program::{Op, OpId, Program};
use super::render::{render, Bindings, Ctx, Num};
use crate::sym::{Func, Graph, Id, Mat};
use crate::sym::{HashMap, HashSet};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

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
/// output). The outputs and the auxiliary symbols (`Graph::define`) reachable from them
/// become one [`Program`]; an op used twice or more is a `let`, computed before its first
/// use; every auxiliary symbol is a `let`, in definition order.
pub fn block_in(
    g: &Graph,
    outputs: &[Id],
    bind: &Bindings,
    prefix: &str,
    num: Num,
) -> (TokenStream, Vec<TokenStream>) {
    let lowered = Lowered::new(g, outputs, bind, &[]);
    let (lets, _, rendered) = emit_ops(&lowered, &lowered.outs, bind, &[], (prefix, num));
    (lets, rendered)
}

/// A block's outputs as ops of one [`Program`], with the auxiliary symbols it computes.
pub(super) struct Lowered<'g> {
    pub(super) p: Program<'g>,
    /// The auxiliary symbols computed in the block (not bound by the caller), in an order
    /// where each comes after those it reads, and the ops of their values.
    pub(super) defined: Vec<u32>,
    pub(super) roots: Vec<OpId>,
    pub(super) outs: Vec<OpId>,
    /// Of `defined`, the symbols held (their values computed, their tangents zero).
    pub(super) held: HashSet<u32>,
}

impl<'g> Lowered<'g> {
    /// `held`: symbols without a definition that the block computes from the given
    /// expressions, after everything those read and before everything reading them.
    pub(super) fn new(g: &'g Graph, outputs: &[Id], bind: &Bindings, held: &[(u32, Id)]) -> Self {
        let mut all = outputs.to_vec();
        all.extend(held.iter().map(|(_, v)| *v));
        // Auxiliary symbols reachable from the outputs, through their definitions too
        // (those bound by the caller are computed there), in definition order.
        let atoms: Vec<(u32, Id)> = g
            .atoms_under(&all)
            .into_iter()
            .filter(|s| !bind.contains_key(s))
            .filter_map(|s| g.definition(s).map(|d| (s, d)))
            .collect();
        let held_syms: Vec<u32> = held.iter().map(|(s, _)| *s).collect();
        let (after, before): (Vec<_>, Vec<_>) = atoms
            .into_iter()
            .partition(|(_, d)| g.depends_on_any(*d, &held_syms));
        let mut p = Program::new(g, &all, |s| bind.contains_key(&s));
        let (mut defined, mut roots) = (Vec::new(), Vec::new());
        for (s, d) in before.iter().chain(held).chain(&after) {
            defined.push(*s);
            roots.push(p.lower(*d));
        }
        let outs: Vec<OpId> = outputs.iter().map(|o| p.lower(*o)).collect();
        Lowered {
            p,
            defined,
            roots,
            outs,
            held: held_syms.into_iter().collect(),
        }
    }
}

/// The `let`s and the rendered `outs` of a lowered block: (the `let`s, those that read
/// the `inner` symbols, the outputs).
pub(super) fn emit_ops(
    lowered: &Lowered,
    outs: &[OpId],
    bind: &Bindings,
    inner: &[u32],
    (prefix, num): (&str, Num),
) -> (TokenStream, TokenStream, Vec<TokenStream>) {
    let ty = num.ty();
    let (p, defined, roots) = (&lowered.p, &lowered.defined, &lowered.roots);
    let ready = p.ready_times();
    let inner = inner_ops(lowered, inner);

    // Count parents of every op reachable from the definitions and the outputs.
    let mut uses: HashMap<OpId, u32> = HashMap::default();
    let mut seen: HashSet<OpId> = HashSet::default();
    for o in roots.iter().chain(outs) {
        *uses.entry(*o).or_insert(0) += 1;
        visit(p, *o, &mut uses, &mut seen, &mut Vec::new());
    }
    // sines and cosines of one argument, computed together
    let mut pairs: HashMap<OpId, (OpId, OpId, OpId)> = HashMap::default();
    for id in uses.keys() {
        if let Op::Fn(Func::Sin, a) = p.op(*id)
            && let Some(c) = p
                .find(&Op::Fn(Func::Cos, *a))
                .filter(|c| uses.contains_key(c))
        {
            pairs.insert(*id, (*id, c, *a));
            pairs.insert(c, (*id, c, *a));
        }
    }
    let mut bind = bind.clone();
    let mut names: HashMap<OpId, TokenStream> = HashMap::default();
    let mut lets = Lets::default();
    let mut k = 0usize;
    let mut emitted: HashSet<OpId> = HashSet::default();
    let mut emit_shared =
        |root: OpId, bind: &Bindings, names: &mut HashMap<OpId, TokenStream>, lets: &mut Lets| {
            let mut order = Vec::new();
            visit(p, root, &mut HashMap::default(), &mut emitted, &mut order);
            for id in order {
                if let Some((si, co, a)) = pairs.get(&id).copied() {
                    if !names.contains_key(&id) {
                        let a = render(
                            &Ctx {
                                p,
                                ready: &ready,
                                bind,
                                names,
                                num,
                            },
                            a,
                        );
                        let (sn, cn) = (
                            format_ident!("__{}{}", prefix, k),
                            format_ident!("__{}{}", prefix, k + 1),
                        );
                        k += 2;
                        let level = lets.level_of(p, si);
                        lets.push(
                            quote! { (#sn, #cn) },
                            quote! { (#ty, #ty) },
                            quote! { ::nonholo::Scalar::sin_cos(#a) },
                            (level, inner.contains(&si)),
                        );
                        for (op, n) in [(si, sn), (co, cn)] {
                            lets.op_level.insert(op, level);
                            names.insert(op, quote! { #n });
                        }
                    }
                    continue;
                }
                let shared = uses.get(&id).copied().unwrap_or(0) >= 2;
                let leaf = matches!(p.op(id), Op::Num(_) | Op::Sym(_));
                if shared && !leaf && id != root && !names.contains_key(&id) {
                    let e = render(
                        &Ctx {
                            p,
                            ready: &ready,
                            bind,
                            names,
                            num,
                        },
                        id,
                    );
                    let name = format_ident!("__{}{}", prefix, k);
                    k += 1;
                    let level = lets.level_of(p, id);
                    lets.push(
                        quote! { #name },
                        ty.clone(),
                        e,
                        (level, inner.contains(&id)),
                    );
                    lets.op_level.insert(id, level);
                    names.insert(id, quote! { #name });
                }
            }
        };
    for (s, root) in defined.iter().zip(roots) {
        emit_shared(*root, &bind, &mut names, &mut lets);
        let name = format_ident!("__{}d{}", prefix, s);
        let level = match names.get(root) {
            // the definition is an op already computed: the atom is that `let`
            Some(e) => {
                let level = lets.op_level[root] + 1;
                let at = (level, inner.contains(root));
                lets.push(quote! { #name }, ty.clone(), e.clone(), at);
                level
            }
            None => {
                let e = render(
                    &Ctx {
                        p,
                        ready: &ready,
                        bind: &bind,
                        names: &names,
                        num,
                    },
                    *root,
                );
                let level = lets.level_of(p, *root);
                let at = (level, inner.contains(root));
                lets.push(quote! { #name }, ty.clone(), e, at);
                lets.op_level.insert(*root, level);
                names.insert(*root, quote! { #name });
                level
            }
        };
        lets.sym_level.insert(*s, level);
        bind.insert(*s, quote! { #name });
    }
    for o in outs {
        emit_shared(*o, &bind, &mut names, &mut lets);
    }
    let cx = Ctx {
        p,
        ready: &ready,
        bind: &bind,
        names: &names,
        num,
    };
    let rendered = outs.iter().map(|o| render(&cx, *o)).collect();
    let (outer, inner) = lets.into_tokens();
    (outer, inner, rendered)
}

/// The ops that read any of the symbols `inner`, directly or through the auxiliary
/// symbols the block computes (ops come after their operands, definitions after the
/// symbols they read, so one sweep per chain of definitions settles it).
fn inner_ops(lowered: &Lowered, inner: &[u32]) -> HashSet<OpId> {
    let p = &lowered.p;
    let mut syms: HashSet<u32> = inner.iter().copied().collect();
    let mut ops: HashSet<OpId> = HashSet::default();
    if syms.is_empty() {
        return ops;
    }
    loop {
        let known = syms.len();
        for id in (0..p.len()).map(|i| OpId(i as u32)) {
            let reads = match p.op(id) {
                Op::Sym(s) => syms.contains(s),
                _ => p.children(id).iter().any(|c| ops.contains(c)),
            };
            if reads {
                ops.insert(id);
            }
        }
        for (s, root) in lowered.defined.iter().zip(&lowered.roots) {
            if ops.contains(root) {
                syms.insert(*s);
            }
        }
        if syms.len() == known {
            return ops;
        }
    }
}

/// The `let`s of a block, grouped by level (1 + the highest level of the `let`s they
/// read). All `let`s of one level are one tuple binding: a sequence of thousands of `let`s
/// nests as many lexical scopes, and LLVM's debug-info pass recurses once per scope (the
/// Whipple bicycle's Jacobian overflowed rustc's stack in a debug build).
#[derive(Default)]
struct Lets {
    /// (pattern, type, value) of each `let`, by level; then those of the inner closure.
    by_level: std::collections::BTreeMap<usize, Vec<Let>>,
    inner_by_level: std::collections::BTreeMap<usize, Vec<Let>>,
    /// Levels of the named ops and of the auxiliary symbols.
    op_level: HashMap<OpId, usize>,
    sym_level: HashMap<u32, usize>,
}

/// A `let`'s pattern, type and value.
type Let = (TokenStream, TokenStream, TokenStream);

/// The most names one tuple binding introduces.
const LET_GROUP: usize = 64;

impl Lets {
    fn push(&mut self, pat: TokenStream, ty: TokenStream, e: TokenStream, at: (usize, bool)) {
        let (level, inner) = at;
        let lets = if inner {
            &mut self.inner_by_level
        } else {
            &mut self.by_level
        };
        lets.entry(level).or_default().push((pat, ty, e));
    }

    /// The level a `let` of op `id` gets: one above everything it reads.
    fn level_of(&self, p: &Program, id: OpId) -> usize {
        // a symbol's value (a held `dz/dt` equal to an auxiliary atom) reads that symbol
        if let Op::Sym(s) = p.op(id) {
            return self.sym_level.get(s).copied().unwrap_or(0) + 1;
        }
        let mut max = 0;
        let mut stack = p.children(id);
        let mut seen = HashSet::default();
        while let Some(x) = stack.pop() {
            if !seen.insert(x) {
                continue;
            }
            if let Some(l) = self.op_level.get(&x) {
                max = max.max(*l);
                continue;
            }
            match p.op(x) {
                Op::Sym(s) => max = max.max(self.sym_level.get(s).copied().unwrap_or(0)),
                _ => stack.extend(p.children(x)),
            }
        }
        max + 1
    }

    /// The outer `let`s and the inner closure's.
    fn into_tokens(self) -> (TokenStream, TokenStream) {
        let tokens = |by_level: std::collections::BTreeMap<usize, Vec<Let>>| {
            let mut out = TokenStream::new();
            for group in by_level.into_values() {
                for chunk in group.chunks(LET_GROUP) {
                    if let [(pat, ty, e)] = chunk {
                        out.extend(quote! { let #pat: #ty = #e; });
                    } else {
                        let pats = chunk.iter().map(|(p, _, _)| p);
                        let tys = chunk.iter().map(|(_, t, _)| t);
                        let es = chunk.iter().map(|(_, _, e)| e);
                        out.extend(quote! { let (#(#pats),*): (#(#tys),*) = (#(#es),*); });
                    }
                }
            }
            out
        };
        (tokens(self.by_level), tokens(self.inner_by_level))
    }
}

fn visit(
    p: &Program,
    id: OpId,
    uses: &mut HashMap<OpId, u32>,
    seen: &mut HashSet<OpId>,
    order: &mut Vec<OpId>,
) {
    if !seen.insert(id) {
        return;
    }
    for c in p.children(id) {
        *uses.entry(c).or_insert(0) += 1;
        visit(p, c, uses, seen, order);
    }
    order.push(id);
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
