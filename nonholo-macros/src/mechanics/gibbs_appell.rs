//! Gibbs–Appell in Benenti's explicit form (eqs. 6.3 and 7.1), generalized to the
//! rheonomic setting of Talamucci (T with A(q,t), b(q,t), c(q,t); constraints with
//! beta(q,t); speeds with psi(q,t)):
//!
//! ```text
//! dq/dt = psi(q, z, t)
//! G dz/dt = psi_z^T ( F - h - A (psi_q psi + psi_t) ),   G = psi_z^T A psi_z
//! ```
//!
//! evaluated at `dot(q) = psi`. Benenti's (6.1) drops the term `g_ij psi^i_h psi^h
//! psi^j_alpha` of the acceleration energy (it vanishes in all of his section 9); the
//! `A psi_q psi` term here keeps it, as the Gibbs function requires.

use super::first_method::{self, Derived};
use super::lagrangian::LagrangeTerms;
use super::text::Text;
use super::{velocities, Equations};
use crate::ctxt::Ctxt;
use crate::model::{Formulation, Lowered};
use crate::sym::linsolve::probably_zero;
use crate::sym::{Graph, Id, Mat};
use std::collections::HashMap;

/// Large pieces become auxiliary atoms (`Graph::define`): the contractions then stay
/// small instead of expanding products of long sums, and the generated code computes
/// each piece once. Small pieces stay inline so that simplification (e.g. sin^2 + cos^2
/// = 1 in G) still sees them.
const INLINE: u32 = 24;

pub fn derive(low: &mut Lowered, lt: &LagrangeTerms, cx: &Ctxt) -> Option<Equations> {
    let kin = velocities::kinematics(low, cx)?;
    let g = &mut low.graph;
    let s = &low.syms;
    let coords = &low.names.coords;
    let psi = kin.psi;
    let psi_atoms: Vec<Id> = psi
        .iter()
        .enumerate()
        .map(|(i, p)| g.define_if_large(&format!("psi[{}]", coords[i]), *p, INLINE))
        .collect();
    let psi_z = Mat::build(g, psi.len(), s.z.len(), |g, i, a| {
        let d = g.diff(psi[i], s.z[a]);
        g.define_if_large(
            &format!("psi_z[{},{}]", coords[i], kin.speed_names[a]),
            d,
            INLINE,
        )
    });
    let a0 = acceleration_a0(g, &psi, &psi_atoms, &s.q, s.t, coords);
    let w = free_forcing(
        g,
        (&low.forces, &lt.h),
        &lt.mass_matrix_a,
        &a0,
        &s.qd,
        &psi_atoms,
        coords,
    );
    let a = Mat::from_rows(&lt.mass_matrix_a, psi.len());
    // G = psi_z^T (A psi_z) (Benenti 6.2), forcing = psi_z^T w.
    let a_psi_z = Mat::mul(g, &a, &psi_z);
    let a_psi_z = a_psi_z.map(g, |g, e| g.define_if_large("A_psi_z", e, INLINE));
    let mass_matrix_g = symmetric_product(g, &psi_z, &a_psi_z);
    let forcing = Mat::tmul(g, &psi_z, &Mat::col(&w)).e;
    let mass_matrix_g = super::hidden_zeros(g, &mass_matrix_g, true);
    let zero = g.zero();
    let forcing: Vec<Id> = forcing
        .into_iter()
        .map(|f| if probably_zero(g, f) { zero } else { f })
        .collect();

    let names = &kin.speed_names;
    let mut text = Text::new(format!(
        "{}: Gibbs–Appell equations (Benenti's first method, eqs. 6.3/7.1, rheonomic form)",
        low.names.model
    ));
    text.prose(format!("coordinates q = ({})", coords.join(", ")));
    text.prose(format!("speeds      z = ({})", names.join(", ")));
    text.prose("\ndq/dt = psi(q, z, t):");
    let dots: Vec<String> = coords.iter().map(|c| format!("dot({c})")).collect();
    for (i, p) in psi.iter().enumerate() {
        text.entry(dots[i].clone(), *p);
    }
    text.prose("\nG = psi_z^T A psi_z:");
    text.symmetric(g, "G", &mass_matrix_g, names);
    text.prose("\nG dz/dt = psi_z^T (F - h - A (psi_q psi + psi_t)):");
    text.rows("(G dz/dt)", &forcing, names);

    let d = Derived {
        qdot: psi,
        psi_z,
        mass_matrix_g,
        forcing,
        speeds_from_qdot: kin.inverse,
        speed_names: kin.speed_names,
        terms: Vec::new(),
        text,
    };
    Some(first_method::complete(low, lt, Formulation::GibbsAppell, d))
}

/// `a0 = psi_q psi + psi_t` (Benenti's a_0 of eq. 3.5 plus the rheonomic psi_t): the
/// derivative of psi along the motion at frozen z, by forward mode in the direction
/// (dq, dz, dt) = (psi, 0, 1), sharing sub-derivatives (of the atoms too).
fn acceleration_a0(
    g: &mut Graph,
    psi: &[Id],
    psi_atoms: &[Id],
    q: &[u32],
    t: u32,
    coords: &[String],
) -> Vec<Id> {
    let mut along: HashMap<u32, Id> = q.iter().copied().zip(psi_atoms.iter().copied()).collect();
    let one = g.one();
    along.insert(t, one);
    let mut memo = HashMap::new();
    psi.iter()
        .enumerate()
        .map(|(i, p)| {
            let e = g.directional(*p, &along, &mut memo);
            g.define_if_large(&format!("a0[{}]", coords[i]), e, INLINE)
        })
        .collect()
}

/// `w = F - h - A a0` at `dot(q) = psi`: what `psi_z^T` projects (Benenti 7.1).
fn free_forcing(
    g: &mut Graph,
    (forces, h): (&[Id], &[Id]),
    a: &[Vec<Id>],
    a0: &[Id],
    qd: &[u32],
    psi_atoms: &[Id],
    coords: &[String],
) -> Vec<Id> {
    let at_psi: HashMap<u32, Id> = qd.iter().copied().zip(psi_atoms.iter().copied()).collect();
    let h_psi = g.subst_many(h, &at_psi);
    let f_psi = g.subst_many(forces, &at_psi);
    (0..a.len())
        .map(|i| {
            let mut parts = Vec::with_capacity(a.len() + 2);
            parts.push(f_psi[i]);
            parts.push(g.neg(h_psi[i]));
            for j in 0..a.len() {
                let t = g.mul(a[i][j], a0[j]);
                parts.push(g.neg(t));
            }
            let e = g.add_all(&parts);
            g.define_if_large(&format!("w[{}]", coords[i]), e, INLINE)
        })
        .collect()
}

/// `X^T Y` for a symmetric result (the lower triangle mirrors the upper).
fn symmetric_product(g: &mut Graph, x: &Mat, y: &Mat) -> Mat {
    let m = x.c;
    let mut out = Mat::zeros(g, m, m);
    for al in 0..m {
        for be in al..m {
            let parts: Vec<Id> = (0..x.r).map(|i| g.mul(x.at(i, al), y.at(i, be))).collect();
            let e = g.add_all(&parts);
            out.set(al, be, e);
            out.set(be, al, e);
        }
    }
    out
}
