//! Hooks for Benenti's second method, state `[q, dot(q)]`: the multipliers are solved at
//! run time from A, L, C_qd and the drift (`__private::multipliers`), plus the inherent
//! `multipliers` and `reaction_forces`.

use super::bindings::input_prologue;
use super::code::{bind_array, ident_for, lit_usize, singular_mass_matrix, Layout};
use super::render::{Bindings, Num};
use super::{state_bindings, Hooks};
use crate::check::Checked;
use crate::mechanics::multipliers::SecondMethod;
use crate::mechanics::Equations;
use crate::model::Lowered;
use proc_macro2::TokenStream;
use quote::quote;

#[allow(clippy::too_many_arguments)]
pub fn hooks(
    m: &Checked,
    low: &Lowered,
    eq: &Equations,
    d: &SecondMethod,
    base: &Bindings,
    plets: &TokenStream,
    constraint_residual: TokenStream,
    equations: String,
) -> Hooks {
    let g = &low.graph;
    let syms = &low.syms;
    let nq = syms.q.len();
    let nc = d.constraint_jacobian.r;
    let (nq_l, nc_l) = (lit_usize(nq), lit_usize(nc));
    let name = &m.name;
    let b_state = state_bindings(base, &syms.q, &syms.qd);
    let mut b_qqd = base.clone();
    bind_array(&mut b_qqd, &syms.q, &ident_for("__q"));
    bind_array(&mut b_qqd, &syms.qd, &ident_for("__qd"));
    let singular = singular_mass_matrix();

    // (qdd, lambda) from A, L, C_qd and the drift (Benenti's eqs. 8.6, 8.12)
    let mut l = Layout::new();
    let (a, lv, c, dr) = (
        l.mat(&d.mass_matrix_a),
        l.vec(&d.lagrange_l),
        l.mat(&d.constraint_jacobian),
        l.vec(&d.drift),
    );
    let (lets, o) = l.block_in(g, &b_qqd, "m", Num::Generic);
    let (a_rows, lv, c_rows, dr) = (o.rows(a), o.vec(lv), o.rows(c), o.vec(dr));
    let prologue = input_prologue(m, Num::Generic, false);
    let nu_l = lit_usize(m.inputs.len());
    let solve_body = quote! {
        #prologue
        #lets
        let __a: [[__S; #nq_l]; #nq_l] = [#(#a_rows),*];
        let __l: [__S; #nq_l] = [#(#lv),*];
        let __c: [[__S; #nq_l]; #nc_l] = [#(#c_rows),*];
        let __drift: [__S; #nc_l] = [#(#dr),*];
        ::nonholo::__private::multipliers(&__a, &__l, &__c, &__drift)
    };
    let rhs = quote! {
        let __q: [__S; #nq_l] = ::core::array::from_fn(|__i| __s[__i]);
        let __qd: [__S; #nq_l] = ::core::array::from_fn(|__i| __s[#nq_l + __i]);
        let ::core::option::Option::Some((__qdd, _)) = self.__second_method(t, &__q, &__qd, __u) else { #singular };
        __d[..#nq_l].copy_from_slice(&__qd);
        __d[#nq_l..].copy_from_slice(&__qdd);
    };

    let mut el = Layout::new();
    let es = el.vec(&[eq.energy]);
    let (e_lets, eo) = el.block_in(g, &b_state, "e", Num::Generic);
    let e_out = &eo.vec(es)[0];
    let energy = quote! { #e_lets ::core::result::Result::Ok(#e_out) };

    let mut cl = Layout::new();
    let cs = cl.mat(&d.constraint_jacobian);
    let (j_lets, jr) = cl.block(g, &b_qqd, "j");
    let j_rows = jr.rows(cs);
    let generic_inherent = quote! {
        /// `(qdd, lambda)` at `(q, dot(q))`: Benenti's eqs. 8.6 and 8.12.
        fn __second_method(&self, t: __S, __q: &[__S; #nq_l], __qd: &[__S; #nq_l], __u: &[__S; #nu_l]) -> ::core::option::Option<([__S; #nq_l], [__S; #nc_l])> {
            #solve_body
        }
    };
    let inherent = quote! {
        #[allow(unused_variables, unused_parens, non_snake_case, clippy::all, clippy::pedantic, clippy::nursery)]
        impl #name {

            /// The Lagrange multipliers `lambda_a` at `(q, dot(q))` (Benenti's eq. 8.6, with
            /// `A qdd + h = F + C_qd^T lambda`), at zero inputs.
            pub fn multipliers(&self, t: f64, q: &[f64], qdot: &[f64]) -> ::core::result::Result<[f64; #nc_l], ::nonholo::Error> {
                self.multipliers_u(t, q, qdot, &[0.0; #nu_l])
            }

            /// [`multipliers`](Self::multipliers) with the inputs `u`.
            pub fn multipliers_u(&self, t: f64, q: &[f64], qdot: &[f64], u: &[f64]) -> ::core::result::Result<[f64; #nc_l], ::nonholo::Error> {
                let __q: &[f64; #nq_l] = ::nonholo::__private::as_array(q, "q")?;
                let __qd: &[f64; #nq_l] = ::nonholo::__private::as_array(qdot, "qdot")?;
                let __u: &[f64; #nu_l] = ::nonholo::__private::as_array(u, "inputs u")?;
                match self.__second_method(t, __q, __qd, __u) {
                    ::core::option::Option::Some((_, __lambda)) => ::core::result::Result::Ok(__lambda),
                    ::core::option::Option::None => ::core::result::Result::Err(::nonholo::Error::SingularMassMatrix { t, state: ::nonholo::__private::concat(q, qdot) }),
                }
            }

            /// The Lagrangian reaction forces `R_i = lambda_a dC^a/d dot(q)_i` (Benenti's
            /// eqs. 3.11 and 8.13) that keep the constraints at `(q, dot(q))`, at zero inputs.
            pub fn reaction_forces(&self, t: f64, q: &[f64], qdot: &[f64]) -> ::core::result::Result<[f64; #nq_l], ::nonholo::Error> {
                self.reaction_forces_u(t, q, qdot, &[0.0; #nu_l])
            }

            /// [`reaction_forces`](Self::reaction_forces) with the inputs `u`.
            pub fn reaction_forces_u(&self, t: f64, q: &[f64], qdot: &[f64], u: &[f64]) -> ::core::result::Result<[f64; #nq_l], ::nonholo::Error> {
                let __lambda = self.multipliers_u(t, q, qdot, u)?;
                let __q: &[f64; #nq_l] = ::nonholo::__private::as_array(q, "q")?;
                let __qd: &[f64; #nq_l] = ::nonholo::__private::as_array(qdot, "qdot")?;
                let __jac: [[f64; #nq_l]; #nc_l] = {
                    #plets
                    #j_lets
                    [#(#j_rows),*]
                };
                let mut __r = [0.0f64; #nq_l];
                for (__a, __row) in __jac.iter().enumerate() {
                    for (__i, __x) in __row.iter().enumerate() {
                        __r[__i] += __lambda[__a] * __x;
                    }
                }
                ::core::result::Result::Ok(__r)
            }
        }
    };
    // Contacts::reactions: R = C_qd^T lambda at the state (q, dot(q))
    let dim_l = lit_usize(2 * nq);
    let reactions = quote! {
        let __s: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
        *__out = self.reaction_forces_u(t, &__s[..#nq_l], &__s[#nq_l..], u)?;
        ::core::result::Result::Ok(())
    };
    // dq/dt = dot(q): every velocity is active, the rest by dependence
    let mut outputs: Vec<_> = d.mass_matrix_a.e.clone();
    outputs.extend(&d.lagrange_l);
    outputs.extend(&d.constraint_jacobian.e);
    outputs.extend(&d.drift);
    let state: Vec<u32> = syms.q.iter().chain(&syms.qd).copied().collect();
    let (mut active_x, active_u) = super::active(g, &outputs, &state, &syms.inputs);
    active_x.extend(nq..2 * nq);
    active_x.sort_unstable();
    active_x.dedup();
    // the pattern of `[a b]` by dependence: `d q/dt = dot(q)`, and the accelerations
    // (the multipliers' system solved as a whole) on every active column
    let dim = 2 * nq;
    let accelerations: Vec<usize> = active_x
        .iter()
        .copied()
        .chain(active_u.iter().map(|k| dim + k))
        .collect();
    let pattern: Vec<(usize, usize)> = (0..nq)
        .map(|i| (i, nq + i))
        .chain((nq..dim).flat_map(|i| accelerations.iter().map(move |&c| (i, c))))
        .collect();
    Hooks {
        nz: nq,
        speed_names: eq.speed_names.clone(),
        formulation: eq.formulation,
        equations,
        rhs,
        qdot: quote! { *__qd_out = *__z; },
        speeds_from_qdot: quote! { __out[#nq_l..].copy_from_slice(__qd); },
        energy,
        constraint_residual,
        inherent,
        reactions,
        contacts: TokenStream::new(),
        model_items: TokenStream::new(),
        contact_lambda: quote! {
            let __s: &[__S; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
            let mut __q = [<__S as ::nonholo::Scalar>::from_f64(0.0); #nq_l];
            __q.copy_from_slice(&__s[..#nq_l]);
            let mut __qd = [<__S as ::nonholo::Scalar>::from_f64(0.0); #nq_l];
            __qd.copy_from_slice(&__s[#nq_l..]);
            let ::core::option::Option::Some((__qdd, __lambda)) = self.__second_method(t, &__q, &__qd, __u) else {
                return ::core::result::Result::Err(::nonholo::Error::SingularMassMatrix { t: ::nonholo::Scalar::re(t), state: ::nonholo::__private::to_vec(state) });
            };
        },
        generic_inherent,
        jacobians: None,
        jacobian_pattern: Some(pattern),
        active: (active_x, active_u),
    }
}
