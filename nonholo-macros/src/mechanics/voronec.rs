//! The Voronec equations for nonlinear, rheonomic constraints (Talamucci, "Rheonomic
//! systems with nonlinear nonholonomic constraints: the Voronec equations", §3).
//!
//! The coordinates split into m independent `q_1..q_m` and k dependent `q_{m+1}..q_n`;
//! the constraints are solved for the dependent velocities (eq. 2)
//!
//! ```text
//! dot(q_{m+nu}) = alpha_nu(q_1..q_n, dot(q_1)..dot(q_m), t),     nu = 1..k          (2)
//! ```
//!
//! and the state is `[q, z]` with `z = (dot(q_1)..dot(q_m))`. With the constrained
//! Lagrangian `L* = T* - V`, `T*` the kinetic energy at (2) (eq. 19), the equations of
//! motion are (eq. 20, the potential moved from the forces into L*)
//!
//! ```text
//! d/dt dL*/d dot(q_i) - dL*/dq_i - sum_nu dL*/dq_{m+nu} dalpha_nu/d dot(q_i)
//!     - sum_nu B_i^nu p_nu = F_i + sum_nu dalpha_nu/d dot(q_i) F_{m+nu},  i = 1..m  (20)
//!
//! B_i^nu = sum_r ( d2alpha_nu/d dot(q_i) dq_r dot(q_r)
//!                + d2alpha_nu/d dot(q_i) d dot(q_r) ddot(q_r) ) - dalpha_nu/dq_i
//!        + sum_mu ( d2alpha_nu/d dot(q_i) dq_{m+mu} alpha_mu
//!                 - dalpha_mu/d dot(q_i) dalpha_nu/dq_{m+mu} )
//!        + d2alpha_nu/d dot(q_i) dt                                                   (21)
//! ```
//!
//! where `p_nu = dT/d dot(q_{m+nu})` at (2), `d/dt` is the derivative along the motion
//! (`dot(q_{m+nu}) = alpha_nu`) and F are the non-potential generalized forces. The
//! virtual displacements are `(e_i, dalpha/d dot(q_i))` (eq. 10), the same as Gibbs–Appell's
//! `psi_z`, so the two formulations give the same motions.
//!
//! Collecting the accelerations, `G dz/dt = forcing` with
//!
//! ```text
//! G_ir = d2L*/d dot(q_i) d dot(q_r) - sum_nu p_nu d2alpha_nu/d dot(q_i) d dot(q_r)
//! ```
//!
//! — the Hessian of L* corrected by the `ddot(q_r)` terms of `B_i^nu`. This is the
//! coefficient `C_i^r` of the explicit form (eqs. 14–15), `psi_z^T A psi_z`: for nonlinear
//! constraints `d2L*/dz2` alone is not the mass matrix (Proposition 4.1, terms (i)).
//!
//! Čaplygin case (end of §3, eq. 26 in the linear stationary case): when T, V and the
//! `alpha_nu` do not contain the dependent coordinates, `dL*/dq_{m+nu} = 0`, the `d/dt`
//! loses its `alpha_mu d/dq_{m+mu}` part and (21) loses its `sum_mu` line:
//!
//! ```text
//! d/dt dL*/d dot(q_i) - dL*/dq_i - sum_nu B_i^nu p_nu = F_i + sum_nu dalpha_nu/d dot(q_i) F_{m+nu}
//! B_i^nu = sum_r ( d2alpha_nu/d dot(q_i) dq_r dot(q_r)
//!                + d2alpha_nu/d dot(q_i) d dot(q_r) ddot(q_r) ) - dalpha_nu/dq_i
//!        + d2alpha_nu/d dot(q_i) dt
//! ```
//!
//! (if the forces do not contain them either, these m equations close on their own).

use super::first_method::{self, Derived};
use super::lagrangian::LagrangeTerms;
use super::text::Text;
use super::velocities::{self, Kinematics};
use super::Equations;
use crate::ctxt::Ctxt;
use crate::model::{Formulation, Lowered};
use crate::sym::linsolve::probably_zero;
use crate::sym::HashMap;
use crate::sym::{Graph, Id, Mat};

/// Solve the dependent velocities (eq. 2) and derive the Voronec equations; the
/// parametrization was checked against [`Formulation::rejects`] (independent velocities).
pub fn derive(low: &mut Lowered, lt: &LagrangeTerms, cx: &Ctxt) -> Option<Equations> {
    let kin = velocities::kinematics(low, cx)?;
    let mut d = equations(low, lt, kin);
    // the same dz/dt by the articulated-body algorithm where the bodies form a tree
    d.recursive = super::recursive::on_psi(low, &d.qdot);
    Some(first_method::complete(low, lt, Formulation::Voronec, d))
}

/// Eqs. (19)–(21) (or their Čaplygin form) assembled as `G dz/dt = forcing`.
pub fn equations(low: &mut Lowered, lt: &LagrangeTerms, kin: Kinematics) -> Derived {
    let coords = &low.names.coords;
    let g = &mut low.graph;
    let s = &low.syms;
    let n = s.q.len();
    let m = s.z.len();
    let psi = kin.psi;
    let z: Vec<Id> = s.z.iter().map(|v| g.sym(*v)).collect();

    // The independent coordinate of each speed: psi_i = z_k (the same node, or equal;
    // `velocities::kinematics` names that speed `dot(q_i)`); the dependent ones are the rest.
    let mut indep: Vec<usize> = Vec::with_capacity(m);
    for (k, zk) in z.iter().enumerate() {
        let free: Vec<usize> = (0..n).filter(|i| !indep.contains(i)).collect();
        let found = free
            .iter()
            .copied()
            .find(|i| psi[*i] == *zk)
            .or_else(|| {
                free.iter().copied().find(|i| {
                    let d = g.sub(psi[*i], *zk);
                    probably_zero(g, d)
                })
            })
            .or_else(|| {
                let name = kin.speed_names.get(k)?;
                free.iter()
                    .copied()
                    .find(|i| format!("dot({})", coords[*i]) == *name)
            })
            .or(free.first().copied());
        if let Some(i) = found {
            indep.push(i);
        }
    }
    let dep: Vec<usize> = (0..n).filter(|i| !indep.contains(i)).collect();
    let k = dep.len();
    let q_ind: Vec<u32> = indep.iter().map(|i| s.q[*i]).collect();
    let q_dep: Vec<u32> = dep.iter().map(|i| s.q[*i]).collect();
    // (2): alpha_nu(q, z, t).
    let alpha: Vec<Id> = dep.iter().map(|i| psi[*i]).collect();

    let at_psi: HashMap<u32, Id> = s.qd.iter().copied().zip(psi.iter().copied()).collect();
    // (19): L* = T* - V.
    let l = g.sub(low.kinetic, low.potential);
    let l_star = g.subst(l, &at_psi);
    // p_nu = dT/d dot(q_{m+nu}) at (2).
    let p: Vec<Id> = dep
        .iter()
        .map(|i| g.subst(lt.momenta[*i], &at_psi))
        .collect();
    let f_psi = g.subst_many(&low.forces, &at_psi);

    // Čaplygin: T, V and alpha free of the dependent coordinates.
    let chaplygin = k > 0
        && !g.depends_on_any(low.kinetic, &q_dep)
        && !g.depends_on_any(low.potential, &q_dep)
        && !alpha.iter().any(|a| g.depends_on_any(*a, &q_dep));
    let forces_free = !f_psi.iter().any(|f| g.depends_on_any(*f, &q_dep));
    // The coordinates d/dt runs over: all of them, or (Čaplygin) the independent ones.
    let moving: Vec<usize> = if chaplygin {
        indep.clone()
    } else {
        (0..n).collect()
    };

    // dalpha_nu / d dot(q_i) (k x m), eq. (10)'s virtual displacements.
    let da_dz: Vec<Vec<Id>> = alpha
        .iter()
        .map(|a| s.z.iter().map(|zi| g.diff(*a, *zi)).collect())
        .collect();

    // (21) without its ddot(q_r) terms (b_hat, m x k) and those terms' coefficients
    // d2alpha_nu / d dot(q_i) d dot(q_r) (b_dd[i][nu][r]).
    let mut b_hat = vec![Vec::with_capacity(k); m];
    let mut b_dd = vec![Vec::with_capacity(k); m];
    for i in 0..m {
        for nu in 0..k {
            let dai = da_dz[nu][i];
            let mut parts = Vec::with_capacity(m + 2 * k + 2);
            for (r, qr) in q_ind.iter().enumerate() {
                let d = g.diff(dai, *qr);
                parts.push(g.mul(d, z[r]));
            }
            let d = g.diff(alpha[nu], q_ind[i]);
            parts.push(g.neg(d));
            if !chaplygin {
                for (mu, qm) in q_dep.iter().enumerate() {
                    let d = g.diff(dai, *qm);
                    parts.push(g.mul(d, alpha[mu]));
                    let d = g.diff(alpha[nu], *qm);
                    let t = g.mul(da_dz[mu][i], d);
                    parts.push(g.neg(t));
                }
            }
            parts.push(g.diff(dai, s.t));
            b_hat[i].push(g.add_all(&parts));
            let row: Vec<Id> = s.z.iter().map(|zr| g.diff(dai, *zr)).collect();
            b_dd[i].push(row);
        }
    }

    // dL*/d dot(q_i) and G (symmetric: upper triangle, mirrored).
    let pl: Vec<Id> = s.z.iter().map(|zi| g.diff(l_star, *zi)).collect();
    let mut mass_matrix_g = vec![Vec::with_capacity(m); m];
    for i in 0..m {
        for r in 0..m {
            let e = if r < i {
                mass_matrix_g[r][i]
            } else {
                let mut parts = Vec::with_capacity(k + 1);
                parts.push(g.diff(pl[i], s.z[r]));
                for nu in 0..k {
                    let t = g.mul(p[nu], b_dd[i][nu][r]);
                    parts.push(g.neg(t));
                }
                g.add_all(&parts)
            };
            mass_matrix_g[i].push(e);
        }
    }

    // Eq. (20) with everything but the ddot terms on the left, part by part (their
    // sum is `-forcing`):
    //   d/dt dL*/d dot(q_i) without ddot:  sum_j d(dL*/d dot(q_i))/dq_j psi_j + d/dt
    //   -dL*/dq_i,  -sum_nu dL*/dq_(m+nu) dalpha_nu/d dot(q_i)  (0 for Čaplygin),
    //   -sum_nu p_nu B_i^nu without ddot,  -(F_i + sum_nu dalpha_nu/d dot(q_i) F_(m+nu)).
    let dl_dq: Vec<Id> = s.q.iter().map(|qj| g.diff(l_star, *qj)).collect();
    let mut forcing = Vec::with_capacity(m);
    for i in 0..m {
        let mut parts = Vec::with_capacity(n + 1);
        for j in &moving {
            let d = g.diff(pl[i], s.q[*j]);
            parts.push(g.mul(d, psi[*j]));
        }
        parts.push(g.diff(pl[i], s.t));
        let dt_momentum = g.add_all(&parts);
        let dl = g.neg(dl_dq[indep[i]]);
        let mut parts = Vec::with_capacity(k);
        if !chaplygin {
            for nu in 0..k {
                let t = g.mul(dl_dq[dep[nu]], da_dz[nu][i]);
                parts.push(g.neg(t));
            }
        }
        let dl_dep = g.add_all(&parts);
        let parts: Vec<Id> = (0..k)
            .map(|nu| {
                let t = g.mul(p[nu], b_hat[i][nu]);
                g.neg(t)
            })
            .collect();
        let b_p = g.add_all(&parts);
        let mut parts = Vec::with_capacity(k + 1);
        parts.push(f_psi[indep[i]]);
        for nu in 0..k {
            parts.push(g.mul(da_dz[nu][i], f_psi[dep[nu]]));
        }
        let q_i = g.add_all(&parts);
        let forces = g.neg(q_i);
        let lhs = g.add_all(&[dt_momentum, dl, dl_dep, b_p, forces]);
        forcing.push(g.neg(lhs));
    }

    let psi_z: Vec<Vec<Id>> = psi
        .iter()
        .map(|e| s.z.iter().map(|zi| g.diff(*e, *zi)).collect())
        .collect();

    let psi_z = Mat::from_rows(&psi_z, m);
    let mass_matrix_g = Mat::from_rows(&mass_matrix_g, m);
    let text = Notation {
        name: &low.names.model,
        coords,
        indep: &indep,
        dep: &dep,
        chaplygin,
        forces_free,
    }
    .write(
        g,
        &alpha,
        l_star,
        &p,
        &b_hat,
        &b_dd,
        &mass_matrix_g,
        &forcing,
    );

    Derived {
        recursive: None,
        qdot: psi,
        psi_z,
        mass_matrix_g,
        forcing,
        speeds_from_qdot: kin.inverse,
        speed_names: kin.speed_names,
        terms: Vec::new(),
        momentum_form: Vec::new(),
        forcing_alt: Vec::new(),
        text,
    }
}

/// The `EQUATIONS` text, in the paper's notation.
struct Notation<'a> {
    name: &'a str,
    coords: &'a [String],
    indep: &'a [usize],
    dep: &'a [usize],
    chaplygin: bool,
    forces_free: bool,
}

impl Notation<'_> {
    #[allow(clippy::too_many_arguments)]
    fn write(
        &self,
        g: &Graph,
        alpha: &[Id],
        l_star: Id,
        p: &[Id],
        b_hat: &[Vec<Id>],
        b_dd: &[Vec<Vec<Id>>],
        mass_matrix_g: &Mat,
        forcing: &[Id],
    ) -> Text {
        let c = self.coords;
        let ind: Vec<&str> = self.indep.iter().map(|i| c[*i].as_str()).collect();
        let dep: Vec<&str> = self.dep.iter().map(|i| c[*i].as_str()).collect();
        let (m, k) = (ind.len(), dep.len());
        let mut t = Text::new(format!(
            "{}: Voronec equations (Talamucci, nonlinear rheonomic form, eqs. 19–21)",
            self.name
        ));
        t.prose(format!("coordinates q = ({})", c.join(", ")));
        let speeds: Vec<String> = ind.iter().map(|q| format!("dot({q})")).collect();
        t.prose(format!(
            "independent q_i, i = 1..{m}: ({}); speeds z = ({})",
            ind.join(", "),
            speeds.join(", ")
        ));
        if k == 0 {
            t.prose("no constraints: (20) reduces to Lagrange's equations for L* = L");
        } else {
            t.prose(format!(
                "dependent q_(m+nu), nu = 1..{k}: ({})",
                dep.join(", ")
            ));
            t.prose("\n(2) dependent velocities, dot(q_(m+nu)) = alpha_nu(q, dot(q_1..q_m), t):");
            for (nu, a) in alpha.iter().enumerate() {
                t.entry(format!("dot({})", dep[nu]), *a);
            }
        }
        if self.chaplygin {
            t.prose(format!(
                "\nČaplygin system: T, V and alpha do not depend on the dependent coordinates ({}),\n\
                 so dL*/dq_(m+nu) = 0 and the alpha_mu d/dq_(m+mu) terms of d/dt and of (21) vanish.",
                dep.join(", ")
            ));
            if self.forces_free {
                t.prose(format!(
                    "The forces do not depend on them either: the m equations below close in \
                     ({}) and their velocities, independently of (2).",
                    ind.join(", ")
                ));
            }
            t.prose(
                "\n(20) d/dt dL*/d dot(q_i) - dL*/dq_i - sum_nu B_i^nu p_nu\n\
                 \x20     = F_i + sum_nu dalpha_nu/d dot(q_i) F_(m+nu)\n\
                 (21) B_i^nu = sum_r (d2alpha_nu/d dot(q_i) dq_r dot(q_r) + d2alpha_nu/d dot(q_i) d dot(q_r) ddot(q_r))\n\
                 \x20     - dalpha_nu/dq_i + d2alpha_nu/d dot(q_i) dt",
            );
        } else {
            t.prose(
                "\n(20) d/dt dL*/d dot(q_i) - dL*/dq_i - sum_nu dL*/dq_(m+nu) dalpha_nu/d dot(q_i) - sum_nu B_i^nu p_nu\n\
                 \x20     = F_i + sum_nu dalpha_nu/d dot(q_i) F_(m+nu)\n\
                 (21) B_i^nu = sum_r (d2alpha_nu/d dot(q_i) dq_r dot(q_r) + d2alpha_nu/d dot(q_i) d dot(q_r) ddot(q_r))\n\
                 \x20     - dalpha_nu/dq_i + sum_mu (d2alpha_nu/d dot(q_i) dq_(m+mu) alpha_mu\n\
                 \x20     - dalpha_mu/d dot(q_i) dalpha_nu/dq_(m+mu)) + d2alpha_nu/d dot(q_i) dt",
            );
        }
        t.prose("with d/dt along the motion, p_nu = dT/d dot(q_(m+nu)) at (2), F the non-potential forces.");
        t.prose("\n(19) L* = T* - V (L at (2)):");
        t.entry("L*", l_star);
        if k > 0 {
            t.prose("\np_nu = dT/d dot(q_(m+nu)) at (2):");
            for (nu, pn) in p.iter().enumerate() {
                t.entry(format!("p[{}]", dep[nu]), *pn);
            }
            let linear = b_dd.iter().flatten().flatten().all(|e| g.is_zero(*e));
            t.prose(if linear {
                "\n(21) B_i^nu (alpha linear in the velocities: no ddot terms, cf. (23)):"
            } else {
                "\n(21) B_i^nu = Bhat_i^nu + sum_r dB_i^nu/d ddot(q_r) ddot(q_r):"
            });
            let mut zero = 0;
            for i in 0..m {
                for nu in 0..k {
                    if g.is_zero(b_hat[i][nu]) && b_dd[i][nu].iter().all(|e| g.is_zero(*e)) {
                        zero += 1;
                        continue;
                    }
                    let hat = if linear { "B" } else { "Bhat" };
                    t.entry(format!("{hat}[{}; {}]", ind[i], dep[nu]), b_hat[i][nu]);
                    for r in 0..m {
                        if !g.is_zero(b_dd[i][nu][r]) {
                            let label = format!("dB[{}; {}]/d ddot({})", ind[i], dep[nu], ind[r]);
                            t.entry(label, b_dd[i][nu][r]);
                        }
                    }
                }
            }
            if zero > 0 {
                t.prose(format!("  ({zero} other B[i; nu] vanish)"));
            }
        }
        t.prose("\nG = d2L*/dz2 - sum_nu p_nu d2alpha_nu/dz2 (the ddot(q) terms of (20); = C_i^r of (15)):");
        let speeds: Vec<String> = speeds.to_vec();
        t.symmetric(g, "G", mass_matrix_g, &speeds);
        t.prose("\nG dz/dt = forcing (eq. 20 solved for the ddot(q_i)):");
        t.rows("(G dz/dt)", forcing, &speeds);
        t
    }
}

#[cfg(test)]
mod tests {
    use crate::expand::expand;

    fn expand_str(src: &str) -> String {
        expand(src.parse().expect("tokens")).to_string()
    }

    #[test]
    fn unconstrained_is_lagrange() {
        let out = expand_str(
            "pub struct P; parameters { m, k } coordinates { x }
             kinetic_energy = 0.5 * m * dot(x).powi(2); potential_energy = 0.5 * k * x * x;
             formulation = voronec;",
        );
        assert!(!out.contains("compile_error"), "{out}");
        assert!(out.contains("reduces to Lagrange"), "{out}");
    }

    #[test]
    fn chaplygin_is_recognised() {
        let skate = "pub struct S; parameters { m, i } coordinates { x, y, theta }
             kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * i * dot(theta).powi(2);
             constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
             dependent { y }
             formulation = voronec;";
        let out = expand_str(skate);
        assert!(!out.contains("compile_error"), "{out}");
        assert!(out.contains("Čaplygin system"), "{out}");
        // A potential in the dependent y leaves the general form.
        let out =
            expand_str(&skate.replace("constraints", "potential_energy = y * y; constraints"));
        assert!(!out.contains("compile_error"), "{out}");
        assert!(!out.contains("Čaplygin system"), "{out}");
    }

    /// Expansion time of the largest paper model in this formulation (run with
    /// `--ignored --nocapture`, release).
    #[test]
    #[ignore]
    fn time_rolling_disk_expansion() {
        let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../src/models.rs"))
            .unwrap();
        let start = src.find("pub struct RollingDiskPendulum;").unwrap();
        let body_start = src[..start].rfind("nonholonomic! {").unwrap() + "nonholonomic! {".len();
        let body_end = body_start + src[body_start..].find("\n}\n").unwrap();
        let body = &src[body_start..body_end];
        let speeds = body.find("    speeds {").unwrap();
        let body = format!("{}\n    formulation = voronec;", &body[..speeds]);
        let t0 = std::time::Instant::now();
        let out = expand_str(&body);
        println!(
            "expanded in {:?}, {} bytes of tokens",
            t0.elapsed(),
            out.len()
        );
        assert!(!out.contains("compile_error"), "{out}");
    }
}
