//! `Contacts::contact_loads` and `contact_forces` for models with `rolls`
//! (`design/contact_forces.md`): the rows' multipliers from the reactions,
//! `lambda = (C C^T)^-1 C R`; the momenta `[P, L_O]`, the applied wrench and the
//! contacts' geometry in one generic function, run once in dual numbers along the motion
//! (`t -> 1`, `q -> dot(q)`, `dot(q) -> ddot(q)`) so that the tangents are
//! `[dP/dt, dL_O/dt]`; the runtime places the forces (`__private::contact_loads`).

use super::bindings::{input_prologue, param_bindings};
use super::code::{bind_array, ident_for, lit_usize, Layout, Rendered, Slot};
use super::render::Num;
use super::structs;
use crate::check::Checked;
use crate::model::{ContactTerms, Lowered};
use proc_macro2::TokenStream;
use quote::quote;

/// (items of the generic impl, methods of the `Contacts` impl, items of the `Model` impl);
/// nothing without `rolls`.
/// `lambda`: the formulation's statements for `__q`, `__qd`, `__qdd` and either the rows'
/// multipliers `__lambda` or, where `lambda_from_rows`, the reactions `__r`
/// from which `lambda = (C C^T)^-1 C R` follows here ([`super::Hooks::contact_lambda`]).
pub fn items(
    m: &Checked,
    low: &Lowered,
    lambda: &TokenStream,
) -> (TokenStream, TokenStream, TokenStream) {
    let ct = &low.contacts;
    if ct.contacts.is_empty() {
        return (TokenStream::new(), TokenStream::new(), TokenStream::new());
    }
    let g = &low.graph;
    let syms = &low.syms;
    let (nq, nu, k) = (syms.q.len(), m.inputs.len(), ct.contacts.len());
    let (nq_l, nu_l, k_l) = (lit_usize(nq), lit_usize(nu), lit_usize(k));

    // The balance needs the moments only for two anchored normals or more: one is the
    // heave equation alone (the vertical force balance).
    let anchored = ct.contacts.iter().filter(|c| !c.height).count();
    let moments = anchored > 1;
    let nb = if moments { 6 } else { 3 };
    // the rates: [P, L_O] (or P) in dual numbers along the motion
    let (mut b, _) = param_bindings(m, syms, Num::Generic);
    bind_array(&mut b, &syms.q, &ident_for("__q"));
    bind_array(&mut b, &syms.qd, &ident_for("__qd"));
    let mut l = Layout::new();
    let momenta = l.vec(&ct.momenta[..nb]);
    let (lets, o) = l.block_in(g, &b, "k", Num::Generic);
    let rates = o.vec(momenta);
    let nb_l = lit_usize(nb);
    let prologue_generic = input_prologue(m, Num::Generic, false);
    let generic = quote! {
        /// The momenta `[P, L_O]` (root components) whose rates along the motion
        /// `Contacts::contact_loads` takes in dual numbers.
        #[doc(hidden)]
        pub fn __contact_momenta(&self, t: __S, __q: &[__S; #nq_l], __qd: &[__S; #nq_l], __u: &[__S; #nu_l]) -> [__S; #nb_l] {
            #prologue_generic
            #lets
            [#(#rates),*]
        }
    };
    // the rest in the model's scalar: [F, M_O] (or F), per contact (point, up, axle, mu),
    // per row e
    let (mut bf, _) = param_bindings(m, syms, Num::Generic);
    bind_array(&mut bf, &syms.q, &ident_for("__q"));
    bind_array(&mut bf, &syms.qd, &ident_for("__qd"));
    let mut l = Layout::new();
    let applied = l.vec(&ct.applied[..nb]);
    let geometry = Geometry::place(ct, &mut l);
    // the constraints' jacobian C, where the formulation leaves lambda to these rows
    let c_slot = ct.lambda_from_rows.then(|| l.vec(&ct.jacobian));
    let (geo_lets, o) = l.block_in(g, &bf, "c", Num::Generic);
    let row_multipliers = c_slot.map(|c| {
        let (nc, c) = (ct.jacobian.len() / nq, o.vec(c));
        let nc_l = lit_usize(nc);
        let c_rows = (0..nc).map(|a| {
            let row = &c[a * nq..(a + 1) * nq];
            quote! { [#(#row),*] }
        });
        quote! {
            let __c: [[__S; #nq_l]; #nc_l] = [#(#c_rows),*];
            let ::core::option::Option::Some(__lambda) = ::nonholo::__private::row_multipliers(&__c, &__r) else {
                return ::core::result::Result::Err(::nonholo::Error::NonFinite { what: "contact multipliers (dependent constraint rows)", t: ::nonholo::Scalar::re(t), state: ::nonholo::__private::to_vec(state) });
            };
        }
    });
    let applied = o.vec(applied);
    let mut elems: Vec<TokenStream> = Vec::new();
    geometry.render(&o, Num::Generic, &mut elems);
    let geo_l = lit_usize(elems.len());
    let specs = contact_rows(ct);
    let balanced = ct.balanced;
    let generic_name = structs::generic_name(m);
    let lifts = m.params.iter().map(|(p, _)| {
        quote! { #p: ::nonholo::__private::Dual::constant(self.#p) }
    });
    let prologue = input_prologue(m, Num::Generic, true);
    let zero = Num::Generic.wrap(quote! { 0.0 });
    let one = Num::Generic.wrap(quote! { 1.0 });
    let generic = quote! {
        #generic

        /// The model with its parameters as dual numbers over this scalar (derivative
        /// parts zero): for the momenta's rates inside [`Contacts::contact_loads_scalar`].
        #[doc(hidden)]
        pub fn __lift(&self) -> #generic_name<::nonholo::__private::Dual<__S>> {
            #generic_name { #(#lifts),* }
        }

        /// `Contacts::contact_loads` in this scalar, the balance's undetermined normals by
        /// `__least_norm`.
        #[doc(hidden)]
        pub fn __contact_loads(&self, t: __S, state: &[__S], u: &[__S], __out: &mut [::nonholo::ContactLoadOf<__S>; #k_l], __least_norm: ::nonholo::__private::LeastNorm<__S>) -> ::core::result::Result<(), ::nonholo::Error> {
            const __CONTACT_ROWS: [::nonholo::__private::ContactRows; #k_l] = [#(#specs),*];
            #prologue
            #lambda
            let __m = self.__lift();
            let __xq = ::nonholo::__private::seed(&__q, &__qd);
            let __xqd = ::nonholo::__private::seed(&__qd, &__qdd);
            let __w = ::nonholo::__private::seed(__u, &[#zero; #nu_l]);
            let __x = __m.__contact_momenta(::nonholo::__private::Dual::new(t, #one), &__xq, &__xqd, &__w);
            #geo_lets
            #row_multipliers
            let __applied: [__S; #nb_l] = [#(#applied),*];
            let mut __wrench = [#zero; 6];
            for __i in 0..#nb_l {
                __wrench[__i] = __x[__i].eps - __applied[__i];
            }
            let __geo: [__S; #geo_l] = [#(#elems),*];
            if let ::core::option::Option::Some(__c) = ::nonholo::__private::flat_contact(&__CONTACT_ROWS, &__geo) {
                return ::core::result::Result::Err(::nonholo::__private::flat_contact_error(<#generic_name<f64> as ::nonholo::Contacts>::CONTACTS[__c], t, state));
            }
            ::nonholo::__private::contact_loads(&__CONTACT_ROWS, #balanced, #moments, &__lambda, &__wrench, &__geo, __out, __least_norm)?;
            if !__out.iter().all(|__l| ::nonholo::__private::all_finite(&__l.force)) {
                return ::core::result::Result::Err(::nonholo::Error::NonFinite { what: "contact loads", t: ::nonholo::Scalar::re(t), state: ::nonholo::__private::to_vec(state) });
            }
            ::core::result::Result::Ok(())
        }
    };
    let friction = ct.contacts.iter().map(|c| c.friction.is_some());
    let methods = quote! {
        const FRICTION: &'static [bool] = &[#(#friction),*];

        fn contact_loads(&self, t: f64, state: &[f64], u: &[f64], out: &mut [::nonholo::ContactLoad]) -> ::core::result::Result<(), ::nonholo::Error> {
            let __out: &mut [::nonholo::ContactLoad; #k_l] = ::nonholo::__private::as_array_mut(out, "contact loads")?;
            self.__contact_loads(t, state, u, __out, ::nonholo::__private::least_norm_svd)
        }

        fn contact_loads_scalar<__T: ::nonholo::Scalar>(&self, t: __T, state: &[__T], u: &[__T], out: &mut [::nonholo::ContactLoadOf<__T>]) -> ::core::result::Result<(), ::nonholo::Error> {
            let __out: &mut [::nonholo::ContactLoadOf<__T>; #k_l] = ::nonholo::__private::as_array_mut(out, "contact loads")?;
            let __m: #generic_name<__T> = self.cast();
            __m.__contact_loads(t, state, u, __out, ::nonholo::__private::least_norm_none)
        }

        fn contact_forces(&self, t: f64, state: &[f64], u: &[f64], out: &mut [[f64; 3]]) -> ::core::result::Result<(), ::nonholo::Error> {
            let __o: &mut [[f64; 3]; #k_l] = ::nonholo::__private::as_array_mut(out, "contact forces")?;
            let mut __l = [::nonholo::ContactLoad::ZERO; #k_l];
            <Self as ::nonholo::Contacts>::contact_loads(self, t, state, u, &mut __l)?;
            for (__f, __x) in __o.iter_mut().zip(&__l) {
                *__f = __x.force;
            }
            ::core::result::Result::Ok(())
        }
    };
    (generic, methods, guards(m, low))
}

/// Where the contacts' geometry sits in a block: per contact its point, `up`, axle and
/// `mu` (the runtime's `PER_CONTACT` entries, `NaN` without friction), then every row's
/// `e` in contact order (`__private::contact_loads` and `Released::terms` read it so).
pub(super) struct Geometry {
    per: Vec<(Slot, Slot, Slot, Option<Slot>)>,
    rows: Vec<Slot>,
}

impl Geometry {
    pub(super) fn place(ct: &ContactTerms, l: &mut Layout) -> Geometry {
        let per = ct
            .contacts
            .iter()
            .map(|c| {
                (
                    l.vec(&c.point),
                    l.vec(&c.up),
                    l.vec(&c.axle),
                    c.friction.map(|mu| l.vec(&[mu])),
                )
            })
            .collect();
        let rows = ct
            .contacts
            .iter()
            .flat_map(|c| c.rows.iter().map(|(_, e)| *e).collect::<Vec<_>>())
            .map(|e| l.vec(&e))
            .collect();
        Geometry { per, rows }
    }

    /// The entries in order (in `num`), appended to `elems`.
    pub(super) fn render(&self, o: &Rendered, num: Num, elems: &mut Vec<TokenStream>) {
        for (point, up, axle, mu) in &self.per {
            for s in [point, up, axle] {
                elems.extend(o.vec(*s).iter().cloned());
            }
            let nan = num.wrap(quote! { f64::NAN });
            elems.push(mu.map_or(nan, |s| o.vec(s)[0].clone()));
        }
        for s in &self.rows {
            elems.extend(o.vec(*s).iter().cloned());
        }
    }
}

/// `__private::ContactRows` of every contact, in declaration order.
pub(super) fn contact_rows(ct: &ContactTerms) -> Vec<TokenStream> {
    ct.contacts
        .iter()
        .map(|c| {
            let rows = c.rows.iter().map(|(r, _)| lit_usize(*r));
            let (height, axle) = (c.height, c.turns_on_axle);
            let share = match c.shares_lateral_with {
                Some(j) => {
                    let j = lit_usize(j);
                    quote! { ::core::option::Option::Some(#j) }
                }
                None => quote! { ::core::option::Option::None },
            };
            quote! {
                ::nonholo::__private::ContactRows { rows: &[#(#rows),*], height: #height, shares_lateral_with: #share, axle: #axle }
            }
        })
        .collect()
}

/// `Model::CONTACT_GUARDS` and `Model::contact_guards`: every contact's normal force, then
/// the friction margin of every contact with `friction`; nothing when a normal force is
/// not available (an anchored contact in a model the balance cannot see whole).
fn guards(m: &Checked, low: &Lowered) -> TokenStream {
    let ct = &low.contacts;
    if !ct.balanced && ct.contacts.iter().any(|c| !c.height) {
        return TokenStream::new();
    }
    let names = m.kinematics.contact_names();
    let k = ct.contacts.len();
    let mut table = Vec::new();
    let mut reads = Vec::new();
    for (c, name) in names.iter().enumerate().take(k) {
        table.push(quote! { (#name, ::nonholo::ContactEvent::LiftOff) });
        let c = lit_usize(c);
        reads.push(quote! { __l[#c].normal });
    }
    for (c, term) in ct.contacts.iter().enumerate() {
        if term.friction.is_some() {
            let name = &names[c];
            table.push(quote! { (#name, ::nonholo::ContactEvent::Slip) });
            let c = lit_usize(c);
            reads.push(quote! { __l[#c].friction_margin });
        }
    }
    let (k_l, n_l) = (lit_usize(k), lit_usize(reads.len()));
    let assign = reads.iter().enumerate().map(|(i, r)| {
        let i = lit_usize(i);
        quote! { __g[#i] = #r; }
    });
    quote! {
        const CONTACT_GUARDS: &'static [(&'static str, ::nonholo::ContactEvent)] = &[#(#table),*];

        fn contact_guards(&self, t: f64, state: &[f64], u: &[f64], out: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
            let __g: &mut [f64; #n_l] = ::nonholo::__private::as_array_mut(out, "contact guards")?;
            let mut __l = [::nonholo::ContactLoad::ZERO; #k_l];
            <Self as ::nonholo::Contacts>::contact_loads(self, t, state, u, &mut __l)?;
            #(#assign)*
            ::core::result::Result::Ok(())
        }
    }
}
