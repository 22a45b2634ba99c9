//! Stage 4: the derivations of the equations of motion, behind one interface.
//!
//! Every formulation is a function of the same shape, [`FormulationFn`]: the lowered
//! model and its Lagrange terms in, one [`Equations`] out. First-method formulations
//! (state `[q, z]`) share the velocity map ([`velocities`]) and what [`first_method`]
//! adds to any `G dz/dt = forcing` (energy, power balance); the second method (state
//! `[q, dot(q)]`) is [`multipliers`]. Nothing here is differentiated for the Jacobians:
//! the emitted `rhs_jvp` runs `rhs_generic` in dual numbers.
//!
//! # Glossary (paper symbol -> code name)
//!
//! | paper | code | meaning |
//! | --- | --- | --- |
//! | q, dot(q) | `syms.q`, `syms.qd` | coordinates, velocities |
//! | z (Benenti), eta (Talamucci) | `syms.z`, "speeds" | independent speeds / quasi-velocities |
//! | psi(q, z, t) (Benenti 2.1) | `qdot` | the velocity map dot(q) = psi |
//! | psi^i_alpha, Gamma (Talamucci 12) | `psi_z` | d psi / d z |
//! | a_0 (Benenti 3.5) + psi_t | `a0` | psi_q psi + psi_t |
//! | g_ij, A (Talamucci 8) | `mass_matrix_a` | kinetic-energy matrix |
//! | G_ab (Benenti 6.2), A_Gamma (Talamucci 15) | `mass_matrix_g` | psi_z^T A psi_z |
//! | Gamma_jki qd qd + ... | `lt.h` | free Lagrange terms, A qdd + h = F |
//! | p_i | `lt.momenta` | dT / d dot(q)_i |
//! | psi (Talamucci 11) | `psi_eta` (boltzmann_hamel) | offset of eta = Z dot(q) + psi |
//! | alpha, beta (Talamucci 4) | `alpha`, `beta` | affine constraints alpha dot(q) + beta = 0 |
//! | Theta (Talamucci 12) | `theta` | (Z; alpha)^-1 = (Gamma Theta) |
//! | L_j (Benenti 7.3) | `lagrange_l` | F - h |
//! | C^a_i (Benenti 8.4) | `constraint_jacobian` | d C^a / d dot(q)_i |
//! | lambda_a, R (Benenti 8.6, 8.13) | `multipliers`, `reaction_forces` | multipliers, reactions |

pub mod boltzmann_hamel;
pub mod first_method;
pub mod gibbs_appell;
pub mod lagrangian;
pub mod multipliers;
pub mod power;
pub mod recursive;
pub mod rigid;
pub mod spatial;
pub mod text;
pub mod velocities;
pub mod voronec;

use crate::ctxt::Ctxt;
use crate::model::{Formulation, Lowered};
use crate::sym::{Id, Mat};
use lagrangian::LagrangeTerms;
pub use text::Text;

/// The one interface every formulation implements.
pub type FormulationFn = fn(&mut Lowered, &LagrangeTerms, &Ctxt) -> Option<Equations>;

/// Which function derives which formulation.
fn formulation_fn(f: Formulation) -> FormulationFn {
    match f {
        Formulation::GibbsAppell => gibbs_appell::derive,
        Formulation::BoltzmannHamel => boltzmann_hamel::derive,
        Formulation::Voronec => voronec::derive,
        Formulation::Multipliers => multipliers::derive,
    }
}

/// Derive the model's equations with its formulation; `None` after reporting in `cx`.
pub fn derive(low: &mut Lowered, cx: &Ctxt) -> Option<Equations> {
    low.graph
        .set_stage("the Lagrange terms (the mass matrix A, h, the forces)");
    let lt = lagrangian::lagrange_terms(low, cx)?;
    low.graph
        .set_stage("the equations of motion (the velocity map, G and the forcing)");
    let mut eq = formulation_fn(low.formulation)(low, &lt, cx)?;
    if let Layout::First(fm) = &mut eq.layout
        && fm.recursive.is_none()
    {
        ignorable_coordinates(&mut low.graph, &low.syms.q, fm);
    }
    if !low.contacts.contacts.is_empty() && !matches!(eq.layout, Layout::Second(_)) {
        // the rows' multipliers at run time, lambda = (C C^T)^-1 C R (the second method
        // solves for lambda itself)
        let c = Mat::jac(&mut low.graph, &Mat::col(&low.constraints), &low.syms.qd);
        low.contacts.jacobian = c.e;
        low.contacts.lambda_from_rows = true;
    }
    released(low, &lt);
    Some(eq)
}

/// The released model a sliding contact needs: for a model with `friction` on a contact
/// whose normal force is available (from its height row, or from the balance).
fn released(low: &mut Lowered, lt: &LagrangeTerms) {
    let ct = &low.contacts;
    let friction = ct.contacts.iter().any(|c| c.friction.is_some());
    let normals = ct.balanced || ct.contacts.iter().all(|c| c.height);
    if !friction || !normals {
        return;
    }
    let g = &mut low.graph;
    let s = &low.syms;
    if low.contacts.jacobian.is_empty() {
        let c = Mat::jac(g, &Mat::col(&low.constraints), &s.qd);
        low.contacts.jacobian = c.e;
    }
    let lagrange_l = (0..s.q.len())
        .map(|i| g.sub(low.forces[i], lt.h[i]))
        .collect();
    let drift = multipliers::drift(g, &low.constraints, &s.q, &s.qd, s.t);
    low.contacts.released = Some(crate::model::ReleasedTerms {
        mass_matrix_a: lt.mass_matrix_a.iter().flatten().copied().collect(),
        lagrange_l,
        drift,
    });
}

/// What every formulation produces.
pub struct Equations {
    pub formulation: Formulation,
    /// Names of the speeds: the user's, `dot(q)` for independent velocities and for
    /// the second method.
    pub speed_names: Vec<String>,
    /// Energy `dot(q) . p - T + V` (the Legendre transform of L) on the state.
    pub energy: Id,
    /// Constraint residuals `C(q, dot(q), t)`.
    pub constraints: Vec<Id>,
    /// The readable equations (`EQUATIONS`).
    pub text: Text,
    pub layout: Layout,
}

/// The state layout and the pieces code generation assembles the right-hand side from.
pub enum Layout {
    /// `[q, z]`: `dq/dt = psi(q, z, t)`, `G dz/dt = forcing`.
    First(Box<first_method::FirstMethod>),
    /// `[q, dot(q)]`: `A qdd = L + C_qd^T lambda`, `C_qd qdd = -drift`.
    Second(Box<multipliers::SecondMethod>),
}

/// How `state_from_qdot` recovers the speeds from velocities.
pub enum SpeedsFromQdot {
    /// `z = S(q, dot(q), t)` in closed form.
    Explicit(Vec<Id>),
    /// Benenti's parametric form: solve `psi(q, z, t) = dot(q)` for z by Gauss–Newton
    /// in the kinetic-energy metric (one step when psi is linear in z).
    Parametric { linear: bool },
}

/// `m` with the entries that are zero at random points (zeros hidden behind atoms, e.g.
/// the block structure of G with momenta as speeds) written as exact zeros.
pub fn hidden_zeros(g: &mut crate::sym::Graph, m: &Mat, keep_diagonal: bool) -> Mat {
    let zero = g.zero();
    let mut out = m.clone();
    for i in 0..m.r {
        for j in 0..m.c {
            let x = m.at(i, j);
            if (keep_diagonal && i == j) || g.is_zero(x) {
                continue;
            }
            if crate::sym::linsolve::probably_zero(g, x) {
                out.set(i, j, zero);
            }
        }
    }
    out
}

/// The coordinates the right-hand side's `G` and forcing do not depend on — Routh's
/// ignorable (cyclic) coordinates, like the heading of anything rolling on level ground —
/// set to zero in them. The velocity map keeps them; the dynamics is invariant along
/// them, yet its canonical forms only show that after `sin^2 + cos^2 = 1` across long sums
/// (the rattleback's G resolved in the ground's axes). Invariance is judged the way
/// [`hidden_zeros`] judges zeros: at pseudo-random points, moving one coordinate at a
/// time; the substituted pieces are checked against the originals at other points before
/// they replace them.
fn ignorable_coordinates(g: &mut crate::sym::Graph, q: &[u32], fm: &mut first_method::FirstMethod) {
    use crate::sym::linsolve::RandomPoints;
    use crate::sym::HashMap;
    let pieces: Vec<Id> = fm
        .mass_matrix_g
        .e
        .iter()
        .chain(&fm.forcing)
        .chain(&fm.forcing_rest)
        .chain(fm.explicit.iter().flatten())
        .copied()
        .collect();
    // each piece's value and the size of its terms at a point (one memo for all)
    let values = |g: &crate::sym::Graph, ids: &[Id], env: &[f64]| -> Vec<(f64, f64)> {
        let mut memo = HashMap::default();
        ids.iter()
            .map(|x| (g.eval(*x, env, &mut memo), g.eval_scale(*x, env, &mut memo)))
            .collect()
    };
    let same = |a: &[(f64, f64)], b: &[(f64, f64)]| {
        a.iter().zip(b).all(|((va, sa), (vb, sb))| {
            va.is_finite() && vb.is_finite() && (va - vb).abs() <= 1e-10 * sa.max(*sb).max(1.0)
        })
    };
    let mut points = RandomPoints::new(0x2545_F491_4F6C_DD1D);
    let envs: Vec<Vec<f64>> = (0..3).map(|_| points.next_point(g)).collect();
    let base: Vec<Vec<(f64, f64)>> = envs.iter().map(|e| values(g, &pieces, e)).collect();
    let mut map = HashMap::default();
    for &qi in q {
        // only the pieces that mention the coordinate can move with it
        let moving: Vec<usize> = (0..pieces.len())
            .filter(|&i| g.depends_on(pieces[i], qi))
            .collect();
        if moving.is_empty() {
            continue;
        }
        let ids: Vec<Id> = moving.iter().map(|&i| pieces[i]).collect();
        let invariant = envs.iter().zip(&base).all(|(env, at)| {
            let mut moved = env.clone();
            moved[qi as usize] += 0.7;
            let there: Vec<(f64, f64)> = moving.iter().map(|&i| at[i]).collect();
            same(&there, &values(g, &ids, &moved))
        });
        if invariant {
            let zero = g.zero();
            map.insert(qi, zero);
        }
    }
    if map.is_empty() {
        return;
    }
    let substituted = g.subst_many(&pieces, &map);
    let checked = (0..2).all(|_| {
        let env = points.next_point(g);
        same(&values(g, &pieces, &env), &values(g, &substituted, &env))
    });
    if !checked {
        // (the substituted nodes stay unreachable from the model's expressions)
        return;
    }
    let mut it = substituted.into_iter();
    for x in fm.mass_matrix_g.e.iter_mut() {
        *x = it.next().expect("one per piece");
    }
    for x in fm.forcing.iter_mut().chain(fm.forcing_rest.iter_mut()) {
        *x = it.next().expect("one per piece");
    }
    for x in fm.explicit.iter_mut().flatten() {
        *x = it.next().expect("one per piece");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::parse::parse_model;
    use crate::sym::linsolve::RandomPoints;
    use crate::sym::HashMap;
    use crate::{check, lower};

    /// The rattleback's G and forcing lose the heading (an ignorable coordinate that only
    /// sin^2 + cos^2 = 1 across sums would remove) and keep their values at random points,
    /// the heading among them; the velocity map keeps the heading.
    #[test]
    fn ignorable_coordinates_leave_the_dynamics() {
        let cx = Ctxt::new();
        let src = crate::test_models::library_model("Rattleback");
        // the same model lowered twice (the same symbols): derived as is, and reduced
        let lowered = || {
            let parsed = parse_model(src.parse().expect("tokens"), &cx);
            let checked = check::check(parsed, &cx).expect("check");
            lower::lower(&checked, &cx)
        };
        let (mut low_p, mut low_r) = (lowered(), lowered());
        let lt = lagrangian::lagrange_terms(&mut low_p, &cx).expect("Lagrange terms");
        let plain = gibbs_appell::derive(&mut low_p, &lt, &cx).expect("derive");
        let reduced = derive(&mut low_r, &cx).expect("derive");
        let (Layout::First(p), Layout::First(r)) = (&plain.layout, &reduced.layout) else {
            panic!("a first-method layout")
        };
        let (gp, gr) = (&low_p.graph, &low_r.graph);
        let pieces = |d: &first_method::FirstMethod| -> Vec<Id> {
            d.mass_matrix_g
                .e
                .iter()
                .chain(&d.forcing_rest)
                .copied()
                .collect()
        };
        let in_g = |g: &crate::sym::Graph, d: &first_method::FirstMethod, q: u32| {
            pieces(d).iter().any(|e| g.depends_on(*e, q))
        };
        for &q in &low_r.syms.q {
            let name = gr.symbol_name(q);
            match name {
                "x" | "y" => assert!(!in_g(gr, r, q), "{name}: absent"),
                "yaw" => assert!(in_g(gp, p, q) && !in_g(gr, r, q), "yaw: set to zero"),
                "roll" | "pitch" => assert!(in_g(gr, r, q), "{name}: kept"),
                _ => {}
            }
        }
        let yaw = low_r.syms.q[3];
        assert!(
            r.qdot.iter().any(|e| gr.depends_on(*e, yaw)),
            "the velocity map keeps yaw"
        );
        let big = if gp.symbol_count() > gr.symbol_count() {
            gp
        } else {
            gr
        };
        let mut points = RandomPoints::new(11);
        for _ in 0..4 {
            let env = points.next_point(big);
            let (mut mp, mut mr) = (HashMap::default(), HashMap::default());
            for (a, b) in pieces(p).iter().zip(pieces(r)) {
                let (va, vb) = (gp.eval(*a, &env, &mut mp), gr.eval(b, &env, &mut mr));
                assert!(
                    (va - vb).abs() <= 1e-11 * (1.0 + va.abs()),
                    "{va} against {vb}"
                );
            }
        }
    }
}
