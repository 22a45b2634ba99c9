//! The model struct: one `pub f64` field per parameter, `new`, `with_*` setters and
//! `Default` when every parameter has a default.

use super::code::lit;
use crate::check::Checked;
use crate::sym::Number;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

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
