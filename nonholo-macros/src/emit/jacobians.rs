//! `Model::jacobians` of the first-method formulations in closed form: forward mode over
//! the rhs's program, G's blocks differentiated, and for trees the residual of inverse
//! dynamics with `-G^-1` by the articulated-body algorithm's passes.

use super::bindings::input_prologue;
use super::code::{lit_usize, singular_mass_matrix};
use super::g_blocks::{block_plan, BlockSolve};
use super::render::{Bindings, Num};
use super::tangent::{block_with_tangents, Extra, WithTangents};
use crate::check::Checked;
use crate::mechanics::first_method::FirstMethod;
use crate::mechanics::recursive::port_frame::TreeTangents;
use crate::model::{Jacobians, Lowered};
use crate::sym::Id;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The most operations the closed-form Jacobian's block may have: past it `jacobians`
/// keeps one dual-number pass per column, whose code is the rhs's. The tangents grow as the
/// rhs times the columns, and rustc's time on one straight-line function faster still.
/// Measured in release: the bicycle's 19 500 operations add 5.8 s to its build, a
/// 12-link rigid chain's 90 000 (the residual's forward mode) three minutes; with the
/// links by their composites its closed form has 18 300 and a 24-link chain's 36 600.
const JACOBIAN_OPS: usize = 50_000;

#[cfg(test)]
thread_local! {
    /// A lower [`JACOBIAN_OPS`] for the tests of this thread.
    pub static TEST_JACOBIAN_OPS: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// `Model::jacobians` in closed form: `a = d(dx/dt)/dx` and `b = d(dx/dt)/du` by forward
/// mode over the rhs's own program ([`block_with_tangents`]), every column at once and
/// only its structurally nonzero entries. The speeds G solves for follow from
/// differentiating `G dz/dt = forcing`: `G d(dz/dt) = d forcing - dG dz/dt`, one
/// factorization of each block of G for every column. Where the articulated-body
/// algorithm gives `dz/dt`, the residual of inverse dynamics `r(q, z, zdot)` (recursive
/// Newton–Euler) is differentiated at `zdot` held instead, and `d(dz/dt)/dx = -G^-1
/// dr/dx` solved column by column through the algorithm's own articulated inertias
/// ([`residual_solve`]): no tangent of an articulated inertia is ever formed. The links'
/// share of `dr/dx` comes from their subtrees' composites in each port's frame
/// ([`crate::mechanics::recursive::port_frame`]: terms linear in the joints, assembled by
/// the runtime's `tree_tangents` loop) wherever that costs less than forward mode through
/// recursive Newton–Euler, which a small arm's links keep. `None` under
/// `jacobians = dual;`, and where the block would pass [`JACOBIAN_OPS`] unless the model
/// says `jacobians = closed_form;`.
pub(super) fn jacobians(
    m: &Checked,
    low: &Lowered,
    d: &FirstMethod,
    b_state: &Bindings,
) -> Option<(TokenStream, Vec<(usize, usize)>)> {
    if m.jacobians == Jacobians::Dual {
        return None;
    }
    let g = &low.graph;
    let syms = &low.syms;
    let (nq, nz, nu) = (syms.q.len(), syms.z.len(), syms.inputs.len());
    let dim = nq + nz;
    let seeds: Vec<u32> = syms
        .q
        .iter()
        .chain(&syms.z)
        .chain(&syms.inputs)
        .copied()
        .collect();
    // the outputs, and for G's route which of them are which
    let mut outputs: Vec<Id> = d.qdot.clone();
    let mut values: Vec<Id> = Vec::new();
    let mut held: Vec<(u32, Id)> = Vec::new();
    let mut inner: &[u32] = &[];
    let mut b_state = b_state.clone();
    let blocks = match &d.recursive {
        // inverse dynamics' residual differentiated at dz/dt held, G^-1 by the passes
        Some(rec) => {
            values.extend(&rec.pivots);
            values.extend(&rec.solve.1);
            held.extend(
                rec.zdot
                    .iter()
                    .copied()
                    .zip(rec.accelerations.iter().copied()),
            );
            outputs.extend(&rec.residual);
            inner = &rec.solve.0;
            for (k, b) in inner.iter().enumerate() {
                let k = lit_usize(k);
                b_state.insert(*b, quote! { __jb[#k] });
            }
            None
        }
        None => {
            let diagonal = d.mass_matrix_g.is_diagonal(g);
            // the explicit speeds' rows, by speed
            let mut explicit_at = vec![usize::MAX; nz];
            for (a, e) in d.explicit.iter().enumerate() {
                if let Some(e) = e {
                    explicit_at[a] = outputs.len();
                    outputs.push(*e);
                }
            }
            let forcing_at = outputs.len();
            outputs.extend(&d.forcing_rest);
            let g_at = outputs.len();
            outputs.extend(&d.mass_matrix_g.e);
            Some((block_plan(g, d, diagonal), explicit_at, forcing_at, g_at))
        }
    };
    #[cfg(test)]
    let limit = TEST_JACOBIAN_OPS.with(|l| l.get()).unwrap_or(JACOBIAN_OPS);
    #[cfg(not(test))]
    let limit = JACOBIAN_OPS;
    let limit = if m.jacobians == Jacobians::ClosedForm {
        usize::MAX
    } else {
        limit
    };
    let block = |outputs: &[Id], values: &[Id], limit: usize| {
        let extra = Extra {
            values,
            held: &held,
            inner,
        };
        block_with_tangents(
            g,
            (outputs, &extra),
            &seeds,
            &b_state,
            ("j", Num::F64),
            limit,
        )
    };
    // a tree's links by their composites where that costs less than the residual's own
    // tangents (the composites' terms are linear in the joints, their products quadratic)
    let mut tree = d.recursive.as_ref().and_then(|r| r.tangents.as_ref());
    let mut by_tree = None;
    if let Some(t) = tree {
        let mut t_outputs = outputs[..nq].to_vec();
        t_outputs.extend(t.outputs());
        let mut t_values = values.clone();
        t_values.extend(t.values());
        if let Ok(wt) = block(&t_outputs, &t_values, limit) {
            // the residual's own tangents where they cost less (the assembly's loops run
            // in about 3/10 the time of as many straight-line operations)
            let cost = wt.ops.1 + t.assembly_cost() * 3 / 10;
            by_tree = Some(wt).filter(|_| block(&outputs, &values, cost).is_err());
        }
    }
    let w = match by_tree {
        Some(w) => Ok(w),
        None => {
            tree = None;
            block(&outputs, &values, limit)
        }
    };
    #[cfg(test)]
    if std::env::var("NONHOLO_JACOBIAN_OPS").is_ok() {
        let ops = w.as_ref().map_or_else(|e| *e, |w| w.ops);
        eprintln!(
            "jacobian ops of {}: {} primal, {} with the tangents ({})",
            m.name,
            ops.0,
            ops.1,
            match (&d.recursive, tree) {
                (Some(_), Some(t)) => format!(
                    "inverse dynamics' residual, the links by their composites (+{} assembling)",
                    t.assembly_cost()
                ),
                (Some(_), None) => "inverse dynamics' residual".to_string(),
                (None, _) => "G".to_string(),
            }
        );
    }
    let w = w.ok()?;
    // d(dx_i/dt)/d(column) = e; every entry written is in the structural pattern (the
    // rest stay zero)
    let pattern = core::cell::RefCell::new(Vec::new());
    let assign = |i: usize, col: usize, e: &TokenStream| {
        pattern.borrow_mut().push((i, col));
        if col < dim {
            let k = lit_usize(i * dim + col);
            quote! { __a[#k] = #e; }
        } else {
            let k = lit_usize(i * nu + col - dim);
            quote! { __b[#k] = #e; }
        }
    };
    let mut body = Vec::new();
    for i in 0..nq {
        for (col, e) in &w.tangents[i] {
            body.push(assign(i, *col, e));
        }
    }
    match blocks {
        None => {
            let np = d.recursive.as_ref().map_or(0, |r| r.pivots.len());
            // the outputs: qdot, the residual (or its rest), the ports' motions
            let out_n = nq + nz + tree.map_or(0, |t| t.motions());
            let pivots = &w.values[out_n..out_n + np];
            body.push(quote! { let __pd = true #( & (#pivots > 0.0) )*; });
            let (solve, cols) = residual_solve(&w, (nq, nz, nu), (out_n, np), tree);
            body.push(solve);
            // the solve writes every speed's row in each column the residual depends on
            let mut written = pattern.borrow_mut();
            written.extend((0..nz).flat_map(|k| cols.iter().map(move |c| (nq + k, *c))));
        }
        Some((blocks, explicit_at, forcing_at, g_at)) => {
            body.push(quote! { let __pd = true; });
            for a in (0..nz).filter(|a| d.explicit[*a].is_some()) {
                for (col, e) in &w.tangents[explicit_at[a]] {
                    body.push(assign(nq + a, *col, e));
                }
            }
            let rows = (forcing_at, g_at);
            // constant speeds have no tangent, closed forms theirs above
            for (n, (blk, _)) in blocks
                .iter()
                .enumerate()
                .filter(|(_, (_, how))| *how == BlockSolve::Solved)
            {
                body.extend(block_tangents(d, &w, (n, blk), rows, &assign));
            }
        }
    }
    let prologue = input_prologue(m, Num::F64, true);
    let lets = &w.lets;
    let (dim_l, aa, bb) = (lit_usize(dim), lit_usize(dim * dim), lit_usize(dim * nu));
    let mut pattern = pattern.into_inner();
    pattern.sort_unstable();
    pattern.dedup();
    let body = quote! {
        let __s: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
        // before the prologue, whose parameters may be called `a` or `b`
        let __a: &mut [f64; #aa] = ::nonholo::__private::as_array_mut(a, "jacobian a (DIM x DIM)")?;
        let __b: &mut [f64; #bb] = ::nonholo::__private::as_array_mut(b, "jacobian b (DIM x NU)")?;
        #prologue
        *__a = [0.0; #aa];
        *__b = [0.0; #bb];
        #lets
        #(#body)*
        if !__pd {
            return ::core::result::Result::Err(::nonholo::Error::SingularMassMatrix { t, state: ::nonholo::__private::to_vec(state) });
        }
        if !(::nonholo::__private::all_finite(__a) & ::nonholo::__private::all_finite(__b)) {
            return ::core::result::Result::Err(::nonholo::Error::NonFinite { what: "jacobians", t, state: ::nonholo::__private::to_vec(state) });
        }
        ::core::result::Result::Ok(())
    };
    Some((body, pattern))
}

/// `d(dz/dt)/dx = -G^-1 dr/dx` for every column `x` the residual `r` (outputs `nq..nq +
/// nz` of `w`) depends on: the columns' `-dr/dx` straight-line, then one loop over them
/// through a closure holding the passes of `G^-1 b` (its `let`s `w.inner_lets`, its
/// values `w.values[nq + nz + np..]`), so that the solve is written [`LANES`] times, not
/// once per column.
fn residual_solve(
    w: &WithTangents,
    (nq, nz, nu): (usize, usize, usize),
    (out_n, np): (usize, usize),
    tree: Option<&TreeTangents>,
) -> (TokenStream, Vec<usize>) {
    let dim = nq + nz;
    let mut cols: Vec<usize> = w.tangents[nq..out_n]
        .iter()
        .flat_map(|t| t.iter().map(|(c, _)| *c))
        .collect();
    if let Some(t) = tree {
        cols.extend(t.joints.iter().flat_map(|j| [j.coord, nq + j.speed]));
    }
    cols.sort_unstable();
    cols.dedup();
    #[cfg(test)]
    if std::env::var("NONHOLO_JACOBIAN_OPS").is_ok() {
        eprintln!("residual columns {cols:?}");
    }
    if cols.is_empty() {
        return (TokenStream::new(), cols);
    }
    let rows = cols.iter().map(|c| {
        let r = (0..nz).map(|k| {
            w.tangents[nq + k]
                .iter()
                .find(|(col, _)| col == c)
                .map_or_else(|| quote! { 0.0 }, |(_, e)| quote! { -(#e) })
        });
        quote! { [#(#r),*] }
    });
    let (nz_l, nq_l, dim_l) = (lit_usize(nz), lit_usize(nq), lit_usize(dim));
    let inner_lets = &w.inner_lets;
    let ys = &w.values[out_n + np..out_n + np + nz];
    let tree = tree.map(|t| tree_call(w, t, (nq, nz), out_n + np + nz, &cols));
    let to_b = if nu > 0 {
        let nu_l = lit_usize(nu);
        quote! { __b[(#nq_l + __k) * #nu_l + __c - #dim_l] = __v; }
    } else {
        quote! {}
    };
    // LANES columns per call, as many independent copies of the passes, which LLVM
    // interleaves (and pairs into vector instructions); the last call padded
    let pad = (LANES - cols.len() % LANES) % LANES;
    let (np_l, lanes_l) = (lit_usize(cols.len() + pad), lit_usize(LANES));
    let col_lits = cols
        .iter()
        .map(|c| {
            let c = lit_usize(*c);
            quote! { #c }
        })
        .chain((0..pad).map(|_| quote! { usize::MAX }));
    let rows = rows.chain((0..pad).map(|_| quote! { [0.0; #nz_l] }));
    let copies = (0..LANES).map(|l| {
        let (y, l) = (format_ident!("__y{}", l), lit_usize(l));
        quote! { let #y: [f64; #nz_l] = { let __jb = __jbs[#l]; #inner_lets [#(#ys),*] }; }
    });
    let interleaved = (0..nz).map(|k| {
        let k = lit_usize(k);
        let ls = (0..LANES).map(|l| format_ident!("__y{}", l));
        quote! { [#(#ls[#k]),*] }
    });
    let lanes = (0..LANES).map(|l| {
        let l = lit_usize(l);
        quote! { &__dr[__p * #lanes_l + #l] }
    });
    let dr = match tree {
        Some(call) => quote! {
            let mut __dr: [[f64; #nz_l]; #np_l] = [#(#rows),*];
            #call
        },
        None => quote! { let __dr: [[f64; #nz_l]; #np_l] = [#(#rows),*]; },
    };
    let solve = quote! {
        let __cols: [usize; #np_l] = [#(#col_lits),*];
        #dr
        let __solve = |__jbs: [&[f64; #nz_l]; #lanes_l]| -> [[f64; #lanes_l]; #nz_l] {
            #(#copies)*
            [#(#interleaved),*]
        };
        for __p in 0..#np_l / #lanes_l {
            let __x = __solve([#(#lanes),*]);
            for __l in 0..#lanes_l {
                let __c = __cols[__p * #lanes_l + __l];
                if __c == usize::MAX {
                    continue;
                }
                for __k in 0..#nz_l {
                    let __v = __x[__k][__l];
                    if __c < #dim_l {
                        __a[(#nq_l + __k) * #dim_l + __c] = __v;
                    } else {
                        #to_b
                    }
                }
            }
        }
    };
    (solve, cols)
}

/// The links' share of `-dr/dx` from their composites (the runtime's `tree_tangents`):
/// the joints' table, their terms (the values of `w` from `at`, in
/// [`TreeTangents::values`]' order), the
/// root columns' `d nu/dx`, `d a_0/dx` and `d s/dx` (the tangents of the ports' motions,
/// outputs `nq + nz..`), each column by its place in `cols`.
fn tree_call(
    w: &WithTangents,
    t: &TreeTangents,
    (nq, nz): (usize, usize),
    at: usize,
    cols: &[usize],
) -> TokenStream {
    use crate::mechanics::recursive::port_frame::TERMS;
    let place = |c: usize| -> TokenStream {
        match cols.iter().position(|x| *x == c) {
            Some(p) => {
                let p = lit_usize(p);
                quote! { #p }
            }
            None => quote! { usize::MAX },
        }
    };
    let joints = t.joints.iter().map(|j| {
        let parent = match j.parent {
            Some(p) => {
                let p = lit_usize(p);
                quote! { #p }
            }
            None => quote! { usize::MAX },
        };
        let (port, row) = (lit_usize(j.port), lit_usize(j.speed));
        let (qc, zc) = (place(j.coord), place(nq + j.speed));
        quote! { (#parent, #port, #row, #qc, #zc) }
    });
    let terms = (0..t.joints.len()).map(|j| {
        let v = &w.values[at + j * TERMS..at + (j + 1) * TERMS];
        quote! { [#(#v),*] }
    });
    let k = t.root_speeds.len();
    let s_at = at + t.joints.len() * TERMS;
    let ports = t.ports.iter().enumerate().map(|(p, port)| {
        let top = lit_usize(port.top);
        let s = (0..k).map(|a| {
            let v = &w.values[s_at + (p * k + a) * 6..s_at + (p * k + a + 1) * 6];
            quote! { [#(#v),*] }
        });
        quote! { (#top, [#(#s),*]) }
    });
    let root_rows = t.root_speeds.iter().map(|a| lit_usize(*a));
    let mut root_cols = Vec::new();
    let per = 12 + 6 * k;
    for p in 0..t.ports.len() {
        let outs = &w.tangents[nq + nz + per * p..nq + nz + per * (p + 1)];
        let mut seen: Vec<usize> = outs.iter().flatten().map(|(c, _)| *c).collect();
        seen.sort_unstable();
        seen.dedup();
        for c in seen {
            let d: Vec<TokenStream> = outs
                .iter()
                .map(|o| {
                    o.iter()
                        .find(|(col, _)| *col == c)
                        .map_or_else(|| quote! { 0.0 }, |(_, e)| quote! { #e })
                })
                .collect();
            let (motion, ds) = d.split_at(12);
            let ds = ds.chunks(6).map(|s| quote! { [#(#s),*] });
            let (pc, pl) = (place(c), lit_usize(p));
            root_cols.push(quote! { (#pc, #pl, [#(#motion),*], [#(#ds),*]) });
        }
    }
    let (nj_l, terms_l) = (lit_usize(t.joints.len()), lit_usize(TERMS));
    quote! {
        let __tt: [[f64; #terms_l]; #nj_l] = [#(#terms),*];
        ::nonholo::__private::tree_tangents(
            &[#(#joints),*],
            &__tt,
            &[#(#root_rows),*],
            &[#(#ports),*],
            &[#(#root_cols),*],
            &mut __dr,
        );
    }
}

/// Columns per call of [`residual_solve`]'s closure. Four independent copies of the
/// passes run 9-17 % faster than one on the 8-link chain and manipulator (best of six
/// runs each; two were no better).
const LANES: usize = 4;

/// The tangents of the speeds one block of G solves for (the `n`th, speeds `blk`), from
/// the block's values and tangents in `w` (the forcing's rows from `forcing_at`, G's
/// row-major from `g_at`): G factored once, `dz/dt` solved, then for each column the
/// block's `G x = d forcing - dG dz/dt`.
fn block_tangents(
    d: &FirstMethod,
    w: &WithTangents,
    (n, blk): (usize, &[usize]),
    (forcing_at, g_at): (usize, usize),
    assign: &dyn Fn(usize, usize, &TokenStream) -> TokenStream,
) -> Vec<TokenStream> {
    let (nq, nz) = (d.qdot.len(), d.forcing.len());
    let gij = |a: usize, b: usize| g_at + a * nz + b;
    let k = lit_usize(blk.len());
    let rows = blk.iter().map(|a| {
        let cols = blk.iter().map(|b| &w.values[gij(*a, *b)]);
        quote! { [#(#cols),*] }
    });
    let fs = blk.iter().map(|a| &w.values[forcing_at + a]);
    let (fac, z) = (format_ident!("__f{}", n), format_ident!("__z{}", n));
    let singular = singular_mass_matrix();
    let mut out = vec![quote! {
        let ::core::option::Option::Some(#fac) = ::nonholo::linalg::Ldlt::new(&[#(#rows),*]) else { #singular };
        let #z: [f64; #k] = #fac.solve(&[#(#fs),*]);
    }];
    // the columns any of the block's forcing or G depends on
    let mut cols: Vec<usize> = blk
        .iter()
        .flat_map(|a| {
            let f = w.tangents[forcing_at + a].iter();
            let gs = blk.iter().flat_map(|b| w.tangents[gij(*a, *b)].iter());
            f.chain(gs).map(|(c, _)| *c)
        })
        .collect();
    cols.sort_unstable();
    cols.dedup();
    let at = |t: &[(usize, TokenStream)], col: usize| {
        t.iter().find(|(c, _)| *c == col).map(|(_, e)| e.clone())
    };
    for col in cols {
        // d forcing_a - sum_b dG_ab dz_b/dt
        let r = blk.iter().map(|a| {
            let mut e = at(&w.tangents[forcing_at + a], col).unwrap_or_else(|| quote! { 0.0 });
            for (j, b) in blk.iter().enumerate() {
                if let Some(dg) = at(&w.tangents[gij(*a, *b)], col) {
                    let j = lit_usize(j);
                    e = quote! { #e - #dg * #z[#j] };
                }
            }
            e
        });
        let x = format_ident!("__x{}_{}", n, col);
        out.push(quote! { let #x: [f64; #k] = #fac.solve(&[#(#r),*]); });
        for (j, a) in blk.iter().enumerate() {
            let j = lit_usize(j);
            out.push(assign(nq + a, col, &quote! { #x[#j] }));
        }
    }
    out
}
