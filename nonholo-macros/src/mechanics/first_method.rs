//! What every first-method formulation (state `[q, z]`, `dq/dt = psi(q, z, t)`,
//! `G dz/dt = forcing`) shares once its G and forcing are derived: the energy on the
//! state and the power balance (the Jacobian-vector products need nothing symbolic: the
//! emitted `rhs_jvp` runs `rhs_generic` in dual numbers).

use super::lagrangian::LagrangeTerms;
use super::power::{self, PowerTerms};
use super::text::Text;
use super::{Equations, Layout, SpeedsFromQdot};
use crate::model::Lowered;
use crate::sym::HashMap;
use crate::sym::{Graph, Id, Mat};

/// The pieces of a first-method right-hand side.
pub struct FirstMethod {
    /// `dz/dt` by the articulated-body algorithm, which the right-hand side then computes
    /// instead of solving `G dz/dt = forcing` (G and the forcing stay for the rest).
    pub recursive: Option<super::recursive::Recursive>,
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
    /// `dz_a/dt` in closed form where there is one: `forcing_a / G_aa` for a speed whose row
    /// of G is zero off the diagonal, simplified (a mass that multiplies both cancels, as in
    /// Benenti's parallel points), or Gibbs–Appell's momentum form where that is smaller.
    pub explicit: Vec<Option<Id>>,
    /// Whether the speed's row of G is zero off the diagonal.
    pub alone: Vec<bool>,
    /// `forcing_a - sum_e G_ae dz_e/dt` over the explicit speeds e: what G's blocks of the
    /// other speeds are solved against (zero for an explicit speed).
    pub forcing_rest: Vec<Id>,
    pub speeds_from_qdot: SpeedsFromQdot,
    /// Named contributions whose sum is `-forcing` (Boltzmann–Hamel's Q, Lambda, N, ...),
    /// each with one entry per speed; empty when the formulation has no such split.
    pub terms: Vec<(String, Vec<Id>)>,
    pub power: PowerTerms,
}

#[cfg(test)]
impl FirstMethod {
    /// `dz/dt` solving `G dz/dt = forcing` evaluated at `env`: the tests' reference for the
    /// closed forms and the articulated-body algorithm.
    pub fn zdot_at(&self, g: &Graph, env: &[f64], memo: &mut HashMap<Id, f64>) -> Vec<f64> {
        let nz = self.forcing.len();
        let gm: Vec<Vec<f64>> = (0..nz)
            .map(|a| {
                (0..nz)
                    .map(|b| g.eval(self.mass_matrix_g.at(a, b), env, memo))
                    .collect()
            })
            .collect();
        let f: Vec<f64> = self.forcing.iter().map(|e| g.eval(*e, env, memo)).collect();
        crate::sym::linsolve::solve_dense(gm, f).expect("G regular")
    }
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
    /// Another exact form of `dz_a/dt` for some speeds decoupled in G (Gibbs–Appell's
    /// momentum form); the smaller of it and `forcing_a / G_aa` is emitted. Empty or `None`
    /// where there is none.
    pub momentum_form: Vec<Option<Id>>,
    /// Another exact form of `forcing_a` (Gibbs–Appell's projection in momentum form);
    /// the smaller is emitted. Empty or `None` where there is none.
    pub forcing_alt: Vec<Option<Id>>,
    pub text: Text,
    /// `dz/dt` by the articulated-body algorithm where the model is a tree of joints.
    pub recursive: Option<super::recursive::Recursive>,
}

#[cfg(test)]
thread_local! {
    /// Keep the articulated-body algorithm whatever its size (the tests of this thread).
    pub static KEEP_RECURSIVE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The Equations of a first-method formulation: `d` plus the energy at `dot(q) = psi`
/// (appended to the text) and the power balance.
pub fn complete(
    low: &mut Lowered,
    lt: &LagrangeTerms,
    formulation: crate::model::Formulation,
    d: Derived,
) -> Equations {
    let g = &mut low.graph;
    g.set_stage("the energy and the power balance");
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
    let g = &mut low.graph;
    let nz = d.forcing.len();
    let alone: Vec<bool> = (0..nz)
        .map(|a| (0..nz).all(|b| b == a || g.is_zero(d.mass_matrix_g.at(a, b))))
        .collect();
    let mut explicit: Vec<Option<Id>> = (0..nz)
        .map(|a| alone[a].then(|| g.div(d.forcing[a], d.mass_matrix_g.at(a, a))))
        .collect();
    choose_smaller(
        g,
        (&d.qdot, &d.mass_matrix_g, &d.forcing, &d.momentum_form),
        &mut explicit,
    );
    // what the speeds left to G's blocks are forced by once the explicit ones are known
    let zero = g.zero();
    let forcing = smaller_forcing(
        g,
        (&d.qdot, &d.mass_matrix_g, &d.forcing, &d.forcing_alt),
        &explicit,
    );
    // what the emitted code computes where it differs from the rows above
    let momentum: Vec<usize> = (0..nz)
        .filter(|a| explicit[*a].is_some() && d.momentum_form.get(*a) == Some(&explicit[*a]))
        .collect();
    let projected: Vec<usize> = (0..nz).filter(|a| forcing[*a] != d.forcing[*a]).collect();
    if !momentum.is_empty() || !projected.is_empty() {
        text.prose(
            "\nemitted in momentum form, d/dt(w^T p) = (dw/dt)^T p + w^T (dL/dq + F) along an admissible w:",
        );
        for a in momentum {
            if let Some(e) = explicit[a] {
                text.entry(format!("d{}/dt", d.speed_names[a]), e);
            }
        }
        for a in projected {
            text.entry(format!("(G dz/dt)[{}]", d.speed_names[a]), forcing[a]);
        }
    }
    // the closed forms enter the other rows as atoms: `G_ae dz_e/dt` is then one product of
    // the value the rhs computes anyway, not G_ae multiplied into every term of it
    let explicit_atoms: Vec<Option<Id>> = explicit
        .iter()
        .enumerate()
        .map(|(e, ze)| ze.map(|ze| g.define_if_large(&format!("d{}/dt", d.speed_names[e]), ze, 8)))
        .collect();
    let forcing_rest: Vec<Id> = (0..nz)
        .map(|a| {
            if explicit[a].is_some() {
                return zero;
            }
            let mut parts = vec![forcing[a]];
            for (e, ze) in explicit_atoms.iter().enumerate() {
                if let (Some(ze), false) = (ze, g.is_zero(d.mass_matrix_g.at(a, e))) {
                    let t = g.mul(d.mass_matrix_g.at(a, e), *ze);
                    parts.push(g.neg(t));
                }
            }
            g.add_all(&parts)
        })
        .collect();
    // the articulated-body algorithm where its code is smaller than G's route (G, its
    // forcing and their solve, an LDL^T of the coupled block at about k^3/3 operations)
    #[cfg(test)]
    let keep = KEEP_RECURSIVE.with(std::cell::Cell::get);
    #[cfg(not(test))]
    let keep = false;
    let recursive = d.recursive.filter(|r| {
        if keep {
            return true;
        }
        let done = g.reachable(&d.qdot);
        let mut outputs: Vec<Id> = d.mass_matrix_g.e.clone();
        outputs.extend(&forcing_rest);
        outputs.extend(explicit.iter().flatten());
        let coupled = alone.iter().filter(|a| !**a).count() as u32;
        let by_g = g.ops_outside(&outputs, &done) + coupled.pow(3) / 3 + coupled.pow(2);
        let mut aba = r.accelerations.clone();
        aba.extend(&r.pivots);
        g.ops_outside(&aba, &done) < by_g
    });
    let given = recursive
        .as_ref()
        .and_then(|r| Some((r.zdot.as_slice(), r.reactions.as_deref()?)));
    let power = power::power_terms(low, lt, &d.qdot, given);
    if let Some(r) = &recursive {
        text.prose(format!(
            "\nemitted: dz/dt by the articulated-body algorithm (Featherstone 2008, table 7.1), {} joints on a root of {} speeds",
            r.pivots.len(),
            nz - r.pivots.len()
        ));
    }
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
            explicit,
            alone,
            forcing_rest,
            speeds_from_qdot: d.speeds_from_qdot,
            terms: d.terms,
            power,
            recursive,
        })),
    }
}

/// The smaller (`Graph::ops_outside`) of a speed's two forms, beyond what the rest of the
/// right-hand side computes anyway: psi, G and the other rows (their closed form where they
/// have one).
fn smaller_of(
    g: &Graph,
    (qdot, mass_matrix_g): (&[Id], &Mat),
    (rows, explicit): (&[Id], &[Option<Id>]),
    a: usize,
    (current, other): (Id, Id),
) -> Id {
    let mut base: Vec<Id> = qdot.to_vec();
    base.extend(&mass_matrix_g.e);
    for (b, f) in rows.iter().enumerate() {
        if b != a {
            base.push(explicit[b].unwrap_or(*f));
        }
    }
    let done = g.reachable(&base);
    if g.ops_outside(&[other], &done) < g.ops_outside(&[current], &done) {
        other
    } else {
        current
    }
}

/// Each speed's forcing in the smaller of its two forms (`Derived::forcing_alt`), in order.
fn smaller_forcing(
    g: &Graph,
    (qdot, mass_matrix_g, forcing, alt): (&[Id], &Mat, &[Id], &[Option<Id>]),
    explicit: &[Option<Id>],
) -> Vec<Id> {
    let mut out = forcing.to_vec();
    for a in 0..out.len() {
        if let (None, Some(Some(other))) = (explicit[a], alt.get(a)) {
            out[a] = smaller_of(
                g,
                (qdot, mass_matrix_g),
                (&out, explicit),
                a,
                (out[a], *other),
            );
        }
    }
    out
}

/// Where a speed has a second form of `dz_a/dt` (`Derived::momentum_form`), keep the
/// smaller, speed by speed in order: against `forcing_a / G_aa` for a speed alone in G, else
/// against `forcing_a` (which its block's solve needs).
fn choose_smaller(
    g: &Graph,
    (qdot, mass_matrix_g, forcing, momentum_form): (&[Id], &Mat, &[Id], &[Option<Id>]),
    explicit: &mut [Option<Id>],
) {
    for a in 0..explicit.len() {
        if let Some(Some(other)) = momentum_form.get(a) {
            let current = explicit[a].unwrap_or(forcing[a]);
            let kept = smaller_of(
                g,
                (qdot, mass_matrix_g),
                (forcing, explicit),
                a,
                (current, *other),
            );
            if kept == *other {
                explicit[a] = Some(kept);
            }
        }
    }
}
