//! The parts of Talamucci's eq. (20) — Lambda, N, the explicit-time terms and the
//! constraint correction C — each a function of the operators they are built from.

use super::fields::{atoms, AtomMemo, Field, Names};
use crate::sym::{Graph, Id, Mat, Number};

/// Everything eq. (20) is assembled from, at `qd = Gamma (eta - psi) - Theta beta`.
pub struct Ops {
    pub sigma: usize,
    pub nu: usize,
    pub n: usize,
    pub eta: Mat,
    pub psi_eta: Mat,
    pub beta: Mat,
    pub alpha: Mat,
    /// `b` of (8): the momenta at rest.
    pub b: Mat,
    pub gamma: Field,
    pub theta: Field,
    pub a_g: Field,
    pub a_gt: Field,
    pub a_tg: Field,
    pub a_t: Field,
    pub d_atg: Vec<Mat>,
    pub d_gamma: Vec<Mat>,
    pub p_gamma: Vec<Mat>,
    pub p_theta: Vec<Mat>,
    pub p_at: Vec<Mat>,
    pub g_eta: Mat,
    pub g_psi: Mat,
    pub th_beta: Mat,
    pub j_beta: Mat,
    pub gt_jbs: Mat,
    pub k_eta: Mat,
    pub k_psi: Mat,
    pub ag_jpsi_g: Mat,
    pub ag_jpsi_th: Mat,
    pub agt_jbeta_th: Mat,
    pub m_beta: Mat,
    pub time_ag: Mat,
    pub time_agt: Mat,
    pub time_gt: Mat,
}

/// Lambda of (20), linear in eta: its seven lines as printed.
pub fn lambda(g: &mut Graph, o: &Ops, eo: &Names) -> Mat {
    let (sigma, nu, n) = (o.sigma, o.nu, o.n);
    let m1 = Mat::plus(g, &o.k_psi, &o.ag_jpsi_g);
    let l1 = Mat::mul(g, &m1, &o.eta);
    let l2 = Mat::mul(g, &o.m_beta, &o.eta);
    let l3 = Mat::mul(g, &o.k_eta, &o.psi_eta);
    let d4 = Mat::along(g, &o.g_eta, &o.d_atg, sigma, nu);
    let l4 = Mat::mul(g, &d4, &o.beta);
    let m5 = Mat::mul(g, &o.gt_jbs, &o.gamma.v);
    let l5 = Mat::mul(g, &m5, &o.eta);
    let d6 = Mat::along(g, &o.g_eta, &o.d_gamma, sigma, n);
    let p6 = Mat::along(g, &o.eta, &o.p_gamma, sigma, n);
    let m6 = Mat::minus(g, &d6, &p6);
    let l6 = Mat::mul(g, &m6, &o.b);
    let l7 = Mat::mul(g, &o.time_ag, &o.eta);
    let (one, m_one) = (Number::ONE, Number::MINUS_ONE);
    let lines = [
        (m_one, l1),
        (m_one, l2),
        (m_one, l3),
        (m_one, l4),
        (one, l5),
        (one, l6),
        (one, l7),
    ];
    let lines: Vec<(Number, Mat)> = lines
        .into_iter()
        .enumerate()
        .map(|(i, (k, x))| (k, atoms(g, &x, &format!("Lambda_{}", i + 1), eo)))
        .collect();
    let terms: Vec<(Number, &Mat)> = lines.iter().map(|(k, x)| (*k, x)).collect();
    let x = Mat::sum(g, &terms);
    atoms(g, &x, "Lambda", eo)
}

/// N of (20), free of eta: its lines as printed (the J_q psi transposes left out, see
/// the module docs).
pub fn n_term(g: &mut Graph, o: &Ops, eo: &Names) -> Mat {
    let (sigma, nu, n) = (o.sigma, o.nu, o.n);
    let gv = &o.gamma.v;
    let (one, m_one, half) = (Number::ONE, Number::MINUS_ONE, Number::rat(1, 2));
    let at_jbeta_g = {
        let x = Mat::mul(g, &o.a_t.v, &o.j_beta);
        Mat::mul(g, &x, gv)
    };
    let p1 = Mat::along(g, &o.beta, &o.p_at, sigma, nu);
    let d1 = Mat::along(g, &o.th_beta, &o.d_atg, sigma, nu);
    let m1 = Mat::sum(
        g,
        &[
            (one, &o.agt_jbeta_th),
            (m_one, &at_jbeta_g.t()),
            (half.neg(), &p1),
            (one, &d1),
        ],
    );
    let n1 = Mat::mul(g, &m1, &o.beta);
    let m2 = Mat::plus(g, &o.ag_jpsi_g, &o.k_psi);
    let n2 = Mat::mul(g, &m2, &o.psi_eta);
    let n3 = Mat::mul(g, &o.m_beta, &o.psi_eta);
    let d4 = Mat::along(g, &o.g_psi, &o.d_atg, sigma, nu);
    let m4 = Mat::plus(g, &o.ag_jpsi_th, &d4);
    let n4 = Mat::mul(g, &m4, &o.beta);
    let v_rest = Mat::plus(g, &o.g_psi, &o.th_beta);
    let n5a = Mat::mul(g, &o.gt_jbs, &v_rest);
    let th_jbeta_g = {
        let x = Mat::mul(g, &o.theta.v, &o.j_beta);
        Mat::mul(g, &x, gv)
    };
    let n5b = Mat::mul(g, &th_jbeta_g.t(), &o.b);
    let n5 = Mat::minus(g, &n5b, &n5a);
    let p6a = Mat::along(g, &o.psi_eta, &o.p_gamma, sigma, n);
    let p6b = Mat::along(g, &o.beta, &o.p_theta, sigma, n);
    let d6 = Mat::along(g, &v_rest, &o.d_gamma, sigma, n);
    let m6 = Mat::sum(g, &[(one, &p6a), (one, &p6b), (m_one, &d6)]);
    let n6 = Mat::mul(g, &m6, &o.b);
    let n7a = Mat::mul(g, &o.time_agt, &o.beta);
    let n7b = Mat::mul(g, &o.time_ag, &o.psi_eta);
    let n7c = Mat::mul(g, &o.time_gt, &o.b);
    let n7 = Mat::sum(g, &[(m_one, &n7a), (m_one, &n7b), (one, &n7c)]);
    let lines: Vec<Mat> = [n1, n2, n3, n4, n5, n6, n7]
        .into_iter()
        .enumerate()
        .map(|(i, x)| atoms(g, &x, &format!("N_{}", i + 1), eo))
        .collect();
    let terms: Vec<(Number, &Mat)> = lines.iter().map(|x| (one, x)).collect();
    let x = Mat::sum(g, &terms);
    atoms(g, &x, "N", eo)
}

/// The explicit time and potential terms of (20):
/// `- A_Gamma dpsi/dt - A_GT dbeta/dt - Gamma^T (grad c + grad U - db/dt)`, U = -V.
pub fn explicit_time(
    g: &mut Graph,
    o: &Ops,
    c0: Id,
    potential: Id,
    qs: &[u32],
    t: u32,
    eo: &Names,
) -> Mat {
    let (one, m_one) = (Number::ONE, Number::MINUS_ONE);
    let dt_psi = Mat::partial(g, &o.psi_eta, t);
    let dt_beta = Mat::partial(g, &o.beta, t);
    let dt_b = Mat::partial(g, &o.b, t);
    let grad_c = Mat::col(&qs.iter().map(|qk| g.diff(c0, *qk)).collect::<Vec<Id>>());
    let grad_v = Mat::col(
        &qs.iter()
            .map(|qk| g.diff(potential, *qk))
            .collect::<Vec<Id>>(),
    );
    let grads = Mat::sum(g, &[(one, &grad_c), (m_one, &grad_v), (m_one, &dt_b)]);
    let t1 = Mat::mul(g, &o.a_g.v, &dt_psi);
    let t2 = Mat::mul(g, &o.a_gt.v, &dt_beta);
    let t3 = Mat::mul(g, &o.gamma.v.t(), &grads);
    let x = Mat::sum(g, &[(m_one, &t1), (m_one, &t2), (m_one, &t3)]);
    atoms(g, &x, "T", eo)
}

/// The constraint correction (module docs):
/// `C = { sum_k qd_k ((dalpha/dq_k - J_q alpha^(k)) Gamma)^T + (dalpha/dt Gamma)^T
///       - (J_q beta Gamma)^T } Theta^T (A qd + b)`,  `qd = Gamma (eta - psi) - Theta beta`.
#[allow(clippy::too_many_arguments)]
pub fn constraint_correction(
    g: &mut Graph,
    o: &Ops,
    qdot: &Mat,
    qs: &[u32],
    t: u32,
    coords: &[String],
    ec: &Names,
    eo: &Names,
    memo: &AtomMemo,
) -> Mat {
    let (sigma, nu, n) = (o.sigma, o.nu, o.n);
    let gv = &o.gamma.v;
    let (one, m_one) = (Number::ONE, Number::MINUS_ONE);
    let dalpha: Vec<Mat> = qs.iter().map(|qk| Mat::partial(g, &o.alpha, *qk)).collect();
    let r_gamma_t: Vec<Mat> = (0..n)
        .map(|k| {
            let rk = Mat::build(g, nu, n, |g, a, h| {
                g.sub(dalpha[k].at(a, h), dalpha[h].at(a, k))
            });
            let x = Mat::mul(g, &rk, gv).t();
            atoms(g, &x, &format!("R_{}Gamma", coords[k]), ec)
        })
        .collect();
    let r_qd = Mat::along(g, qdot, &r_gamma_t, sigma, nu);
    let dt_alpha_g = {
        let x = Mat::partial(g, &o.alpha, t);
        Mat::mul(g, &x, gv).t()
    };
    let jbeta_g = Mat::mul(g, &o.j_beta, gv).t();
    let e_t = Mat::sum(g, &[(one, &r_qd), (one, &dt_alpha_g), (m_one, &jbeta_g)]);
    let e_t = atoms(g, &e_t, "(Gamma^T (dalpha/dt - J_q mu)^T)", ec);
    let eta_minus_psi = Mat::minus(g, &o.eta, &o.psi_eta);
    let lam_star = {
        let x = Mat::mul(g, &o.a_tg.v, &eta_minus_psi);
        let y = Mat::mul(g, &o.a_t.v, &o.beta);
        let z = Mat::mul(g, &o.theta.v.t(), &o.b);
        let s = Mat::sum(g, &[(one, &x), (m_one, &y), (one, &z)]);
        let none: [String; 0] = [];
        let cnames: Vec<String> = (0..nu).map(|a| format!("c{}", a + 1)).collect();
        atoms(
            g,
            &s,
            "(Theta^T grad_qd L)",
            &Names::new(&cnames, &none, memo),
        )
    };
    let x = Mat::mul(g, &e_t, &lam_star);
    atoms(g, &x, "C", eo)
}
