//! Independent physics oracle for nonholonomic systems.
//!
//! Nothing here uses the `nonholonomic!` macro. A system is described by hand through
//! the [`System`] trait (Lagrangian, extra generalized forces, constraints, and the
//! parametrization `qd = psi(q, z, t)`), generic over num-dual scalars, and every
//! derivative is taken by forward-mode automatic differentiation (num-dual's `Dual64`
//! and `HyperDual64`, nested `Dual<S>` inside the paper models for point velocities).
//!
//! Two independent routes to the accelerations are provided:
//!
//! * [`qdd_multipliers`]: Lagrange equations with multipliers (Benenti's second method
//!   in KKT form, works for nonlinear constraints `C(q, qd, t) = 0`):
//!
//!   ```text
//!   A qdd + h = F + C_qd^T lambda,      C_qd qdd + C_q qd + C_t = 0,
//!   A   = d2L/dqd2,
//!   h_i = sum_j d2L/(dqd_i dq_j) qd_j + d2L/(dqd_i dt) - dL/dq_i
//!   ```
//!
//!   solved as `[A, -C_qd^T; C_qd, 0] [qdd; lambda] = [F - h; -(C_q qd + C_t)]`
//!   with a dense LU with partial pivoting ([`solve`]). The reaction (Lagrangian
//!   components) is `R = C_qd^T lambda`.
//! * [`zdot_core`]: the core equation of DESIGN.md,
//!   `G zdot = psi_z^T (F - h - A (psi_q psi + psi_t))`, `G = psi_z^T A psi_z`.
//!
//! and the kinematic map [`qdd_from_speeds`]: `qdd = J_q psi . psi + J_z psi . zdot + dpsi/dt`.
//!
//! Scalar bound: num-dual 0.15's `DualNum` has no type parameter (it has an associated
//! `Primitive`), so the bound written `DualNum<f64>` in older num-dual is spelled
//! `DualNum<Primitive = f64> + Copy` here, aliased as [`Scalar`].

use num_dual::{Dual, Dual64, DualNum, HyperDual64};

mod hamel;
pub mod known;
mod linalg;

pub use hamel::*;
pub use linalg::*;

/// A num-dual scalar over f64 (f64 itself, Dual64, HyperDual64, nested `Dual<S>`, ...).
pub trait Scalar: DualNum<Primitive = f64> + Copy {}
impl<T: DualNum<Primitive = f64> + Copy> Scalar for T {}

/// Constant of any scalar type.
#[inline]
pub fn k<D: Scalar>(x: f64) -> D {
    D::from(x)
}

/// A hand-written mechanical system with (possibly nonlinear, possibly rheonomic)
/// kinematic constraints.
pub trait System {
    /// Number of generalized coordinates q.
    fn nq(&self) -> usize;
    /// Number of speeds z (= nq - number of independent constraints).
    fn nz(&self) -> usize;
    /// Number of constraint equations (default nq - nz).
    fn nc(&self) -> usize {
        self.nq() - self.nz()
    }
    /// L = T - V.
    fn lagrangian<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> D;
    /// Extra generalized (Lagrangian) forces A_i(q, qd, t), not derived from V.
    fn forces<D: Scalar>(&self, _t: D, _q: &[D], _qd: &[D]) -> Vec<D> {
        vec![k::<D>(0.0); self.nq()]
    }
    /// C_a(q, qd, t) = 0, a = 1..nc (may be nonlinear in qd).
    fn constraints<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> Vec<D>;
    /// The parametrization qd = psi(q, z, t).
    fn psi<D: Scalar>(&self, t: D, q: &[D], z: &[D]) -> Vec<D>;
    /// True when L, forces, constraints and psi do not depend on t explicitly.
    fn stationary(&self) -> bool {
        true
    }
}

// ---------------------------------------------------------------------------------
// Seeding helpers
// ---------------------------------------------------------------------------------

pub(super) fn d64(v: &[f64]) -> Vec<Dual64> {
    v.iter().map(|&x| Dual64::from_re(x)).collect()
}

pub(super) fn hd64(v: &[f64]) -> Vec<HyperDual64> {
    v.iter().map(|&x| HyperDual64::from_re(x)).collect()
}

/// Directional seeding: x + eps * dx, as Dual64.
pub(super) fn d64_dir(x: &[f64], dx: &[f64]) -> Vec<Dual64> {
    x.iter().zip(dx).map(|(&a, &b)| Dual64::new(a, b)).collect()
}

/// Velocity of a position by AD: given positions as a function of (t, q) evaluated on
/// `Dual<S>` seeded with eps = (1, qd), return the eps parts. Used by the paper models
/// to get point velocities from geometry.
pub fn seed_velocity<S: Scalar>(t: S, q: &[S], qd: &[S]) -> (Dual<S>, Vec<Dual<S>>) {
    let tt = Dual::new(t, k::<S>(1.0));
    let qq = q.iter().zip(qd).map(|(&a, &b)| Dual::new(a, b)).collect();
    (tt, qq)
}

/// Kinetic energy 1/2 m |v|^2 of a point whose position is given on the seeded duals.
pub fn point_ke<S: Scalar>(m: f64, pos: &[Dual<S>]) -> S {
    let mut s = k::<S>(0.0);
    for p in pos {
        s += p.eps * p.eps;
    }
    s * (0.5 * m)
}

// ---------------------------------------------------------------------------------
// The oracle
// ---------------------------------------------------------------------------------

/// L at f64.
pub fn lagrangian_f64<S: System>(sys: &S, t: f64, q: &[f64], qd: &[f64]) -> f64 {
    sys.lagrangian(t, q, qd)
}

/// dL/dqd (generalized momenta).
pub fn momenta<S: System>(sys: &S, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64> {
    let n = sys.nq();
    (0..n)
        .map(|i| {
            let mut v = d64(qd);
            v[i].eps = 1.0;
            sys.lagrangian(Dual64::from_re(t), &d64(q), &v).eps
        })
        .collect()
}

/// dL/dq.
pub fn grad_q<S: System>(sys: &S, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64> {
    let n = sys.nq();
    (0..n)
        .map(|i| {
            let mut v = d64(q);
            v[i].eps = 1.0;
            sys.lagrangian(Dual64::from_re(t), &v, &d64(qd)).eps
        })
        .collect()
}

/// Partial dL/dt at fixed (q, qd).
pub fn dl_dt<S: System>(sys: &S, t: f64, q: &[f64], qd: &[f64]) -> f64 {
    sys.lagrangian(Dual64::new(t, 1.0), &d64(q), &d64(qd)).eps
}

/// Mass matrix A_ij = d2L/(dqd_i dqd_j) (by HyperDual64).
pub fn mass_matrix<S: System>(sys: &S, t: f64, q: &[f64], qd: &[f64]) -> Vec<Vec<f64>> {
    let n = sys.nq();
    let mut a = vec![vec![0.0; n]; n];
    let tt = HyperDual64::from_re(t);
    let qq = hd64(q);
    for i in 0..n {
        for j in i..n {
            let mut v = hd64(qd);
            v[i].eps1 = 1.0;
            v[j].eps2 = 1.0;
            let x = sys.lagrangian(tt, &qq, &v).eps1eps2;
            a[i][j] = x;
            a[j][i] = x;
        }
    }
    a
}

/// The rest of the Lagrange equations: d/dt dL/dqd - dL/dq = A qdd + h.
pub fn lagrange_rest<S: System>(sys: &S, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64> {
    let n = sys.nq();
    let gq = grad_q(sys, t, q, qd);
    // eps2 direction: (t, q) -> (t + e, q + e qd); eps1: qd_i.
    let tt = HyperDual64::new(t, 0.0, 1.0, 0.0);
    let qq: Vec<HyperDual64> = q
        .iter()
        .zip(qd)
        .map(|(&a, &b)| HyperDual64::new(a, 0.0, b, 0.0))
        .collect();
    (0..n)
        .map(|i| {
            let mut v = hd64(qd);
            v[i].eps1 = 1.0;
            sys.lagrangian(tt, &qq, &v).eps1eps2 - gq[i]
        })
        .collect()
}

pub fn forces_f64<S: System>(sys: &S, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64> {
    sys.forces(t, q, qd)
}

pub fn constraints_f64<S: System>(sys: &S, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64> {
    sys.constraints(t, q, qd)
}

/// C_qd (nc x nq).
pub fn constraint_jacobian_qd<S: System>(sys: &S, t: f64, q: &[f64], qd: &[f64]) -> Vec<Vec<f64>> {
    let n = sys.nq();
    let mut cols = Vec::with_capacity(n);
    for j in 0..n {
        let mut v = d64(qd);
        v[j].eps = 1.0;
        let c = sys.constraints(Dual64::from_re(t), &d64(q), &v);
        cols.push(c.iter().map(|x| x.eps).collect::<Vec<f64>>());
    }
    let r = cols.first().map(|c| c.len()).unwrap_or(0);
    (0..r)
        .map(|a| (0..n).map(|j| cols[j][a]).collect())
        .collect()
}

/// C_q qd + C_t (the part of dC/dt without qdd).
pub fn constraint_drift<S: System>(sys: &S, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64> {
    let c = sys.constraints(Dual64::new(t, 1.0), &d64_dir(q, qd), &d64(qd));
    c.iter().map(|x| x.eps).collect()
}

/// Accelerations and multipliers from the KKT system
/// `[A, -C_qd^T; C_qd, 0] [qdd; lambda] = [F - h; -(C_q qd + C_t)]`.
pub fn qdd_multipliers<S: System>(sys: &S, t: f64, q: &[f64], qd: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let n = sys.nq();
    let a = mass_matrix(sys, t, q, qd);
    let h = lagrange_rest(sys, t, q, qd);
    let f = sys.forces(t, q, qd);
    let cq = constraint_jacobian_qd(sys, t, q, qd);
    let drift = constraint_drift(sys, t, q, qd);
    let r = cq.len();
    let mut m = vec![vec![0.0; n + r]; n + r];
    let mut rhs = vec![0.0; n + r];
    for i in 0..n {
        for j in 0..n {
            m[i][j] = a[i][j];
        }
        for (al, row) in cq.iter().enumerate() {
            m[i][n + al] = -row[i];
            m[n + al][i] = row[i];
        }
        rhs[i] = f[i] - h[i];
    }
    for al in 0..r {
        rhs[n + al] = -drift[al];
    }
    let x = solve(m, rhs);
    (x[..n].to_vec(), x[n..].to_vec())
}

/// Lagrangian reaction forces R = C_qd^T lambda.
pub fn reactions<S: System>(sys: &S, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64> {
    let (_, lam) = qdd_multipliers(sys, t, q, qd);
    let cq = constraint_jacobian_qd(sys, t, q, qd);
    matvec(&transpose(&cq), &lam)
}

/// psi(q, z, t) at f64.
pub fn psi_f64<S: System>(sys: &S, t: f64, q: &[f64], z: &[f64]) -> Vec<f64> {
    sys.psi(t, q, z)
}

/// psi_z = d psi / dz (nq x nz).
pub fn psi_z<S: System>(sys: &S, t: f64, q: &[f64], z: &[f64]) -> Vec<Vec<f64>> {
    let n = sys.nq();
    let m = sys.nz();
    let mut out = vec![vec![0.0; m]; n];
    for al in 0..m {
        let mut zz = d64(z);
        zz[al].eps = 1.0;
        let p = sys.psi(Dual64::from_re(t), &d64(q), &zz);
        for i in 0..n {
            out[i][al] = p[i].eps;
        }
    }
    out
}

/// psi_q psi + psi_t: the part of qdd along a constrained motion not involving zdot.
pub fn psi_drift<S: System>(sys: &S, t: f64, q: &[f64], z: &[f64]) -> Vec<f64> {
    qdd_from_speeds(sys, t, q, z, &vec![0.0; sys.nz()])
}

/// qdd = J_q psi . psi + J_z psi . zdot + d psi/dt (one directional Dual64 evaluation).
pub fn qdd_from_speeds<S: System>(sys: &S, t: f64, q: &[f64], z: &[f64], zdot: &[f64]) -> Vec<f64> {
    let qd = sys.psi(t, q, z);
    let p = sys.psi(Dual64::new(t, 1.0), &d64_dir(q, &qd), &d64_dir(z, zdot));
    p.iter().map(|x| x.eps).collect()
}

/// Energy qd . dL/dqd - L (the Legendre transform of L).
pub fn energy<S: System>(sys: &S, t: f64, q: &[f64], qd: &[f64]) -> f64 {
    let p = momenta(sys, t, q, qd);
    p.iter().zip(qd).map(|(a, b)| a * b).sum::<f64>() - sys.lagrangian(t, q, qd)
}

/// Power balance of the energy: dE/dt = (F + R) . qd - dL/dt (R = C_qd^T lambda).
/// For stationary systems with ideal constraints homogeneous in qd, R . qd = 0.
pub fn energy_rate<S: System>(sys: &S, t: f64, q: &[f64], qd: &[f64]) -> f64 {
    let f = sys.forces(t, q, qd);
    let r = reactions(sys, t, q, qd);
    f.iter()
        .zip(&r)
        .zip(qd)
        .map(|((a, b), v)| (a + b) * v)
        .sum::<f64>()
        - dl_dt(sys, t, q, qd)
}

/// The core equation of DESIGN.md:
/// `G zdot = psi_z^T (F - h - A (psi_q psi + psi_t))`, `G = psi_z^T A psi_z`, at qd = psi.
pub fn zdot_core<S: System>(sys: &S, t: f64, q: &[f64], z: &[f64]) -> Vec<f64> {
    let qd = sys.psi(t, q, z);
    let a = mass_matrix(sys, t, q, &qd);
    let h = lagrange_rest(sys, t, q, &qd);
    let f = sys.forces(t, q, &qd);
    let pz = psi_z(sys, t, q, z);
    let w = psi_drift(sys, t, q, z);
    let aw = matvec(&a, &w);
    let v: Vec<f64> = (0..sys.nq()).map(|i| f[i] - h[i] - aw[i]).collect();
    let pzt = transpose(&pz);
    let g = matmul(&pzt, &matmul(&a, &pz));
    solve(g, matvec(&pzt, &v))
}

/// zdot such that qdd = psi_q psi + psi_z zdot + psi_t, by least squares
/// (exact when qdd is compatible with the constraints).
pub fn zdot_from_qdd<S: System>(sys: &S, t: f64, q: &[f64], z: &[f64], qdd: &[f64]) -> Vec<f64> {
    let pz = psi_z(sys, t, q, z);
    let w = psi_drift(sys, t, q, z);
    let r: Vec<f64> = qdd.iter().zip(&w).map(|(a, b)| a - b).collect();
    let pzt = transpose(&pz);
    solve(matmul(&pzt, &pz), matvec(&pzt, &r))
}

/// The projected equations of motion psi_z^T (A qdd + h - F), with qdd built from
/// (q, z, zdot): zero exactly on the true zdot. Row alpha is the alpha-th equation in
/// the form the papers print (Talamucci's (20) = Gamma^T (Lagrange equations)).
pub fn projected_residual<S: System>(
    sys: &S,
    t: f64,
    q: &[f64],
    z: &[f64],
    zdot: &[f64],
) -> Vec<f64> {
    let qd = sys.psi(t, q, z);
    let qdd = qdd_from_speeds(sys, t, q, z, zdot);
    let a = mass_matrix(sys, t, q, &qd);
    let h = lagrange_rest(sys, t, q, &qd);
    let f = sys.forces(t, q, &qd);
    let aq = matvec(&a, &qdd);
    let e: Vec<f64> = (0..sys.nq()).map(|i| aq[i] + h[i] - f[i]).collect();
    matvec(&transpose(&psi_z(sys, t, q, z)), &e)
}

/// First-order right-hand side on the state [q, z] from the oracle (KKT route).
pub fn rhs_speeds<S: System>(sys: &S, t: f64, state: &[f64]) -> Vec<f64> {
    let n = sys.nq();
    let (q, z) = state.split_at(n);
    let qd = sys.psi(t, q, z);
    let (qdd, _) = qdd_multipliers(sys, t, q, &qd);
    let zd = zdot_from_qdd(sys, t, q, z, &qdd);
    let mut out = qd;
    out.extend(zd);
    out
}

/// First-order right-hand side on [q, qd] (second method, KKT route).
pub fn rhs_velocities<S: System>(sys: &S, t: f64, state: &[f64]) -> Vec<f64> {
    let n = sys.nq();
    let (q, qd) = state.split_at(n);
    let (qdd, _) = qdd_multipliers(sys, t, q, qd);
    let mut out = qd.to_vec();
    out.extend(qdd);
    out
}

/// One classical RK4 step.
pub fn rk4_step<F: Fn(f64, &[f64]) -> Vec<f64>>(f: &F, t: f64, y: &[f64], h: f64) -> Vec<f64> {
    let add = |y: &[f64], k: &[f64], s: f64| -> Vec<f64> {
        y.iter().zip(k).map(|(a, b)| a + s * b).collect()
    };
    let k1 = f(t, y);
    let k2 = f(t + 0.5 * h, &add(y, &k1, 0.5 * h));
    let k3 = f(t + 0.5 * h, &add(y, &k2, 0.5 * h));
    let k4 = f(t + h, &add(y, &k3, h));
    (0..y.len())
        .map(|i| y[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]))
        .collect()
}
