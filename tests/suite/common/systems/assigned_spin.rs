//! Talamucci 2015, §3.4: the rolling disk with pendulum, its spin assigned (rheonomic).
//! Model: the library's [`nonholo::models::AssignedSpin`] (`nonholo::assigned_spin_model!`).

use super::talamucci::*;
use super::{PaperSystem, Print, PrintedEquations, PrintedRhs, RollingDiskPendulum, Worst};
use crate::common::oracle::*;
use crate::common::rng::SplitMix64;
use num_dual::Dual;

/// Talamucci 3.4: the system of 3.3 with the spin assigned, phi1(t) = w0 t + a_s sin(omega t)
/// (our choice). q = (x_c, y_c, phi, theta, theta1); constraint (31) with phi1d(t):
/// xd - R phi1d(t) cos(phi) = 0, yd - R phi1d(t) sin(phi) = 0 (alpha = [I2 0], beta as printed);
/// speeds eta1 = dL/dphid = F2hat phid - F1hat (xd cos phi + yd sin phi) - I_D phi1d(t) sin(theta),
/// eta2 = thetad, eta3 = theta1d.
/// Forces (our addition): F_phi = -c_phi phid, F_theta1 = -c_th1 theta1d.
///
/// ERRATA (new), all checked numerically in the self-check:
/// * the paper says "one gets psi = 0", but eta1 as defined contains -I_D phi1d(t) sin(theta):
///   psi_eta = (-I_D phi1d sin th, 0, 0) and qd = Gamma (eta - psi_eta) - Theta beta (13);
/// * b is printed (0, 0, -I_D sin th, 0, 0): it is -I_D phi1d(t) sin th in the phi slot;
/// * "A the same as in the previous Example 3.1" means the A of 3.3 without row/column 4;
/// * the printed "Z" is the 5x5 stack (Z; alpha); Gamma, Theta, A_Gamma, A_Gamma,Theta,
///   A_Theta are right;
/// * printed equations (see `printed_equations_verbatim`): eq. 1 has a spurious term
///   `+ (F1hat/F2hat^2) I_D phi1d^2 R cos th` (its two `-/+ (I_D/F2hat) phi1d eta2 cos th`
///   cancel, its `R phi1d (v1hat eta2 cos th + m_D kappa eta3 cos th1)/F2hat` is right);
///   eqs. 2 and 3 carry a spurious factor 1/F2hat^2 on the etadot terms, lack the quadratic
///   terms `-1/2 dF2hat/dth eta1^2/F2hat^2 - v3 sin(th+th1) eta3^2` (eq. 2) and
///   `-1/2 dF2hat/dth1 eta1^2/F2hat^2 - v3 sin(th+th1) eta2^2` (eq. 3), and have wrong
///   phi1d^2 terms: with K = R F1hat + I_D sin th they are
///   `-1/2 dF2hat/dth K^2/F2hat^2 + (I_D + R v1hat) cos th K/F2hat` and
///   `-1/2 dF2hat/dth1 K^2/F2hat^2 + m_D kappa R cos th1 K/F2hat`; the eta1 phi1d terms are
///   right. `printed_rhs` therefore uses the derived equations (`derived_equations`).
///
/// `base` holds the 3.3 parameters (its tau unused).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AssignedSpin {
    pub base: RollingDiskPendulum,
    pub w0: f64,
    pub a_s: f64,
    pub omega: f64,
}

impl AssignedSpin {
    pub fn new(rng: &mut SplitMix64) -> Self {
        AssignedSpin {
            base: RollingDiskPendulum::new(rng),
            w0: rng.uniform(1.0, 3.0),
            a_s: rng.uniform(0.2, 0.8),
            omega: rng.uniform(0.5, 2.0),
        }
    }
    /// The library model with these parameters.
    pub fn model(&self) -> nonholo::models::AssignedSpin {
        let b = &self.base;
        let r = &b.rider;
        nonholo::models::AssignedSpin::new()
            .with_big_m(b.big_m)
            .with_r(b.r)
            .with_m_s(r.m_s)
            .with_m_d(r.m_d)
            .with_kappa(r.kappa)
            .with_kappa1(r.kappa1)
            .with_kappa2(r.kappa2)
            .with_g(b.g)
            .with_c_phi(b.c_phi)
            .with_c_th1(b.c_th1)
            .with_w0(self.w0)
            .with_a_s(self.a_s)
            .with_omega(self.omega)
    }

    pub fn phi1<S: Scalar>(&self, t: S) -> S {
        t * self.w0 + (t * self.omega).sin() * self.a_s
    }
    pub fn phi1_dot<S: Scalar>(&self, t: S) -> S {
        (t * self.omega).cos() * (self.a_s * self.omega) + self.w0
    }
    fn q6(&self, t: f64, q: &[f64], qd: &[f64]) -> (Vec<f64>, Vec<f64>) {
        (
            vec![q[0], q[1], q[2], self.phi1(t), q[3], q[4]],
            vec![qd[0], qd[1], qd[2], self.phi1_dot(t), qd[3], qd[4]],
        )
    }

    pub fn kinetic_energy_closed_form(&self, t: f64, q: &[f64], qd: &[f64]) -> f64 {
        let (q6, qd6) = self.q6(t, q, qd);
        self.base.kinetic_energy_closed_form(t, &q6, &qd6)
    }

    /// Printed A, b, c of 3.4 (A = 3.3's A without row/column 4).
    /// ERRATA (new): b is printed (0, 0, -I_D sin(theta), 0, 0); from T (the A_34 phid phi1d
    /// term with phi1d = phi1d(t)) b_3 = -I_D phi1d(t) sin(theta).
    /// ERRATA (new): the text says "A the same as in the previous Example 3.1"; it is the A of
    /// 3.3 (hatted quantities, I_D) without its 4th row and column.
    pub fn printed_abc(&self, t: f64, q: &[f64], verbatim: bool) -> (Vec<Vec<f64>>, Vec<f64>, f64) {
        let (q6, _) = self.q6(t, q, &[0.0; 5]);
        let a6 = self.base.printed_a(&q6, false);
        let idx = [0usize, 1, 2, 4, 5];
        let a: Vec<Vec<f64>> = idx
            .iter()
            .map(|&i| idx.iter().map(|&j| a6[i][j]).collect())
            .collect();
        let h = self.base.hats();
        let p1d = self.phi1_dot(t);
        let b3 = -h.i_d * q[3].sin() * if verbatim { 1.0 } else { p1d };
        (a, vec![0.0, 0.0, b3, 0.0, 0.0], 0.5 * h.i_d * p1d * p1d)
    }

    pub fn printed_gamma(&self, q: &[f64]) -> Vec<Vec<f64>> {
        let f2 = self.base.f2h(q[3], q[4]);
        vec![
            vec![0.0, 0.0, 0.0],
            vec![0.0, 0.0, 0.0],
            vec![1.0 / f2, 0.0, 0.0],
            vec![0.0, 1.0, 0.0],
            vec![0.0, 0.0, 1.0],
        ]
    }

    pub fn printed_theta(&self, q: &[f64]) -> Vec<Vec<f64>> {
        let (f1, f2) = (self.base.f1h(q[3], q[4]), self.base.f2h(q[3], q[4]));
        let (sp, cp) = q[2].sin_cos();
        vec![
            vec![1.0, 0.0],
            vec![0.0, 1.0],
            vec![f1 / f2 * cp, f1 / f2 * sp],
            vec![0.0, 0.0],
            vec![0.0, 0.0],
        ]
    }

    pub fn printed_beta(&self, t: f64, q: &[f64]) -> Vec<f64> {
        let p1d = self.phi1_dot(t);
        vec![
            -p1d * self.base.r * q[2].cos(),
            -p1d * self.base.r * q[2].sin(),
        ]
    }

    pub fn printed_a_gamma(&self, q: &[f64]) -> Vec<Vec<f64>> {
        let h = self.base.hats();
        let f2 = self.base.f2h(q[3], q[4]);
        let c13 = h.v3 * (q[3] + q[4]).cos();
        vec![
            vec![1.0 / f2, 0.0, 0.0],
            vec![0.0, h.v2h + 0.5 * h.i_d, c13],
            vec![0.0, c13, h.mk * self.base.rider.kappa],
        ]
    }

    pub fn printed_a_gamma_theta(&self, q: &[f64]) -> Vec<Vec<f64>> {
        let h = self.base.hats();
        let (sp, cp) = q[2].sin_cos();
        let (ct, ct1) = (q[3].cos(), q[4].cos());
        vec![
            vec![0.0, 0.0],
            vec![-h.v1h * ct * sp, h.v1h * ct * cp],
            vec![-h.mk * ct1 * sp, h.mk * ct1 * cp],
        ]
    }

    pub fn printed_a_theta(&self, q: &[f64]) -> Vec<Vec<f64>> {
        let h = self.base.hats();
        let (f1, f2) = (self.base.f1h(q[3], q[4]), self.base.f2h(q[3], q[4]));
        let (sp, cp) = q[2].sin_cos();
        let r = f1 * f1 / f2;
        vec![
            vec![h.m_t - r * cp * cp, -r * sp * cp],
            vec![-r * sp * cp, h.m_t - r * sp * sp],
        ]
    }

    /// The three printed equations verbatim (coef . etadot + rest = 0), forces as -Gamma^T F.
    pub fn printed_equations_verbatim(
        &self,
        t: f64,
        q: &[f64],
        eta: &[f64],
    ) -> (Vec<Vec<f64>>, Vec<f64>) {
        let b = &self.base;
        let h = b.hats();
        let (th, th1) = (q[3], q[4]);
        let (e1, e2, e3) = (eta[0], eta[1], eta[2]);
        let r = b.r;
        let p1d = self.phi1_dot(t);
        let (f1, f2) = (b.f1h(th, th1), b.f2h(th, th1));
        let (f2_th, f2_th1) = d_dth(|a, c| b.f2h(a, c), th, th1);
        let (q_th, q_th1) = d_dth(|a, c| b.f1h(a, c) * b.f1h(a, c) / b.f2h(a, c), th, th1);
        let (st, ct) = th.sin_cos();
        let i_d = h.i_d;
        let cp = (th + th1).cos();
        let m = vec![
            vec![1.0 / f2, 0.0, 0.0],
            vec![0.0, (h.v2h + 0.5 * i_d) / (f2 * f2), h.v3 * cp / (f2 * f2)],
            vec![0.0, h.v3 * cp / (f2 * f2), h.mk * b.rider.kappa / (f2 * f2)],
        ];
        let r1 = i_d * p1d * e2 * ct / f2
            + p1d * r / f2 * (h.v1h * e2 * ct + h.mk * e3 * th1.cos())
            - i_d / f2 * p1d * e2 * ct
            + f1 / (f2 * f2) * i_d * p1d * p1d * r * ct;
        let r2 = -i_d / (f2 * f2) * f2_th * p1d * e1 * st + r * p1d / f2 * e1 * h.v1h * ct
            - r * p1d * f1 / (f2 * f2) * e1 * f2_th
            + i_d / f2 * p1d * e1 * ct
            + p1d
                * p1d
                * (0.5 * r * r * q_th
                    + i_d / f2
                        * ((2.0 * i_d + r * h.v1h) * st * ct
                            - 2.0 * f1 / f2 * f2_th * r * st
                            - f1 * r * ct))
            - h.v1h * b.g * st;
        let r3 = 1.0 / f2 * p1d * (h.mk * r * th1.cos() - (i_d * st + r * f1) / f2 * f2_th1) * e1
            + p1d
                * p1d
                * (0.5 * r * r * q_th1
                    + i_d / f2 * st * (h.mk * th1.cos() - 2.0 * r * f1 / f2 * f2_th1))
            + h.mk * b.g * th1.sin();
        let mut rest = vec![r1, r2, r3];
        let gam = self.printed_gamma(q);
        let qd = self.psi(t, q, eta);
        let f = self.forces(t, q, &qd);
        let gtf = matvec(&transpose(&gam), &f);
        for i in 0..3 {
            rest[i] -= gtf[i];
        }
        (m, rest)
    }

    /// Equations of 3.4 from the independent derivation (coef = A_Gamma):
    /// phid = (eta1 + (R F1hat + I_D sin th) phi1d(t)) / F2hat, W = v1hat cos th eta2 + m_D kappa cos th1 eta3,
    ///   eq1 = (1/F2hat) (eta1dot + R phi1d W - F_phi),
    ///   eq2 = (v2hat + I_D/2) eta2dot + v3 cos(th+th1) eta3dot - v3 sin(th+th1) eta3^2
    ///         - 1/2 dF2hat/dth phid^2 + (I_D + R v1hat) cos th phid phi1d - v1hat g sin th - F_theta,
    ///   eq3 = v3 cos(th+th1) eta2dot + m_D kappa^2 eta3dot - v3 sin(th+th1) eta2^2
    ///         - 1/2 dF2hat/dth1 phid^2 + m_D kappa R cos th1 phid phi1d + m_D kappa g sin th1 - F_theta1.
    pub fn derived_equations(&self, t: f64, q: &[f64], eta: &[f64]) -> (Vec<Vec<f64>>, Vec<f64>) {
        let b = &self.base;
        let h = b.hats();
        let (th, th1) = (q[3], q[4]);
        let r = b.r;
        let p1d = self.phi1_dot(t);
        let (f1, f2) = (b.f1h(th, th1), b.f2h(th, th1));
        let (f2_th, f2_th1) = d_dth(|a, c| b.f2h(a, c), th, th1);
        let phid = (eta[0] + (r * f1 + h.i_d * th.sin()) * p1d) / f2;
        let w = h.v1h * th.cos() * eta[1] + h.mk * th1.cos() * eta[2];
        let qd = self.psi(t, q, eta);
        let f = self.forces(t, q, &qd);
        let sp = (th + th1).sin();
        let m = self.printed_a_gamma(q);
        let rest = vec![
            (r * p1d * w - f[2]) / f2,
            -h.v3 * sp * eta[2] * eta[2] - 0.5 * f2_th * phid * phid
                + (h.i_d + r * h.v1h) * th.cos() * phid * p1d
                - h.v1h * b.g * th.sin()
                - f[3],
            -h.v3 * sp * eta[1] * eta[1] - 0.5 * f2_th1 * phid * phid
                + h.mk * r * th1.cos() * phid * p1d
                + h.mk * b.g * th1.sin()
                - f[4],
        ];
        (m, rest)
    }

    /// `Verbatim`: the printed equations; `Corrected` (and `Eq17`, not separately
    /// transcribed for 3.4): the derived equations, which replace the printed ones.
    pub fn printed_rhs_mode(&self, t: f64, s: &[f64], mode: Print) -> Vec<f64> {
        let (q, eta) = s.split_at(5);
        let mut out = self.psi(t, q, eta);
        let (m, rest) = if mode == Print::Verbatim {
            self.printed_equations_verbatim(t, q, eta)
        } else {
            self.derived_equations(t, q, eta)
        };
        out.extend(solve_printed(m, rest));
        out
    }

    pub fn printed_rhs(&self, t: f64, s: &[f64]) -> Vec<f64> {
        self.printed_rhs_mode(t, s, Print::Corrected)
    }

    pub fn speeds(&self, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64> {
        self.eta(t, q, qd)
    }

    pub fn speeds_generic<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> Vec<D> {
        let tt = Dual::from_re(t);
        let qq: Vec<Dual<D>> = q.iter().map(|&x| Dual::from_re(x)).collect();
        let mut vv: Vec<Dual<D>> = qd.iter().map(|&x| Dual::from_re(x)).collect();
        vv[2].eps = k(1.0);
        vec![self.lagrangian(tt, &qq, &vv).eps, qd[3], qd[4]]
    }

    pub fn contact_velocity(&self, t: f64, q: &[f64], qd: &[f64]) -> [f64; 3] {
        let (q6, qd6) = self.q6(t, q, qd);
        disk_contact_velocity(self.base.big_m, self.base.r, t, &q6, &qd6)
    }
}

impl System for AssignedSpin {
    fn nq(&self) -> usize {
        5
    }
    fn nz(&self) -> usize {
        3
    }
    fn stationary(&self) -> bool {
        false
    }
    fn lagrangian<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> D {
        let b = &self.base;
        let (tt, qq) = seed_velocity(t, q, qd);
        let phi1 = self.phi1(tt);
        disk_rider_lagrangian(
            b.big_m, b.r, &b.rider, b.g, qq[0], qq[1], qq[2], phi1, qq[3], qq[4],
        )
    }
    fn forces<D: Scalar>(&self, _t: D, _q: &[D], qd: &[D]) -> Vec<D> {
        vec![
            k(0.0),
            k(0.0),
            -qd[2] * self.base.c_phi,
            k(0.0),
            -qd[4] * self.base.c_th1,
        ]
    }
    fn constraints<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> Vec<D> {
        let p1d = self.phi1_dot(t);
        vec![
            qd[0] - q[2].cos() * p1d * self.base.r,
            qd[1] - q[2].sin() * p1d * self.base.r,
        ]
    }
    fn psi<D: Scalar>(&self, t: D, q: &[D], z: &[D]) -> Vec<D> {
        psi_from_affine(
            5,
            |v: &[D]| self.speeds_generic(t, q, v),
            |v: &[D]| self.constraints(t, q, v),
            z,
        )
    }
}

impl QuasiVelocities for AssignedSpin {
    fn eta<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> Vec<D> {
        self.speeds_generic(t, q, qd)
    }
}

impl PaperSystem for AssignedSpin {
    const NAME: &'static str = "3.4 assigned spin";
    const SEED: u64 = 34;
    const ANGLES: &'static [(usize, f64)] = &[(2, 3.2), (3, 0.8), (4, 0.8)];
    const EQ17: bool = true;

    fn random(rng: &mut SplitMix64) -> Self {
        AssignedSpin::new(rng)
    }

    fn printed_systems() -> Vec<(&'static str, PrintedRhs<Self>)> {
        vec![("derived", |s, t, x| s.printed_rhs(t, x))]
    }

    fn misprinted_systems() -> Vec<(&'static str, PrintedRhs<Self>)> {
        vec![("verbatim", |s, t, x| {
            s.printed_rhs_mode(t, x, Print::Verbatim)
        })]
    }

    fn quasi_velocities(&self) -> Option<&dyn super::Quasi> {
        Some(self)
    }

    /// Only the derived equations (`Corrected`); (17) itself is not transcribed for 3.4.
    fn printed_equations(
        &self,
        t: f64,
        q: &[f64],
        eta: &[f64],
        mode: Print,
    ) -> Option<PrintedEquations> {
        (mode == Print::Corrected).then(|| self.derived_equations(t, q, eta))
    }

    fn check_printed_terms(
        &self,
        t: f64,
        q: &[f64],
        z: &[f64],
        _rng: &mut SplitMix64,
        _worst: &mut Worst,
    ) {
        let s = self;
        let qd = psi_f64(s, t, q, z);
        let a = mass_matrix(s, t, q, &qd);
        let (pa, pb, pc) = s.printed_abc(t, q, false);
        assert!(rel_err_mat(&pa, &a) < 1e-13, "A");
        let zero = vec![0.0; 5];
        let b = momenta(s, t, q, &zero);
        assert!(rel_err(&pb, &b) < 1e-13, "b");
        let (_, pbv, _) = s.printed_abc(t, q, true);
        assert!(rel_err(&pbv, &b) > 1e-6, "printed b lacks phi1dot");
        let q6 = [q[0], q[1], q[2], 0.0, q[3], q[4]];
        let u = s.base.printed_u(&q6);
        assert!((lagrangian_f64(s, t, q, &zero) - u - pc).abs() < 1e-11, "c");
        assert!(
            (s.kinetic_energy_closed_form(t, q, &qd) + u - lagrangian_f64(s, t, q, &qd)).abs()
                < 1e-11
        );
        let gam = s.printed_gamma(q);
        assert!(rel_err_mat(&psi_z(s, t, q, z), &gam) < 1e-13, "Gamma");
        // qd = Gamma (eta - psi_eta) - Theta beta with psi_eta = (-I_D phi1d sin th, 0, 0)
        // (the paper says psi = 0)
        let th = s.printed_theta(q);
        let beta = s.printed_beta(t, q);
        let p1d = s.phi1_dot(t);
        let psi_eta = [-s.base.hats().i_d * p1d * q[3].sin(), 0.0, 0.0];
        let ez: Vec<f64> = z.iter().zip(&psi_eta).map(|(a, b)| a - b).collect();
        let rebuilt: Vec<f64> = matvec(&gam, &ez)
            .iter()
            .zip(matvec(&th, &beta))
            .map(|(a, b)| a - b)
            .collect();
        assert!(rel_err(&rebuilt, &qd) < 1e-13, "(13)");
        let wrong: Vec<f64> = matvec(&gam, z)
            .iter()
            .zip(matvec(&th, &beta))
            .map(|(a, b)| a - b)
            .collect();
        assert!(rel_err(&wrong, &qd) > 1e-6, "psi = 0 would be wrong");
        let ag = matmul(&transpose(&gam), &matmul(&a, &gam));
        assert!(rel_err_mat(&s.printed_a_gamma(q), &ag) < 1e-13, "A_Gamma");
        let agt = matmul(&transpose(&gam), &matmul(&a, &th));
        assert!(
            rel_err_mat(&s.printed_a_gamma_theta(q), &agt) < 1e-13,
            "A_Gamma,Theta"
        );
        let at = matmul(&transpose(&th), &matmul(&a, &th));
        assert!(rel_err_mat(&s.printed_a_theta(q), &at) < 1e-13, "A_Theta");
        assert!(
            max_abs(&s.contact_velocity(t, q, &qd)) < 1e-13,
            "rolling from geometry"
        );
    }
}
