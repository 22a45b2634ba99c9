//! What every first-method formulation (state `[q, z]`, `dq/dt = psi(q, z, t)`,
//! `G dz/dt = forcing`) shares once its G and forcing are derived: the energy on the
//! state, the exact Jacobian-vector product and the power balance.

use super::jacobian::{self, Jvp, PowerTerms};
use super::lagrangian::LagrangeTerms;
use super::text::Text;
use super::{Equations, Layout, SpeedsFromQdot};
use crate::model::Lowered;
use crate::sym::{Id, Mat};
use std::collections::HashMap;

/// The pieces of a first-method right-hand side.
pub struct FirstMethod {
    /// `dot(q) = psi(q, z, t)`.
    pub qdot: Vec<Id>,
    /// `d psi / d z` (n x m), for the parametric inverse.
    pub psi_z: Mat,
    /// Kinetic-energy matrix A(q, t) (n x n).
    pub mass_matrix_a: Mat,
    /// `G = psi_z^T A psi_z` (m x m), in q, z, t.
    pub mass_matrix_g: Mat,
    /// Right-hand side of `G dz/dt = forcing`.
    pub forcing: Vec<Id>,
    /// `forcing_a / G_aa` for every speed whose row of G is zero off the diagonal, simplified
    /// (a mass that multiplies both cancels, as in Benenti's parallel points).
    pub solved_alone: Vec<Option<Id>>,
    pub speeds_from_qdot: SpeedsFromQdot,
    /// Named contributions whose sum is `-forcing` (Boltzmann–Hamel's Q, Lambda, N, ...),
    /// each with one entry per speed; empty when the formulation has no such split.
    pub terms: Vec<(String, Vec<Id>)>,
    pub jvp: Jvp,
    /// The same pieces differentiated along the input parameters (`rhs_param_jvp`).
    pub param_jvp: Jvp,
    /// Which parameters are inputs (enter only the forces).
    pub param_inputs: Vec<bool>,
    pub power: PowerTerms,
}

/// What a first-method formulation derives itself.
pub struct Derived {
    pub qdot: Vec<Id>,
    pub psi_z: Mat,
    pub mass_matrix_g: Mat,
    pub forcing: Vec<Id>,
    pub speeds_from_qdot: SpeedsFromQdot,
    pub speed_names: Vec<String>,
    pub terms: Vec<(String, Vec<Id>)>,
    pub text: Text,
}

/// The Equations of a first-method formulation: `d` plus the energy at `dot(q) = psi`
/// (appended to the text), the exact JVP and the power balance.
pub fn complete(
    low: &mut Lowered,
    lt: &LagrangeTerms,
    formulation: crate::model::Formulation,
    d: Derived,
) -> Equations {
    let g = &mut low.graph;
    g.set_stage("the derivatives of the right-hand side (rhs_jvp, energy, power balance)");
    let at_psi: HashMap<u32, Id> = low
        .syms
        .qd
        .iter()
        .copied()
        .zip(d.qdot.iter().copied())
        .collect();
    let energy = g.subst(lt.energy, &at_psi);
    let mut text = d.text;
    text.prose("");
    text.entry("energy", energy);
    let mass_matrix_a = Mat::from_rows(&lt.mass_matrix_a, lt.mass_matrix_a.len());
    let jvp = jacobian::first_method(g, &low.syms, &d.qdot, &d.mass_matrix_g, &d.forcing);
    // parameters that enter only the forces: T, V, the constraints, psi and G free of them
    let mut fixed = vec![low.kinetic, low.potential];
    fixed.extend(&low.constraints);
    fixed.extend(&d.qdot);
    fixed.extend(&d.mass_matrix_g.e);
    let param_inputs: Vec<bool> = low
        .syms
        .params
        .iter()
        .map(|p| !fixed.iter().any(|e| g.depends_on(*e, *p)))
        .collect();
    let param_jvp = jacobian::first_method_params(
        g,
        &low.syms,
        &param_inputs,
        (&d.qdot, &d.mass_matrix_g, &d.forcing),
    );
    let power = jacobian::power_terms(low, lt, &d.qdot);
    let g = &mut low.graph;
    let nz = d.forcing.len();
    let solved_alone = (0..nz)
        .map(|a| {
            let alone = (0..nz).all(|b| b == a || g.is_zero(d.mass_matrix_g.at(a, b)));
            alone.then(|| g.div(d.forcing[a], d.mass_matrix_g.at(a, a)))
        })
        .collect();
    Equations {
        formulation,
        speed_names: d.speed_names,
        energy,
        constraints: low.constraints.clone(),
        text,
        layout: Layout::First(Box::new(FirstMethod {
            qdot: d.qdot,
            psi_z: d.psi_z,
            mass_matrix_a,
            mass_matrix_g: d.mass_matrix_g,
            forcing: d.forcing,
            solved_alone,
            speeds_from_qdot: d.speeds_from_qdot,
            terms: d.terms,
            jvp,
            param_jvp,
            param_inputs,
            power,
        })),
    }
}
