//! Hooks for a first-method model, state `[q, z]`: `dq/dt = psi`, `G dz/dt = forcing`
//! with G's independent blocks solved apart (1x1 by division, 2x2 in closed form,
//! larger ones by Cholesky), plus `power_balance`, `equation_terms` and `jacobians` in
//! closed form.

use super::bindings::input_prologue;
use super::code::{bind_array, ident_for, lit_usize, singular_mass_matrix, Bindings, Layout, Num};
use super::ldlt;
use super::tangent::{block_with_tangents, Extra, WithTangents};
use super::{state_bindings, Hooks};
use crate::check::Checked;
use crate::mechanics::first_method::FirstMethod;
use crate::mechanics::recursive::port_frame::TreeTangents;
use crate::mechanics::{Equations, SpeedsFromQdot};
use crate::model::{Jacobians, Lowered};
use crate::sym::{Graph, Id};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

pub fn hooks(
    m: &Checked,
    low: &Lowered,
    eq: &Equations,
    d: &FirstMethod,
    base: &Bindings,
    constraint_residual: TokenStream,
    equations: String,
) -> Hooks {
    let g = &low.graph;
    let syms = &low.syms;
    let (nq, nz) = (syms.q.len(), syms.z.len());
    let b_state = state_bindings(base, &syms.q, &syms.z);
    let rhs = match &d.recursive {
        Some(rec) => recursive_rhs(g, d, rec, &b_state),
        None => g_rhs(g, d, &b_state, nq),
    };

    // qdot(t, q, z)
    let mut b_qz = base.clone();
    bind_array(&mut b_qz, &syms.q, &ident_for("__q"));
    bind_array(&mut b_qz, &syms.z, &ident_for("__z"));
    let mut ql = Layout::new();
    let qs = ql.vec(&d.qdot);
    let (qdot_lets, qo) = ql.block_in(g, &b_qz, "v", Num::Generic);
    let qo = qo.vec(qs);
    let qdot = quote! { #qdot_lets *__qd_out = [#(#qo),*]; };

    let mut el = Layout::new();
    let es = el.vec(&[eq.energy]);
    let (energy_lets, eo) = el.block_in(g, &b_state, "e", Num::Generic);
    let energy_out = &eo.vec(es)[0];
    let energy = quote! { #energy_lets ::core::result::Result::Ok(#energy_out) };

    // what the rhs computes: the columns of `jacobians` worth a pass
    let mut outputs: Vec<_> = d.qdot.clone();
    match &d.recursive {
        Some(rec) => {
            outputs.extend(&rec.accelerations);
            outputs.extend(&rec.pivots);
        }
        None => {
            outputs.extend(&d.forcing_rest);
            outputs.extend(d.explicit.iter().flatten());
            outputs.extend(&d.mass_matrix_g.e);
        }
    }
    let state: Vec<u32> = syms.q.iter().chain(&syms.z).copied().collect();
    let active = super::active(g, &outputs, &state, &syms.inputs);
    let speeds_from_qdot = from_qdot(low, d, base, &b_qz);
    let inherent = inherent(m, low, d, &b_state);
    let reactions = reactions();
    let contact_lambda = contact_lambda(low);
    let jacobians = jacobians(m, low, d, &b_state);
    Hooks {
        nz,
        speed_names: eq.speed_names.clone(),
        formulation: eq.formulation,
        equations,
        rhs,
        qdot,
        speeds_from_qdot,
        energy,
        constraint_residual,
        inherent,
        reactions,
        contacts: TokenStream::new(),
        model_items: TokenStream::new(),
        contact_lambda,
        generic_inherent: TokenStream::new(),
        active,
        jacobians,
    }
}

/// The right-hand side by G: `dq/dt = psi`, `G dz/dt = forcing` with G's independent
/// blocks solved apart.
fn g_rhs(g: &Graph, d: &FirstMethod, b_state: &Bindings, nq: usize) -> TokenStream {
    let nz = d.forcing.len();
    let singular = singular_mass_matrix();
    let diagonal = d.mass_matrix_g.is_diagonal(g);
    let mut out = Layout::new();
    let qdot_slot = out.vec(&d.qdot);
    let forcing_slot = out.vec(&d.forcing_rest);
    // speeds in closed form: a quotient simplified, or the momentum form
    // speeds in closed form (a quotient simplified, or the momentum form): only these are
    // outputs, so nothing is computed for the others
    let explicit: Vec<_> = d.explicit.iter().flatten().copied().collect();
    let explicit_slot = out.vec(&explicit);
    let explicit_at = |a: usize| d.explicit[..a].iter().flatten().count();
    let g_slot = if diagonal {
        let diag: Vec<_> = (0..nz).map(|a| d.mass_matrix_g.at(a, a)).collect();
        out.vec(&diag)
    } else {
        out.mat(&d.mass_matrix_g)
    };
    let (rhs_lets, r) = out.block_in(g, b_state, "r", Num::Generic);
    let zero = Num::Generic.wrap(quote! { 0.0 });
    let qdot_assign = r.vec(qdot_slot).iter().enumerate().map(|(i, e)| {
        let i = lit_usize(i);
        quote! { __d[#i] = #e; }
    });
    let gm = |a: usize, b: usize| {
        if diagonal {
            r.at(g_slot, a, 0)
        } else {
            r.at(g_slot, a, b)
        }
    };
    let forcing = r.vec(forcing_slot);
    let at = |a: usize| lit_usize(nq + a);
    // explicit speeds coupled to others in G: assigned; their blocks solve for the rest
    let coupled_explicit = (0..nz)
        .filter(|a| d.explicit[*a].is_some() && !d.alone[*a])
        .map(|a| {
            let (i, za) = (at(a), &r.vec(explicit_slot)[explicit_at(a)]);
            quote! { __d[#i] = #za; }
        });
    let solve: Vec<TokenStream> = block_plan(g, d, diagonal)
        .iter()
        .map(|(blk, how)| {
            if *how == BlockSolve::Constant {
                let zs = blk.iter().map(|a| {
                    let i = at(*a);
                    quote! { __d[#i] = #zero; }
                });
                return quote! { #(#zs)* };
            }
            match blk.as_slice() {
                [a] => {
                    let (ga, i) = (gm(*a, *a), at(*a));
                    let za = match d.explicit[*a] {
                        Some(_) => r.vec(explicit_slot)[explicit_at(*a)].clone(),
                        None => {
                            // the reciprocal of G_aa (ready early) times the forcing (ready
                            // last): the division overlaps the forcing's computation
                            // instead of ending the critical path
                            let fa = &forcing[*a];
                            quote! { (#fa * (<__S as ::nonholo::Scalar>::from_f64(1.0) / #ga)) }
                        }
                    };
                    quote! {
                        let __pd = __pd & (::nonholo::Scalar::re(#ga) > 0.0);
                        __d[#i] = #za;
                    }
                }
                [a, b] => {
                    let (gaa, gab, gbb) = (gm(*a, *a), gm(*a, *b), gm(*b, *b));
                    let (fa, fb, ia, ib) = (&forcing[*a], &forcing[*b], at(*a), at(*b));
                    quote! {
                        let (__gaa, __gab, __gbb): (__S, __S, __S) = (#gaa, #gab, #gbb);
                        let __det = __gaa * __gbb - __gab * __gab;
                        let __pd = __pd & (::nonholo::Scalar::re(__gaa) > 0.0) & (::nonholo::Scalar::re(__det) > 0.0);
                        let (__fa, __fb): (__S, __S) = (#fa, #fb);
                        let __inv = <__S as ::nonholo::Scalar>::from_f64(1.0) / __det;
                        __d[#ia] = (__gbb * __fa - __gab * __fb) * __inv;
                        __d[#ib] = (__gaa * __fb - __gab * __fa) * __inv;
                    }
                }
                // unrolled where G's structure saves work; a dense block through the
                // runtime's LDL^T (as fast, measured on the Whipple bicycle's 3 x 3)
                _ if blk.iter().enumerate().any(|(i, a)| {
                    blk[..i].iter().any(|b| g.is_zero(d.mass_matrix_g.at(*a, *b)))
                }) => ldlt::solve(
                    blk.len(),
                    |i, j| {
                        let (a, b) = (blk[i], blk[j]);
                        (!g.is_zero(d.mass_matrix_g.at(a, b))).then(|| gm(a, b).clone())
                    },
                    &blk.iter().map(|a| forcing[*a].clone()).collect::<Vec<_>>(),
                    |i, x| {
                        let i = at(blk[i]);
                        quote! { __d[#i] = #x; }
                    },
                ),
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
                            let __g: [[__S; #k]; #k] = [#(#rows),*];
                            let __f: [__S; #k] = [#(#fs),*];
                            let ::core::option::Option::Some(__zd) = ::nonholo::linalg::solve_spd(&__g, &__f) else { #singular };
                            #(#assigns)*
                        }
                    }
                }
            }
        })
        .collect();
    quote! { #rhs_lets #(#qdot_assign)* #(#coupled_explicit)* #(#solve)* }
}

/// The right-hand side by the articulated-body algorithm: `dq/dt = psi`, `dz/dt` in closed
/// form, G positive where every joint's `D` is.
fn recursive_rhs(
    g: &Graph,
    d: &FirstMethod,
    rec: &crate::mechanics::recursive::Recursive,
    b_state: &Bindings,
) -> TokenStream {
    let nq = d.qdot.len();
    let mut out = Layout::new();
    let qdot_slot = out.vec(&d.qdot);
    let acc_slot = out.vec(&rec.accelerations);
    let pivot_slot = out.vec(&rec.pivots);
    let (lets, r) = out.block_in(g, b_state, "r", Num::Generic);
    let qdot = r.vec(qdot_slot).iter().enumerate().map(|(i, e)| {
        let i = lit_usize(i);
        quote! { __d[#i] = #e; }
    });
    let acc = r.vec(acc_slot).iter().enumerate().map(|(a, e)| {
        let i = lit_usize(nq + a);
        quote! { __d[#i] = #e; }
    });
    let pivots = r.vec(pivot_slot);
    quote! {
        #lets
        #(#qdot)*
        let __pd = __pd #( & (::nonholo::Scalar::re(#pivots) > 0.0) )*;
        #(#acc)*
    }
}

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
fn jacobians(
    m: &Checked,
    low: &Lowered,
    d: &FirstMethod,
    b_state: &Bindings,
) -> Option<TokenStream> {
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
    let mut w = None;
    if let Some(t) = tree {
        let mut t_outputs = outputs[..nq].to_vec();
        t_outputs.extend(&t.rest);
        for p in &t.ports {
            t_outputs.extend(&p.motion);
        }
        let mut t_values = values.clone();
        for j in &t.joints {
            t_values.extend(&j.terms);
        }
        for p in &t.ports {
            t_values.extend(p.s.iter().flatten());
        }
        if let Ok(by_tree) = block(&t_outputs, &t_values, limit) {
            // the residual's own tangents where they cost less (the assembly's loops run
            // in about 3/10 the time of as many straight-line operations)
            let cost = by_tree.ops.1 + t.assembly_cost() * 3 / 10;
            w = Some(match block(&outputs, &values, cost) {
                Ok(by_residual) => {
                    tree = None;
                    Ok(by_residual)
                }
                Err(_) => Ok(by_tree),
            });
        }
    }
    let w = w.unwrap_or_else(|| {
        tree = None;
        block(&outputs, &values, limit)
    });
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
    // d(dx_i/dt)/d(column) = e
    let assign = |i: usize, col: usize, e: &TokenStream| {
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
            body.push(residual_solve(&w, (nq, nz, nu), (out_n, np), tree));
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
    Some(quote! {
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
    })
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
) -> TokenStream {
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
        return TokenStream::new();
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
    quote! {
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
    }
}

/// The links' share of `-dr/dx` from their composites (the runtime's `tree_tangents`):
/// the joints' table, their terms (the values of `w` from `at`, then the ports' `s`), the
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

/// How the speeds of one independent block of G get their `dz/dt`, in the rhs
/// ([`g_rhs`]) and in the Jacobian ([`block_tangents`]) alike.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BlockSolve {
    /// No forcing on them (nor a closed form): constant speeds.
    Constant,
    /// A speed alone in its block with `dz/dt` in closed form (`FirstMethod::explicit`).
    Explicit,
    /// From the block of G and the forcing.
    Solved,
}

/// The independent blocks of G ([`g_blocks`]), each with how it is solved.
fn block_plan(g: &Graph, d: &FirstMethod, diagonal: bool) -> Vec<(Vec<usize>, BlockSolve)> {
    g_blocks(g, d, diagonal)
        .into_iter()
        .map(|blk| {
            let how = if blk
                .iter()
                .all(|a| g.is_zero(d.explicit[*a].unwrap_or(d.forcing_rest[*a])))
            {
                BlockSolve::Constant
            } else if d.explicit[blk[0]].is_some() {
                BlockSolve::Explicit
            } else {
                BlockSolve::Solved
            };
            (blk, how)
        })
        .collect()
}

/// The independent diagonal blocks of G (e.g. the momenta and the lean of the unicycle)
/// among the speeds not assigned in closed form.
fn g_blocks(g: &Graph, d: &FirstMethod, diagonal: bool) -> Vec<Vec<usize>> {
    let nz = d.forcing.len();
    let solved = |a: usize| d.explicit[a].is_some() && !d.alone[a];
    if diagonal {
        return (0..nz).map(|a| vec![a]).collect();
    }
    let mut block_of: Vec<usize> = (0..nz).collect();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for a in (0..nz).filter(|a| !solved(*a)) {
        for b in (0..a).filter(|b| !solved(*b)) {
            if !g.is_zero(d.mass_matrix_g.at(a, b)) {
                let (ra, rb) = (root(&mut block_of, a), root(&mut block_of, b));
                block_of[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    let mut blocks: Vec<Vec<usize>> = Vec::new();
    for a in (0..nz).filter(|a| !solved(*a)) {
        let r = root(&mut block_of, a);
        match blocks.iter_mut().find(|b| b[0] == r) {
            Some(b) => b.push(a),
            None => blocks.push(vec![a]),
        }
    }
    blocks
}

/// The speeds from `(q, dot(q))`: a closed form, or Gauss–Newton on `psi(q, z, t) =
/// dot(q)` for Benenti's parametric form.
fn from_qdot(low: &Lowered, d: &FirstMethod, base: &Bindings, b_qz: &Bindings) -> TokenStream {
    let g = &low.graph;
    let (nq, nz) = (low.syms.q.len(), low.syms.z.len());
    let (nq_l, nz_l) = (lit_usize(nq), lit_usize(nz));
    match &d.speeds_from_qdot {
        SpeedsFromQdot::Explicit(zs) => {
            let mut b_qqd = base.clone();
            bind_array(&mut b_qqd, &low.syms.q, &ident_for("__q"));
            bind_array(&mut b_qqd, &low.syms.qd, &ident_for("__qd"));
            let mut l = Layout::new();
            let s = l.vec(zs);
            let (zl, zo) = l.block(g, &b_qqd, "z");
            let assigns = zo.vec(s).iter().enumerate().map(|(i, e)| {
                let i = lit_usize(nq + i);
                quote! { __out[#i] = #e; }
            });
            quote! { #zl #(#assigns)* }
        }
        SpeedsFromQdot::Parametric { linear } => {
            let mut l = Layout::new();
            let psi = l.vec(&d.qdot);
            let psi_z = l.mat(&d.psi_z);
            let a = l.mat(&d.mass_matrix_a);
            let (pl, po) = l.block(g, b_qz, "p");
            let (psi, psi_z_rows, a_rows) = (po.vec(psi), po.rows(psi_z), po.rows(a));
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
                for (__i, __x) in __zs.iter().enumerate() {
                    __out[#nq_l + __i] = *__x;
                }
            }
        }
    }
}

/// The state's dz/dt (from the model's own `rhs_u`) bound to the power terms' `zdot`.
fn with_zdot(b_state: &Bindings, zdot: &[u32], nq: usize) -> Bindings {
    let mut b = b_state.clone();
    for (k, s) in zdot.iter().enumerate() {
        let i = lit_usize(nq + k);
        b.insert(*s, quote! { __dz[#i] });
    }
    b
}

/// `Contacts::reactions`: `R = A qdd + h - F` from [`motion_terms`]'s method.
fn reactions() -> TokenStream {
    quote! {
        let (_, _, __r, _) = self.__motion_terms(t, state, u)?;
        *__out = __r;
        ::core::result::Result::Ok(())
    }
}

/// For `Contacts::contact_loads` (after the input prologue): `__q`, `__qd`, `__qdd`
/// (`[f64; NQ]`) and the reactions `__r = A qdd + h - F` from [`motion_terms`]'s method
/// (`__lambda` follows from `C` in [`super::contacts`]). Nothing without `rolls`.
fn contact_lambda(low: &Lowered) -> TokenStream {
    if low.contacts.contacts.is_empty() {
        return TokenStream::new();
    }
    let (nq, nz) = (low.syms.q.len(), low.syms.z.len());
    let (nq_l, dim_l) = (lit_usize(nq), lit_usize(nq + nz));
    quote! {
        let __s: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
        let (__qd, __qdd, __r, _) = self.__motion_terms(t, state, u)?;
        let mut __q = [0.0f64; #nq_l];
        __q.copy_from_slice(&__s[..#nq_l]);
    }
}

/// The private method that `reactions`, `contact_loads` and `power_balance_u` share, one
/// block after one `rhs_u`: `dot(q) = psi`, `ddot(q) = d/dt psi` at the solved dz/dt, the
/// reactions `R = A qdd + h - F` and the powers `[F . qd, -dL/dt, R . qd]`.
fn motion_terms(m: &Checked, low: &Lowered, d: &FirstMethod, b_state: &Bindings) -> TokenStream {
    let g = &low.graph;
    let (nq, nz) = (low.syms.q.len(), low.syms.z.len());
    let (nq_l, dim_l) = (lit_usize(nq), lit_usize(nq + nz));
    let prologue_u = input_prologue(m, Num::F64, true);
    let b = with_zdot(b_state, &d.power.zdot, nq);
    let mut l = Layout::new();
    let rs = l.vec(&d.power.reactions);
    let qd = l.vec(&d.qdot);
    let qdd = l.vec(&d.power.qdd);
    let ps = l.vec(&d.power.terms);
    let (lets, o) = l.block(g, &b, "x");
    let (rs, qd, qdd, ps) = (o.vec(rs), o.vec(qd), o.vec(qdd), o.vec(ps));
    quote! {
        /// `(dot(q), ddot(q), R, [F . qd, -dL/dt, R . qd])` along the motion at `(t, state, u)`.
        #[doc(hidden)]
        fn __motion_terms(&self, t: f64, state: &[f64], u: &[f64]) -> ::core::result::Result<([f64; #nq_l], [f64; #nq_l], [f64; #nq_l], [f64; 3]), ::nonholo::Error> {
            let mut __dz = [0.0f64; #dim_l];
            <Self as ::nonholo::Model>::rhs_u(self, t, state, u, &mut __dz)?;
            let __s: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
            #prologue_u
            #lets
            ::core::result::Result::Ok(([#(#qd),*], [#(#qdd),*], [#(#rs),*], [#(#ps),*]))
        }
    }
}

/// `power_balance` and (with a split) `equation_terms`.
fn inherent(m: &Checked, low: &Lowered, d: &FirstMethod, b_state: &Bindings) -> TokenStream {
    let g = &low.graph;
    let name = &m.name;
    let (nq, nz) = (low.syms.q.len(), low.syms.z.len());
    let (nz_l, dim_l) = (lit_usize(nz), lit_usize(nq + nz));
    let nu_l = lit_usize(m.inputs.len());
    let prologue_u = input_prologue(m, Num::F64, true);
    let motion = motion_terms(m, low, d, b_state);
    let terms_method = if d.terms.is_empty() {
        quote! {}
    } else {
        let term_names: Vec<&str> = d.terms.iter().map(|(n, _)| n.as_str()).collect();
        let nt = lit_usize(d.terms.len());
        let mut tl = Layout::new();
        let slots: Vec<_> = d.terms.iter().map(|(_, v)| tl.vec(v)).collect();
        let (term_lets, to) = tl.block(g, b_state, "u");
        let term_rows = slots.iter().map(|s| {
            let cols = to.vec(*s);
            quote! { [#(#cols),*] }
        });
        quote! {
            /// Names of the contributions returned by `equation_terms`.
            pub const EQUATION_TERMS: &'static [&'static str] = &[#(#term_names),*];

            /// The separate contributions to the equations at `(t, state)`, one row per
            /// name of `EQUATION_TERMS`, one entry per speed; they add up to `-forcing` of
            /// `G dz/dt = forcing` (for Boltzmann–Hamel: Talamucci's Q, Lambda, N of eq. 20,
            /// the explicit-time and potential terms, the constraint correction and the
            /// extra forces).
            /// At zero inputs; [`equation_terms_u`](Self::equation_terms_u) with them.
            pub fn equation_terms(&self, t: f64, state: &[f64]) -> ::core::result::Result<[[f64; #nz_l]; #nt], ::nonholo::Error> {
                self.equation_terms_u(t, state, &[0.0; #nu_l])
            }

            /// [`equation_terms`](Self::equation_terms) with the inputs `u`.
            pub fn equation_terms_u(&self, t: f64, state: &[f64], u: &[f64]) -> ::core::result::Result<[[f64; #nz_l]; #nt], ::nonholo::Error> {
                let __s: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
                #prologue_u
                #term_lets
                ::core::result::Result::Ok([#(#term_rows),*])
            }
        }
    };
    quote! {
        #[allow(unused_variables, unused_parens, non_snake_case, clippy::all, clippy::pedantic, clippy::nursery)]
        impl #name {
            /// The energy balance along the motion (Talamucci eq. 18 in Lagrangian form):
            /// `d/dt energy = F . qd - dL/dt|explicit + R . qd`. Returns the three powers
            /// `[F . qd, -dL/dt, R . qd]`, where R is the reaction implied by the derived
            /// accelerations (`R = A qdd + h - F`); R does no work unless the constraints
            /// or the speeds depend on time.
            /// At zero inputs; [`power_balance_u`](Self::power_balance_u) with them.
            pub fn power_balance(&self, t: f64, state: &[f64]) -> ::core::result::Result<[f64; 3], ::nonholo::Error> {
                self.power_balance_u(t, state, &[0.0; #nu_l])
            }

            /// [`power_balance`](Self::power_balance) with the inputs `u`: their power is
            /// part of `F . qd` (the inputs held, as between two control instants).
            pub fn power_balance_u(&self, t: f64, state: &[f64], u: &[f64]) -> ::core::result::Result<[f64; 3], ::nonholo::Error> {
                let (_, _, _, __p) = self.__motion_terms(t, state, u)?;
                ::core::result::Result::Ok(__p)
            }
            #motion
            #terms_method
        }
    }
}
