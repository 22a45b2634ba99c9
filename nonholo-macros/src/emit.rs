//! Stage 5: symbolic results -> straight-line Rust. Shared subexpressions (nodes of the
//! hash-consed DAG used more than once) become `let`s; everything else is inlined.
//! Generated code uses absolute paths (`::nonholo::...`) and never allocates on success.

use crate::check::Checked;
use crate::mechanics::{Derived, SpeedsFromQdot};
use crate::sym::lower::Symbols;
use crate::sym::{Func, Func2, Graph, Id, Node, Number};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};
use std::collections::HashMap;

/// How each symbol is read in a generated function.
type Bindings = HashMap<u32, TokenStream>;

/// Straight-line code computing `outputs`: (let statements, one expression per output).
/// Auxiliary symbols (`Graph::define`) reachable from the outputs are computed first, in
/// definition order, each once.
fn block(
    g: &Graph,
    outputs: &[Id],
    bind: &Bindings,
    prefix: &str,
) -> (TokenStream, Vec<TokenStream>) {
    // Auxiliary symbols reachable from the outputs, through their definitions too.
    let mut defined: Vec<u32> = Vec::new();
    let mut stack: Vec<Id> = outputs.to_vec();
    let mut walked: HashMap<Id, ()> = HashMap::new();
    while let Some(id) = stack.pop() {
        if walked.insert(id, ()).is_some() {
            continue;
        }
        match g.node(id) {
            Node::Num(_) => {}
            Node::Sym(s) => {
                if let Some(def) = g.definition(*s) {
                    if !bind.contains_key(s) {
                        defined.push(*s);
                        stack.push(def);
                    }
                }
            }
            Node::Add(_, ts) => stack.extend(ts.iter().map(|(_, t)| *t)),
            Node::Mul(fs) => stack.extend(fs.iter().map(|(b, _)| *b)),
            Node::Fn(_, a) => stack.push(*a),
            Node::Fn2(_, a, b) => {
                stack.push(*a);
                stack.push(*b);
            }
        }
    }
    defined.sort_unstable();
    defined.dedup();
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
                let e = render(g, id, bind, names);
                let name = format_ident!("__{}{}", prefix, k);
                k += 1;
                lets.extend(quote! { let #name: f64 = #e; });
                names.insert(id, quote! { #name });
            }
        }
    };
    for (s, root) in defined.iter().zip(&roots) {
        emit_shared(*root, &bind, &mut names, &mut lets);
        let e = render(g, *root, &bind, &names);
        let name = format_ident!("__{}d{}", prefix, s);
        lets.extend(quote! { let #name: f64 = #e; });
        bind.insert(*s, quote! { #name });
        names.insert(*root, quote! { #name });
    }
    for o in outputs {
        emit_shared(*o, &bind, &mut names, &mut lets);
    }
    let outs = outputs
        .iter()
        .map(|o| render(g, *o, &bind, &names))
        .collect();
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
    let children: Vec<Id> = match g.node(id) {
        Node::Num(_) | Node::Sym(_) => vec![],
        Node::Add(_, ts) => ts.iter().map(|(_, t)| *t).collect(),
        Node::Mul(fs) => fs.iter().map(|(b, _)| *b).collect(),
        Node::Fn(_, a) => vec![*a],
        Node::Fn2(_, a, b) => vec![*a, *b],
    };
    for c in children {
        *uses.entry(c).or_insert(0) += 1;
        visit(g, c, uses, seen, order);
    }
    order.push(id);
}

fn lit(x: Number) -> TokenStream {
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

fn render(g: &Graph, id: Id, bind: &Bindings, names: &HashMap<Id, TokenStream>) -> TokenStream {
    if let Some(n) = names.get(&id) {
        return n.clone();
    }
    match g.node(id) {
        Node::Num(n) => lit(*n),
        Node::Sym(s) => bind
            .get(s)
            .cloned()
            .unwrap_or_else(|| quote! { ::core::f64::NAN }),
        Node::Add(c, ts) => {
            let mut out = TokenStream::new();
            let mut first = true;
            for (k, t) in ts.iter() {
                let e = render(g, *t, bind, names);
                let neg = k.is_negative();
                let ak = if neg { k.neg() } else { *k };
                let term = if ak.is_one() {
                    e
                } else {
                    let l = lit(ak);
                    quote! { #l * #e }
                };
                if first {
                    out.extend(if neg {
                        quote! { -#term }
                    } else {
                        term
                    });
                } else if neg {
                    out.extend(quote! { - #term });
                } else {
                    out.extend(quote! { + #term });
                }
                first = false;
            }
            if !c.is_zero() {
                let neg = c.is_negative();
                let l = lit(if neg { c.neg() } else { *c });
                out.extend(if neg {
                    quote! { - #l }
                } else {
                    quote! { + #l }
                });
            }
            quote! { (#out) }
        }
        Node::Mul(fs) => {
            let pow = |b: Id, e: i32| -> TokenStream {
                let base = render(g, b, bind, names);
                match e {
                    1 => base,
                    2 => quote! { (#base * #base) },
                    _ => {
                        let e = Literal::i32_unsuffixed(e);
                        quote! { #base.powi(#e) }
                    }
                }
            };
            let num: Vec<TokenStream> = fs
                .iter()
                .filter(|(_, e)| *e > 0)
                .map(|(b, e)| pow(*b, *e))
                .collect();
            let den: Vec<TokenStream> = fs
                .iter()
                .filter(|(_, e)| *e < 0)
                .map(|(b, e)| pow(*b, -*e))
                .collect();
            let product = |xs: Vec<TokenStream>| -> TokenStream {
                let mut it = xs.into_iter();
                let mut acc = it.next().unwrap_or_else(|| quote! { 1.0f64 });
                for x in it {
                    acc = quote! { #acc * #x };
                }
                acc
            };
            let num = product(num);
            if den.is_empty() {
                quote! { (#num) }
            } else {
                let den = product(den);
                quote! { (#num / (#den)) }
            }
        }
        Node::Fn(f, a) => {
            let a = render(g, *a, bind, names);
            if *f == Func::Sign {
                return quote! { ::nonholo::__private::signum0(#a) };
            }
            let m = Ident::new(f.name(), Span::call_site());
            quote! { (#a).#m() }
        }
        Node::Fn2(f, a, b) => {
            let a = render(g, *a, bind, names);
            let b = render(g, *b, bind, names);
            match f {
                Func2::Atan2 => quote! { (#a).atan2(#b) },
                Func2::Powf => quote! { (#a).powf(#b) },
            }
        }
    }
}

fn ident_for(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// Bindings of parameters (to locals of the same name), t, and the given symbol groups.
fn param_bindings(m: &Checked, syms: &Symbols) -> (Bindings, TokenStream) {
    let mut b = Bindings::new();
    b.insert(syms.t, quote! { t });
    let mut lets = TokenStream::new();
    for ((p, _), s) in m.params.iter().zip(&syms.params) {
        b.insert(*s, quote! { #p });
        lets.extend(quote! { let #p: f64 = self.#p; });
    }
    (b, lets)
}

fn bind_array(b: &mut Bindings, syms: &[u32], arr: &Ident) {
    for (i, s) in syms.iter().enumerate() {
        let i = Literal::usize_unsuffixed(i);
        b.insert(*s, quote! { #arr[#i] });
    }
}

fn lit_usize(n: usize) -> Literal {
    Literal::usize_unsuffixed(n)
}

/// The struct, its constructors and the `Model` impl.
pub fn emit(
    m: &Checked,
    g: &Graph,
    syms: &Symbols,
    d: &Derived,
    jvp: &crate::mechanics::jacobian::Jvp,
    power: &crate::mechanics::jacobian::PowerTerms,
    defaults: &[Option<Number>],
) -> TokenStream {
    let name = &m.name;
    let nq = syms.q.len();
    let nz = syms.z.len();
    let nc = d.constraints.len();
    let dim = nq + nz;
    let (nq_l, nz_l, nc_l, dim_l) = (lit_usize(nq), lit_usize(nz), lit_usize(nc), lit_usize(dim));
    let header = emit_struct(m, defaults);

    let coord_names: Vec<String> = m.coords.iter().map(|c| c.to_string()).collect();
    let speed_names = &d.speed_names;
    let param_names: Vec<String> = m.params.iter().map(|(p, _)| p.to_string()).collect();
    let constraint_texts: Vec<String> = m.constraints.iter().map(|c| c.text.clone()).collect();
    let equations = &d.equations;
    let formulation = match d.formulation {
        crate::check::Formulation::GibbsAppell => quote! { ::nonholo::Formulation::GibbsAppell },
        crate::check::Formulation::BoltzmannHamel => {
            quote! { ::nonholo::Formulation::BoltzmannHamel }
        }
        crate::check::Formulation::Voronec => quote! { ::nonholo::Formulation::Voronec },
        crate::check::Formulation::Multipliers => quote! { ::nonholo::Formulation::Multipliers },
    };
    let param_fields: Vec<&syn::Ident> = m.params.iter().map(|(p, _)| p).collect();

    let (base, plets) = param_bindings(m, syms);
    let s_arr = ident_for("__s");
    let q_arr = ident_for("__q");
    let z_arr = ident_for("__z");
    let qd_arr = ident_for("__qd");

    // rhs: state [q, z]
    let mut b_state = base.clone();
    for (i, s) in syms.q.iter().enumerate() {
        let i = lit_usize(i);
        b_state.insert(*s, quote! { #s_arr[#i] });
    }
    for (i, s) in syms.z.iter().enumerate() {
        let i = lit_usize(nq + i);
        b_state.insert(*s, quote! { #s_arr[#i] });
    }
    let diagonal = (0..nz).all(|a| (0..nz).all(|b| a == b || g.is_zero(d.mass_matrix_g[a][b])));
    let mut outs: Vec<Id> = d.qdot.clone();
    outs.extend(d.forcing.iter().copied());
    if diagonal {
        outs.extend((0..nz).map(|a| d.mass_matrix_g[a][a]));
    } else {
        for a in 0..nz {
            for b in 0..nz {
                outs.push(d.mass_matrix_g[a][b]);
            }
        }
    }
    let (rhs_lets, rhs_out) = block(g, &outs, &b_state, "r");
    let qdot_assign = (0..nq).map(|i| {
        let e = &rhs_out[i];
        let i = lit_usize(i);
        quote! { __d[#i] = #e; }
    });
    let forcing = &rhs_out[nq..nq + nz];
    let solve = if diagonal {
        let assigns = (0..nz).map(|a| {
            let ga = &rhs_out[nq + nz + a];
            let fa = &forcing[a];
            let i = lit_usize(nq + a);
            quote! {
                let __ga: f64 = #ga;
                if !(__ga > 0.0) {
                    return ::core::result::Result::Err(::nonholo::Error::SingularMassMatrix { t, state: ::nonholo::__private::to_vec(state) });
                }
                __d[#i] = #fa / __ga;
            }
        });
        quote! { #(#assigns)* }
    } else {
        // G's independent blocks (e.g. the momenta and the lean of the unicycle) are solved
        // apart: 1x1 by division, 2x2 in closed form, larger ones by Cholesky.
        let gm = |a: usize, b: usize| &rhs_out[nq + nz + a * nz + b];
        let mut block_of: Vec<usize> = (0..nz).collect();
        fn root(p: &mut [usize], mut i: usize) -> usize {
            while p[i] != i {
                p[i] = p[p[i]];
                i = p[i];
            }
            i
        }
        for a in 0..nz {
            for b in 0..a {
                if !g.is_zero(d.mass_matrix_g[a][b]) {
                    let (ra, rb) = (root(&mut block_of, a), root(&mut block_of, b));
                    block_of[ra.max(rb)] = ra.min(rb);
                }
            }
        }
        let mut blocks: Vec<Vec<usize>> = Vec::new();
        for a in 0..nz {
            let r = root(&mut block_of, a);
            match blocks.iter_mut().find(|b| b[0] == r) {
                Some(b) => b.push(a),
                None => blocks.push(vec![a]),
            }
        }
        let singular = quote! {
            return ::core::result::Result::Err(::nonholo::Error::SingularMassMatrix { t, state: ::nonholo::__private::to_vec(state) });
        };
        let parts = blocks.iter().map(|blk| {
            let at = |a: usize| lit_usize(nq + a);
            if blk.iter().all(|a| g.is_zero(d.forcing[*a])) {
                // No forcing on these speeds: they are constant.
                let zs = blk.iter().map(|a| {
                    let i = at(*a);
                    quote! { __d[#i] = 0.0; }
                });
                return quote! { #(#zs)* };
            }
            match blk.as_slice() {
                [a] => {
                    let (ga, fa, i) = (gm(*a, *a), &forcing[*a], at(*a));
                    quote! {
                        let __ga: f64 = #ga;
                        if !(__ga > 0.0) { #singular }
                        __d[#i] = #fa / __ga;
                    }
                }
                [a, b] => {
                    let (gaa, gab, gbb) = (gm(*a, *a), gm(*a, *b), gm(*b, *b));
                    let (fa, fb, ia, ib) = (&forcing[*a], &forcing[*b], at(*a), at(*b));
                    quote! {
                        let (__gaa, __gab, __gbb): (f64, f64, f64) = (#gaa, #gab, #gbb);
                        let __det = __gaa * __gbb - __gab * __gab;
                        if !(__gaa > 0.0 && __det > 0.0) { #singular }
                        let (__fa, __fb): (f64, f64) = (#fa, #fb);
                        __d[#ia] = (__gbb * __fa - __gab * __fb) / __det;
                        __d[#ib] = (__gaa * __fb - __gab * __fa) / __det;
                    }
                }
                _ => {
                    let k = lit_usize(blk.len());
                    let rows = blk.iter().map(|a| {
                        let cols = blk.iter().map(|b| gm(*a, *b));
                        quote! { [#(#cols),*] }
                    });
                    let fs = blk.iter().map(|a| &forcing[*a]);
                    let assigns = blk.iter().enumerate().map(|(j, a)| {
                        let (i, j) = (at(*a), lit_usize(j));
                        quote! { __d[#i] = __zd[#j]; }
                    });
                    quote! {
                        {
                            let __g: [[f64; #k]; #k] = [#(#rows),*];
                            let __f: [f64; #k] = [#(#fs),*];
                            let ::core::option::Option::Some(__zd) = ::nonholo::linalg::solve_spd(&__g, &__f) else { #singular };
                            #(#assigns)*
                        }
                    }
                }
            }
        });
        quote! { #(#parts)* }
    };

    // rhs_jvp: the same outputs plus their directional derivatives
    let v_arr = ident_for("__v");
    let mut b_jvp = b_state.clone();
    bind_array(&mut b_jvp, &jvp.dirs, &v_arr);
    let mut jouts: Vec<Id> = jvp.dqdot.clone();
    for a in 0..nz {
        for b in 0..nz {
            jouts.push(d.mass_matrix_g[a][b]);
            jouts.push(jvp.dg[a][b]);
        }
    }
    jouts.extend(d.forcing.iter().copied());
    jouts.extend(jvp.dforcing.iter().copied());
    let (jvp_lets, jo) = block(g, &jouts, &b_jvp, "j");
    let dqdot_assign = (0..nq).map(|i| {
        let e = &jo[i];
        let i = lit_usize(i);
        quote! { __o[#i] = #e; }
    });
    let gm = |a: usize, b: usize| &jo[nq + 2 * (a * nz + b)];
    let dgm = |a: usize, b: usize| &jo[nq + 2 * (a * nz + b) + 1];
    let fo = &jo[nq + 2 * nz * nz..nq + 2 * nz * nz + nz];
    let dfo = &jo[nq + 2 * nz * nz + nz..];
    let g_rows = (0..nz).map(|a| {
        let cols = (0..nz).map(|b| gm(a, b));
        quote! { [#(#cols),*] }
    });
    let dg_rows = (0..nz).map(|a| {
        let cols = (0..nz).map(|b| dgm(a, b));
        quote! { [#(#cols),*] }
    });
    let dz_assign = (0..nz).map(|a| {
        let i = lit_usize(nq + a);
        let a = lit_usize(a);
        quote! { __o[#i] = __dz[#a]; }
    });
    let jvp_solve = quote! {
        let __g: [[f64; #nz_l]; #nz_l] = [#(#g_rows),*];
        let __dg: [[f64; #nz_l]; #nz_l] = [#(#dg_rows),*];
        let __f: [f64; #nz_l] = [#(#fo),*];
        let __df: [f64; #nz_l] = [#(#dfo),*];
        let ::core::option::Option::Some(__dz) = ::nonholo::__private::jvp_spd(&__g, &__f, &__dg, &__df) else {
            return ::core::result::Result::Err(::nonholo::Error::SingularMassMatrix { t, state: ::nonholo::__private::to_vec(state) });
        };
        #(#dz_assign)*
    };

    // power_balance and equation_terms (inherent methods)
    let mut b_pow = b_state.clone();
    for (k, s) in power.zdot.iter().enumerate() {
        let i = lit_usize(nq + k);
        b_pow.insert(*s, quote! { __dz[#i] });
    }
    let (pow_lets, pow_out) = block(g, &power.terms, &b_pow, "w");
    let term_names: Vec<&str> = d.terms.iter().map(|(n, _)| n.as_str()).collect();
    let nt = lit_usize(d.terms.len());
    let term_exprs: Vec<Id> = d
        .terms
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .collect();
    let (term_lets, term_out) = block(g, &term_exprs, &b_state, "u");
    let term_rows: Vec<TokenStream> = (0..d.terms.len())
        .map(|k| {
            let cols = &term_out[k * nz..(k + 1) * nz];
            quote! { [#(#cols),*] }
        })
        .collect();
    let terms_method = if d.terms.is_empty() {
        quote! {}
    } else {
        quote! {
            /// Names of the contributions returned by `equation_terms`.
            pub const EQUATION_TERMS: &'static [&'static str] = &[#(#term_names),*];

            /// The separate contributions to the equations at `(t, state)`, one row per
            /// name of `EQUATION_TERMS`, one entry per speed; they add up to `-forcing` of
            /// `G dz/dt = forcing` (for Boltzmann–Hamel: Talamucci's Q, Lambda, N of eq. 20,
            /// the explicit-time and potential terms, the constraint correction and the
            /// extra forces).
            pub fn equation_terms(&self, t: f64, state: &[f64]) -> ::core::result::Result<[[f64; #nz_l]; #nt], ::nonholo::Error> {
                let #s_arr: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
                #plets
                #term_lets
                ::core::result::Result::Ok([#(#term_rows),*])
            }
        }
    };
    let inherent = quote! {
        #[allow(unused_variables, unused_parens, non_snake_case, clippy::all, clippy::pedantic, clippy::nursery)]
        impl #name {
            /// The energy balance along the motion (Talamucci eq. 18 in Lagrangian form):
            /// `d/dt energy = F . qd - dL/dt|explicit + R . qd`. Returns the three powers
            /// `[F . qd, -dL/dt, R . qd]`, where R is the reaction implied by the derived
            /// accelerations (`R = A qdd + h - F`); R does no work unless the constraints
            /// or the speeds depend on time.
            pub fn power_balance(&self, t: f64, state: &[f64]) -> ::core::result::Result<[f64; 3], ::nonholo::Error> {
                let mut __dz = [0.0f64; #dim_l];
                <Self as ::nonholo::Model>::rhs(self, t, state, &mut __dz)?;
                let #s_arr: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
                #plets
                #pow_lets
                ::core::result::Result::Ok([#(#pow_out),*])
            }
            #terms_method
        }
    };

    // qdot(t, q, z)
    let mut b_qz = base.clone();
    bind_array(&mut b_qz, &syms.q, &q_arr);
    bind_array(&mut b_qz, &syms.z, &z_arr);
    let (qdot_lets, qdot_out) = block(g, &d.qdot, &b_qz, "v");
    let (energy_lets, energy_out) = block(g, &[d.energy], &b_state, "e");
    let energy_out = &energy_out[0];

    // constraint residual and state_from_qdot: q, qd
    let mut b_qqd = base.clone();
    bind_array(&mut b_qqd, &syms.q, &q_arr);
    bind_array(&mut b_qqd, &syms.qd, &qd_arr);
    let (c_lets, c_out) = block(g, &d.constraints, &b_qqd, "c");
    let c_assign = c_out.iter().enumerate().map(|(i, e)| {
        let i = lit_usize(i);
        quote! { __r[#i] = #e; }
    });

    let from_qdot = match &d.speeds_from_qdot {
        SpeedsFromQdot::Explicit(zs) => {
            let (zl, zo) = block(g, zs, &b_qqd, "z");
            let assigns = zo.iter().enumerate().map(|(i, e)| {
                let i = lit_usize(nq + i);
                quote! { __out[#i] = #e; }
            });
            quote! { #zl #(#assigns)* }
        }
        SpeedsFromQdot::Parametric { linear } => {
            let mut outs = d.qdot.clone();
            for row in &d.psi_z {
                outs.extend(row.iter().copied());
            }
            for row in &d.mass_matrix_a {
                outs.extend(row.iter().copied());
            }
            let (pl, po) = block(g, &outs, &b_qz, "p");
            let psi = &po[..nq];
            let psi_z_rows = (0..nq).map(|i| {
                let cols = &po[nq + i * nz..nq + (i + 1) * nz];
                quote! { [#(#cols),*] }
            });
            let a_rows = (0..nq).map(|i| {
                let cols = &po[nq + nq * nz + i * nq..nq + nq * nz + (i + 1) * nq];
                quote! { [#(#cols),*] }
            });
            quote! {
                let __eval = |__z: &[f64; #nz_l]| -> ([f64; #nq_l], [[f64; #nz_l]; #nq_l], [[f64; #nq_l]; #nq_l]) {
                    #pl
                    ([#(#psi),*], [#(#psi_z_rows),*], [#(#a_rows),*])
                };
                let ::core::option::Option::Some(__zs) = ::nonholo::__private::gauss_newton(__eval, __qd, #linear) else {
                    return ::core::result::Result::Err(::nonholo::Error::NoSpeeds {
                        reason: "Gauss-Newton on psi(q, z, t) = dot(q) did not converge",
                        t,
                        state: ::nonholo::__private::concat(q, qdot),
                    });
                };
                for (__i, __v) in __zs.iter().enumerate() {
                    __out[#nq_l + __i] = *__v;
                }
            }
        }
    };

    quote! {
        #header
        #inherent

        #[allow(unused_variables, unused_parens, non_snake_case, clippy::all, clippy::pedantic, clippy::nursery)]
        impl ::nonholo::Model for #name {
            const COORDINATES: &'static [&'static str] = &[#(#coord_names),*];
            const SPEEDS: &'static [&'static str] = &[#(#speed_names),*];
            const PARAMETERS: &'static [&'static str] = &[#(#param_names),*];
            const CONSTRAINTS: &'static [&'static str] = &[#(#constraint_texts),*];
            const NQ: usize = #nq_l;
            const NZ: usize = #nz_l;
            const NC: usize = #nc_l;
            const DIM: usize = #dim_l;
            const FORMULATION: ::nonholo::Formulation = #formulation;
            const EQUATIONS: &'static str = #equations;
            type State = [f64; #dim_l];
            const ZERO_STATE: Self::State = [0.0; #dim_l];

            fn parameters(&self) -> ::nonholo::__private::Vec<f64> {
                ::nonholo::__private::to_vec(&[#(self.#param_fields),*])
            }

            fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                let #s_arr: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
                let __d: &mut [f64; #dim_l] = ::nonholo::__private::as_array_mut(dstate, "dstate")?;
                #plets
                #rhs_lets
                #(#qdot_assign)*
                #solve
                if !__d.iter().all(|__v| __v.is_finite()) {
                    return ::core::result::Result::Err(::nonholo::Error::NonFinite { what: "dstate", t, state: ::nonholo::__private::to_vec(state) });
                }
                ::core::result::Result::Ok(())
            }

            fn rhs_jvp(&self, t: f64, state: &[f64], v: &[f64], out: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                let #s_arr: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
                let #v_arr: &[f64; #dim_l] = ::nonholo::__private::as_array(v, "v")?;
                let __o: &mut [f64; #dim_l] = ::nonholo::__private::as_array_mut(out, "out")?;
                #plets
                #jvp_lets
                #(#dqdot_assign)*
                #jvp_solve
                if !__o.iter().all(|__x| __x.is_finite()) {
                    return ::core::result::Result::Err(::nonholo::Error::NonFinite { what: "rhs_jvp", t, state: ::nonholo::__private::to_vec(state) });
                }
                ::core::result::Result::Ok(())
            }

            fn qdot(&self, t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                let #q_arr: &[f64; #nq_l] = ::nonholo::__private::as_array(q, "q")?;
                let #z_arr: &[f64; #nz_l] = ::nonholo::__private::as_array(z, "z")?;
                let __v: &mut [f64; #nq_l] = ::nonholo::__private::as_array_mut(qdot, "qdot")?;
                #plets
                #qdot_lets
                *__v = [#(#qdot_out),*];
                ::core::result::Result::Ok(())
            }

            fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> ::core::result::Result<Self::State, ::nonholo::Error> {
                let #q_arr: &[f64; #nq_l] = ::nonholo::__private::as_array(q, "q")?;
                let #qd_arr: &[f64; #nq_l] = ::nonholo::__private::as_array(qdot, "qdot")?;
                ::nonholo::check_velocities(self, t, q, qdot, 1e-8)?;
                #plets
                let mut __out = [0.0f64; #dim_l];
                __out[..#nq_l].copy_from_slice(__q);
                #from_qdot
                ::core::result::Result::Ok(__out)
            }

            fn energy(&self, t: f64, state: &[f64]) -> ::core::result::Result<f64, ::nonholo::Error> {
                let #s_arr: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
                #plets
                #energy_lets
                ::core::result::Result::Ok(#energy_out)
            }

            fn constraint_residual(&self, t: f64, q: &[f64], qdot: &[f64], residual: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                let #q_arr: &[f64; #nq_l] = ::nonholo::__private::as_array(q, "q")?;
                let #qd_arr: &[f64; #nq_l] = ::nonholo::__private::as_array(qdot, "qdot")?;
                let __r: &mut [f64; #nc_l] = ::nonholo::__private::as_array_mut(residual, "residual")?;
                #plets
                #c_lets
                #(#c_assign)*
                ::core::result::Result::Ok(())
            }
        }
    }
}

/// The struct with one `pub f64` field per parameter, `new`, `with_*` setters and
/// `Default` when every parameter has a default.
pub fn emit_struct(m: &Checked, defaults: &[Option<Number>]) -> TokenStream {
    let name = &m.name;
    let vis = &m.vis;
    let attrs = &m.attrs;
    let fields = m.params.iter().map(|(p, _)| {
        let doc = format!("Parameter `{p}`.");
        quote! { #[doc = #doc] pub #p: f64 }
    });
    let required: Vec<&syn::Ident> = m
        .params
        .iter()
        .zip(defaults)
        .filter(|(_, d)| d.is_none())
        .map(|((p, _), _)| p)
        .collect();
    let inits = m.params.iter().zip(defaults).map(|((p, _), d)| match d {
        None => quote! { #p },
        Some(v) => {
            let l = lit(*v);
            quote! { #p: #l }
        }
    });
    let defaults_doc: Vec<String> = m
        .params
        .iter()
        .zip(defaults)
        .filter_map(|((p, _), d)| d.map(|v| format!("`{p} = {}`", v.to_f64())))
        .collect();
    let new_doc = if defaults_doc.is_empty() {
        "Creates the model from its parameters.".to_string()
    } else {
        format!("Creates the model; defaults: {}.", defaults_doc.join(", "))
    };
    let setters = m.params.iter().map(|(p, _)| {
        let f = format_ident!("with_{}", p);
        let doc = format!("Returns the model with parameter `{p}` set.");
        quote! {
            #[doc = #doc]
            #[must_use]
            pub fn #f(mut self, #p: f64) -> Self { self.#p = #p; self }
        }
    });
    let default_impl = if required.is_empty() {
        quote! {
            impl ::core::default::Default for #name {
                fn default() -> Self { Self::new() }
            }
        }
    } else {
        quote! {}
    };
    quote! {
        #(#attrs)*
        #[allow(non_snake_case)]
        #vis struct #name { #(#fields),* }

        #[allow(non_snake_case, clippy::too_many_arguments, clippy::new_without_default)]
        impl #name {
            #[doc = #new_doc]
            pub fn new(#(#required: f64),*) -> Self { Self { #(#inits),* } }
            #(#setters)*
        }

        #default_impl
    }
}

/// Code for Benenti's second method: state `[q, dot(q)]`, the multipliers solved at run
/// time, plus inherent `multipliers` and `reaction_forces` methods.
pub fn emit_multipliers(
    m: &Checked,
    g: &Graph,
    syms: &Symbols,
    d: &crate::mechanics::multipliers::MultiplierTerms,
    jvp: &crate::mechanics::jacobian::MultiplierJvp,
    defaults: &[Option<Number>],
) -> TokenStream {
    let name = &m.name;
    let nq = syms.q.len();
    let nc = d.constraints.len();
    let dim = 2 * nq;
    let (nq_l, nc_l, dim_l) = (lit_usize(nq), lit_usize(nc), lit_usize(dim));
    let header = emit_struct(m, defaults);
    let coord_names: Vec<String> = m.coords.iter().map(|c| c.to_string()).collect();
    let speed_names: Vec<String> = m.coords.iter().map(|c| format!("dot({c})")).collect();
    let param_names: Vec<String> = m.params.iter().map(|(p, _)| p.to_string()).collect();
    let constraint_texts: Vec<String> = m.constraints.iter().map(|c| c.text.clone()).collect();
    let equations = &d.equations;
    let param_fields: Vec<&syn::Ident> = m.params.iter().map(|(p, _)| p).collect();
    let (base, plets) = param_bindings(m, syms);
    let q_arr = ident_for("__q");
    let qd_arr = ident_for("__qd");
    let mut b = base.clone();
    bind_array(&mut b, &syms.q, &q_arr);
    bind_array(&mut b, &syms.qd, &qd_arr);

    // A, L, C_qd, drift
    let mut outs: Vec<Id> = Vec::new();
    for row in &d.mass_matrix_a {
        outs.extend(row.iter().copied());
    }
    outs.extend(d.lagrange_l.iter().copied());
    for row in &d.constraint_jacobian {
        outs.extend(row.iter().copied());
    }
    outs.extend(d.drift.iter().copied());
    let (lets, o) = block(g, &outs, &b, "m");
    let a_rows = (0..nq).map(|i| {
        let cols = &o[i * nq..(i + 1) * nq];
        quote! { [#(#cols),*] }
    });
    let l = &o[nq * nq..nq * nq + nq];
    let c0 = nq * nq + nq;
    let c_rows = (0..nc).map(|k| {
        let cols = &o[c0 + k * nq..c0 + (k + 1) * nq];
        quote! { [#(#cols),*] }
    });
    let drift = &o[c0 + nc * nq..];
    let solve_body = quote! {
        #plets
        #lets
        let __a: [[f64; #nq_l]; #nq_l] = [#(#a_rows),*];
        let __l: [f64; #nq_l] = [#(#l),*];
        let __c: [[f64; #nq_l]; #nc_l] = [#(#c_rows),*];
        let __drift: [f64; #nc_l] = [#(#drift),*];
        ::nonholo::__private::multipliers(&__a, &__l, &__c, &__drift)
    };
    let (e_lets, e_out) = block(g, &[d.energy], &b, "e");
    let e_out = &e_out[0];
    let (c_lets, c_out) = block(g, &d.constraints, &b, "c");
    let c_assign = c_out.iter().enumerate().map(|(i, e)| {
        let i = lit_usize(i);
        quote! { __r[#i] = #e; }
    });
    // rhs_jvp: A, L, C, drift and their directional derivatives along v = (dq, dqd)
    let v_arr = ident_for("__v");
    let mut bj = b.clone();
    bind_array(&mut bj, &jvp.dirs, &v_arr);
    let mut jouts: Vec<Id> = outs.clone();
    for row in &jvp.da {
        jouts.extend(row.iter().copied());
    }
    jouts.extend(jvp.dl.iter().copied());
    for row in &jvp.dc {
        jouts.extend(row.iter().copied());
    }
    jouts.extend(jvp.ddrift.iter().copied());
    let (jl, jo) = block(g, &jouts, &bj, "k");
    let base_len = outs.len();
    let mat = |o: &[TokenStream], off: usize, rows: usize| -> Vec<TokenStream> {
        (0..rows)
            .map(|r| {
                let cols = &o[off + r * nq..off + (r + 1) * nq];
                quote! { [#(#cols),*] }
            })
            .collect()
    };
    let ja = mat(&jo, 0, nq);
    let jl_ = &jo[nq * nq..nq * nq + nq];
    let jc = mat(&jo, c0, nc);
    let jdrift = &jo[c0 + nc * nq..base_len];
    let jda = mat(&jo, base_len, nq);
    let jdl = &jo[base_len + nq * nq..base_len + nq * nq + nq];
    let jdc = mat(&jo, base_len + nq * nq + nq, nc);
    let jddrift = &jo[base_len + nq * nq + nq + nc * nq..];
    let jac: Vec<Id> = d.constraint_jacobian.iter().flatten().copied().collect();
    let (j_lets, j_out) = block(g, &jac, &b, "j");
    let j_rows: Vec<TokenStream> = (0..nc)
        .map(|k| {
            let cols = &j_out[k * nq..(k + 1) * nq];
            quote! { [#(#cols),*] }
        })
        .collect();

    quote! {
        #header

        #[allow(unused_variables, unused_parens, non_snake_case, clippy::all, clippy::pedantic, clippy::nursery)]
        impl #name {
            /// `(qdd, lambda)` at `(q, dot(q))`: Benenti's eqs. 8.6 and 8.12.
            fn __second_method(&self, t: f64, #q_arr: &[f64; #nq_l], #qd_arr: &[f64; #nq_l]) -> ::core::option::Option<([f64; #nq_l], [f64; #nc_l])> {
                #solve_body
            }

            /// The Lagrange multipliers `lambda_a` at `(q, dot(q))` (Benenti's eq. 8.6, with
            /// `A qdd + h = F + C_qd^T lambda`).
            pub fn multipliers(&self, t: f64, q: &[f64], qdot: &[f64]) -> ::core::result::Result<[f64; #nc_l], ::nonholo::Error> {
                let __q: &[f64; #nq_l] = ::nonholo::__private::as_array(q, "q")?;
                let __qd: &[f64; #nq_l] = ::nonholo::__private::as_array(qdot, "qdot")?;
                match self.__second_method(t, __q, __qd) {
                    ::core::option::Option::Some((_, __lambda)) => ::core::result::Result::Ok(__lambda),
                    ::core::option::Option::None => ::core::result::Result::Err(::nonholo::Error::SingularMassMatrix { t, state: ::nonholo::__private::concat(q, qdot) }),
                }
            }

            /// The Lagrangian reaction forces `R_i = lambda_a dC^a/d dot(q)_i` (Benenti's
            /// eqs. 3.11 and 8.13) that keep the constraints at `(q, dot(q))`.
            pub fn reaction_forces(&self, t: f64, q: &[f64], qdot: &[f64]) -> ::core::result::Result<[f64; #nq_l], ::nonholo::Error> {
                let __lambda = self.multipliers(t, q, qdot)?;
                let __q: &[f64; #nq_l] = ::nonholo::__private::as_array(q, "q")?;
                let __qd: &[f64; #nq_l] = ::nonholo::__private::as_array(qdot, "qdot")?;
                let __jac: [[f64; #nq_l]; #nc_l] = {
                    #plets
                    #j_lets
                    [#(#j_rows),*]
                };
                let mut __r = [0.0f64; #nq_l];
                for (__a, __row) in __jac.iter().enumerate() {
                    for (__i, __v) in __row.iter().enumerate() {
                        __r[__i] += __lambda[__a] * __v;
                    }
                }
                ::core::result::Result::Ok(__r)
            }
        }

        #[allow(unused_variables, unused_parens, non_snake_case, clippy::all, clippy::pedantic, clippy::nursery)]
        impl ::nonholo::Model for #name {
            const COORDINATES: &'static [&'static str] = &[#(#coord_names),*];
            const SPEEDS: &'static [&'static str] = &[#(#speed_names),*];
            const PARAMETERS: &'static [&'static str] = &[#(#param_names),*];
            const CONSTRAINTS: &'static [&'static str] = &[#(#constraint_texts),*];
            const NQ: usize = #nq_l;
            const NZ: usize = #nq_l;
            const NC: usize = #nc_l;
            const DIM: usize = #dim_l;
            const FORMULATION: ::nonholo::Formulation = ::nonholo::Formulation::Multipliers;
            const EQUATIONS: &'static str = #equations;
            type State = [f64; #dim_l];
            const ZERO_STATE: Self::State = [0.0; #dim_l];

            fn parameters(&self) -> ::nonholo::__private::Vec<f64> {
                ::nonholo::__private::to_vec(&[#(self.#param_fields),*])
            }

            fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                let __s: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
                let __d: &mut [f64; #dim_l] = ::nonholo::__private::as_array_mut(dstate, "dstate")?;
                let mut __q = [0.0f64; #nq_l];
                let mut __qd = [0.0f64; #nq_l];
                __q.copy_from_slice(&__s[..#nq_l]);
                __qd.copy_from_slice(&__s[#nq_l..]);
                let ::core::option::Option::Some((__qdd, _)) = self.__second_method(t, &__q, &__qd) else {
                    return ::core::result::Result::Err(::nonholo::Error::SingularMassMatrix { t, state: ::nonholo::__private::to_vec(state) });
                };
                __d[..#nq_l].copy_from_slice(&__qd);
                __d[#nq_l..].copy_from_slice(&__qdd);
                if !__d.iter().all(|__v| __v.is_finite()) {
                    return ::core::result::Result::Err(::nonholo::Error::NonFinite { what: "dstate", t, state: ::nonholo::__private::to_vec(state) });
                }
                ::core::result::Result::Ok(())
            }

            fn rhs_jvp(&self, t: f64, state: &[f64], v: &[f64], out: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                let __s: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
                let #v_arr: &[f64; #dim_l] = ::nonholo::__private::as_array(v, "v")?;
                let __o: &mut [f64; #dim_l] = ::nonholo::__private::as_array_mut(out, "out")?;
                let mut __q = [0.0f64; #nq_l];
                let mut __qd = [0.0f64; #nq_l];
                __q.copy_from_slice(&__s[..#nq_l]);
                __qd.copy_from_slice(&__s[#nq_l..]);
                #plets
                #jl
                let __a: [[f64; #nq_l]; #nq_l] = [#(#ja),*];
                let __l: [f64; #nq_l] = [#(#jl_),*];
                let __c: [[f64; #nq_l]; #nc_l] = [#(#jc),*];
                let __drift: [f64; #nc_l] = [#(#jdrift),*];
                let __da: [[f64; #nq_l]; #nq_l] = [#(#jda),*];
                let __dl: [f64; #nq_l] = [#(#jdl),*];
                let __dc: [[f64; #nq_l]; #nc_l] = [#(#jdc),*];
                let __ddrift: [f64; #nc_l] = [#(#jddrift),*];
                let ::core::option::Option::Some(__dqdd) = ::nonholo::__private::multipliers_jvp(&__a, &__l, &__c, &__drift, &__da, &__dl, &__dc, &__ddrift) else {
                    return ::core::result::Result::Err(::nonholo::Error::SingularMassMatrix { t, state: ::nonholo::__private::to_vec(state) });
                };
                __o[..#nq_l].copy_from_slice(&__v[#nq_l..]);
                __o[#nq_l..].copy_from_slice(&__dqdd);
                ::core::result::Result::Ok(())
            }

            fn qdot(&self, t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                let _: &[f64; #nq_l] = ::nonholo::__private::as_array(q, "q")?;
                let __z: &[f64; #nq_l] = ::nonholo::__private::as_array(z, "z")?;
                let __v: &mut [f64; #nq_l] = ::nonholo::__private::as_array_mut(qdot, "qdot")?;
                *__v = *__z;
                ::core::result::Result::Ok(())
            }

            fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> ::core::result::Result<Self::State, ::nonholo::Error> {
                let __q: &[f64; #nq_l] = ::nonholo::__private::as_array(q, "q")?;
                let __qd: &[f64; #nq_l] = ::nonholo::__private::as_array(qdot, "qdot")?;
                ::nonholo::check_velocities(self, t, q, qdot, 1e-8)?;
                let mut __out = [0.0f64; #dim_l];
                __out[..#nq_l].copy_from_slice(__q);
                __out[#nq_l..].copy_from_slice(__qd);
                ::core::result::Result::Ok(__out)
            }

            fn energy(&self, t: f64, state: &[f64]) -> ::core::result::Result<f64, ::nonholo::Error> {
                let __s: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
                let mut __q = [0.0f64; #nq_l];
                let mut __qd = [0.0f64; #nq_l];
                __q.copy_from_slice(&__s[..#nq_l]);
                __qd.copy_from_slice(&__s[#nq_l..]);
                #plets
                #e_lets
                ::core::result::Result::Ok(#e_out)
            }

            fn constraint_residual(&self, t: f64, q: &[f64], qdot: &[f64], residual: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                let #q_arr: &[f64; #nq_l] = ::nonholo::__private::as_array(q, "q")?;
                let #qd_arr: &[f64; #nq_l] = ::nonholo::__private::as_array(qdot, "qdot")?;
                let __r: &mut [f64; #nc_l] = ::nonholo::__private::as_array_mut(residual, "residual")?;
                #plets
                #c_lets
                #(#c_assign)*
                ::core::result::Result::Ok(())
            }
        }
    }
}
