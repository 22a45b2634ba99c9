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
//!
//! The same equations projected along an admissible direction `w` read, with the momenta
//! `p = dT/d dot(q)`, `d/dt (w^T p) = (dw/dt)^T p + w^T (dL/dq + F)`: no time derivative of
//! A. Where that form is smaller it is what the emitted code computes — in closed form for a
//! speed that is a momentum (Talamucci's eta, `dL*/d dot(q_i)`), and as the forcing row of
//! any other speed (`w` its column of `psi_z`); `EQUATIONS` lists those rows.

use super::first_method::{self, Derived};
use super::lagrangian::LagrangeTerms;
use super::text::Text;
use super::{velocities, Equations};
use crate::ctxt::Ctxt;
use crate::model::{Formulation, Lowered, Parametrization};
use crate::sym::linsolve::{probably_zero, rank_columns, solve_dense, solve_named, RandomPoints};
use crate::sym::HashMap;
use crate::sym::{Graph, Id, Mat, Node};

/// Large pieces become auxiliary atoms (`Graph::define`): the contractions then stay
/// small instead of expanding products of long sums, and the generated code computes
/// each piece once. Small pieces stay inline so that simplification (e.g. sin^2 + cos^2
/// = 1 in G) still sees them.
const INLINE: u32 = 24;
/// The size above which a velocity free of the speeds (a driven motion) is an atom.
const DRIVEN_INLINE: u32 = 4;

pub fn derive(low: &mut Lowered, lt: &LagrangeTerms, cx: &Ctxt) -> Option<Equations> {
    let kin = velocities::kinematics(low, cx)?;
    let g = &mut low.graph;
    let s = &low.syms;
    let coords = &low.names.coords;
    let psi = kin.psi;
    let psi_atoms: Vec<Id> = psi
        .iter()
        .enumerate()
        .map(|(i, p)| {
            // a velocity free of the speeds whose terms move with the configuration in
            // different ways is a driven motion like Talamucci's beta: named even when
            // small, so that T's square of it stays a square (3.2: 143 -> 99 operations).
            // Otherwise open below INLINE: terms cancel against others' (3.4's driven
            // contact `R cos(phi) phi1d(t)`, 3.3's velocities with speeds).
            let driven = !g.depends_on_any(*p, &s.z) && mixed_in_q(g, *p, &s.q);
            let small = if driven { DRIVEN_INLINE } else { INLINE };
            g.define_if_large(&format!("psi[{}]", coords[i]), *p, small)
        })
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
    );
    let a = Mat::from_rows(&lt.mass_matrix_a, psi.len());
    // G = psi_z^T (A psi_z) (Benenti 6.2), forcing = psi_z^T w.
    let a_psi_z = Mat::mul(g, &a, &psi_z);
    let (mass_matrix_g, forcing) = projections(g, &psi_z, (&a_psi_z, &w), (&psi_atoms, coords));
    let mass_matrix_g = super::hidden_zeros(g, &mass_matrix_g, true);
    let zero = g.zero();
    let forcing: Vec<Id> = forcing
        .into_iter()
        .map(|f| if probably_zero(g, f) { zero } else { f })
        .collect();
    // the momentum forms need speeds linear in the velocities: psi_z free of z
    // (body-wise Lagrange terms keep T undifferentiated: the momentum forms would not)
    let linear = lt.route != super::lagrangian::Route::BodyWise
        && (0..psi_z.r).all(|i| (0..psi_z.c).all(|a| !g.depends_on_any(psi_z.at(i, a), &s.z)));
    let mut momenta_psi = MomentaAtPsi::new(&lt.momenta, &s.qd, &psi_atoms);
    let directions = momentum_directions(
        g,
        (linear, &low.parametrization, &low.constraints),
        (&s.qd, &s.z),
        (&psi_z, &mass_matrix_g),
        &mut momenta_psi,
    );
    let momentum_form = momentum_projection(
        g,
        (low.kinetic, low.potential, &low.forces, &mut momenta_psi),
        (&s.q, &s.qd, &s.z, s.t),
        &psi_atoms,
        (&directions, true),
    );
    // the forcing of every speed the same way, along its own column of psi_z:
    // psi_z[., a]^T (dp/dt - dL/dq - F) = G_a. dz/dt + d/dt(psi_z[., a]^T p)|_(z frozen)
    // - (d psi_z[., a]/dt)^T p - psi_z[., a]^T (dL/dq + F)
    let columns: Vec<Option<Vec<Id>>> = (0..psi_z.c)
        .map(|a| linear.then(|| (0..psi_z.r).map(|i| psi_z.at(i, a)).collect()))
        .collect();
    let forcing_alt = momentum_projection(
        g,
        (low.kinetic, low.potential, &low.forces, &mut momenta_psi),
        (&s.q, &s.qd, &s.z, s.t),
        &psi_atoms,
        (&columns, false),
    );

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

    // the articulated-body algorithm, where the bodies form a tree of joints
    let recursive = low.tree.as_deref_mut().and_then(|src| {
        super::recursive::derive(
            &mut low.graph,
            &low.syms,
            &low.rigid,
            src,
            (&psi, &psi_atoms),
            &low.forces,
        )
    });
    let d = Derived {
        recursive,
        qdot: psi,
        psi_z,
        mass_matrix_g,
        forcing,
        speeds_from_qdot: kin.inverse,
        speed_names: kin.speed_names,
        terms: Vec::new(),
        momentum_form,
        forcing_alt,
        text,
    };
    Some(first_method::complete(low, lt, Formulation::GibbsAppell, d))
}

/// Whether `e` is a sum whose terms depend on the coordinates `q` through different
/// factors (`v0 sin(phi) - yd(t) cos(phi)`, not `R cos(phi) (w0 + a cos(t))`).
fn mixed_in_q(g: &Graph, e: Id, q: &[u32]) -> bool {
    let (c, ts) = g.terms_of(e);
    let q_part = |t: Id| -> Vec<(Id, i32)> {
        match g.node(t) {
            Node::Mul(fs) => fs
                .iter()
                .copied()
                .filter(|(b, _)| g.depends_on_any(*b, q))
                .collect(),
            _ if g.depends_on_any(t, q) => vec![(t, 1)],
            _ => Vec::new(),
        }
    };
    let mut parts = ts.iter().map(|(_, t)| q_part(*t));
    let Some(first) = parts.next() else {
        return false;
    };
    (!c.is_zero() && !first.is_empty()) || parts.any(|p| p != first)
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
    let mut memo = HashMap::default();
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
            g.add_all(&parts)
        })
        .collect()
}

/// `G = psi_z^T (A psi_z)` and `psi_z^T w` (Benenti 6.2, 7.1), in the smaller of two exact
/// forms (`Graph::ops_outside` of both beyond psi): with the large entries of `A psi_z` and
/// `w` named (atoms keep the contractions small), or with them open, where cancellations
/// between rows show: a rolling contact's `cos(phi) w_x + sin(phi) w_y` folds its
/// `sin^2 + cos^2` only when `w_x` and `w_y` are sums (Talamucci 3.1's forcing of eta1
/// shrinks from 14 to 4 terms). The open form is only tried while it stays small.
fn projections(
    g: &mut Graph,
    psi_z: &Mat,
    (a_psi_z, w): (&Mat, &[Id]),
    (psi_atoms, coords): (&[Id], &[String]),
) -> (Mat, Vec<Id>) {
    let named_a = a_psi_z.map(g, |g, e| g.define_if_large("A_psi_z", e, INLINE));
    let named_w: Vec<Id> = w
        .iter()
        .enumerate()
        .map(|(i, e)| g.define_if_large(&format!("w[{}]", coords[i]), *e, INLINE))
        .collect();
    let size: u32 = a_psi_z.e.iter().chain(w).map(|e| g.tree_size(*e)).sum();
    let g_named = symmetric_product(g, psi_z, &named_a);
    let f_named = Mat::tmul(g, psi_z, &Mat::col(&named_w)).e;
    if size > OPEN_LIMIT {
        return (g_named, f_named);
    }
    let g_open = symmetric_product(g, psi_z, a_psi_z);
    let f_open = Mat::tmul(g, psi_z, &Mat::col(w)).e;
    let done = g.reachable(psi_atoms);
    let mut best: Option<(u32, (Mat, Vec<Id>))> = None;
    for m in [&g_named, &g_open] {
        for f in [&f_named, &f_open] {
            let roots: Vec<Id> = m.e.iter().chain(f).copied().collect();
            let cost = g.ops_outside(&roots, &done);
            // an open form must save 5 %: the count is of the flat graph, not of the
            // factored program, and a tie would trade named pieces for longer code
            if best.as_ref().is_none_or(|(c, _)| cost * 20 < *c * 19) {
                best = Some((cost, (m.clone(), f.clone())));
            }
        }
    }
    best.map(|(_, b)| b).unwrap_or((g_named, f_named))
}

/// The largest total tree size of `A psi_z` and `w` for which [`projections`] tries the
/// open form (the paper models' are below 2000; a 10-trailer train's, 10^4 and more).
const OPEN_LIMIT: u32 = 4000;

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

/// For each speed `z_a`, an admissible direction `w(q, t)` (`alpha w = 0`) with
/// `z_a = w^T p - c(q, t)` along `dot(q) = psi` (`p` the momenta), where `w` is the
/// direction of an independent coordinate (Voronec's `e_i + sum_nu B^nu_i e_nu`): `z_a` is
/// that coordinate's momentum in the reduced Lagrangian (Talamucci's eta,
/// `dL*/d dot(q_i)`). Only for `speeds { .. }` linear in the velocities under linear
/// constraints; checked symbolically (`w^T p - z_a` must not depend on z).
fn momentum_directions(
    g: &mut Graph,
    (linear, parametrization, constraints): (bool, &Parametrization<Id>, &[Id]),
    (qd, z): (&[u32], &[u32]),
    (psi_z, mass_matrix_g): (&Mat, &Mat),
    momenta_psi: &mut MomentaAtPsi,
) -> Vec<Option<Vec<Id>>> {
    let (n, m) = (psi_z.r, psi_z.c);
    let mut out: Vec<Option<Vec<Id>>> = vec![None; m];
    let speeds_given = matches!(parametrization, Parametrization::Speeds(_));
    if !linear || !speeds_given || !constraints.iter().all(|c| g.affine_in(*c, qd)) {
        return out;
    }
    let alpha: Vec<Vec<Id>> = constraints
        .iter()
        .map(|c| g.affine_parts(*c, qd).0)
        .collect();
    // Numerically first (two random points), so that only a speed that is a momentum
    // costs symbolic work: the one admissible w with w^T p - z_a free of z is
    // psi_z G^-1 e_a; wanted is one that is 1 on a coordinate i and 0 on a set of others
    // that can be independent (the rest solvable from alpha).
    let mut points = RandomPoints::new(0x243F_6A88_85A3_08D3);
    let evals: Vec<[Dense; 3]> = (0..2)
        .map(|_| {
            let env = points.next_point(g);
            let mut memo = HashMap::default();
            let mut ev = |m: &Mat| -> Vec<Vec<f64>> {
                (0..m.r)
                    .map(|i| {
                        (0..m.c)
                            .map(|j| g.eval(m.at(i, j), &env, &mut memo))
                            .collect()
                    })
                    .collect()
            };
            let (pz, gm) = (ev(psi_z), ev(mass_matrix_g));
            let al = alpha
                .iter()
                .map(|row| row.iter().map(|e| g.eval(*e, &env, &mut memo)).collect())
                .collect();
            [pz, gm, al]
        })
        .collect();
    let zero = g.zero();
    let one = g.one();
    for a in 0..m {
        let ws: Option<Vec<Vec<f64>>> = evals
            .iter()
            .map(|[pz, gm, _]| {
                let mut e_a = vec![0.0; m];
                e_a[a] = 1.0;
                let y = solve_dense(gm.clone(), e_a)?;
                Some(
                    (0..n)
                        .map(|i| (0..m).map(|b| pz[i][b] * y[b]).sum())
                        .collect(),
                )
            })
            .collect();
        let Some(ws) = ws else { continue };
        let tol = 1e-9;
        let Some(i) = (0..n).find(|i| ws.iter().all(|w| (w[*i] - 1.0).abs() < tol)) else {
            continue;
        };
        let support: Vec<usize> = (0..n)
            .filter(|j| *j != i && ws.iter().any(|w| w[*j].abs() > tol))
            .collect();
        // `support` dependent, then more from the last coordinate back, never i
        let order = support
            .iter()
            .copied()
            .chain((0..n).rev().filter(|j| *j != i && !support.contains(j)));
        let Some(dep) = rank_columns(&evals[0][2], order, support.len()) else {
            continue;
        };
        // the direction of coordinate i with `dep` dependent, symbolically
        let mut rows: Vec<Vec<Id>> = Vec::with_capacity(n);
        let mut rhs = Vec::with_capacity(n);
        for j in (0..n).filter(|j| !dep.contains(j)) {
            rows.push((0..n).map(|k| if k == j { one } else { zero }).collect());
            rhs.push(if j == i { one } else { zero });
        }
        for row in &alpha {
            rows.push(row.clone());
            rhs.push(zero);
        }
        let names: Vec<String> = (0..n).map(|j| format!("w{a}[{j}]")).collect();
        let Some(w) = solve_named(g, &rows, &rhs, &names) else {
            continue;
        };
        let p = momenta_psi.get(g).to_vec();
        let terms: Vec<Id> = (0..n).map(|j| g.mul(w[j], p[j])).collect();
        let wp = g.add_all(&terms);
        let za = g.sym(z[a]);
        let r = g.sub(wp, za);
        let free_of_z = z.iter().all(|zl| {
            let d = g.diff(r, *zl);
            probably_zero(g, d)
        });
        if free_of_z {
            out[a] = Some(w);
        }
    }
    out
}

/// A matrix evaluated at a point, by rows.
type Dense = Vec<Vec<f64>>;

/// `dz_a/dt` in momentum form for every speed with a direction from
/// [`momentum_directions`]: `z_a = w^T p - c(q, t)` along the motion, and Gibbs–Appell's
/// equation along the admissible `w`, `w^T (dp/dt - dT/dq + dV/dq - F) = 0` (Benenti 7.1
/// with `A dot(dot(q)) + h = dp/dt - dT/dq + dV/dq`), gives
///
/// ```text
/// dz_a/dt = (dw/dt)^T p + w^T (dT/dq - dV/dq + F) - dc/dt
/// ```
///
/// without the time derivative of A that `psi_z^T (F - h - A a0)` carries: for the momentum
/// of an unconstrained coordinate (3.4's eta1) `w` is a unit vector and only
/// `dL/dq_j + F_j` is left. `c` is `w^T p` at z = 0. Which form is emitted is decided by
/// size (`first_method::complete`).
fn momentum_projection(
    g: &mut Graph,
    (kinetic, potential, forces, momenta_psi): (Id, Id, &[Id], &mut MomentaAtPsi),
    (q, qd, z, t): (&[u32], &[u32], &[u32], u32),
    psi_atoms: &[Id],
    (directions, speeds_are_momenta): (&[Option<Vec<Id>>], bool),
) -> Vec<Option<Id>> {
    let n = q.len();
    if directions.iter().all(Option::is_none) {
        return vec![None; directions.len()];
    }
    let momenta_psi = momenta_psi.get(g).to_vec();
    let at_psi: HashMap<u32, Id> = qd.iter().copied().zip(psi_atoms.iter().copied()).collect();
    // dL/dq + F at dot(q) = psi, where a direction needs it
    let mut free: Vec<Option<Id>> = vec![None; n];
    let mut free_at = |g: &mut Graph, i: usize| -> Id {
        if let Some(f) = free[i] {
            return f;
        }
        let dt = g.diff(kinetic, q[i]);
        let dv = g.diff(potential, q[i]);
        let e = g.sub(dt, dv);
        let e = g.add(e, forces[i]);
        let f = g.subst(e, &at_psi);
        free[i] = Some(f);
        f
    };
    let mut along: HashMap<u32, Id> = q.iter().copied().zip(psi_atoms.iter().copied()).collect();
    let one = g.one();
    along.insert(t, one);
    let zero = g.zero();
    let at_rest: HashMap<u32, Id> = z.iter().map(|s| (*s, zero)).collect();
    let mut memo = HashMap::default();
    directions
        .iter()
        .map(|w| {
            let w = w.as_ref()?;
            let wp: Vec<Id> = (0..n).map(|i| g.mul(w[i], momenta_psi[i])).collect();
            let wp = g.add_all(&wp);
            // w^T p = z_a + c(q, t) for a momentum: d/dt at frozen z sees c alone
            let c = if speeds_are_momenta {
                g.subst(wp, &at_rest)
            } else {
                wp
            };
            let c = if probably_zero(g, c) { zero } else { c };
            let mut parts = Vec::with_capacity(2 * n + 1);
            for i in 0..n {
                let dw = g.directional(w[i], &along, &mut memo);
                if !probably_zero(g, dw) {
                    parts.push(g.mul(dw, momenta_psi[i]));
                }
                if !g.is_zero(w[i]) {
                    let f = free_at(g, i);
                    parts.push(g.mul(w[i], f));
                }
            }
            let dc = g.directional(c, &along, &mut memo);
            if !probably_zero(g, dc) {
                parts.push(g.neg(dc));
            }
            Some(g.add_all(&parts))
        })
        .collect()
}

/// The momenta at `dot(q) = psi`, substituted on first use only (most models never need
/// them, and the substitution adds nodes).
struct MomentaAtPsi {
    momenta: Vec<Id>,
    at_psi: HashMap<u32, Id>,
    value: Option<Vec<Id>>,
}

impl MomentaAtPsi {
    fn new(momenta: &[Id], qd: &[u32], psi_atoms: &[Id]) -> Self {
        Self {
            momenta: momenta.to_vec(),
            at_psi: qd.iter().copied().zip(psi_atoms.iter().copied()).collect(),
            value: None,
        }
    }

    fn get(&mut self, g: &mut Graph) -> &[Id] {
        if self.value.is_none() {
            self.value = Some(g.subst_many(&self.momenta, &self.at_psi));
        }
        self.value.as_deref().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use crate::ctxt::Ctxt;
    use crate::dsl::parse::parse_model;
    use crate::mechanics::{derive, Layout};
    use crate::sym::linsolve::RandomPoints;
    use crate::sym::HashMap;
    use crate::{check, lower};

    /// Talamucci's momentum speeds get `dz/dt` in closed form, small, and equal to what
    /// the full `G dz/dt = forcing` solve gives at random points (3.4's eta1 is alone in
    /// G; 3.3's eta1 is coupled to eta2). 3.4's `forcing / G_aa` takes 330 operations.
    #[test]
    fn momentum_speeds_in_closed_form() {
        for (model, most_ops) in [("AssignedSpin", 80), ("RollingDiskPendulum", 100)] {
            let cx = Ctxt::new();
            let src = crate::test_models::library_model(model);
            let parsed = parse_model(src.parse().expect("tokens"), &cx);
            let checked = check::check(parsed, &cx).expect("check");
            let mut low = lower::lower(&checked, &cx);
            let eq = derive(&mut low, &cx).expect("derive");
            let Layout::First(d) = &eq.layout else {
                panic!("{model}: a first-method layout")
            };
            let g = &low.graph;
            let eta1 = d.explicit[0].unwrap_or_else(|| panic!("{model}: eta1 in closed form"));
            let ops = g.ops_outside(&[eta1], &g.reachable(&d.qdot));
            assert!(
                ops <= most_ops,
                "{model}: {ops} operations: {}",
                g.display(eta1)
            );
            let mut points = RandomPoints::new(7);
            for _ in 0..5 {
                let env = points.next_point(g);
                let mut memo = HashMap::default();
                let zd = d.zdot_at(g, &env, &mut memo);
                let closed = g.eval(eta1, &env, &mut memo);
                assert!(
                    (closed - zd[0]).abs() <= 1e-10 * (1.0 + zd[0].abs()),
                    "{model}: {closed} against {}",
                    zd[0]
                );
            }
        }
    }
}
