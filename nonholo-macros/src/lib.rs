//! The `nonholonomic!` macro: tokens -> [`dsl`] -> [`check`] -> [`lower`] ->
//! [`mechanics`] -> [`emit`], all standing on the symbolic engine [`sym`] and the model
//! IR [`model`]. Data flows one way; every stage records errors in a shared
//! [`ctxt::Ctxt`] so that all mistakes are reported at once, each on the user's span.

// The crate docs map the pipeline's private stages (`cargo doc --document-private-items`).
#![allow(rustdoc::private_intra_doc_links)]
// Matrix code indexes like the papers' formulas (A_ij, G_ab); iterator rewrites obscure it.
#![allow(clippy::needless_range_loop)]

mod check;
mod ctxt;
mod dsl;
mod emit;
mod expand;
mod kinematics;
mod lower;
mod mechanics;
mod model;
mod sym;
mod urdf;

/// Derive the equations of motion of a nonholonomic system at compile time.
///
/// See the `nonholo` crate for the DSL and the generated API.
#[proc_macro]
pub fn nonholonomic(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    expand::expand(input.into()).into()
}

#[cfg(test)]
mod expand_tests;
#[cfg(test)]
mod fuzz_tests;
#[cfg(test)]
mod recursive_tests;
#[cfg(test)]
mod scale_tests;
#[cfg(test)]
mod spatial_tests;
#[cfg(test)]
mod test_models;
#[cfg(test)]
mod test_rng;
#[cfg(test)]
mod whipple_tests;
