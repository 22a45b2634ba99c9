//! Stage 5: symbolic results -> straight-line Rust via `quote`. One `impl Model`
//! template ([`model_impl`]) with hooks for the bodies that depend on the state layout
//! ([`first_method`], [`second_method`]); the skeleton emitted after errors reuses it.
//! Generated code uses absolute paths (`::nonholo::...`) and never allocates on success.
//! No algebra happens here.

mod bindings;
pub mod code;
mod configuration;
mod contacts;
pub mod equations;
pub(crate) mod first_method;
mod g_blocks;
mod geometry;
pub(crate) mod jacobians;
mod ldlt;
mod program;
mod released;
mod render;
mod second_method;
mod structs;
mod tangent;

use crate::check::Checked;
use crate::mechanics::{Equations, Layout as StateLayout};
use crate::model::{Formulation, Lowered};
use bindings::{input_prologue, param_bindings};
use code::{block, ident_for, lit_usize};
use configuration::ConfigItems;
use proc_macro2::TokenStream;
use quote::quote;
use render::{Bindings, Num};
pub use structs::emit_struct;

/// The hooks of the `impl Model` template: statements run after the template's own
/// prologue (the state and output arrays, the parameters as locals).
pub struct Hooks {
    pub nz: usize,
    pub speed_names: Vec<String>,
    pub formulation: Formulation,
    pub equations: String,
    /// `rhs_generic`: fills `__d` from `__s`, in `__S`.
    pub rhs: TokenStream,
    /// `qdot_generic`: fills `__qd_out` from `__q`, `__z`, in `__S`.
    pub qdot: TokenStream,
    /// `state_from_qdot`: fills the speeds of `__out` (q is already copied) from `__q`, `__qd`.
    pub speeds_from_qdot: TokenStream,
    /// `energy_generic`: returns the energy from `__s`, in `__S`.
    pub energy: TokenStream,
    /// `constraint_residual`: fills `__r` from `__q`, `__qd`.
    pub constraint_residual: TokenStream,
    /// Inherent items of the model (`power_balance`, `multipliers`, ...).
    pub inherent: TokenStream,
    /// `Contacts::reactions`: fills `__out` (`[f64; NQ]`) from `t`, `state`, `u`.
    pub reactions: TokenStream,
    /// The other methods of the `Contacts` impl (`contact_loads`, `contact_forces`).
    pub contacts: TokenStream,
    /// Items of the `Model` impl beyond the template's (`CONTACT_GUARDS`, `contact_guards`).
    pub model_items: TokenStream,
    /// In `contact_loads`, after the input prologue: `__q`, `__qd`, `__qdd` (`[f64; NQ]`)
    /// and the constraint rows' multipliers `__lambda` (`[f64; NC]`), or the reactions
    /// `__r` (`[f64; NQ]`) where the constraints' jacobian is derived for them.
    pub contact_lambda: TokenStream,
    /// Items of the generic impl (`impl<__S: Scalar> SkateOf<__S>`) the bodies above use.
    pub generic_inherent: TokenStream,
    /// The state components and the inputs the right-hand side depends on (the columns
    /// of `jacobians` worth computing).
    pub active: (Vec<usize>, Vec<usize>),
    /// The body of `Model::jacobians` in closed form (`a`, `b` from `t`, `state`, `u`),
    /// or `None` for one dual-number pass per active column.
    pub jacobians: Option<TokenStream>,
    /// The entries `(row, column)` of `[a b]` that can be nonzero (`Model::JACOBIAN_PATTERN`),
    /// sorted: those closed form writes, or with dual numbers those found by dependence
    /// ([`dependence_pattern`]).
    pub jacobian_pattern: Option<Vec<(usize, usize)>>,
}

/// The struct, its constructors and the `Model` impl of a derived model.
pub fn emit(m: &Checked, low: &Lowered, eq: &Equations) -> TokenStream {
    let g = &low.graph;
    let (base, plets) = param_bindings(m, &low.syms, Num::F64);
    let (base_generic, plets_generic) = param_bindings(m, &low.syms, Num::Generic);
    let mut b_qqd = base.clone();
    code::bind_array(&mut b_qqd, &low.syms.q, &ident_for("__q"));
    code::bind_array(&mut b_qqd, &low.syms.qd, &ident_for("__qd"));
    let (c_lets, c_out) = block(g, &eq.constraints, &b_qqd, "c");
    let c_assign = c_out.iter().enumerate().map(|(i, e)| {
        let i = lit_usize(i);
        quote! { __r[#i] = #e; }
    });
    let constraint_residual = quote! { #c_lets #(#c_assign)* };
    let text = equations::render(g, &eq.text);
    let hooks = match &eq.layout {
        StateLayout::First(d) => {
            first_method::hooks(m, low, eq, d, &base, constraint_residual, text)
        }
        StateLayout::Second(d) => {
            second_method::hooks(m, low, eq, d, &base, &plets, constraint_residual, text)
        }
    };
    let header = emit_struct(m, &low.defaults);
    let config = configuration::items(
        low,
        (&base, &plets),
        (&base_generic, &plets_generic),
        &structs::generic_name(m),
    );
    let mut hooks = hooks;
    hooks.generic_inherent.extend(config.generic.clone());
    let (generic, methods, guards) = contacts::items(m, low, &hooks.contact_lambda);
    hooks.generic_inherent.extend(generic);
    hooks.contacts = methods;
    hooks.model_items = guards;
    let (released_hook, released) = released::items(m, low);
    hooks.model_items.extend(released_hook);
    hooks
        .model_items
        .extend(geometry::check_parameters(low, &base, &plets));
    let body = model_impl(
        m,
        low.syms.q.len(),
        &low.names.constraints,
        &config,
        (&plets, &plets_generic),
        &hooks,
        &low.defaults,
    );
    let geometry = geometry::items(m, low, &base, &plets, &plets_generic);
    quote! { #header #body #geometry #released }
}

/// Which state components (`state`: the symbols of `[q, z]` in order) and which inputs the
/// `outputs` of a right-hand side depend on: the columns of `jacobians` worth a pass.
fn active(
    g: &crate::sym::Graph,
    outputs: &[crate::sym::Id],
    state: &[u32],
    inputs: &[u32],
) -> (Vec<usize>, Vec<usize>) {
    let used = |s: u32| outputs.iter().any(|o| g.depends_on(*o, s));
    let x = (0..state.len()).filter(|i| used(state[*i])).collect();
    let u = (0..inputs.len()).filter(|k| used(inputs[*k])).collect();
    (x, u)
}

/// The entries `(row, column)` of `[a b]` (columns: the state's, then the inputs') that
/// can be nonzero by dependence alone, for `jacobians` by dual numbers, which keep no
/// finer structure: row `i < rates.len()` holds what `rates[i]` depends on, and every
/// later row up to `dim` what any of `rest` depends on (the speeds' equations are solved
/// together, so each may hold any of their columns). Sorted.
fn dependence_pattern(
    g: &crate::sym::Graph,
    (rates, rest): (&[crate::sym::Id], &[crate::sym::Id]),
    dim: usize,
    state: &[u32],
    inputs: &[u32],
) -> Vec<(usize, usize)> {
    let columns = |outputs: &[crate::sym::Id]| -> Vec<usize> {
        let (x, u) = active(g, outputs, state, inputs);
        x.into_iter()
            .chain(u.into_iter().map(|k| dim + k))
            .collect()
    };
    let shared = columns(rest);
    (0..dim)
        .flat_map(|i| {
            let cols = match rates.get(i) {
                Some(r) => columns(core::slice::from_ref(r)),
                None => shared.clone(),
            };
            cols.into_iter().map(move |c| (i, c))
        })
        .collect()
}

/// The state bindings `q -> __s[i]`, `speeds -> __s[nq + i]`.
fn state_bindings(base: &Bindings, q: &[u32], speeds: &[u32]) -> Bindings {
    let mut b = base.clone();
    let s = ident_for("__s");
    for (i, x) in q.iter().chain(speeds).enumerate() {
        let i = lit_usize(i);
        b.insert(*x, quote! { #s[#i] });
    }
    b
}

/// The one `impl ::nonholo::Model` template.
pub fn model_impl(
    m: &Checked,
    nq: usize,
    constraint_texts: &[String],
    config: &ConfigItems,
    (plets, plets_generic): (&TokenStream, &TokenStream),
    h: &Hooks,
    defaults: &[Option<crate::sym::Number>],
) -> TokenStream {
    let (config_items, config_check) = (&config.items, &config.check);
    let name = &m.name;
    let generic_name = structs::generic_name(m);
    let generic_inherent = &h.generic_inherent;
    let nz = h.nz;
    let nc = constraint_texts.len();
    let dim = nq + nz;
    let (nq_l, nz_l, nc_l, dim_l) = (lit_usize(nq), lit_usize(nz), lit_usize(nc), lit_usize(dim));
    let coord_names: Vec<String> = m.coords.iter().map(|c| c.to_string()).collect();
    let speed_names = &h.speed_names;
    let param_names: Vec<String> = m.params.iter().map(|(p, _)| p.to_string()).collect();
    let param_fields: Vec<&syn::Ident> = m.params.iter().map(|(p, _)| p).collect();
    let variant = ident_for(h.formulation.variant());
    let equations = &h.equations;
    let (rhs, qdot, from_qdot, energy, residual, inherent) = (
        &h.rhs,
        &h.qdot,
        &h.speeds_from_qdot,
        &h.energy,
        &h.constraint_residual,
        &h.inherent,
    );
    let reactions = &h.reactions;
    let contact_methods = &h.contacts;
    let model_items = &h.model_items;
    let contact_names = m.kinematics.contact_names();
    let np_l = lit_usize(m.params.len());
    let param_index = (0..m.params.len()).map(lit_usize);
    let param_defaults = defaults.iter().map(|d| match d {
        Some(v) => {
            let v = v.to_f64();
            quote! { ::core::option::Option::Some(#v) }
        }
        None => quote! { ::core::option::Option::None },
    });
    // rhs_jvp and rhs_param_jvp: rhs_generic in dual numbers (forward mode over the emitted
    // code), the state or the parameters seeded with the direction
    let dual = quote! { ::nonholo::__private::Dual };
    let seeded_params = param_fields.iter().enumerate().map(|(k, p)| {
        let k = lit_usize(k);
        quote! { #p: #dual::new(self.#p, __dp[#k]) }
    });
    let jvp_tail = |what: &str| {
        quote! {
            ::nonholo::__private::tangents(&__dx, __o);
            if !::nonholo::__private::all_finite(__o) {
                return ::core::result::Result::Err(::nonholo::Error::NonFinite { what: #what, t, state: ::nonholo::__private::to_vec(state) });
            }
            ::core::result::Result::Ok(())
        }
    };
    let (jvp_end, param_jvp_end) = (jvp_tail("rhs_jvp"), jvp_tail("rhs_param_jvp"));
    // The body lives where it costs nothing: in `rhs_generic` without inputs (`rhs_u_generic`
    // checks that `u` is empty and calls it), in `rhs_u_generic` with them.
    let nu = m.inputs.len();
    let nu_l = lit_usize(nu);
    let input_names: Vec<String> = m.inputs.iter().map(|u| u.to_string()).collect();
    let active_x = h.active.0.iter().map(|i| lit_usize(*i));
    let active_u = h.active.1.iter().map(|i| lit_usize(*i));
    let zero_u = quote! { &[<__S as ::nonholo::Scalar>::from_f64(0.0); #nu_l] };
    // exact in closed form where the formulation emits it, else a dual pass per column
    let jacobians_body = h.jacobians.clone().unwrap_or_else(|| {
        quote! {
            let __s: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
            let __uu: &[f64; #nu_l] = ::nonholo::__private::as_array(u, "inputs u")?;
            let __m: #generic_name<#dual> = self.cast();
            let __t = #dual::new(t, 0.0);
            ::nonholo::__private::jacobians(__s, __uu, (&[#(#active_x),*], &[#(#active_u),*]), a, b, |__x, __w, __dx| {
                __m.rhs_u_generic(__t, __x, __w, __dx)
            })?;
            if !(::nonholo::__private::all_finite(a) & ::nonholo::__private::all_finite(b)) {
                return ::core::result::Result::Err(::nonholo::Error::NonFinite { what: "jacobians", t, state: ::nonholo::__private::to_vec(state) });
            }
            ::core::result::Result::Ok(())
        }
    });
    // the structural pattern of the closed form's `[a b]`, where it has one
    let jacobian_pattern = match &h.jacobian_pattern {
        Some(p) if dim + nu <= usize::from(u16::MAX) => {
            let pairs = p.iter().map(|&(i, c)| {
                let (i, c) = (
                    proc_macro2::Literal::usize_unsuffixed(i),
                    proc_macro2::Literal::usize_unsuffixed(c),
                );
                quote! { (#i, #c) }
            });
            quote! {
                const JACOBIAN_PATTERN: ::core::option::Option<&'static [(u16, u16)]> = ::core::option::Option::Some(&[#(#pairs),*]);
            }
        }
        _ => TokenStream::new(),
    };
    let rhs_body = |prologue: &TokenStream| {
        quote! {
            let __s: &[__S; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
            let __d: &mut [__S; #dim_l] = ::nonholo::__private::as_array_mut(dstate, "dstate")?;
            #prologue
            // whether every pivot of G is positive; one branch at the end checks it with
            // the finiteness of dstate (dividing by a non-positive pivot cannot panic)
            let __pd = true;
            #rhs
            if !(__pd & ::nonholo::__private::all_finite(__d)) {
                return ::core::result::Result::Err(::nonholo::__private::rhs_failed(__pd, t, state));
            }
            ::core::result::Result::Ok(())
        }
    };
    let energy_body = |prologue: &TokenStream| {
        quote! {
            let __s: &[__S; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
            #prologue
            #energy
        }
    };
    let (rhs_generic_body, rhs_u_generic_body, energy_generic_body, energy_u_generic_body) =
        if nu == 0 {
            (
                rhs_body(plets_generic),
                quote! {
                    let _: &[__S; 0] = ::nonholo::__private::as_array(u, "inputs u")?;
                    self.rhs_generic(t, state, dstate)
                },
                energy_body(plets_generic),
                quote! {
                    let _: &[__S; 0] = ::nonholo::__private::as_array(u, "inputs u")?;
                    self.energy_generic(t, state)
                },
            )
        } else {
            let prologue = input_prologue(m, Num::Generic, true);
            (
                quote! { self.rhs_u_generic(t, state, #zero_u, dstate) },
                rhs_body(&prologue),
                quote! { self.energy_u_generic(t, state, #zero_u) },
                energy_body(&prologue),
            )
        };
    let generic_doc = format!(
        "The equations of [`{name}`] in any scalar (`f64`, `f32`, dual numbers: see \
         [`Scalar`](::nonholo::Scalar)); the `Model` methods of `{name}` are these in `f64`."
    );
    quote! {
        #inherent

        #[doc = #generic_doc]
        #[allow(unused_variables, unused_parens, unreachable_code, non_snake_case, clippy::all, clippy::pedantic, clippy::nursery)]
        impl<__S: ::nonholo::Scalar> #generic_name<__S> {
            /// The right-hand side `d[q, z]/dt` at `(t, state)` ([`Model::rhs`](::nonholo::Model::rhs)) in this scalar.
            ///
            /// # Errors
            /// [`Error::Dimension`](::nonholo::Error::Dimension) for slices of the wrong length,
            /// [`Error::SingularMassMatrix`](::nonholo::Error::SingularMassMatrix),
            /// [`Error::NonFinite`](::nonholo::Error::NonFinite) (values of the state).
            pub fn rhs_generic(&self, t: __S, state: &[__S], dstate: &mut [__S]) -> ::core::result::Result<(), ::nonholo::Error> {
                #rhs_generic_body
            }

            /// The right-hand side with the inputs `u` ([`Model::rhs_u`](::nonholo::Model::rhs_u)) in this scalar.
            ///
            /// # Errors
            /// As [`rhs_generic`](Self::rhs_generic); [`Error::Dimension`](::nonholo::Error::Dimension) for `u` of the wrong length.
            pub fn rhs_u_generic(&self, t: __S, state: &[__S], u: &[__S], dstate: &mut [__S]) -> ::core::result::Result<(), ::nonholo::Error> {
                #rhs_u_generic_body
            }

            /// The velocities `dot(q) = psi(q, z, t)` ([`Model::qdot`](::nonholo::Model::qdot)) in this scalar.
            ///
            /// # Errors
            /// [`Error::Dimension`](::nonholo::Error::Dimension) for slices of the wrong length.
            pub fn qdot_generic(&self, t: __S, q: &[__S], z: &[__S], qdot: &mut [__S]) -> ::core::result::Result<(), ::nonholo::Error> {
                let __q: &[__S; #nq_l] = ::nonholo::__private::as_array(q, "q")?;
                let __z: &[__S; #nz_l] = ::nonholo::__private::as_array(z, "z")?;
                let __qd_out: &mut [__S; #nq_l] = ::nonholo::__private::as_array_mut(qdot, "qdot")?;
                #plets_generic
                #qdot
                ::core::result::Result::Ok(())
            }

            /// The energy `T + V` at `(t, state)` ([`Model::energy`](::nonholo::Model::energy)) in this scalar.
            ///
            /// # Errors
            /// [`Error::Dimension`](::nonholo::Error::Dimension) for a state of the wrong length.
            pub fn energy_generic(&self, t: __S, state: &[__S]) -> ::core::result::Result<__S, ::nonholo::Error> {
                #energy_generic_body
            }

            /// The energy with the inputs `u` ([`Model::energy_u`](::nonholo::Model::energy_u)) in this scalar.
            ///
            /// # Errors
            /// [`Error::Dimension`](::nonholo::Error::Dimension) for a state or `u` of the wrong length.
            pub fn energy_u_generic(&self, t: __S, state: &[__S], u: &[__S]) -> ::core::result::Result<__S, ::nonholo::Error> {
                #energy_u_generic_body
            }

            #generic_inherent
        }

        #[allow(unused_variables, unused_parens, unreachable_code, non_snake_case, clippy::all, clippy::pedantic, clippy::nursery)]
        impl ::nonholo::Model for #name {
            const COORDINATES: &'static [&'static str] = &[#(#coord_names),*];
            const SPEEDS: &'static [&'static str] = &[#(#speed_names),*];
            const PARAMETERS: &'static [&'static str] = &[#(#param_names),*];
            const PARAMETER_DEFAULTS: &'static [::core::option::Option<f64>] = &[#(#param_defaults),*];
            const CONSTRAINTS: &'static [&'static str] = &[#(#constraint_texts),*];
            const NQ: usize = #nq_l;
            const NZ: usize = #nz_l;
            const NC: usize = #nc_l;
            const DIM: usize = #dim_l;
            const FORMULATION: ::nonholo::Formulation = ::nonholo::Formulation::#variant;
            const EQUATIONS: &'static str = #equations;
            const INPUTS: &'static [&'static str] = &[#(#input_names),*];
            const NU: usize = #nu_l;
            #jacobian_pattern
            #config_items
            type State = [f64; #dim_l];
            const ZERO_STATE: Self::State = [0.0; #dim_l];
            #model_items

            fn parameters(&self) -> ::nonholo::__private::Vec<f64> {
                ::nonholo::__private::to_vec(&[#(self.#param_fields),*])
            }

            fn from_parameters(values: &[f64]) -> ::core::result::Result<Self, ::nonholo::Error> {
                let __p: &[f64; #np_l] = ::nonholo::__private::as_array(values, "parameters")?;
                ::core::result::Result::Ok(Self { #(#param_fields: __p[#param_index]),* })
            }

            #[inline]
            fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                self.rhs_generic(t, state, dstate)
            }

            fn rhs_jvp(&self, t: f64, state: &[f64], v: &[f64], out: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                let __s: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
                let __v: &[f64; #dim_l] = ::nonholo::__private::as_array(v, "v")?;
                let __o: &mut [f64; #dim_l] = ::nonholo::__private::as_array_mut(out, "out")?;
                let __m: #generic_name<#dual> = self.cast();
                let __x: [#dual; #dim_l] = ::nonholo::__private::seed(__s, __v);
                let mut __dx = [#dual::new(0.0, 0.0); #dim_l];
                __m.rhs_generic(#dual::new(t, 0.0), &__x, &mut __dx)?;
                #jvp_end
            }

            #[inline]
            fn rhs_u(&self, t: f64, state: &[f64], u: &[f64], dstate: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                self.rhs_u_generic(t, state, u, dstate)
            }

            fn energy_u(&self, t: f64, state: &[f64], u: &[f64]) -> ::core::result::Result<f64, ::nonholo::Error> {
                self.energy_u_generic(t, state, u)
            }

            fn rhs_u_jvp(&self, t: f64, state: &[f64], u: &[f64], v: &[f64], out: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                let __s: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
                let __uu: &[f64; #nu_l] = ::nonholo::__private::as_array(u, "inputs u")?;
                let __v: &[f64; #dim_l] = ::nonholo::__private::as_array(v, "v")?;
                let __o: &mut [f64; #dim_l] = ::nonholo::__private::as_array_mut(out, "out")?;
                let __m: #generic_name<#dual> = self.cast();
                let __x: [#dual; #dim_l] = ::nonholo::__private::seed(__s, __v);
                let __w: [#dual; #nu_l] = ::nonholo::__private::seed(__uu, &[0.0; #nu_l]);
                let mut __dx = [#dual::new(0.0, 0.0); #dim_l];
                __m.rhs_u_generic(#dual::new(t, 0.0), &__x, &__w, &mut __dx)?;
                #jvp_end
            }

            fn jacobians(&self, t: f64, state: &[f64], u: &[f64], a: &mut [f64], b: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                #jacobians_body
            }

            fn rhs_u_scalar<__T: ::nonholo::Scalar>(&self, t: __T, state: &[__T], u: &[__T], dstate: &mut [__T]) -> ::core::result::Result<(), ::nonholo::Error> {
                let __m: #generic_name<__T> = self.cast();
                __m.rhs_u_generic(t, state, u, dstate)
            }

            fn rhs_param_jvp(&self, t: f64, state: &[f64], dp: &[f64], out: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                let __s: &[f64; #dim_l] = ::nonholo::__private::as_array(state, "state")?;
                let __dp: &[f64; #np_l] = ::nonholo::__private::as_array(dp, "dp")?;
                let __o: &mut [f64; #dim_l] = ::nonholo::__private::as_array_mut(out, "out")?;
                let __m: #generic_name<#dual> = #generic_name { #(#seeded_params),* };
                let __x: [#dual; #dim_l] = ::nonholo::__private::seed(__s, &[0.0; #dim_l]);
                let mut __dx = [#dual::new(0.0, 0.0); #dim_l];
                __m.rhs_generic(#dual::new(t, 0.0), &__x, &mut __dx)?;
                #param_jvp_end
            }

            #[inline]
            fn qdot(&self, t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                self.qdot_generic(t, q, z, qdot)
            }

            fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> ::core::result::Result<Self::State, ::nonholo::Error> {
                let __q: &[f64; #nq_l] = ::nonholo::__private::as_array(q, "q")?;
                let __qd: &[f64; #nq_l] = ::nonholo::__private::as_array(qdot, "qdot")?;
                #config_check
                ::nonholo::check_velocities(self, t, q, qdot, 1e-8)?;
                #plets
                let mut __out = [0.0f64; #dim_l];
                __out[..#nq_l].copy_from_slice(__q);
                #from_qdot
                ::core::result::Result::Ok(__out)
            }

            fn energy(&self, t: f64, state: &[f64]) -> ::core::result::Result<f64, ::nonholo::Error> {
                self.energy_generic(t, state)
            }

            fn constraint_residual(&self, t: f64, q: &[f64], qdot: &[f64], residual: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                let __q: &[f64; #nq_l] = ::nonholo::__private::as_array(q, "q")?;
                let __qd: &[f64; #nq_l] = ::nonholo::__private::as_array(qdot, "qdot")?;
                let __r: &mut [f64; #nc_l] = ::nonholo::__private::as_array_mut(residual, "residual")?;
                #plets
                #residual
                ::core::result::Result::Ok(())
            }
        }

        #[allow(unused_variables, unused_parens, unreachable_code, non_snake_case, clippy::all, clippy::pedantic, clippy::nursery)]
        impl ::nonholo::Contacts for #name {
            const CONTACTS: &'static [&'static str] = &[#(#contact_names),*];

            fn reactions(&self, t: f64, state: &[f64], u: &[f64], out: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> {
                let __out: &mut [f64; #nq_l] = ::nonholo::__private::as_array_mut(out, "reactions")?;
                #reactions
            }

            #contact_methods
        }
    }
}

/// After errors: the struct and the template with bodies that are never reached (the
/// crate does not compile), so that uses of the model do not cascade into more errors.
pub fn skeleton(m: &Checked) -> TokenStream {
    let defaults: Vec<Option<crate::sym::Number>> = m
        .params
        .iter()
        .map(|(_, d)| d.as_ref().map(|_| crate::sym::Number::ZERO))
        .collect();
    let header = emit_struct(m, &defaults);
    let nq = m.coords.len();
    let mut constraint_texts: Vec<String> = m.constraints.iter().map(|c| c.text.clone()).collect();
    constraint_texts.extend((0..m.kinematics.rows()).map(|i| format!("3D row {i}")));
    let nz = match (&m.parametrization, m.formulation) {
        (_, Formulation::Multipliers) => nq,
        (crate::model::Parametrization::Independent { .. }, _) => {
            nq.saturating_sub(constraint_texts.len())
        }
        _ => m.speeds.len(),
    };
    let unreachable = quote! { ::core::unreachable!(); };
    let hooks = Hooks {
        nz,
        speed_names: Vec::new(),
        formulation: m.formulation,
        equations: String::new(),
        rhs: unreachable.clone(),
        qdot: unreachable.clone(),
        speeds_from_qdot: unreachable.clone(),
        energy: unreachable.clone(),
        constraint_residual: unreachable.clone(),
        reactions: unreachable,
        contacts: TokenStream::new(),
        contact_lambda: TokenStream::new(),
        model_items: TokenStream::new(),
        inherent: TokenStream::new(),
        generic_inherent: TokenStream::new(),
        active: (Vec::new(), Vec::new()),
        jacobians: None,
        jacobian_pattern: None,
    };
    let body = model_impl(
        m,
        nq,
        &constraint_texts,
        &ConfigItems::none(),
        (&TokenStream::new(), &TokenStream::new()),
        &hooks,
        &defaults,
    );
    quote! { #header #body }
}
