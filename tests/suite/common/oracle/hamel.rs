//! Quasi-velocities and the Boltzmann-Hamel form (Talamucci's (17)).

use super::{d64, d64_dir, matvec, momenta, psi_z, solve, transpose, Scalar, System};
use num_dual::{Dual64, HyperDual64};

/// Systems whose speeds are quasi-velocities eta = Z(q, t) qd + psi_eta(q, t) (affine in qd),
/// with affine constraints alpha(q, t) qd + beta(q, t) = 0; `psi` must invert them.
pub trait QuasiVelocities: System {
    /// eta(q, qd, t) (the DSL's `speeds { .. }` block).
    fn eta<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> Vec<D>;
}

/// Rows of an affine map f(qd) = M qd + f0 (exact by differences), evaluated on Dual64
/// arguments so that M can carry derivatives.
fn affine_rows<F: Fn(&[Dual64]) -> Vec<Dual64>>(n: usize, f: F) -> (Vec<Vec<Dual64>>, Vec<Dual64>) {
    let zero = vec![Dual64::from_re(0.0); n];
    let f0 = f(&zero);
    let cols: Vec<Vec<Dual64>> = (0..n)
        .map(|j| {
            let mut e = zero.clone();
            e[j] = Dual64::from_re(1.0);
            f(&e)
        })
        .collect();
    let rows = (0..f0.len())
        .map(|a| (0..n).map(|j| cols[j][a] - f0[a]).collect())
        .collect();
    (rows, f0)
}

/// The projected equations written in the Boltzmann-Hamel form of Talamucci's (17),
/// evaluated by AD at (q, eta, etadot, t); forces enter as -Gamma^T F:
///
/// ```text
/// d/dt(grad_eta Lt) - Gamma^T grad_q Lt + Gamma^T (Zdot^T - J_q^T eta) grad_eta Lt
///     [ + Gamma^T (alphadot^T - J_q^T mu) Theta^T grad_qd L ]   - Gamma^T F,
/// ```
/// with Lt(q, eta, t) = L(q, psi(q, eta, t), t), mu = alpha qd + beta, (Gamma Theta) = (Z; alpha)^{-1}.
///
/// `complete = false` is (17) as printed. It is NOT equivalent to the Lagrange equations
/// when alpha depends on q or t: (16) uses grad_qd L = Z^T grad_eta Lt, but in fact
/// grad_qd L = Z^T grad_eta Lt + alpha^T Theta^T grad_qd L, and the second part leaves the
/// bracketed term after projection with Gamma^T. `complete = true` adds it, and then this
/// equals [`projected_residual`] (checked in the self-check for all Talamucci systems).
pub fn hamel_residual<S: QuasiVelocities>(
    sys: &S,
    t: f64,
    q: &[f64],
    eta: &[f64],
    etad: &[f64],
    complete: bool,
) -> Vec<f64> {
    let n = sys.nq();
    let m = sys.nz();
    let qd = sys.psi(t, q, eta);
    let lt_d = |tt: Dual64, qq: &[Dual64], ee: &[Dual64]| {
        let v = sys.psi(tt, qq, ee);
        sys.lagrangian(tt, qq, &v)
    };
    // p = grad_eta Lt
    let p: Vec<f64> = (0..m)
        .map(|kk| {
            let mut e = d64(eta);
            e[kk].eps = 1.0;
            lt_d(Dual64::from_re(t), &d64(q), &e).eps
        })
        .collect();
    // dp/dt along (qd, etad)
    let pdot: Vec<f64> = (0..m)
        .map(|kk| {
            let tt = HyperDual64::new(t, 0.0, 1.0, 0.0);
            let qq: Vec<HyperDual64> = q
                .iter()
                .zip(&qd)
                .map(|(&a, &b)| HyperDual64::new(a, 0.0, b, 0.0))
                .collect();
            let ee: Vec<HyperDual64> = eta
                .iter()
                .zip(etad)
                .enumerate()
                .map(|(i, (&a, &b))| HyperDual64::new(a, if i == kk { 1.0 } else { 0.0 }, b, 0.0))
                .collect();
            let v = sys.psi(tt, &qq, &ee);
            sys.lagrangian(tt, &qq, &v).eps1eps2
        })
        .collect();
    // grad_q Lt at fixed eta
    let gq: Vec<f64> = (0..n)
        .map(|j| {
            let mut qq = d64(q);
            qq[j].eps = 1.0;
            lt_d(Dual64::from_re(t), &qq, &d64(eta)).eps
        })
        .collect();
    let gam = psi_z(sys, t, q, eta);
    let tdir = Dual64::new(t, 1.0);
    let qdir = d64_dir(q, &qd);
    // Zdot (rows r, columns j) and d eta_r / d q_j at fixed qd
    let (zrows, _) = affine_rows(n, |v| sys.eta(tdir, &qdir, v));
    let jq_eta: Vec<Vec<f64>> = (0..n)
        .map(|j| {
            let mut qq = d64(q);
            qq[j].eps = 1.0;
            sys.eta(Dual64::from_re(t), &qq, &d64(&qd))
                .iter()
                .map(|x| x.eps)
                .collect()
        })
        .collect();
    let mut out = vec![0.0; m];
    for kk in 0..m {
        let mut v = pdot[kk];
        for j in 0..n {
            v -= gam[j][kk] * gq[j];
            for r in 0..m {
                v += gam[j][kk] * (zrows[r][j].eps - jq_eta[j][r]) * p[r];
            }
        }
        out[kk] = v;
    }
    if complete {
        let (arows, _) = affine_rows(n, |v| sys.constraints(tdir, &qdir, v));
        let jq_mu: Vec<Vec<f64>> = (0..n)
            .map(|j| {
                let mut qq = d64(q);
                qq[j].eps = 1.0;
                sys.constraints(Dual64::from_re(t), &qq, &d64(&qd))
                    .iter()
                    .map(|x| x.eps)
                    .collect()
            })
            .collect();
        // Y = (Z; alpha) at (q, t); Theta = last columns of Y^{-1}
        let (z0, _) = affine_rows(n, |v| sys.eta(Dual64::from_re(t), &d64(q), v));
        let (a0, _) = affine_rows(n, |v| sys.constraints(Dual64::from_re(t), &d64(q), v));
        let y: Vec<Vec<f64>> = z0
            .iter()
            .chain(a0.iter())
            .map(|r| r.iter().map(|x| x.re).collect())
            .collect();
        let nc = a0.len();
        let pq = momenta(sys, t, q, &qd);
        // lambda* = Theta^T grad_qd L; Theta column a solves Y x = e_{m + a}
        let lam: Vec<f64> = (0..nc)
            .map(|a| {
                let mut e = vec![0.0; n];
                e[m + a] = 1.0;
                let th = solve(y.clone(), e);
                th.iter().zip(&pq).map(|(x, y)| x * y).sum()
            })
            .collect();
        for kk in 0..m {
            for j in 0..n {
                for a in 0..nc {
                    out[kk] += gam[j][kk] * (arows[a][j].eps - jq_mu[j][a]) * lam[a];
                }
            }
        }
    }
    let f = sys.forces(t, q, &qd);
    let gtf = matvec(&transpose(&gam), &f);
    for kk in 0..m {
        out[kk] -= gtf[kk];
    }
    out
}
