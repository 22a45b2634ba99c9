//! The pipeline, run once per macro invocation: tokens -> `dsl` -> `check` -> `lower`
//! -> `mechanics` -> `emit`. On any error the struct and a skeleton `Model` impl are
//! still emitted, so that one mistake does not cascade through the user's code.

use crate::ctxt::Ctxt;
use crate::dsl::parse::parse_model;
use crate::{check, emit, lower, mechanics, urdf};
use proc_macro2::TokenStream;
use quote::quote;

pub fn expand(input: TokenStream) -> TokenStream {
    let cx = Ctxt::new();
    let mut model = parse_model(input, &cx);
    // the front-end stage of files the model names (a URDF): the same model the DSL gives
    let files = urdf::import(&mut model, &cx);
    let out = derive(model, cx);
    // `include_bytes!` of each file read, so that the crate rebuilds when it changes
    let tracked = files.iter().filter_map(|f| f.to_str()).map(|f| {
        quote! { const _: &[u8] = include_bytes!(#f); }
    });
    quote! { #out #(#tracked)* }
}

fn derive(model: crate::dsl::ast::Model, cx: Ctxt) -> TokenStream {
    let Some(checked) = check::check(model, &cx) else {
        return cx.into_compile_errors();
    };
    if !cx.has_errors() {
        let mut low = lower::lower(&checked, &cx);
        // lowering reports what needs the engine (rolling contacts, inertia frames); a
        // contact that failed left its rows out, so nothing downstream may run
        let derived = if cx.has_errors() || low.graph.overflowed().is_some() {
            None
        } else {
            mechanics::derive(&mut low, &cx)
        };
        if let Some(stage) = low.graph.overflowed() {
            // What was derived after the overflow is meaningless, errors included.
            return too_large(&checked, stage);
        }
        if let Some(eq) = derived
            && !cx.has_errors()
        {
            return emit::emit(&checked, &low, &eq);
        }
    }
    let skeleton = emit::skeleton(&checked);
    let errors = cx.into_compile_errors();
    quote! { #skeleton #errors }
}

/// The skeleton and one error on the model's name: the symbolic engine outgrew its
/// bound ([`crate::sym::graph::NODE_LIMIT`]) while deriving `stage`.
fn too_large(checked: &check::Checked, stage: &str) -> TokenStream {
    let cx = Ctxt::new();
    cx.error_help(
        checked.name.span(),
        format!(
            "this model is too large for the symbolic engine: deriving {stage} took more \
             than {} expression nodes",
            crate::sym::node_limit()
        ),
        "the engine keeps products of sums unexpanded and names shared pieces, so a model \
         reaches this only when its expressions are huge to begin with: write the kinetic \
         energy from the bodies (`frames`/`bodies`) or with `let` velocities instead of \
         multiplied out, choose speeds that keep the velocity map simple (`speeds { .. }`), \
         or split the system",
    );
    let skeleton = emit::skeleton(checked);
    let errors = cx.into_compile_errors();
    quote! { #skeleton #errors }
}
