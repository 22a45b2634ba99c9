//! Boltzmann–Hamel equations in quasi-velocities, in the explicit rheonomic form of
//! Talamucci 2015, eq. (20), plus the term that (16)–(17) drop when the constraints
//! depend on q or t.
//!
//! # Setting (Talamucci §2, eqs. 11–15)
//!
//! Quasi-velocities `eta = Z(q,t) qd + psi(q,t)` (eq. 11; the DSL's `speeds { .. }`, or
//! the independent velocities, Z a selection and psi = 0) and affine constraints
//! `alpha(q,t) qd + beta(q,t) = 0` (eq. 4) give `(Gamma Theta) = (Z; alpha)^{-1}` (eq. 12)
//! and `qd = Gamma (eta - psi) - Theta beta` (eq. 13). Here `Gamma = d qd / d eta` is taken
//! from the solved velocity map, `Theta` from `(Z; alpha) Theta = (0; I)`.
//! `T = 1/2 qd.A qd + b.qd + c` (eq. 8), `L = T + U` with `U = -V`, and (eq. 15)
//!
//! ```text
//! A_Gamma = Gamma^T A Gamma,   A_GammaTheta = Gamma^T A Theta,   A_Theta = Theta^T A Theta.
//! ```
//!
//! # The equations (eq. 20, with the constraint correction)
//!
//! ```text
//! A_Gamma deta/dt + Q + Lambda + N + T + C + F = 0,
//!     T = - A_Gamma dpsi/dt - A_GammaTheta dbeta/dt - Gamma^T (grad c + grad U - db/dt),
//!     C = the constraint correction (below),   F = - Gamma^T (extra forces)
//! ```
//!
//! so `G = A_Gamma` and `forcing = -(Q + Lambda + N + T + C + F)`; the six parts are kept
//! as the equations' `terms` (the emitted `equation_terms`). (Talamucci's psi, the offset of the speeds, is `psi_eta` in the code; the full velocity
//! map, `psi` elsewhere in `mechanics`, is `qdot(q, eta, t)` here.)
//!
//! with `D_k(M) = [M (dZ/dq_k - J_q Z^(k)) Gamma + dM/dq_k]^T` (eqs. 21–22),
//! `P(M, x) = sum_r x_r ((J_q M^(r)) Gamma)^T`, and
//!
//! ```text
//! Q      = { sum_k (Gamma eta)_k D_k(A_Gamma) - 1/2 P(A_Gamma, eta) } eta
//! Lambda = - { sum_k (Gamma psi)_k D_k(A_Gamma) - 1/2 P(A_Gamma, psi) + A_Gamma J_q psi Gamma } eta
//!          - { A_GT J_q beta Gamma - (A_GT J_q beta Gamma)^T - P(A_GT, beta)
//!              + sum_k (Theta beta)_k D_k(A_Gamma) } eta
//!          - { sum_k (Gamma eta)_k D_k(A_Gamma) - 1/2 P(A_Gamma, eta) } psi
//!          - sum_k (Gamma eta)_k D_k(A_TG) beta
//!          + Gamma^T (J_q b - J_q b^T) Gamma eta
//!          + { sum_k (Gamma eta)_k D_k(Gamma) - P(Gamma, eta) } b
//!          + { dA_Gamma/dt + (A_Gamma dZ/dt Gamma)^T } eta
//! N      = { A_GT J_q beta Theta - (A_Theta J_q beta Gamma)^T - 1/2 P(A_Theta, beta)
//!              + sum_k (Theta beta)_k D_k(A_TG) } beta
//!          + { A_Gamma J_q psi Gamma - 1/2 P(A_Gamma, psi) + sum_k (Gamma psi)_k D_k(A_Gamma) } psi
//!          + { A_GT J_q beta Gamma - (A_GT J_q beta Gamma)^T - P(A_GT, beta)
//!              + sum_k (Theta beta)_k D_k(A_Gamma) } psi
//!          + { A_Gamma J_q psi Theta + sum_k (Gamma psi)_k D_k(A_TG) } beta
//!          - Gamma^T (J_q b - J_q b^T) (Gamma psi + Theta beta) + (Theta J_q beta Gamma)^T b
//!          + { P(Gamma, psi) + P(Theta, beta) - sum_k (Gamma psi + Theta beta)_k D_k(Gamma) } b
//!          - { dA_GT/dt + (A_TG dZ/dt Gamma)^T } beta - { dA_Gamma/dt + (A_Gamma dZ/dt Gamma)^T } psi
//!          + { dGamma^T/dt + (Gamma dZ/dt Gamma)^T } b
//! C      = Gamma^T (dalpha/dt - J_q(alpha qd + beta))^T Theta^T grad_qd L
//!        = { sum_k qd_k ((dalpha/dq_k - J_q alpha^(k)) Gamma)^T + (dalpha/dt Gamma)^T
//!            - (J_q beta Gamma)^T } Theta^T (A qd + b)
//! ```
//!
//! (`A_GT = A_GammaTheta`, `A_TG = A_GT^T`; J_q at fixed qd; everything at
//! `qd = Gamma (eta - psi) - Theta beta`.) This is (20) as printed, re-derived term by term
//! from (17), except for two places where the print is not what (17) gives:
//!
//! * N, last line: the print has `(Gamma dZ/dt)^T b`, which is l-dimensional; (17) gives
//!   `(Gamma dZ/dt Gamma)^T b` (the same as the print when sigma = l).
//! * N, lines 2, 4 and 5: the print carries `- (A_Gamma J_q psi Gamma)^T psi`,
//!   `- (A_TG J_q psi Gamma)^T beta` and `+ (Gamma J_q psi Gamma)^T b`, i.e.
//!   `-Gamma^T (J_q psi)^T (A_Gamma psi + A_GT beta - Gamma^T b)`. In (17) the term
//!   `-Gamma^T (J_q psi)^T grad_eta Lt` (from `J_q^T eta`) cancels the `+Gamma^T (J_q psi)^T
//!   grad_eta Lt` inside `-Gamma^T grad_q Lt` (eq. 19, `J_q^T(A_Gamma (eta - psi))`), so no
//!   such term survives; the print keeps its eta-free part but not the matching eta-linear
//!   part `+(A_Gamma J_q psi Gamma)^T eta` in Lambda, so (20) is not even self-consistent
//!   there. The three terms vanish when psi does not depend on q, and in all of
//!   Talamucci's examples: psi = 0 in 3.1–3.3, and in 3.4 (as modelled here, `eta_1 =
//!   dL/d dot(phi)` with `psi_1 = -I_D phi1'(t) sin(theta)`) because eta_1 is a momentum,
//!   so `(grad_eta Lt)_1 = 0` at eta = 0. A model with a q-dependent psi (the tests'
//!   `Everything`) tells the two apart: with the printed terms the accelerations are off
//!   by O(1e-2), without them they agree with Gibbs–Appell to round-off.
//!
//! # The constraint correction C
//!
//! (16) writes `grad_qd L = Z^T grad_eta Lt`. With `Gamma Z + Theta alpha = I` the identity
//! is `grad_qd L = Z^T grad_eta Lt + alpha^T Theta^T grad_qd L`; differentiating the second
//! part in time and projecting with `Gamma^T` (`alpha Gamma = 0`) leaves
//! `Gamma^T alphadot^T Theta^T grad_qd L`, and `grad_q L` (at fixed qd) differs from
//! `grad_q Lt + (J_q eta)^T grad_eta Lt` by `(J_q mu)^T Theta^T grad_qd L`, `mu = alpha qd +
//! beta`. Together: `C` above. It vanishes when alpha is constant and beta = 0, or when
//! `Theta^T grad_qd L = 0`; in the papers' examples it is nonzero in Talamucci 3.1, 3.3
//! and 3.4 and zero in 3.2 and in Benenti 9.1–9.3. Where it is nonzero, (20) without it
//! is not the Lagrange equations (3.1: accelerations off by up to 70 %).
//!
//! # Expression size
//!
//! Expanded naively, the products of (15)–(22) blow up (the unicycle's forcing reached
//! 10^5 nodes and overflowed rustc's stack). Every matrix here is kept with its partial
//! derivatives (`Field`, product rule), and entries above `INLINE` nodes become named
//! auxiliary atoms (`Graph::define`), which the generated code computes once and the
//! EQUATIONS text lists under "where".

mod eq20;
mod fields;
#[cfg(test)]
mod tests;

use super::first_method::{self, Derived};
use super::lagrangian::LagrangeTerms;
use super::text::Text;
use super::velocities::{self, Kinematics};
use super::{Equations, SpeedsFromQdot};
use crate::ctxt::Ctxt;
use crate::model::{Formulation, Lowered};
use crate::sym::linsolve::solve;
use crate::sym::HashMap;
use crate::sym::{Graph, Id, Mat, Number};
use eq20::{constraint_correction, explicit_time, lambda, n_term, Ops};
use fields::{atoms, AtomMemo, Names, Space, INLINE};
use std::cell::RefCell;

/// The Boltzmann–Hamel equations (Talamucci eq. 20 with the constraint correction).
/// Needs quasi-velocities (`speeds { .. }`) or independent velocities, and constraints
/// affine in `dot(q)`; reports through `cx` otherwise.
pub fn derive(low: &mut Lowered, lt: &LagrangeTerms, cx: &Ctxt) -> Option<Equations> {
    let kin = velocities::kinematics(low, cx)?;
    let mut d = equations(low, lt, kin, cx)?;
    // the same dz/dt by the articulated-body algorithm where the bodies form a tree whose
    // joints' velocities are speeds of their own
    d.recursive = crate::mechanics::recursive::on_psi(low, &d.qdot);
    Some(first_method::complete(
        low,
        lt,
        Formulation::BoltzmannHamel,
        d,
    ))
}

/// The model in Talamucci's terms: eta = Z qd + psi_eta (11), alpha qd + beta = 0 (4).
struct Affine {
    z: Mat,
    psi_eta: Mat,
    alpha: Mat,
    beta: Mat,
}

/// Eqs. (11) and (4) read off the speeds and the constraints.
fn affine_form(low: &mut Lowered, speed_defs: &[Id], cx: &Ctxt) -> Option<Affine> {
    let g = &mut low.graph;
    let qd = &low.syms.qd;
    let n = qd.len();
    let mut ok = true;
    for (a, c) in low.constraints.iter().enumerate() {
        if !g.affine_in(*c, qd) {
            cx.error_help(
                low.sites.constraints[a],
                "`formulation = boltzmann_hamel` needs constraints affine in the velocities, alpha(q,t) dot(q) + beta(q,t) = 0",
                "for nonlinear constraints use `formulation = gibbs_appell;` (with `velocities(..) { dot(q) = ... }` or independent velocities)",
            );
            ok = false;
        }
    }
    if !ok {
        return None;
    }
    let (z_rows, psi_eta): (Vec<Vec<Id>>, Vec<Id>) =
        speed_defs.iter().map(|d| g.affine_parts(*d, qd)).unzip();
    let (alpha_rows, beta): (Vec<Vec<Id>>, Vec<Id>) = low
        .constraints
        .iter()
        .map(|c| g.affine_parts(*c, qd))
        .unzip();
    Some(Affine {
        z: Mat::from_rows(&z_rows, n),
        psi_eta: Mat::col(&psi_eta),
        alpha: Mat::from_rows(&alpha_rows, n),
        beta: Mat::col(&beta),
    })
}

/// (12)–(13): `Theta` from `(Z; alpha) Theta = (0; I)`.
fn theta_of(g: &mut Graph, af: &Affine) -> Option<Mat> {
    let (n, sigma, nu) = (af.z.c, af.z.r, af.alpha.r);
    let y: Vec<Vec<Id>> = af.z.rows().into_iter().chain(af.alpha.rows()).collect();
    let mut theta = Mat::zeros(g, n, nu);
    for a in 0..nu {
        let (zero, one) = (g.zero(), g.one());
        let rhs: Vec<Id> = (0..n)
            .map(|i| if i == sigma + a { one } else { zero })
            .collect();
        let col = solve(g, &y, &rhs)?;
        for i in 0..n {
            theta.set(i, a, col[i]);
        }
    }
    Some(theta)
}

/// Eq. (20) as `A_Gamma deta/dt = forcing`, its six parts kept as `terms`.
fn equations(low: &mut Lowered, lt: &LagrangeTerms, kin: Kinematics, cx: &Ctxt) -> Option<Derived> {
    let SpeedsFromQdot::Explicit(speed_defs) = &kin.inverse else {
        // `Formulation::rejects` keeps `velocities(..)` away from Boltzmann–Hamel.
        return None;
    };
    let af = affine_form(low, &speed_defs.clone(), cx)?;
    let coords = low.names.coords.clone();
    let g = &mut low.graph;
    let s = &low.syms;
    let (n, sigma, nu) = (s.q.len(), s.z.len(), low.constraints.len());
    let qs: &[u32] = &s.q;
    let names = kin.speed_names.clone();
    let cnames: Vec<String> = (0..nu).map(|a| format!("c{}", a + 1)).collect();
    let sp = Space {
        q: qs,
        t: s.t,
        qn: &coords,
    };
    let none: Vec<String> = vec![];
    let memo: AtomMemo = RefCell::new(HashMap::default());
    let (q_names, e_names, c_names, o_names) = (&coords[..], &names[..], &cnames[..], &none[..]);
    let n_ss = Names::new(e_names, e_names, &memo);
    let n_sc = Names::new(e_names, c_names, &memo);
    let n_sq = Names::new(e_names, q_names, &memo);
    let n_s = Names::new(e_names, o_names, &memo);

    // (12)-(13): Gamma = d qd/d eta from the solved velocity map, Theta from
    // (Z; alpha) Theta = (0; I).
    let gamma_raw = Mat::build(g, n, sigma, |g, i, r| g.diff(kin.psi[i], s.z[r]));
    let Some(theta_raw) = theta_of(g, &af) else {
        cx.error_help(
            low.sites.parametrization,
            "the speeds and constraints do not determine the velocities: the matrix (Z; alpha) is singular",
            "choose speeds independent of each other and of the constraints (Talamucci eq. 12)",
        );
        return None;
    };
    let qdot: Vec<Id> = kin
        .psi
        .iter()
        .zip(&coords)
        .map(|(p, c)| g.define_if_large(&format!("psi[{c}]"), *p, INLINE))
        .collect();
    let gamma = sp.raw(g, &gamma_raw, "Gamma", &Names::new(q_names, e_names, &memo));
    let theta = sp.raw(g, &theta_raw, "Theta", &Names::new(q_names, c_names, &memo));

    // (8): T = 1/2 qd.A qd + b.qd + c; U = -V.
    let at_rest: HashMap<u32, Id> = {
        let zero = g.zero();
        s.qd.iter().map(|v| (*v, zero)).collect()
    };
    let b = Mat::col(&g.subst_many(&lt.momenta, &at_rest));
    let c0 = g.subst(low.kinetic, &at_rest);
    let a_raw = Mat::from_rows(&lt.mass_matrix_a, n);
    let a = sp.raw(g, &a_raw, "A", &Names::new(q_names, q_names, &memo));

    // (15)
    let a_gamma = sp.prod(
        g,
        &a,
        &gamma,
        "(A Gamma)",
        &Names::new(q_names, e_names, &memo),
    );
    let a_g = sp.prod(g, &gamma.t(), &a_gamma, "A_Gamma", &n_ss);
    let a_theta = sp.prod(
        g,
        &a,
        &theta,
        "(A Theta)",
        &Names::new(q_names, c_names, &memo),
    );
    let a_gt = sp.prod(g, &gamma.t(), &a_theta, "A_GammaTheta", &n_sc);
    let a_tg = a_gt.t();
    let a_t = sp.prod(
        g,
        &theta.t(),
        &a_theta,
        "A_Theta",
        &Names::new(c_names, c_names, &memo),
    );

    // (21): the kernel (dZ/dq_k - J_q Z^(k)) Gamma of D_k.
    let dz: Vec<Mat> = qs.iter().map(|qk| Mat::partial(g, &af.z, *qk)).collect();
    let s_gamma: Vec<Mat> = (0..n)
        .map(|k| {
            let sk = Mat::build(g, sigma, n, |g, r, h| g.sub(dz[k].at(r, h), dz[h].at(r, k)));
            let x = Mat::mul(g, &sk, &gamma.v);
            atoms(g, &x, &format!("S_{}Gamma", coords[k]), &n_ss)
        })
        .collect();
    let gv = &gamma.v;
    let d_ag = sp.d_ops(g, &a_g, &s_gamma, "A_Gamma", &n_ss);
    let d_atg = sp.d_ops(g, &a_tg, &s_gamma, "A_ThetaGamma", &n_sc);
    let d_gamma = sp.d_ops(g, &gamma, &s_gamma, "Gamma", &n_sq);
    let p_ag = sp.p_ops(g, &a_g, gv, "A_Gamma", &names, &n_ss);
    let p_agt = sp.p_ops(g, &a_gt, gv, "A_GammaTheta", &cnames, &n_ss);
    let p_at = sp.p_ops(g, &a_t, gv, "A_Theta", &cnames, &n_sc);
    let p_gamma = sp.p_ops(g, &gamma, gv, "Gamma", &names, &n_sq);
    let p_theta = sp.p_ops(g, &theta, gv, "Theta", &cnames, &n_sq);

    // vectors and Jacobians
    let eta = Mat::col(&s.z.iter().map(|zr| g.sym(*zr)).collect::<Vec<Id>>());
    let go = Names::new(q_names, o_names, &memo);
    let g_eta = Mat::mul(g, gv, &eta);
    let g_eta = atoms(g, &g_eta, "(Gamma eta)", &go);
    let g_psi = Mat::mul(g, gv, &af.psi_eta);
    let g_psi = atoms(g, &g_psi, "(Gamma psi)", &go);
    let th_beta = Mat::mul(g, &theta.v, &af.beta);
    let th_beta = atoms(g, &th_beta, "(Theta beta)", &go);
    let j_psi = Mat::jac(g, &af.psi_eta, qs);
    let j_beta = Mat::jac(g, &af.beta, qs);
    let j_b = Mat::jac(g, &b, qs);
    let j_b_skew = Mat::minus(g, &j_b, &j_b.t());
    let dt_z = Mat::partial(g, &af.z, s.t);
    let half = Number::rat(1, 2);

    // K(x) = sum_k (Gamma x)_k D_k(A_Gamma) - 1/2 P(A_Gamma, x)   (sigma x sigma)
    let k_of = |g: &mut Graph, gx: &Mat, x: &Mat, label: &str| -> Mat {
        let d = Mat::along(g, gx, &d_ag, sigma, sigma);
        let p = Mat::along(g, x, &p_ag, sigma, sigma);
        let k = Mat::sum(g, &[(Number::ONE, &d), (half.neg(), &p)]);
        atoms(g, &k, label, &n_ss)
    };
    let k_eta = k_of(g, &g_eta, &eta, "K(eta)");
    let k_psi = k_of(g, &g_psi, &af.psi_eta, "K(psi)");
    let product = |g: &mut Graph, x: &Mat, y: &Mat, label: &str, nm: &Names| -> Mat {
        let p = Mat::mul(g, x, y);
        atoms(g, &p, label, nm)
    };
    let ag_jpsi = Mat::mul(g, &a_g.v, &j_psi);
    let ag_jpsi_g = product(g, &ag_jpsi, gv, "(A_Gamma J_q psi Gamma)", &n_ss);
    let ag_jpsi_th = product(g, &ag_jpsi, &theta.v, "(A_Gamma J_q psi Theta)", &n_sc);
    let agt_jbeta = Mat::mul(g, &a_gt.v, &j_beta);
    let agt_jbeta_g = product(g, &agt_jbeta, gv, "(A_GammaTheta J_q beta Gamma)", &n_ss);
    let agt_jbeta_th = product(
        g,
        &agt_jbeta,
        &theta.v,
        "(A_GammaTheta J_q beta Theta)",
        &n_sc,
    );
    // M_beta = A_GT J_q beta Gamma - (..)^T - P(A_GT, beta) + sum_k (Theta beta)_k D_k(A_Gamma)
    let m_beta = {
        let p = Mat::along(g, &af.beta, &p_agt, sigma, sigma);
        let d = Mat::along(g, &th_beta, &d_ag, sigma, sigma);
        let (one, m_one) = (Number::ONE, Number::MINUS_ONE);
        let x = Mat::sum(
            g,
            &[
                (one, &agt_jbeta_g),
                (m_one, &agt_jbeta_g.t()),
                (m_one, &p),
                (one, &d),
            ],
        );
        atoms(g, &x, "M_beta", &n_ss)
    };
    // `dM^T/dt`-type term + (M dZ/dt Gamma)^T for (M, dt) = (A_Gamma, dA_Gamma/dt),
    // (A_ThetaGamma, dA_GammaTheta/dt), (Gamma, dGamma^T/dt).
    let time_of = |g: &mut Graph, dt: &Mat, v: &Mat, label: &str, nm: &Names| -> Mat {
        let x = Mat::mul(g, v, &dt_z);
        let y = Mat::mul(g, &x, gv);
        let s = Mat::plus(g, dt, &y.t());
        atoms(g, &s, label, nm)
    };
    let time_ag = time_of(
        g,
        &a_g.dt,
        &a_g.v,
        "(dA_Gamma/dt + (A_Gamma dZ/dt Gamma)^T)",
        &n_ss,
    );
    let time_agt = time_of(
        g,
        &a_gt.dt,
        &a_tg.v,
        "(dA_GammaTheta/dt + (A_ThetaGamma dZ/dt Gamma)^T)",
        &n_sc,
    );
    let time_gt = time_of(
        g,
        &gamma.dt.t(),
        gv,
        "(dGamma^T/dt + (Gamma dZ/dt Gamma)^T)",
        &n_sq,
    );
    let gt_jbs = Mat::mul(g, &gv.t(), &j_b_skew);

    let o = Ops {
        sigma,
        nu,
        n,
        eta,
        psi_eta: af.psi_eta.clone(),
        beta: af.beta.clone(),
        alpha: af.alpha.clone(),
        b,
        gamma,
        theta,
        a_g,
        a_gt,
        a_tg,
        a_t,
        d_atg,
        d_gamma,
        p_gamma,
        p_theta,
        p_at,
        g_eta,
        g_psi,
        th_beta,
        j_beta,
        gt_jbs,
        k_eta,
        k_psi,
        ag_jpsi_g,
        ag_jpsi_th,
        agt_jbeta_th,
        m_beta,
        time_ag,
        time_agt,
        time_gt,
    };
    let q_term = {
        let x = Mat::mul(g, &o.k_eta, &o.eta);
        atoms(g, &x, "Q", &n_s)
    };
    let lambda = lambda(g, &o, &n_s);
    let n_term = n_term(g, &o, &n_s);
    let time_term = explicit_time(g, &o, c0, low.potential, qs, s.t, &n_s);
    let qdot_m = Mat::col(&qdot);
    let correction = constraint_correction(g, &o, &qdot_m, qs, s.t, &coords, &n_sc, &n_s, &memo);
    // extra forces: -Gamma^T F at qd = psi.
    let at_qd: HashMap<u32, Id> = s.qd.iter().copied().zip(qdot.iter().copied()).collect();
    let force_term = {
        let f_qd = Mat::col(&g.subst_many(&low.forces, &at_qd));
        let x = Mat::mul(g, &o.gamma.v.t(), &f_qd);
        let x = x.map(g, |g, v| g.neg(v));
        atoms(g, &x, "F", &n_s)
    };

    // A_Gamma deta/dt = -(Q + Lambda + N + T + C + F).
    let parts: [(&str, &Mat); 6] = [
        ("Q", &q_term),
        ("Lambda", &lambda),
        ("N", &n_term),
        ("explicit_time", &time_term),
        ("constraint_correction", &correction),
        ("forces", &force_term),
    ];
    let forcing: Vec<Id> = (0..sigma)
        .map(|i| {
            let xs: Vec<Id> = parts.iter().map(|(_, v)| v.e[i]).collect();
            let s = g.add_all(&xs);
            g.neg(s)
        })
        .collect();
    let terms: Vec<(String, Vec<Id>)> = parts
        .iter()
        .map(|(k, v)| (k.to_string(), v.e.clone()))
        .collect();

    let mut text = Text::new(format!(
        "{}: Boltzmann–Hamel equations in quasi-velocities (Talamucci 2015, eq. 20, with the constraint correction C)",
        low.names.model
    ));
    text.prose(format!("coordinates q = ({})", coords.join(", ")));
    text.prose(format!("speeds    eta = ({})", names.join(", ")));
    text.prose("\n(11) eta = Z(q,t) dot(q) + psi(q,t);  (4) alpha(q,t) dot(q) + beta(q,t) = 0:");
    text.matrix(g, "Z", &af.z, &names, &coords);
    text.vector(g, "psi", &af.psi_eta.e, &names);
    text.matrix(g, "alpha", &af.alpha, &cnames, &coords);
    text.vector(g, "beta", &af.beta.e, &cnames);
    text.prose(
        "\n(12)-(13) (Gamma Theta) = (Z; alpha)^-1;  dq/dt = Gamma (eta - psi) - Theta beta:",
    );
    for (i, p) in qdot.iter().enumerate() {
        text.entry(format!("dot({})", coords[i]), *p);
    }
    text.matrix(g, "Gamma", &o.gamma.v, &coords, &names);
    text.matrix(g, "Theta", &o.theta.v, &coords, &cnames);
    text.prose("\n(8) T = 1/2 dot(q).A dot(q) + b.dot(q) + c;  U = -V:");
    text.vector(g, "b", &o.b.e, &coords);
    text.entry("c", c0);
    let u = g.neg(low.potential);
    text.entry("U", u);
    text.prose("\n(15) A_Gamma = Gamma^T A Gamma, A_GammaTheta = Gamma^T A Theta, A_Theta = Theta^T A Theta:");
    text.symmetric(g, "A_Gamma", &o.a_g.v, &names);
    text.matrix(g, "A_GammaTheta", &o.a_gt.v, &names, &cnames);
    text.symmetric(g, "A_Theta", &o.a_t.v, &cnames);
    text.prose(
        "\n(20) A_Gamma deta/dt + Q + Lambda + N + T + C + F = 0, with\n     T = - A_Gamma dpsi/dt - A_GammaTheta dbeta/dt - Gamma^T (grad c + grad U - db/dt),\n     C = Gamma^T (dalpha/dt - J_q(alpha dot(q) + beta))^T Theta^T grad_qd L  (the term (16)-(17) omit),\n     F = - Gamma^T (extra forces),\n     D_k(M) = [M (dZ/dq_k - J_q Z^(k)) Gamma + dM/dq_k]^T  (21)-(22),\n     P_r(M) = ((J_q M^(r)) Gamma)^T,  K(x) = sum_k (Gamma x)_k D_k(A_Gamma) - 1/2 sum_r x_r P_r(A_Gamma):",
    );
    let sections: [(&str, &str, &Mat); 6] = [
        ("Q", "Q = K(eta) eta (quadratic in eta)", &q_term),
        (
            "Lambda",
            "Lambda (linear in eta) = -Lambda_1 - Lambda_2 - Lambda_3 - Lambda_4 + Lambda_5 + Lambda_6 + Lambda_7",
            &lambda,
        ),
        ("N", "N (free of eta) = N_1 + ... + N_7", &n_term),
        ("T", "T (explicit time, potential)", &time_term),
        ("C", "C (constraint correction)", &correction),
        ("F", "F = - Gamma^T (extra forces)", &force_term),
    ];
    for (label, title, v) in sections {
        text.prose(format!("\n{title}:"));
        text.rows(label, &v.e, &names);
    }

    Some(Derived {
        recursive: None,
        qdot,
        psi_z: o.gamma.v.clone(),
        mass_matrix_g: o.a_g.v.clone(),
        forcing,
        speeds_from_qdot: kin.inverse,
        speed_names: kin.speed_names,
        terms,
        momentum_form: Vec::new(),
        forcing_alt: Vec::new(),
        text,
    })
}
