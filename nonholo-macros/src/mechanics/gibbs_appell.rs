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

use super::lagrangian::LagrangeTerms;
use super::velocities::Kinematics;
use super::Derived;
use crate::sym::linsolve::probably_zero;
use crate::sym::lower::Lowered;
use crate::sym::Id;
use std::collections::HashMap;
use std::fmt::Write;

pub fn derive(
    low: &mut Lowered,
    lt: &LagrangeTerms,
    kin: Kinematics,
    name: &str,
    coords: &[String],
) -> Derived {
    let g = &mut low.graph;
    let s = &low.syms;
    let n = s.q.len();
    let m = s.z.len();
    let psi = kin.psi;
    // Large pieces become auxiliary atoms (`Graph::define`): the contractions below then
    // stay small instead of expanding products of long sums, and the generated code
    // computes each piece once. Small pieces stay inline so that simplification (e.g.
    // sin^2 + cos^2 = 1 in G) still sees them.
    const INLINE: u32 = 24;
    let psi_atoms: Vec<Id> = psi
        .iter()
        .enumerate()
        .map(|(i, p)| g.define_if_large(&format!("dot({})", coords[i]), *p, INLINE))
        .collect();
    let at_psi: HashMap<u32, Id> =
        s.qd.iter()
            .copied()
            .zip(psi_atoms.iter().copied())
            .collect();

    // psi_z (n x m) and the velocity-independent part of the acceleration,
    // a0 = psi_q psi + psi_t (Benenti's a_0 of eq. 3.5, plus the rheonomic psi_t).
    let psi_z: Vec<Vec<Id>> = psi
        .iter()
        .enumerate()
        .map(|(i, p)| {
            s.z.iter()
                .enumerate()
                .map(|(a, z)| {
                    let d = g.diff(*p, *z);
                    g.define_if_large(
                        &format!("psi_z[{},{}]", coords[i], kin.speed_names[a]),
                        d,
                        INLINE,
                    )
                })
                .collect()
        })
        .collect();
    // a0 is the derivative of psi along the motion at frozen z: forward mode in the
    // direction (dq, dz, dt) = (psi, 0, 1), sharing sub-derivatives (of the atoms too).
    let mut along: HashMap<u32, Id> = s.q.iter().copied().zip(psi_atoms.iter().copied()).collect();
    let one = g.one();
    along.insert(s.t, one);
    let mut memo = HashMap::new();
    let a0: Vec<Id> = psi
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let e = g.directional(*p, &along, &mut memo);
            g.define_if_large(&format!("a0[{}]", coords[i]), e, INLINE)
        })
        .collect();
    let a = &lt.mass_matrix_a;
    // w = F - h - A a0 at qd = psi.
    let h_psi = g.subst_many(&lt.h, &at_psi);
    let f_psi = g.subst_many(&low.forces, &at_psi);
    let w: Vec<Id> = (0..n)
        .map(|i| {
            let mut parts = Vec::with_capacity(n + 2);
            parts.push(f_psi[i]);
            parts.push(g.neg(h_psi[i]));
            for j in 0..n {
                let t = g.mul(a[i][j], a0[j]);
                parts.push(g.neg(t));
            }
            let e = g.add_all(&parts);
            g.define_if_large(&format!("w[{}]", coords[i]), e, INLINE)
        })
        .collect();
    // A psi_z (n x m), then G = psi_z^T (A psi_z).
    let a_psi_z: Vec<Vec<Id>> = (0..n)
        .map(|i| {
            (0..m)
                .map(|b| {
                    let parts: Vec<Id> = (0..n).map(|j| g.mul(a[i][j], psi_z[j][b])).collect();
                    g.add_all(&parts)
                })
                .collect()
        })
        .collect();
    let mut mass_matrix_g = vec![Vec::with_capacity(m); m];
    for al in 0..m {
        for be in 0..m {
            let e = if be < al {
                mass_matrix_g[be][al]
            } else {
                let parts: Vec<Id> = (0..n)
                    .map(|i| g.mul(psi_z[i][al], a_psi_z[i][be]))
                    .collect();
                g.add_all(&parts)
            };
            mass_matrix_g[al].push(e);
        }
    }
    let forcing: Vec<Id> = (0..m)
        .map(|al| {
            let parts: Vec<Id> = (0..n).map(|i| g.mul(psi_z[i][al], w[i])).collect();
            g.add_all(&parts)
        })
        .collect();
    // Zeros hidden behind atoms (e.g. the block structure of G with momenta as speeds):
    // found numerically, then written as exact zeros so no work is spent on them.
    let zero = g.zero();
    for al in 0..m {
        for be in 0..m {
            if al != be
                && !g.is_zero(mass_matrix_g[al][be])
                && probably_zero(g, mass_matrix_g[al][be])
            {
                mass_matrix_g[al][be] = zero;
            }
        }
    }
    let forcing: Vec<Id> = forcing
        .into_iter()
        .map(|f| if probably_zero(g, f) { zero } else { f })
        .collect();
    // Energy: qd . p - T + V at qd = psi.
    let mut parts = Vec::with_capacity(n + 2);
    for i in 0..n {
        let qd = g.sym(s.qd[i]);
        parts.push(g.mul(qd, lt.momenta[i]));
    }
    let kin_neg = g.neg(low.kinetic);
    parts.push(kin_neg);
    parts.push(low.potential);
    let e = g.add_all(&parts);
    let energy = g.subst(e, &at_psi);

    let mut text = String::new();
    let _ = writeln!(
        text,
        "{name}: Gibbs–Appell equations (Benenti's first method, eqs. 6.3/7.1, rheonomic form)"
    );
    let _ = writeln!(text, "coordinates q = ({})", coords.join(", "));
    let _ = writeln!(text, "speeds      z = ({})", kin.speed_names.join(", "));
    let _ = writeln!(text, "\ndq/dt = psi(q, z, t):");
    for (i, p) in psi.iter().enumerate() {
        let _ = writeln!(text, "  dot({}) = {}", coords[i], g.display(*p));
    }
    let aux: Vec<Id> = psi_z
        .iter()
        .flatten()
        .chain(&a0)
        .chain(&w)
        .copied()
        .collect();
    let mut shown = std::collections::HashSet::new();
    for x in aux {
        if let crate::sym::Node::Sym(sy) = g.node(x) {
            if let Some(def) = g.definition(*sy) {
                if shown.insert(*sy) {
                    if shown.len() == 1 {
                        let _ = writeln!(text, "\nwhere (evaluated once per call):");
                    }
                    let _ = writeln!(text, "  {} = {}", g.symbol_name(*sy), g.display(def));
                }
            }
        }
    }
    let _ = writeln!(text, "\nG = psi_z^T A psi_z:");
    for al in 0..m {
        for be in al..m {
            if !g.is_zero(mass_matrix_g[al][be]) {
                let _ = writeln!(
                    text,
                    "  G[{},{}] = {}",
                    kin.speed_names[al],
                    kin.speed_names[be],
                    g.display(mass_matrix_g[al][be])
                );
            }
        }
    }
    let _ = writeln!(text, "\nG dz/dt = psi_z^T (F - h - A (psi_q psi + psi_t)):");
    for al in 0..m {
        let _ = writeln!(
            text,
            "  [{}] {}",
            kin.speed_names[al],
            g.display(forcing[al])
        );
    }
    let _ = writeln!(text, "\nenergy = {}", g.display(energy));

    Derived {
        formulation: crate::check::Formulation::GibbsAppell,
        qdot: psi,
        psi_z,
        mass_matrix_a: lt.mass_matrix_a.clone(),
        mass_matrix_g,
        forcing,
        energy,
        constraints: low.constraints.clone(),
        speeds_from_qdot: kin.inverse,
        speed_names: kin.speed_names,
        equations: text,
        terms: Vec::new(),
    }
}
