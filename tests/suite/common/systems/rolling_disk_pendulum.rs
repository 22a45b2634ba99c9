//! Talamucci 2015, §3.3: the rolling disk with a pendulum rider (the unicycle). Model: the
//! library's [`nonholo::models::RollingDiskPendulum`] (`nonholo::rolling_disk_pendulum_model!`).

use super::talamucci::*;
use super::{PaperSystem, Print, PrintedEquations, PrintedRhs, Worst};
use crate::common::oracle::*;
use crate::common::rng::SplitMix64;
use num_dual::{Dual, Dual64, DualNum};

/// Talamucci 3.3, rolling disk (radius R, mass M, I_D = M R^2/2) with the rider points.
/// q = (x_C, y_C, phi, phi1, theta, theta1) with C the contact point; disk centre
/// C + R e_theta; U = -v1hat g cos(theta) + m_D g kappa cos(theta1);
/// constraint (31): xd_C = R phi1d cos(phi), yd_C = R phi1d sin(phi);
/// speeds eta1 = dL/dphid, eta2 = dL/dphi1d, eta3 = thetad, eta4 = theta1d.
/// Forces (our addition): F_phi = -c_phi phid, F_phi1 = tau (pedalling torque),
/// F_theta1 = -c_th1 theta1d.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RollingDiskPendulum {
    pub big_m: f64,
    pub r: f64,
    pub rider: Rider,
    pub g: f64,
    pub c_phi: f64,
    pub c_th1: f64,
    pub tau: f64,
}

impl RollingDiskPendulum {
    pub fn new(rng: &mut SplitMix64) -> Self {
        RollingDiskPendulum {
            big_m: rng.uniform(1.0, 3.0),
            r: rng.uniform(0.3, 0.5),
            rider: Rider::new(rng),
            g: 9.81,
            c_phi: rng.uniform(0.1, 0.5),
            c_th1: rng.uniform(0.1, 0.5),
            tau: rng.uniform(0.2, 1.0),
        }
    }
    /// The library model with these parameters.
    pub fn model(&self) -> nonholo::models::RollingDiskPendulum {
        let r = &self.rider;
        nonholo::models::RollingDiskPendulum::new()
            .with_big_m(self.big_m)
            .with_r(self.r)
            .with_m_s(r.m_s)
            .with_m_d(r.m_d)
            .with_kappa(r.kappa)
            .with_kappa1(r.kappa1)
            .with_kappa2(r.kappa2)
            .with_g(self.g)
            .with_c_phi(self.c_phi)
            .with_c_th1(self.c_th1)
            .with_tau(self.tau)
    }

    pub fn hats(&self) -> Hats {
        hats(self.big_m, self.r, &self.rider)
    }
    pub fn f1h<S: Scalar>(&self, th: S, th1: S) -> S {
        f1h(self.big_m, self.r, &self.rider, th, th1)
    }
    pub fn f2h<S: Scalar>(&self, th: S, th1: S) -> S {
        f2h(self.big_m, self.r, &self.rider, th, th1)
    }
    /// delta = I_D F2hat - I_D sin(theta) (I_D sin(theta) + R F1hat).
    pub fn delta<S: Scalar>(&self, th: S, th1: S) -> S {
        let i_d = self.hats().i_d;
        self.f2h(th, th1) * i_d - th.sin() * i_d * (th.sin() * i_d + self.f1h(th, th1) * self.r)
    }

    pub fn printed_u(&self, q: &[f64]) -> f64 {
        let h = self.hats();
        -h.v1h * self.g * q[4].cos() + self.rider.m_d * self.g * self.rider.kappa * q[5].cos()
    }

    pub fn kinetic_energy_closed_form(&self, _t: f64, q: &[f64], qd: &[f64]) -> f64 {
        let h = self.hats();
        let (ph, th, th1) = (q[2], q[4], q[5]);
        let (xd, yd, phd, ph1d, thd, th1d) = (qd[0], qd[1], qd[2], qd[3], qd[4], qd[5]);
        let vpar = xd * ph.cos() + yd * ph.sin();
        let vperp = -xd * ph.sin() + yd * ph.cos();
        0.5 * h.m_t * (xd * xd + yd * yd)
            + 0.5 * self.f2h(th, th1) * phd * phd
            + 0.5 * h.i_d * ph1d * ph1d
            - h.i_d * th.sin() * phd * ph1d
            + 0.5 * (h.v2h + 0.5 * h.i_d) * thd * thd
            + 0.5 * h.mk * self.rider.kappa * th1d * th1d
            + h.v3 * (th + th1).cos() * thd * th1d
            - self.f1h(th, th1) * phd * vpar
            + (h.v1h * th.cos() * thd + h.mk * th1.cos() * th1d) * vperp
    }

    /// A of 3.3 as printed; `verbatim = false` fixes the (2,6)/(6,2) sign (known ERRATA).
    pub fn printed_a(&self, q: &[f64], verbatim: bool) -> Vec<Vec<f64>> {
        let h = self.hats();
        let (ph, th, th1) = (q[2], q[4], q[5]);
        let (sp, cp) = ph.sin_cos();
        let f1 = self.f1h(th, th1);
        let v1c = h.v1h * th.cos();
        let mkc = h.mk * th1.cos();
        let s26 = if verbatim { -1.0 } else { 1.0 };
        let c13 = h.v3 * (th + th1).cos();
        vec![
            vec![h.m_t, 0.0, -f1 * cp, 0.0, -v1c * sp, -mkc * sp],
            vec![0.0, h.m_t, -f1 * sp, 0.0, v1c * cp, s26 * mkc * cp],
            vec![
                -f1 * cp,
                -f1 * sp,
                self.f2h(th, th1),
                -h.i_d * th.sin(),
                0.0,
                0.0,
            ],
            vec![0.0, 0.0, -h.i_d * th.sin(), h.i_d, 0.0, 0.0],
            vec![-v1c * sp, v1c * cp, 0.0, 0.0, h.v2h + 0.5 * h.i_d, c13],
            vec![
                -mkc * sp,
                s26 * mkc * cp,
                0.0,
                0.0,
                c13,
                h.mk * self.rider.kappa,
            ],
        ]
    }

    pub fn printed_gamma(&self, q: &[f64]) -> Vec<Vec<f64>> {
        let h = self.hats();
        let (ph, th, th1) = (q[2], q[4], q[5]);
        let (sp, cp) = ph.sin_cos();
        let d = self.delta(th, th1);
        let (f1, f2) = (self.f1h(th, th1), self.f2h(th, th1));
        let (r, i_d, st) = (self.r, h.i_d, th.sin());
        vec![
            vec![i_d * r * st * cp / d, r * f2 * cp / d, 0.0, 0.0],
            vec![i_d * r * st * sp / d, r * f2 * sp / d, 0.0, 0.0],
            vec![i_d / d, (i_d * st + r * f1) / d, 0.0, 0.0],
            vec![i_d * st / d, f2 / d, 0.0, 0.0],
            vec![0.0, 0.0, 1.0, 0.0],
            vec![0.0, 0.0, 0.0, 1.0],
        ]
    }

    /// The printed b_{i,j} (upper block of A_Gamma), generic so that they can be differentiated.
    pub fn printed_b<S: Scalar>(&self, th: S, th1: S) -> [[S; 2]; 2] {
        let h = self.hats();
        let r = self.r;
        let d = self.delta(th, th1);
        let (f1, f2) = (self.f1h(th, th1), self.f2h(th, th1));
        let st = th.sin();
        let b11 = (k::<S>(1.0) + st * h.i_d / d * (st * (h.m_t * r * r) - f1 * r)) * h.i_d / d;
        let common = k::<S>(1.0) + (f2 * (h.m_t * r) - (st * h.i_d + f1 * r) * f1) * r / d;
        let b12 = st * h.i_d / d * common;
        let b22 = f2 / d * common;
        [[b11, b12], [b12, b22]]
    }

    pub fn printed_a_gamma(&self, q: &[f64], verbatim: bool) -> Vec<Vec<f64>> {
        let h = self.hats();
        let (th, th1) = (q[4], q[5]);
        let b = self.printed_b(th, th1);
        let c13 = h.v3 * (th + th1).cos();
        // ERRATA (known): (4,4) printed v2hat + I_D/2; the pendulum's m_D kappa^2 is right.
        let a44 = if verbatim {
            h.v2h + 0.5 * h.i_d
        } else {
            h.mk * self.rider.kappa
        };
        vec![
            vec![b[0][0], b[0][1], 0.0, 0.0],
            vec![b[1][0], b[1][1], 0.0, 0.0],
            vec![0.0, 0.0, h.v2h + 0.5 * h.i_d, c13],
            vec![0.0, 0.0, c13, a44],
        ]
    }

    /// G_1 .. G_6 as printed.
    pub fn printed_gs(&self, th: f64, th1: f64) -> [f64; 6] {
        let h = self.hats();
        let r = self.r;
        let d = self.delta(th, th1);
        let (f1, f2) = (self.f1h(th, th1), self.f2h(th, th1));
        let (f2_th, f2_th1) = d_dth(|a, b| self.f2h(a, b), th, th1);
        let (st, ct) = th.sin_cos();
        let i_d = h.i_d;
        [
            i_d / d * (f2_th - (i_d + r * h.v1h) * ct * st),
            i_d / d * (f2_th1 - h.mk * r * th1.cos() * st),
            1.0 / d * ((i_d + r * h.v1h) * f2 * ct - (i_d * st + r * f1) * f2_th),
            1.0 / d * (h.mk * r * f2 * th1.cos() - (i_d * st + r * f1) * f2_th1),
            i_d * i_d / d * ct,
            i_d / d * (i_d * st + r * f1) * ct,
        ]
    }

    /// The printed equations of 3.3 (coef . etadot + rest = 0), forces as - Gamma^T F.
    /// `Verbatim` / `Eq17` (misprints fixed: equals (17), checked against
    /// [`hamel_residual`]) / `Corrected` (plus the term (17) drops: the true dynamics).
    /// The printed G_1..G_6 are right: they are the transposition symbols
    /// T^1_13 = G1, T^2_13 = -G5, T^1_14 = G2, T^1_23 = -G3, T^2_23 = -G6, T^1_24 = -G4
    /// (T^r_ks = sum_jm Gamma_jk Gamma_ms (dZ_rj/dq_m - dZ_rm/dq_j), all others zero).
    pub fn printed_equations(
        &self,
        q: &[f64],
        eta: &[f64],
        mode: Print,
    ) -> (Vec<Vec<f64>>, Vec<f64>) {
        let h = self.hats();
        let (th, th1) = (q[4], q[5]);
        let (e1, e2, e3, e4) = (eta[0], eta[1], eta[2], eta[3]);
        let b = self.printed_b(th, th1);
        let db_th = {
            let bb = self.printed_b(Dual64::new(th, 1.0), Dual64::from_re(th1));
            [[bb[0][0].eps, bb[0][1].eps], [bb[1][0].eps, bb[1][1].eps]]
        };
        let db_th1 = {
            let bb = self.printed_b(Dual64::from_re(th), Dual64::new(th1, 1.0));
            [[bb[0][0].eps, bb[0][1].eps], [bb[1][0].eps, bb[1][1].eps]]
        };
        let gg = self.printed_gs(th, th1);
        let (g1, g2, g3, g4, g5, g6) = (gg[0], gg[1], gg[2], gg[3], gg[4], gg[5]);
        let (b11, b12, b21, b22) = (b[0][0], b[0][1], b[1][0], b[1][1]);
        let (cp, sp) = ((th + th1).cos(), (th + th1).sin());
        let v3 = h.v3;
        let ah = h.v2h + 0.5 * h.i_d;
        let vb = mode == Print::Verbatim;
        // sign of the v3 cos(theta + theta1) coupling of etadot3/etadot4 in equations 3 and 4.
        // ERRATA (new): printed "- nu3 etadot4 cos(theta + theta1)" (eq. 3) and
        // "- nu3 etadot3 cos(theta + theta1)" (eq. 4); A_Gamma (printed and derived) has +v3 cos.
        let sc = if vb { -1.0 } else { 1.0 };
        let m = vec![
            vec![b11, b12, 0.0, 0.0],
            vec![b21, b22, 0.0, 0.0],
            vec![0.0, 0.0, ah, sc * v3 * cp],
            vec![0.0, 0.0, sc * v3 * cp, h.mk * self.rider.kappa],
        ];
        let mut r1 = e1 * e3 * (b11 * g1 - b12 * g5 + db_th[0][0])
            + e1 * e4 * (b11 * g2 + db_th1[0][0])
            + e2 * e3 * (b21 * g1 - b22 * g5 + db_th[1][0])
            + e2 * e4 * (b21 * g2 + db_th1[1][0]);
        // ERRATA (new): "+ eta1 eta4 (b11 G4 - db12/dtheta1)" should be "- eta1 eta4 (b11 G4 - db12/dtheta1)";
        // ERRATA (new): "- eta2 eta3 (b21 G4 + b22 G6 - db22/dtheta)" should have G3 for G4.
        let mut r2 = -e1 * e3 * (b11 * g3 + b12 * g6 - db_th[0][1])
            + (if vb { 1.0 } else { -1.0 }) * e1 * e4 * (b11 * g4 - db_th1[0][1])
            - e2 * e3 * (b21 * (if vb { g4 } else { g3 }) + b22 * g6 - db_th[1][1])
            + e2 * e4 * (-b21 * g4 + db_th1[1][1]);
        // ERRATA (new): "- eta1^2 (b11 G1 + 1/2 db11/dtheta)" should be
        // "- eta1^2 (b11 G1 - b12 G5 + 1/2 db11/dtheta)".
        let r3 = -e1 * e1 * (b11 * g1 - if vb { 0.0 } else { b12 * g5 } + 0.5 * db_th[0][0])
            + e2 * e2 * (b21 * g3 + b22 * g6 - 0.5 * db_th[1][1])
            - e1 * e2 * (b21 * g1 - b11 * g3 - b22 * g5 - b12 * g6 + db_th[1][0])
            - v3 * e4 * e4 * sp
            - h.v1h * self.g * th.sin();
        // ERRATA (new): "+ eta1 eta2 (b21 G2 - b11 G4 + db21/dtheta1)" should be "- eta1 eta2 (...)".
        // ERRATA (known): "+ m_D kappa sin(theta1)" lacks g.
        let r4 = -e1 * e1 * (b11 * g2 + 0.5 * db_th1[0][0])
            + e2 * e2 * (b21 * g4 - 0.5 * db_th1[1][1])
            + (if vb { 1.0 } else { -1.0 }) * e1 * e2 * (b21 * g2 - b11 * g4 + db_th1[1][0])
            - v3 * e3 * e3 * sp
            + h.mk * th1.sin() * if vb { 1.0 } else { self.g };
        if mode == Print::Corrected {
            // NOT A MISPRINT: the term (16)-(17) drop, Gamma^T (alphadot^T - J_q^T(alpha qd)) Theta^T grad_qd L,
            // is here (R/delta) W (eta2, -eta1, 0, 0) with W = v1hat cos(theta) eta3 + m_D kappa cos(theta1) eta4
            // (= dF1hat/dt): alpha's phi1 column (-R cos phi, -R sin phi) depends on phi.
            let w = h.v1h * th.cos() * e3 + h.mk * th1.cos() * e4;
            let d = self.delta(th, th1);
            r1 += self.r / d * w * e2;
            r2 -= self.r / d * w * e1;
        }
        let mut rest = vec![r1, r2, r3, r4];
        let gam = self.printed_gamma(q);
        let qd = matvec(&gam, eta);
        let f = self.forces(0.0, q, &qd);
        let gtf = matvec(&transpose(&gam), &f);
        for i in 0..4 {
            rest[i] -= gtf[i];
        }
        (m, rest)
    }

    /// An independent hand derivation of the equations (see [`derived_disk_equations`]).
    pub fn derived_equations(&self, q: &[f64], eta: &[f64]) -> (Vec<Vec<f64>>, Vec<f64>) {
        derived_disk_equations(self, q, eta)
    }

    pub fn printed_rhs_mode(&self, _t: f64, s: &[f64], mode: Print) -> Vec<f64> {
        let (q, eta) = s.split_at(6);
        let mut out = matvec(&self.printed_gamma(q), eta);
        let (m, rest) = self.printed_equations(q, eta, mode);
        out.extend(solve_printed(m, rest));
        out
    }

    /// The right-hand side from the hand-derived equations.
    pub fn derived_rhs(&self, _t: f64, s: &[f64]) -> Vec<f64> {
        let (q, eta) = s.split_at(6);
        let mut out = matvec(&self.printed_gamma(q), eta);
        let (m, rest) = self.derived_equations(q, eta);
        out.extend(solve_printed(m, rest));
        out
    }

    pub fn printed_rhs(&self, t: f64, s: &[f64]) -> Vec<f64> {
        self.printed_rhs_mode(t, s, Print::Corrected)
    }

    /// eta from qd (momenta for eta1, eta2).
    pub fn speeds(&self, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64> {
        self.eta(t, q, qd)
    }

    pub fn speeds_generic<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> Vec<D> {
        let dl = |i: usize| {
            let tt = Dual::from_re(t);
            let qq: Vec<Dual<D>> = q.iter().map(|&x| Dual::from_re(x)).collect();
            let mut vv: Vec<Dual<D>> = qd.iter().map(|&x| Dual::from_re(x)).collect();
            vv[i].eps = k(1.0);
            self.lagrangian(tt, &qq, &vv).eps
        };
        vec![dl(2), dl(3), qd[4], qd[5]]
    }

    /// Velocity of the disk's material contact point from geometry.
    pub fn contact_velocity(&self, t: f64, q: &[f64], qd: &[f64]) -> [f64; 3] {
        disk_contact_velocity(self.big_m, self.r, t, q, qd)
    }
}

impl System for RollingDiskPendulum {
    fn nq(&self) -> usize {
        6
    }
    fn nz(&self) -> usize {
        4
    }
    fn lagrangian<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> D {
        let (_tt, qq) = seed_velocity(t, q, qd);
        disk_rider_lagrangian(
            self.big_m,
            self.r,
            &self.rider,
            self.g,
            qq[0],
            qq[1],
            qq[2],
            qq[3],
            qq[4],
            qq[5],
        )
    }
    fn forces<D: Scalar>(&self, _t: D, _q: &[D], qd: &[D]) -> Vec<D> {
        vec![
            k(0.0),
            k(0.0),
            -qd[2] * self.c_phi,
            k(self.tau),
            k(0.0),
            -qd[5] * self.c_th1,
        ]
    }
    fn constraints<D: Scalar>(&self, _t: D, q: &[D], qd: &[D]) -> Vec<D> {
        vec![
            qd[0] - q[2].cos() * qd[3] * self.r,
            qd[1] - q[2].sin() * qd[3] * self.r,
        ]
    }
    fn psi<D: Scalar>(&self, t: D, q: &[D], z: &[D]) -> Vec<D> {
        psi_from_affine(
            6,
            |v: &[D]| self.speeds_generic(t, q, v),
            |v: &[D]| self.constraints(t, q, v),
            z,
        )
    }
}

/// Equations of 3.3 from an independent hand derivation (replacing the printed G_1..G_6
/// form), in the paper's layout coef . etadot + rest = 0 with coef = A_Gamma:
/// with phid = Phi(eta) = (I_D eta1 + (I_D sin th + R F1hat) eta2)/delta,
///      phi1d = Phi1(eta) = (I_D sin th eta1 + F2hat eta2)/delta (rows 3, 4 of Gamma),
///      W = v1hat cos th eta3 + m_D kappa cos th1 eta4 (= dF1hat/dt):
///   eq_k = Gamma_{phi,k} E_phi + Gamma_{phi1,k} (E_phi1 + R e_phi . E_xy),
///   E_phi = eta1dot + R W phi1d - F_phi,  E_phi1 = eta2dot - F_phi1,
///   e_phi . E_xy = M_T R phi1dd - F1hat phidd - 2 W phid,
///   E_theta  = (v2hat + I_D/2) eta3dot + v3 cos(th+th1) eta4dot - v3 sin(th+th1) eta4^2
///              - 1/2 dF2hat/dth phid^2 + (I_D + R v1hat) cos th phid phi1d - v1hat g sin th - F_theta,
///   E_theta1 = v3 cos(th+th1) eta3dot + m_D kappa^2 eta4dot - v3 sin(th+th1) eta3^2
///              - 1/2 dF2hat/dth1 phid^2 + m_D kappa R cos th1 phid phi1d + m_D kappa g sin th1 - F_theta1,
/// where phidd, phi1dd contain etadot (through Phi, Phi1) and the theta-derivatives of the
/// Gamma entries times eta3, eta4.
fn derived_disk_equations(
    s: &RollingDiskPendulum,
    q: &[f64],
    eta: &[f64],
) -> (Vec<Vec<f64>>, Vec<f64>) {
    let h = s.hats();
    let (th, th1) = (q[4], q[5]);
    let r = s.r;
    let gphi = |a: Dual64, b: Dual64| -> [Dual64; 2] {
        let d = s.delta(a, b);
        [
            Dual64::from_re(h.i_d) / d,
            (a.sin() * h.i_d + s.f1h(a, b) * r) / d,
        ]
    };
    let gphi1 = |a: Dual64, b: Dual64| -> [Dual64; 2] {
        let d = s.delta(a, b);
        [a.sin() * h.i_d / d, s.f2h(a, b) / d]
    };
    let base = |f: &dyn Fn(Dual64, Dual64) -> [Dual64; 2]| -> ([f64; 2], [f64; 2]) {
        let x = f(Dual64::from_re(th), Dual64::from_re(th1));
        let a = f(Dual64::new(th, 1.0), Dual64::from_re(th1));
        let b = f(Dual64::from_re(th), Dual64::new(th1, 1.0));
        (
            [x[0].re, x[1].re],
            [
                a[0].eps * eta[2] + b[0].eps * eta[3],
                a[1].eps * eta[2] + b[1].eps * eta[3],
            ],
        )
    };
    let (gp, gp_dot) = base(&gphi);
    let (gp1, gp1_dot) = base(&gphi1);
    let phid = gp[0] * eta[0] + gp[1] * eta[1];
    let phi1d = gp1[0] * eta[0] + gp1[1] * eta[1];
    // phidd = gp . etadot + gp_dot . eta (split into etadot-linear part and rest)
    let phidd_rest = gp_dot[0] * eta[0] + gp_dot[1] * eta[1];
    let phi1dd_rest = gp1_dot[0] * eta[0] + gp1_dot[1] * eta[1];
    let w = h.v1h * th.cos() * eta[2] + h.mk * th1.cos() * eta[3];
    let qd = matvec(&s.printed_gamma(q), eta);
    let f = s.forces(0.0, q, &qd);
    let (f1, _f2) = (s.f1h(th, th1), s.f2h(th, th1));
    let (f2_th, f2_th1) = d_dth(|a, b| s.f2h(a, b), th, th1);
    // E_phi = [1, 0] . etadot + rphi;  E_phi1 + R e_phi.E_xy = c_x . etadot + rx
    let rphi = r * w * phi1d - f[2];
    let cx = [
        r * r * h.m_t * gp1[0] - r * f1 * gp[0],
        1.0 + r * r * h.m_t * gp1[1] - r * f1 * gp[1],
    ];
    let rx = -f[3] + r * (h.m_t * r * phi1dd_rest - f1 * phidd_rest - 2.0 * w * phid)
        - r * (q[2].cos() * f[0] + q[2].sin() * f[1]);
    let mut m = vec![vec![0.0; 4]; 4];
    let mut rest = vec![0.0; 4];
    for kk in 0..2 {
        m[kk][0] = gp[kk] * 1.0 + gp1[kk] * cx[0];
        m[kk][1] = gp1[kk] * cx[1];
        rest[kk] = gp[kk] * rphi + gp1[kk] * rx;
    }
    let (cp, sp) = ((th + th1).cos(), (th + th1).sin());
    m[2][2] = h.v2h + 0.5 * h.i_d;
    m[2][3] = h.v3 * cp;
    rest[2] = -h.v3 * sp * eta[3] * eta[3] - 0.5 * f2_th * phid * phid
        + (h.i_d + r * h.v1h) * th.cos() * phid * phi1d
        - h.v1h * s.g * th.sin()
        - f[4];
    m[3][2] = h.v3 * cp;
    m[3][3] = h.mk * s.rider.kappa;
    rest[3] = -h.v3 * sp * eta[2] * eta[2] - 0.5 * f2_th1 * phid * phid
        + h.mk * r * th1.cos() * phid * phi1d
        + h.mk * s.g * th1.sin()
        - f[5];
    (m, rest)
}

impl QuasiVelocities for RollingDiskPendulum {
    fn eta<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> Vec<D> {
        self.speeds_generic(t, q, qd)
    }
}

impl PaperSystem for RollingDiskPendulum {
    const NAME: &'static str = "3.3 rolling disk";
    const SEED: u64 = 33;
    const ANGLES: &'static [(usize, f64)] = &[(2, 3.2), (3, 3.2), (4, 0.8), (5, 0.8)];
    const EQ17: bool = true;

    fn random(rng: &mut SplitMix64) -> Self {
        RollingDiskPendulum::new(rng)
    }

    fn printed_systems() -> Vec<(&'static str, PrintedRhs<Self>)> {
        vec![
            ("corrected", |s, t, x| s.printed_rhs(t, x)),
            ("hand derivation", |s, t, x| s.derived_rhs(t, x)),
        ]
    }

    fn misprinted_systems() -> Vec<(&'static str, PrintedRhs<Self>)> {
        vec![
            ("verbatim", |s, t, x| {
                s.printed_rhs_mode(t, x, Print::Verbatim)
            }),
            ("misprints fixed (= (17))", |s, t, x| {
                s.printed_rhs_mode(t, x, Print::Eq17)
            }),
        ]
    }

    fn quasi_velocities(&self) -> Option<&dyn super::Quasi> {
        Some(self)
    }

    fn printed_equations(
        &self,
        _t: f64,
        q: &[f64],
        eta: &[f64],
        mode: Print,
    ) -> Option<PrintedEquations> {
        Some(RollingDiskPendulum::printed_equations(self, q, eta, mode))
    }

    fn check_printed_terms(
        &self,
        t: f64,
        q: &[f64],
        z: &[f64],
        rng: &mut SplitMix64,
        _worst: &mut Worst,
    ) {
        let s = self;
        assert!(s.delta(q[4], q[5]) > 0.0, "delta > 0");
        let qd = psi_f64(s, t, q, z);
        let a = mass_matrix(s, t, q, &qd);
        assert!(rel_err_mat(&s.printed_a(q, false), &a) < 1e-13, "A");
        assert!(
            rel_err_mat(&s.printed_a(q, true), &a) > 1e-6,
            "printed A_26 sign"
        );
        let zero = vec![0.0; 6];
        assert!(
            (lagrangian_f64(s, t, q, &zero) - s.printed_u(q)).abs() < 1e-12,
            "U"
        );
        assert!(
            (s.kinetic_energy_closed_form(t, q, &qd) + s.printed_u(q)
                - lagrangian_f64(s, t, q, &qd))
            .abs()
                < 1e-11
        );
        let gam = s.printed_gamma(q);
        assert!(rel_err_mat(&psi_z(s, t, q, z), &gam) < 1e-12, "Gamma");
        let ag = matmul(&transpose(&gam), &matmul(&a, &gam));
        assert!(
            rel_err_mat(&s.printed_a_gamma(q, false), &ag) < 1e-12,
            "A_Gamma"
        );
        assert!(
            rel_err_mat(&s.printed_a_gamma(q, true), &ag) > 1e-6,
            "A_Gamma(4,4)"
        );
        // rolling from geometry: the disk's material contact point has zero velocity
        assert!(
            max_abs(&s.contact_velocity(t, q, &qd)) < 1e-13,
            "contact velocity"
        );
        let qd_free = rng.uniform_vec(6, -1.0, 1.0);
        let vc = s.contact_velocity(t, q, &qd_free);
        let c = constraints_f64(s, t, q, &qd_free);
        assert!(
            (vc[0] - c[0]).abs() < 1e-13 && (vc[1] - c[1]).abs() < 1e-13 && vc[2].abs() < 1e-13
        );
        // printed eta1, eta2 formulas
        let f1 = s.f1h(q[4], q[5]);
        let f2 = s.f2h(q[4], q[5]);
        let i_d = s.hats().i_d;
        let eta1 = f2 * qd_free[2]
            - i_d * qd_free[3] * q[4].sin()
            - f1 * (qd_free[0] * q[2].cos() + qd_free[1] * q[2].sin());
        let eta2 = i_d * qd_free[3] - i_d * qd_free[2] * q[4].sin();
        let e = s.speeds(t, q, &qd_free);
        assert!(
            (e[0] - eta1).abs() < 1e-12 && (e[1] - eta2).abs() < 1e-12,
            "eta1, eta2"
        );
    }

    fn unforced(&self) -> Option<(&'static str, Self)> {
        let mut free = *self;
        free.c_phi = 0.0;
        free.c_th1 = 0.0;
        free.tau = 0.0;
        Some(("no forces", free))
    }
}
