//! The pipeline, run once per macro invocation: tokens -> `dsl` -> `check` -> `lower`
//! -> `mechanics` -> `emit`. On any error the struct and a skeleton `Model` impl are
//! still emitted, so that one mistake does not cascade through the user's code.

use crate::ctxt::Ctxt;
use crate::dsl::parse::parse_model;
use crate::{check, emit, lower, mechanics};
use proc_macro2::TokenStream;
use quote::quote;

pub fn expand(input: TokenStream) -> TokenStream {
    let cx = Ctxt::new();
    let model = parse_model(input, &cx);
    let Some(checked) = check::check(model, &cx) else {
        return cx.into_compile_errors();
    };
    if !cx.has_errors() {
        let mut low = lower::lower(&checked, &cx);
        // lowering reports the 3D items' geometric mistakes (an inertia frame, a rolling
        // contact); their rows are then missing, so the mechanics would see a wrong model
        if !cx.has_errors() {
            if let Some(eq) = mechanics::derive(&mut low, &cx) {
                if !cx.has_errors() {
                    return emit::emit(&checked, &low, &eq);
                }
            }
        }
    }
    let skeleton = emit::skeleton(&checked);
    let errors = cx.into_compile_errors();
    quote! { #skeleton #errors }
}
