//! The pipeline, run once per macro invocation.

use crate::check::{self, Checked, Formulation};
use crate::ctxt::Ctxt;
use crate::dsl::parse::parse_model;
use crate::mechanics::{gibbs_appell, lagrangian, velocities};
use crate::sym::lower::lower;
use crate::{emit, mechanics};
use proc_macro2::TokenStream;
use quote::quote;

pub fn expand(input: TokenStream) -> TokenStream {
    let cx = Ctxt::new();
    let model = parse_model(input, &cx);
    let Some(checked) = check::check(model, &cx) else {
        return cx.into_compile_errors();
    };
    if cx.has_errors() {
        return with_skeleton(&checked, cx);
    }
    match derive(&checked, &cx) {
        Some(tokens) if !cx.has_errors() => tokens,
        _ => with_skeleton(&checked, cx),
    }
}

fn derive(m: &Checked, cx: &Ctxt) -> Option<TokenStream> {
    if m.formulation != Formulation::GibbsAppell {
        cx.error_help(
            m.parametrization_span,
            format!("formulation {:?} is not implemented yet", m.formulation),
            "use the default `formulation = gibbs_appell;`",
        );
        return None;
    }
    let mut low = lower(m);
    let lt = match lagrangian::lagrange_terms(&mut low) {
        Ok(lt) => lt,
        Err((i, j, k)) => {
            cx.error_help(
                m.kinetic_span,
                format!(
                    "the kinetic energy is not quadratic in the velocities (d^3 T / d dot({}) d dot({}) d dot({}) != 0)",
                    m.coords[i], m.coords[j], m.coords[k]
                ),
                "T must be 1/2 dot(q)^T A(q,t) dot(q) + b(q,t) . dot(q) + c(q,t)",
            );
            return None;
        }
    };
    let kin = velocities::kinematics(m, &mut low, cx)?;
    let coords: Vec<String> = m.coords.iter().map(|c| c.to_string()).collect();
    let derived: mechanics::Derived =
        gibbs_appell::derive(&mut low, &lt, kin, &m.name.to_string(), &coords);
    Some(emit::emit(
        m,
        &low.graph,
        &low.syms,
        &derived,
        &low.defaults,
    ))
}

/// On errors, still emit the struct so that uses of it do not cascade into more errors.
fn with_skeleton(m: &Checked, cx: Ctxt) -> TokenStream {
    let defaults: Vec<Option<crate::sym::Number>> = m
        .params
        .iter()
        .map(|(_, d)| d.as_ref().map(|_| crate::sym::Number::ZERO))
        .collect();
    let s = emit::emit_struct(m, &defaults);
    let errors = cx.into_compile_errors();
    quote! { #s #errors }
}
