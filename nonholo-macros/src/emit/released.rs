//! The released model of a model whose contacts may slip (`design/contact_forces.md`, 6.4):
//! `impl ::nonholo::__private::Released`, one straight-line block of `A`, `L = F - h`, every
//! row's `C`, drift and value, the applied wrench and the contacts' geometry, from which the
//! runtime assembles the dynamics with any set of contacts sliding; and the rates of the
//! momenta `[P, L_O]` along any tangent, in dual numbers, for the normal forces.

use super::bindings::{input_prologue, param_bindings};
use super::code::{bind_array, ident_for, lit_usize, Layout};
use super::contacts::{contact_rows, Geometry};
use super::render::Num;
use super::structs;
use crate::check::Checked;
use crate::model::Lowered;
use proc_macro2::TokenStream;
use quote::quote;

/// (items of the `Model` impl, the `Released` impl); nothing without
/// [`crate::model::ContactTerms::released`].
pub fn items(m: &Checked, low: &Lowered) -> (TokenStream, TokenStream) {
    let ct = &low.contacts;
    let Some(rel) = &ct.released else {
        return (TokenStream::new(), TokenStream::new());
    };
    let g = &low.graph;
    let syms = &low.syms;
    let (nq, nu, nc) = (syms.q.len(), m.inputs.len(), low.constraints.len());
    let anchored = ct.contacts.iter().filter(|c| !c.height).count();
    let moments = anchored > 1;
    let nb = if moments { 6 } else { 3 };

    let (mut b, _) = param_bindings(m, syms, Num::F64);
    bind_array(&mut b, &syms.q, &ident_for("__q"));
    bind_array(&mut b, &syms.qd, &ident_for("__qd"));
    let mut l = Layout::new();
    let slots = [
        l.vec(&rel.mass_matrix_a),
        l.vec(&rel.lagrange_l),
        l.vec(&ct.jacobian),
        l.vec(&rel.drift),
        l.vec(&low.constraints),
        l.vec(&ct.applied[..nb]),
    ];
    let geometry = Geometry::place(ct, &mut l);
    let (lets, o) = l.block(g, &b, "r");
    let mut elems: Vec<TokenStream> = Vec::new();
    for s in slots {
        elems.extend(o.vec(s).iter().cloned());
    }
    geometry.render(&o, Num::F64, &mut elems);
    let len = elems.len();
    let assign = elems.iter().enumerate().map(|(i, e)| {
        let i = lit_usize(i);
        quote! { __o[#i] = #e; }
    });

    let specs = contact_rows(ct);
    let names = m.kinematics.contact_names();
    let friction = ct.contacts.iter().map(|c| c.friction.is_some());
    let velocities = m.coords.iter().map(|c| format!("dot({c})"));
    let balanced = ct.balanced;
    let (nq_l, nu_l, nc_l, nb_l, len_l) = (
        lit_usize(nq),
        lit_usize(nu),
        lit_usize(nc),
        lit_usize(nb),
        lit_usize(len),
    );
    let name = &m.name;
    let generic_name = structs::generic_name(m);
    let dual = quote! { ::nonholo::__private::Dual };
    let prologue = input_prologue(m, Num::F64, true);
    let released = quote! {
        #[allow(unused_variables, unused_parens, non_snake_case, clippy::all, clippy::pedantic, clippy::nursery)]
        impl ::nonholo::__private::Released for #name {
            fn spec(&self) -> &'static ::nonholo::__private::ReleasedSpec {
                const __SPEC: ::nonholo::__private::ReleasedSpec = ::nonholo::__private::ReleasedSpec {
                    nq: #nq_l,
                    nc: #nc_l,
                    nu: #nu_l,
                    nb: #nb_l,
                    len: #len_l,
                    balanced: #balanced,
                    contacts: &[#(#specs),*],
                    friction: &[#(#friction),*],
                    names: &[#(#names),*],
                    velocities: &[#(#velocities),*],
                };
                &__SPEC
            }

            fn terms(&self, t: f64, q: &[f64], qd: &[f64], u: &[f64], out: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                let __q: &[f64; #nq_l] = ::nonholo::__private::as_array(q, "q")?;
                let __qd: &[f64; #nq_l] = ::nonholo::__private::as_array(qd, "qdot")?;
                let __o: &mut [f64; #len_l] = ::nonholo::__private::as_array_mut(out, "released terms")?;
                #prologue
                #lets
                #(#assign)*
                ::core::result::Result::Ok(())
            }

            fn momenta_tangent(&self, t: [f64; 2], q: [&[f64]; 2], qd: [&[f64]; 2], u: &[f64], out: &mut [f64; 6]) -> ::core::result::Result<(), ::nonholo::Error> {
                let __u: &[f64; #nu_l] = ::nonholo::__private::as_array(u, "inputs u")?;
                let __m: #generic_name<#dual> = self.cast();
                let __xq: [#dual; #nq_l] = ::nonholo::__private::seed(::nonholo::__private::as_array(q[0], "q")?, ::nonholo::__private::as_array(q[1], "q")?);
                let __xqd: [#dual; #nq_l] = ::nonholo::__private::seed(::nonholo::__private::as_array(qd[0], "qdot")?, ::nonholo::__private::as_array(qd[1], "qdot")?);
                let __w: [#dual; #nu_l] = ::nonholo::__private::seed(__u, &[0.0; #nu_l]);
                let __x = __m.__contact_momenta(#dual::new(t[0], t[1]), &__xq, &__xqd, &__w);
                for (__o, __d) in out.iter_mut().zip(&__x) {
                    *__o = __d.eps;
                }
                ::core::result::Result::Ok(())
            }
        }
    };
    let hook = quote! {
        fn __released(&self) -> ::core::option::Option<&dyn ::nonholo::__private::Released> {
            ::core::option::Option::Some(self)
        }
    };
    (hook, released)
}
