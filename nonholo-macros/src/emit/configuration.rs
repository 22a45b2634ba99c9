//! Configuration constraints `f(q, t) = 0`: the residual, its exact Jacobian `df/dq`,
//! Newton's method on the solved coordinates (the Jacobian's columns for them), and the
//! consistency check that `state_from_qdot` runs first.

use super::code::{bind_array, block, block_in, ident_for, lit_usize};
use super::render::{Bindings, Num};
use crate::model::Lowered;
use proc_macro2::TokenStream;
use quote::quote;

/// Trait items (constants, `configuration_residual`, `solve_configuration`) and the
/// check `state_from_qdot` runs; empty for a model without configuration constraints.
pub struct ConfigItems {
    pub items: TokenStream,
    pub check: TokenStream,
    /// The residual in any scalar, an inherent method of the generic struct.
    pub generic: TokenStream,
}

impl ConfigItems {
    pub fn none() -> ConfigItems {
        ConfigItems {
            items: TokenStream::new(),
            check: TokenStream::new(),
            generic: TokenStream::new(),
        }
    }
}

pub fn items(
    low: &Lowered,
    (base, plets): (&Bindings, &TokenStream),
    (base_generic, plets_generic): (&Bindings, &TokenStream),
    generic_name: &proc_macro2::Ident,
) -> ConfigItems {
    let c = &low.configuration;
    let k = c.residuals.len();
    if k == 0 {
        return ConfigItems::none();
    }
    let g = &low.graph;
    let nq = lit_usize(low.syms.q.len());
    let kl = lit_usize(k);
    let texts = &c.texts;
    let coords: Vec<&String> = c.solve.iter().map(|i| &low.names.coords[*i]).collect();
    let mut b = base.clone();
    bind_array(&mut b, &low.syms.q, &ident_for("__q"));
    let (r_lets, r_out) = block(g, &c.residuals, &b, "f");
    // the residual in any scalar (exact second derivatives for optimal control)
    let mut bg = base_generic.clone();
    bind_array(&mut bg, &low.syms.q, &ident_for("__q"));
    let (rg_lets, rg_out) = block_in(g, &c.residuals, &bg, "f", Num::Generic);
    let rg_assign = rg_out.iter().enumerate().map(|(i, e)| {
        let i = lit_usize(i);
        quote! { __r[#i] = #e; }
    });
    let r_assign = r_out.iter().enumerate().map(|(i, e)| {
        let i = lit_usize(i);
        quote! { __r[#i] = #e; }
    });
    let n = low.syms.q.len();
    // the whole Jacobian d f_i / d q_j, for linearization
    let (j_lets, j_out) = block(g, &c.jacobian, &b, "p");
    let j_assign = j_out.iter().enumerate().map(|(i, e)| {
        let i = lit_usize(i);
        quote! { __jac[#i] = #e; }
    });
    let kn = lit_usize(k * n);
    // Newton's Jacobian: the solved coordinates' columns of the whole one
    let pick = (0..k).flat_map(|i| {
        c.solve.iter().enumerate().map(move |(j, qj)| {
            let (il, jl, at) = (lit_usize(i), lit_usize(j), lit_usize(i * n + qj));
            quote! { __j[#il][#jl] = __jac[#at]; }
        })
    });
    let steps = c.solve.iter().enumerate().map(|(j, qi)| {
        let (j, qi) = (lit_usize(j), lit_usize(*qi));
        quote! {
            __qm[#qi] -= __dx[#j];
            __step = __step.max(::nonholo::Scalar::abs(__dx[#j]));
        }
    });
    let items = quote! {
        const CONFIGURATION_CONSTRAINTS: &'static [&'static str] = &[#(#texts),*];
        const CONFIGURATION_COORDINATES: &'static [&'static str] = &[#(#coords),*];

        fn configuration_residual(&self, t: f64, q: &[f64], residual: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
            let __q: &[f64; #nq] = ::nonholo::__private::as_array(q, "q")?;
            let __r: &mut [f64; #kl] = ::nonholo::__private::as_array_mut(residual, "residual")?;
            #plets
            #r_lets
            #(#r_assign)*
            ::core::result::Result::Ok(())
        }

        fn configuration_residual_scalar<__T: ::nonholo::Scalar>(&self, t: __T, q: &[__T], residual: &mut [__T]) -> ::core::result::Result<(), ::nonholo::Error> {
            let __m: #generic_name<__T> = self.cast();
            __m.__configuration_residual_generic(t, q, residual)
        }

        fn configuration_jacobian(&self, t: f64, q: &[f64], jacobian: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
            let __q: &[f64; #nq] = ::nonholo::__private::as_array(q, "q")?;
            let __jac: &mut [f64; #kn] = ::nonholo::__private::as_array_mut(jacobian, "jacobian")?;
            #plets
            #j_lets
            #(#j_assign)*
            ::core::result::Result::Ok(())
        }

        fn solve_configuration(&self, t: f64, q: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
            let __qm: &mut [f64; #nq] = ::nonholo::__private::as_array_mut(q, "q")?;
            const NEWTON_STEPS: usize = 50;
            let mut __left = f64::INFINITY;
            for _ in 0..NEWTON_STEPS {
                let __q: [f64; #nq] = *__qm;
                let mut __f = [0.0f64; #kl];
                let mut __jac = [0.0f64; #kn];
                ::nonholo::Model::configuration_residual(self, t, &__q, &mut __f)?;
                ::nonholo::Model::configuration_jacobian(self, t, &__q, &mut __jac)?;
                let mut __j = [[0.0f64; #kl]; #kl];
                #(#pick)*
                __left = __f.iter().fold(0.0f64, |__m, __x| __m.max(::nonholo::Scalar::abs(*__x)));
                let ::core::option::Option::Some(__dx) = ::nonholo::linalg::solve_lu(&__j, &__f) else {
                    break;
                };
                let mut __step = 0.0f64;
                #(#steps)*
                let __scale = 1.0 + __q.iter().fold(0.0f64, |__m, __x| __m.max(::nonholo::Scalar::abs(*__x)));
                if !__step.is_finite() {
                    break;
                }
                if __step <= 1e-15 * __scale {
                    return ::core::result::Result::Ok(());
                }
            }
            ::core::result::Result::Err(::nonholo::Error::ConfigurationNotSolved {
                t,
                residual: __left,
                iterations: NEWTON_STEPS,
                state: ::nonholo::__private::to_vec(&__qm[..]),
            })
        }
    };
    let check = quote! {
        {
            let mut __cr = [0.0f64; #kl];
            ::nonholo::Model::configuration_residual(self, t, q, &mut __cr)?;
            let __scale = 1.0 + q.iter().fold(0.0f64, |__m, __x| __m.max(::nonholo::Scalar::abs(*__x)));
            for (__i, __x) in __cr.iter().enumerate() {
                if !(::nonholo::Scalar::abs(*__x) <= 1e-8 * __scale) {
                    return ::core::result::Result::Err(::nonholo::Error::ConstraintViolated {
                        index: __i,
                        constraint: <Self as ::nonholo::Model>::CONFIGURATION_CONSTRAINTS[__i],
                        residual: *__x,
                        t,
                        state: ::nonholo::__private::to_vec(q),
                    });
                }
            }
        }
    };
    let generic = quote! {
        /// The configuration constraints' residual in this scalar
        /// ([`Model::configuration_residual_scalar`](::nonholo::Model::configuration_residual_scalar)).
        #[doc(hidden)]
        pub fn __configuration_residual_generic(&self, t: __S, q: &[__S], residual: &mut [__S]) -> ::core::result::Result<(), ::nonholo::Error> {
            let __q: &[__S; #nq] = ::nonholo::__private::as_array(q, "q")?;
            let __r: &mut [__S; #kl] = ::nonholo::__private::as_array_mut(residual, "residual")?;
            #plets_generic
            #rg_lets
            #(#rg_assign)*
            ::core::result::Result::Ok(())
        }
    };
    ConfigItems {
        items,
        check,
        generic,
    }
}
