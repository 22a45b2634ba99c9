//! Hooks for a first-method model, state `[q, z]`: `dq/dt = psi`, `G dz/dt = forcing`
//! with G's independent blocks solved apart (1x1 by division, 2x2 in closed form,
//! larger ones by Cholesky), plus `power_balance`, `equation_terms` and `jacobians` in
//! closed form.

use super::bindings::input_prologue;
use super::code::{bind_array, ident_for, lit_usize, singular_mass_matrix, Layout};
use super::g_blocks::{block_plan, BlockSolve};
use super::ldlt;
use super::render::{Bindings, Num};
use super::{state_bindings, Hooks};
use crate::check::Checked;
use crate::mechanics::first_method::FirstMethod;
use crate::mechanics::{Equations, SpeedsFromQdot};
use crate::model::Lowered;
use crate::sym::Graph;
use proc_macro2::TokenStream;
use quote::quote;

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
    let motion_terms = motion_terms(m, low, d, &b_state);
    let reactions = reactions();
    let contact_lambda = contact_lambda(low);
    let (jacobians, jacobian_pattern) = match super::jacobians::jacobians(m, low, d, &b_state) {
        Some((body, pattern)) => (Some(body), pattern),
        // by dual numbers: each coordinate's rate by its own expression, the speeds by
        // everything their equations involve
        None => {
            let (rates, rest) = outputs.split_at(nq);
            let dim = nq + nz;
            let pattern = super::dependence_pattern(g, (rates, rest), dim, &state, &syms.inputs);
            (None, pattern)
        }
    };
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
        generic_inherent: motion_terms,
        active,
        jacobians,
        jacobian_pattern: Some(jacobian_pattern),
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

/// For `Contacts::contact_loads` (after the input prologue, in the model's scalar
/// `__S`): `__q`, `__qd`, `__qdd` (`[__S; NQ]`) and the reactions `__r = A qdd + h - F`
/// from [`motion_terms`]'s method (`__lambda` follows from `C` in [`super::contacts`]).
/// Nothing without `rolls`.
fn contact_lambda(low: &Lowered) -> TokenStream {
    if low.contacts.contacts.is_empty() {
        return TokenStream::new();
    }
    let (nq, nz) = (low.syms.q.len(), low.syms.z.len());
    let (nq_l, dim_l) = (lit_usize(nq), lit_usize(nq + nz));
    quote! {
        let __s: &[__S; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
        let (__qd, __qdd, __r, _) = self.__motion_terms(t, state, u)?;
        let mut __q = [<__S as ::nonholo::Scalar>::from_f64(0.0); #nq_l];
        __q.copy_from_slice(&__s[..#nq_l]);
    }
}

/// The private method that `reactions`, `contact_loads` and `power_balance_u` share, one
/// block after one `rhs_u`: `dot(q) = psi`, `ddot(q) = d/dt psi` at the solved dz/dt, the
/// reactions `R = A qdd + h - F` and the powers `[F . qd, -dL/dt, R . qd]`; in the model's
/// scalar (generic impl), so that the contact loads have it in any scalar.
fn motion_terms(m: &Checked, low: &Lowered, d: &FirstMethod, b_state: &Bindings) -> TokenStream {
    let g = &low.graph;
    let (nq, nz) = (low.syms.q.len(), low.syms.z.len());
    let (nq_l, dim_l) = (lit_usize(nq), lit_usize(nq + nz));
    let prologue_u = input_prologue(m, Num::Generic, true);
    let b = with_zdot(b_state, &d.power.zdot, nq);
    let mut l = Layout::new();
    let rs = l.vec(&d.power.reactions);
    let qd = l.vec(&d.qdot);
    let qdd = l.vec(&d.power.qdd);
    let ps = l.vec(&d.power.terms);
    let (lets, o) = l.block_in(g, &b, "x", Num::Generic);
    let (rs, qd, qdd, ps) = (o.vec(rs), o.vec(qd), o.vec(qdd), o.vec(ps));
    quote! {
        /// `(dot(q), ddot(q), R, [F . qd, -dL/dt, R . qd])` along the motion at `(t, state, u)`.
        #[doc(hidden)]
        #[allow(clippy::type_complexity)]
        pub fn __motion_terms(&self, t: __S, state: &[__S], u: &[__S]) -> ::core::result::Result<([__S; #nq_l], [__S; #nq_l], [__S; #nq_l], [__S; 3]), ::nonholo::Error> {
            let mut __dz = [<__S as ::nonholo::Scalar>::from_f64(0.0); #dim_l];
            self.rhs_u_generic(t, state, u, &mut __dz)?;
            let __s: &[__S; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
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
            #terms_method
        }
    }
}
