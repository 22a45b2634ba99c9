//! The model struct, generic over the scalar: `pub struct SkateOf<S = f64>` with one `pub S`
//! field per parameter and `pub type Skate = SkateOf<f64>`; `new`, `with_*` setters, `cast`
//! and `Default` when every parameter has a default.

use super::render::Num;
use crate::check::Checked;
use crate::sym::Number;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// `SkateOf` for `Skate`, spanned like the user's name.
pub fn generic_name(m: &Checked) -> Ident {
    format_ident!("{}Of", m.name)
}

/// The generic struct, the `f64` alias under the user's name, and their constructors.
pub fn emit_struct(m: &Checked, defaults: &[Option<Number>]) -> TokenStream {
    let name = &m.name;
    let generic = generic_name(m);
    let vis = &m.vis;
    let attrs = &m.attrs;
    // The alias takes the docs and cfgs (a derive or repr means nothing on an alias).
    let alias_attrs = m
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("doc") || a.path().is_ident("cfg"));
    let generic_doc = format!(
        "[`{name}`] generic over its scalar: `{name}` is `{generic}<f64>`; `{generic}<f32>` \
         for single precision, `{generic}<Dual64>` (feature `dual`) for derivatives with \
         respect to a parameter. Its equations in any scalar are `rhs_generic`, \
         `qdot_generic` and `energy_generic`."
    );
    let fields = m.params.iter().map(|(p, _)| {
        let doc = format!("Parameter `{p}`.");
        quote! { #[doc = #doc] pub #p: S }
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
            let l = Num::Generic.lit(*v);
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
            pub fn #f(mut self, #p: __S) -> Self { self.#p = #p; self }
        }
    });
    let names: Vec<String> = m.params.iter().map(|(p, _)| p.to_string()).collect();
    let field_idents: Vec<&syn::Ident> = m.params.iter().map(|(p, _)| p).collect();
    let casts = m.params.iter().map(|(p, _)| {
        quote! { #p: <__T as ::nonholo::Scalar>::from_f64(::nonholo::Scalar::re(self.#p)) }
    });
    let default_impl = if required.is_empty() {
        quote! {
            impl<__S: ::nonholo::Scalar> ::core::default::Default for #generic<__S> {
                fn default() -> Self { Self::new() }
            }
        }
    } else {
        quote! {}
    };
    quote! {
        #(#attrs)*
        #[doc = ""]
        #[doc = #generic_doc]
        #[allow(non_snake_case)]
        #vis struct #generic<S = f64> { #(#fields),* }

        #(#alias_attrs)*
        #vis type #name = #generic<f64>;

        #[allow(non_snake_case, clippy::too_many_arguments, clippy::new_without_default)]
        impl<__S: ::nonholo::Scalar> #generic<__S> {
            #[doc = #new_doc]
            pub fn new(#(#required: __S),*) -> Self { Self { #(#inits),* } }
            #(#setters)*

            /// The model with its parameters' values in another scalar (their derivative
            /// parts, if any, dropped): `skate.cast::<Dual64>()`, then seed a parameter.
            pub fn cast<__T: ::nonholo::Scalar>(&self) -> #generic<__T> {
                #generic { #(#casts),* }
            }

            /// The parameter called `name` (as in `Model::PARAMETERS`), to set or seed it.
            pub fn parameter_mut(&mut self, name: &str) -> ::core::option::Option<&mut __S> {
                match name {
                    #(#names => ::core::option::Option::Some(&mut self.#field_idents),)*
                    _ => ::core::option::Option::None,
                }
            }
        }

        #default_impl
    }
}
