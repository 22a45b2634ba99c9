//! The pipeline, run once per macro invocation.

use crate::check::{self, Checked, Formulation};
use crate::ctxt::Ctxt;
use crate::dsl::parse::parse_model;
use crate::mechanics::{gibbs_appell, lagrangian, velocities, voronec};
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
    if m.formulation == Formulation::Multipliers {
        return derive_multipliers(m, cx);
    }
    if !matches!(
        m.formulation,
        Formulation::GibbsAppell | Formulation::Voronec | Formulation::BoltzmannHamel
    ) {
        let name = match m.formulation {
            Formulation::GibbsAppell => "gibbs_appell",
            Formulation::BoltzmannHamel => "boltzmann_hamel",
            Formulation::Voronec => "voronec",
            Formulation::Multipliers => "multipliers",
        };
        cx.error_help(
            m.formulation_span,
            format!("formulation `{name}` is not available yet in this version"),
            "use the default `formulation = gibbs_appell;` (Benenti's first method)",
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
    let derived: mechanics::Derived = match m.formulation {
        Formulation::Voronec => voronec::derive(m, &mut low, &lt, cx)?,
        Formulation::BoltzmannHamel => {
            let kin = velocities::kinematics(m, &mut low, cx)?;
            mechanics::boltzmann_hamel::derive(m, &mut low, &lt, kin, cx)?
        }
        _ => {
            let kin = velocities::kinematics(m, &mut low, cx)?;
            let coords: Vec<String> = m.coords.iter().map(|c| c.to_string()).collect();
            gibbs_appell::derive(&mut low, &lt, kin, &m.name.to_string(), &coords)
        }
    };
    let jvp = mechanics::jacobian::first_method(&mut low.graph, &low.syms, &derived);
    let power = mechanics::jacobian::power_terms(&mut low, &lt, &derived);
    Some(emit::emit(
        m,
        &low.graph,
        &low.syms,
        &derived,
        &jvp,
        &power,
        &low.defaults,
    ))
}

/// Benenti's second method: the state is `[q, dot(q)]`, so the model gives no speeds.
fn derive_multipliers(m: &Checked, cx: &Ctxt) -> Option<TokenStream> {
    if !matches!(
        m.parametrization,
        check::Parametrization::Independent { dependent: None }
    ) {
        cx.error_help(
            m.parametrization_span,
            "`formulation = multipliers` integrates (q, dot(q)) directly and takes no `speeds`, `velocities` or `dependent` section",
            "remove that section, or choose `gibbs_appell` to integrate speeds",
        );
        return None;
    }
    let mut low = lower(m);
    let lt = match lagrangian::lagrange_terms(&mut low) {
        Ok(lt) => lt,
        Err(ijk) => {
            not_quadratic(m, cx, ijk);
            return None;
        }
    };
    let coords: Vec<String> = m.coords.iter().map(|c| c.to_string()).collect();
    let mt = mechanics::multipliers::derive(&mut low, &lt, &m.name.to_string(), &coords);
    let jvp = mechanics::jacobian::second_method(&mut low.graph, &low.syms, &mt);
    Some(emit::emit_multipliers(
        m,
        &low.graph,
        &low.syms,
        &mt,
        &jvp,
        &low.defaults,
    ))
}

fn not_quadratic(m: &Checked, cx: &Ctxt, (i, j, k): (usize, usize, usize)) {
    cx.error_help(
        m.kinetic_span,
        format!(
            "the kinetic energy is not quadratic in the velocities (d^3 T / d dot({}) d dot({}) d dot({}) != 0)",
            m.coords[i], m.coords[j], m.coords[k]
        ),
        "T must be 1/2 dot(q)^T A(q,t) dot(q) + b(q,t) . dot(q) + c(q,t)",
    );
}

/// On errors, still emit the struct and a `Model` impl (whose bodies are never reached:
/// the crate does not compile) so that uses of the model do not cascade into more errors.
fn with_skeleton(m: &Checked, cx: Ctxt) -> TokenStream {
    let defaults: Vec<Option<crate::sym::Number>> = m
        .params
        .iter()
        .map(|(_, d)| d.as_ref().map(|_| crate::sym::Number::ZERO))
        .collect();
    let s = emit::emit_struct(m, &defaults);
    let name = &m.name;
    let nq = m.coords.len();
    let nz = match &m.parametrization {
        check::Parametrization::Independent { .. } => nq.saturating_sub(m.constraints.len()),
        _ => m.speeds.len(),
    };
    let lit = proc_macro2::Literal::usize_unsuffixed;
    let (dim, nq, nz, nc) = (lit(nq + nz), lit(nq), lit(nz), lit(m.constraints.len()));
    let errors = cx.into_compile_errors();
    quote! {
        #s
        #errors
        #[allow(unused_variables, clippy::all)]
        impl ::nonholo::Model for #name {
            const COORDINATES: &'static [&'static str] = &[];
            const SPEEDS: &'static [&'static str] = &[];
            const PARAMETERS: &'static [&'static str] = &[];
            const CONSTRAINTS: &'static [&'static str] = &[];
            const NQ: usize = #nq;
            const NZ: usize = #nz;
            const NC: usize = #nc;
            const DIM: usize = #dim;
            const FORMULATION: ::nonholo::Formulation = ::nonholo::Formulation::GibbsAppell;
            const EQUATIONS: &'static str = "";
            type State = [f64; #dim];
            const ZERO_STATE: Self::State = [0.0; #dim];
            fn parameters(&self) -> ::nonholo::__private::Vec<f64> { ::core::unreachable!() }
            fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> { ::core::unreachable!() }
            fn qdot(&self, t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> { ::core::unreachable!() }
            fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> ::core::result::Result<Self::State, ::nonholo::Error> { ::core::unreachable!() }
            fn energy(&self, t: f64, state: &[f64]) -> ::core::result::Result<f64, ::nonholo::Error> { ::core::unreachable!() }
            fn constraint_residual(&self, t: f64, q: &[f64], qdot: &[f64], residual: &mut [f64]) -> ::core::result::Result<(), ::nonholo::Error> { ::core::unreachable!() }
        }
    }
}
