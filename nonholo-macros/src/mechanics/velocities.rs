//! The parametrization of the admissible velocities, `dot(q) = psi(q, z, t)`
//! (Benenti's eq. 2.1; Talamucci's eq. 13 `dot(q) = Gamma (eta - psi) - Theta beta`).

use super::SpeedsFromQdot;
use crate::ctxt::Ctxt;
use crate::model::{Lowered, Parametrization};
use crate::sym::linsolve::{probably_zero, solve_named};
use crate::sym::HashMap;
use crate::sym::{Graph, Id};

pub struct Kinematics {
    /// `psi(q, z, t)`, one per coordinate.
    pub psi: Vec<Id>,
    pub inverse: SpeedsFromQdot,
    pub speed_names: Vec<String>,
}

pub fn kinematics(low: &mut Lowered, cx: &Ctxt) -> Option<Kinematics> {
    let n = low.syms.q.len();
    let qd = low.syms.qd.clone();
    match low.parametrization.clone() {
        Parametrization::Speeds(defs) => {
            let g = &mut low.graph;
            let mut ok = true;
            for (k, d) in defs.iter().enumerate() {
                if !g.affine_in(*d, &qd) {
                    cx.error_help(
                        low.sites.speeds[k],
                        format!("speed `{}` is not linear in the velocities", low.names.speeds[k]),
                        "quasi-velocities are z = Z(q,t) dot(q) + psi(q,t); for nonlinear maps use `velocities(..)`",
                    );
                    ok = false;
                }
            }
            for (a, c) in low.constraints.iter().enumerate() {
                if !g.affine_in(*c, &qd) {
                    cx.error_help(
                        low.sites.constraints[a],
                        "`speeds` needs constraints linear (affine) in the velocities",
                        "write nonlinear constraints with `velocities(..) { dot(q) = ... }` (Benenti's parametric form)",
                    );
                    ok = false;
                }
            }
            if !ok {
                return None;
            }
            let z: Vec<Id> = low.syms.z.iter().map(|s| g.sym(*s)).collect();
            let mut rows = Vec::with_capacity(n);
            let mut rhs = Vec::with_capacity(n);
            for (k, d) in defs.iter().enumerate() {
                let (coef, psi0) = g.affine_parts(*d, &qd);
                rows.push(coef);
                rhs.push(g.sub(z[k], psi0));
            }
            for c in &low.constraints {
                let (coef, beta) = g.affine_parts(*c, &qd);
                rows.push(coef);
                rhs.push(g.neg(beta));
            }
            match solve_named(g, &rows, &rhs, &psi_names(&low.names.coords)) {
                Some(psi) => Some(Kinematics {
                    psi,
                    inverse: SpeedsFromQdot::Explicit(defs),
                    speed_names: low.names.speeds.clone(),
                }),
                None => {
                    cx.error_help(
                        low.sites.parametrization,
                        "the speeds and constraints do not determine the velocities: the matrix (Z; alpha) is singular",
                        "choose speeds independent of each other and of the constraints (Talamucci eq. 12)",
                    );
                    None
                }
            }
        }
        Parametrization::Velocities(psi) => {
            let g = &mut low.graph;
            let map: HashMap<u32, Id> = qd.iter().copied().zip(psi.iter().copied()).collect();
            let mut ok = true;
            for (a, c) in low.constraints.iter().enumerate() {
                let r = g.subst(*c, &map);
                if !probably_zero(g, r) {
                    cx.error_help(
                        low.sites.constraints[a],
                        "the `velocities(..)` parametrization does not satisfy this constraint",
                        format!(
                            "with dot(q) = psi(q, z, t) the constraint leaves {}",
                            g.display(r)
                        ),
                    );
                    ok = false;
                }
            }
            if !ok {
                return None;
            }
            let z = low.syms.z.clone();
            let linear = psi.iter().all(|p| g.affine_in(*p, &z));
            Some(Kinematics {
                psi,
                inverse: SpeedsFromQdot::Parametric { linear },
                speed_names: low.names.speeds.clone(),
            })
        }
        Parametrization::Independent { dependent } => independent(low, dependent.as_deref(), cx),
    }
}

/// Independent velocities: the dependent ones solved from the constraints.
fn independent(low: &mut Lowered, dependent: Option<&[usize]>, cx: &Ctxt) -> Option<Kinematics> {
    let n = low.syms.q.len();
    let qd = low.syms.qd.clone();
    let nc = low.constraints.len();
    let g = &mut low.graph;
    let linear = low.constraints.iter().all(|c| g.affine_in(*c, &qd));
    let parts: Vec<(Vec<Id>, Id)> = if linear {
        low.constraints
            .iter()
            .map(|c| g.affine_parts(*c, &qd))
            .collect()
    } else {
        vec![]
    };
    // Choose the dependent set.
    let dep: Vec<usize> = match dependent {
        Some(d) => d.to_vec(),
        None if nc == 0 => vec![],
        None if linear => match dependent_set(g, &parts, n) {
            Some(s) => s,
            None => {
                cx.error_help(
                    low.sites.parametrization,
                    "the constraints are not independent: no set of velocities can be solved from them",
                    "remove redundant constraints",
                );
                return None;
            }
        },
        None => vec![],
    };
    let auto_nonlinear = !linear && dependent.is_none() && nc > 0;
    let indep: Vec<usize> = (0..n).filter(|i| !dep.contains(i)).collect();
    let speed_names: Vec<String> = indep
        .iter()
        .map(|i| format!("dot({})", low.names.coords[*i]))
        .collect();
    let zsyms: Vec<u32> = if auto_nonlinear {
        vec![]
    } else {
        speed_names.iter().map(|s| g.new_symbol(s)).collect()
    };
    low.syms.z = zsyms.clone();
    let z: Vec<Id> = zsyms.iter().map(|s| g.sym(*s)).collect();
    let inverse = SpeedsFromQdot::Explicit(indep.iter().map(|i| g.sym(qd[*i])).collect());
    if nc == 0 {
        return Some(Kinematics {
            psi: z,
            inverse,
            speed_names,
        });
    }
    if linear {
        let mut rows = Vec::with_capacity(n);
        let mut rhs = Vec::with_capacity(n);
        let (zero, one) = (g.zero(), g.one());
        for (k, i) in indep.iter().enumerate() {
            rows.push((0..n).map(|j| if j == *i { one } else { zero }).collect());
            rhs.push(z[k]);
        }
        for (c, beta) in &parts {
            rows.push(c.clone());
            rhs.push(g.neg(*beta));
        }
        return match solve_named(g, &rows, &rhs, &psi_names(&low.names.coords)) {
            Some(psi) => Some(Kinematics {
                psi,
                inverse,
                speed_names,
            }),
            None => {
                cx.error_help(
                    low.sites.parametrization,
                    "the constraints cannot be solved for the dependent velocities",
                    "name solvable ones in `dependent { .. }`",
                );
                None
            }
        };
    }
    // Nonlinear: solve each constraint in turn for a velocity it is affine in.
    let mut psi: Vec<Option<Id>> = vec![None; n];
    for (k, i) in indep.iter().enumerate() {
        if dependent.is_some() {
            psi[*i] = Some(z[k]);
        }
    }
    let mut remaining: Vec<usize> = (0..nc).collect();
    let mut chosen: Vec<usize> = Vec::new();
    let candidates: Vec<usize> = match dependent {
        Some(d) => d.to_vec(),
        None => (0..n).rev().collect(),
    };
    let mut solved: HashMap<u32, Id> = HashMap::default();
    while let Some(pos) = remaining.first().copied() {
        let c = g.subst(low.constraints[pos], &solved);
        let mut found = None;
        for v in candidates.iter().filter(|v| !chosen.contains(v)) {
            let d1 = g.diff(c, qd[*v]);
            if probably_zero(g, d1) {
                continue;
            }
            let d2 = g.diff(d1, qd[*v]);
            if probably_zero(g, d2) {
                found = Some((*v, d1));
                break;
            }
        }
        let Some((v, d1)) = found else {
            cx.error_help(
                low.sites.constraints[pos],
                "this nonlinear constraint cannot be solved in closed form for a dependent velocity",
                "give the parametric form instead: `velocities(z1, ..) { dot(q) = ...; }` (Benenti's first method)",
            );
            return None;
        };
        let zero = g.zero();
        let at0 = g.subst(c, &HashMap::from_iter([(qd[v], zero)]));
        let num = g.neg(at0);
        let sol = g.div(num, d1);
        let upd: HashMap<u32, Id> = HashMap::from_iter([(qd[v], sol)]);
        for val in solved.values_mut() {
            *val = g.subst(*val, &upd);
        }
        solved.insert(qd[v], sol);
        chosen.push(v);
        remaining.remove(0);
    }
    if dependent.is_none() {
        // Independent speeds are the velocities not chosen; rename accordingly.
        let indep: Vec<usize> = (0..n).filter(|i| !chosen.contains(i)).collect();
        let names: Vec<String> = indep
            .iter()
            .map(|i| format!("dot({})", low.names.coords[*i]))
            .collect();
        let zs: Vec<u32> = names.iter().map(|s| g.new_symbol(s)).collect();
        low.syms.z = zs.clone();
        let z: Vec<Id> = zs.iter().map(|s| g.sym(*s)).collect();
        let map: HashMap<u32, Id> = indep.iter().zip(&z).map(|(i, zi)| (qd[*i], *zi)).collect();
        let psi: Vec<Id> = (0..n)
            .map(|i| match solved.get(&qd[i]) {
                Some(e) => g.subst(*e, &map),
                None => map[&qd[i]],
            })
            .collect();
        let inverse = SpeedsFromQdot::Explicit(indep.iter().map(|i| g.sym(qd[*i])).collect());
        return Some(Kinematics {
            psi,
            inverse,
            speed_names: names,
        });
    }
    let map: HashMap<u32, Id> = indep.iter().zip(&z).map(|(i, zi)| (qd[*i], *zi)).collect();
    let psi: Vec<Id> = (0..n)
        .map(|i| match (psi[i], solved.get(&qd[i])) {
            (Some(p), _) => p,
            (None, Some(e)) => g.subst(*e, &map),
            (None, None) => g.zero(),
        })
        .collect();
    Some(Kinematics {
        psi,
        inverse,
        speed_names,
    })
}

/// The dependent velocities of linear constraints `alpha dot(q) + beta = 0` (`parts`: the
/// rows of alpha with beta): the set whose minor of alpha is a nonzero number if one is,
/// else the smallest; by rank at a random point for many constraints. `None` when alpha
/// has no invertible minor.
fn dependent_set(g: &mut Graph, parts: &[(Vec<Id>, Id)], n: usize) -> Option<Vec<usize>> {
    let nc = parts.len();
    if nc == 0 {
        return Some(vec![]);
    }
    if nc > EXHAUSTIVE_MAX {
        return numeric_dependent_set(g, parts, n);
    }
    let mut best: Option<(Vec<usize>, (bool, u32))> = None;
    for set in subsets(n, nc) {
        let minor: Vec<Vec<Id>> = parts
            .iter()
            .map(|(c, _)| set.iter().map(|j| c[*j]).collect())
            .collect();
        let d = det_small(g, &minor);
        if probably_zero(g, d) {
            continue;
        }
        let key = (g.as_number(d).is_none(), g.tree_size(d));
        if best.as_ref().is_none_or(|(_, k)| key < *k) {
            best = Some((set, key));
        }
    }
    best.map(|(s, _)| s)
}

/// Up to this many constraints the dependent set is chosen among all C(n, nc) sets (the
/// numerically safest minor); beyond, that enumeration (and its Laplace determinants) would
/// grow exponentially, and the set is chosen by rank at a random point instead.
const EXHAUSTIVE_MAX: usize = 4;

/// The dependent velocities of a large linear system: columns of the constraint matrix
/// `alpha` taken greedily from the last coordinate back whenever they raise the rank of
/// `alpha` evaluated at pseudo-random values of every symbol (later coordinates read as
/// dependent, as in the exhaustive choice). `None` when alpha has not full row rank there.
fn numeric_dependent_set(g: &Graph, parts: &[(Vec<Id>, Id)], n: usize) -> Option<Vec<usize>> {
    let env = crate::sym::linsolve::RandomPoints::new(0x5DEE_CE66_D1CE_4E5B).next_point(g);
    let mut memo = HashMap::default();
    let alpha: Vec<Vec<f64>> = parts
        .iter()
        .map(|(row, _)| row.iter().map(|e| g.eval(*e, &env, &mut memo)).collect())
        .collect();
    crate::sym::linsolve::rank_columns(&alpha, (0..n).rev(), 0)
}

/// Names of the atoms of psi: `psi[x]` for `dot(x)`.
fn psi_names(coords: &[String]) -> Vec<String> {
    coords.iter().map(|c| format!("psi[{c}]")).collect()
}

fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    fn rec(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            rec(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    rec(0, n, k, &mut cur, &mut out);
    // Prefer later coordinates as dependent (earlier ones read as the "free" motion).
    out.reverse();
    out
}

fn det_small(g: &mut Graph, a: &[Vec<Id>]) -> Id {
    let k = a.len();
    if k == 0 {
        return g.one();
    }
    let mut parts = Vec::new();
    for c in 0..k {
        if g.is_zero(a[0][c]) {
            continue;
        }
        let minor: Vec<Vec<Id>> = a[1..]
            .iter()
            .map(|row| {
                row.iter()
                    .enumerate()
                    .filter(|(j, _)| *j != c)
                    .map(|(_, x)| *x)
                    .collect()
            })
            .collect();
        let d = det_small(g, &minor);
        let t = g.mul(a[0][c], d);
        parts.push(if c % 2 == 0 { t } else { g.neg(t) });
    }
    g.add_all(&parts)
}
