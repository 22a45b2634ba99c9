//! Talamucci 2015, §3.1: the pendulum on a skate (the simple bicycle). Model: the
//! library's [`nonholo::models::PendulumSkate`] (`nonholo::pendulum_skate_model!`).

use super::talamucci::*;
use super::vec3::*;
use super::{PaperSystem, Print, PrintedEquations, PrintedRhs, Worst};
use crate::common::oracle::*;
use crate::common::rng::SplitMix64;
use num_dual::Dual;

/// Talamucci 3.1, pendulum on a skate. q = (x_C, y_C, phi, theta, theta1);
/// rod P_B P_F (length 2 rho, mass M at its midpoint C, moment I_C about C), P_S (m_s),
/// P_D (m_D); U = -v1 g cos(theta) + kappa m_D g cos(theta1), V = -U;
/// constraint (ERRATA: R/2 read rho) xd_C sin(phi) - yd_C cos(phi) + rho phid = 0;
/// speeds eta = Z qd with Z as printed: eta1 = (cos phi xd + sin phi yd)/rho,
/// eta2 = (-sin phi xd + cos phi yd)/rho (= phid on the constraint), eta3 = thetad, eta4 = theta1d.
/// Forces (our addition, not in the paper): F_phi = -c_phi phid, F_theta1 = -c_th1 theta1d.
/// The rider's parameters live in `rider: Rider`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PendulumSkate {
    pub big_m: f64,
    pub i_c: f64,
    pub rider: Rider,
    pub rho: f64,
    pub g: f64,
    pub c_phi: f64,
    pub c_th1: f64,
}

impl PendulumSkate {
    pub fn new(rng: &mut SplitMix64) -> Self {
        let big_m = rng.uniform(2.0, 6.0);
        let rho = rng.uniform(0.4, 0.7);
        PendulumSkate {
            big_m,
            // thin rod of length 2 rho: I_C = M rho^2 / 3, perturbed
            i_c: big_m * rho * rho / 3.0 * rng.uniform(0.8, 1.2),
            rider: Rider::new(rng),
            rho,
            g: 9.81,
            c_phi: rng.uniform(0.1, 0.5),
            c_th1: rng.uniform(0.1, 0.5),
        }
    }
    /// The library model with these parameters.
    pub fn model(&self) -> nonholo::models::PendulumSkate {
        let r = &self.rider;
        nonholo::models::PendulumSkate::new()
            .with_big_m(self.big_m)
            .with_i_c(self.i_c)
            .with_m_s(r.m_s)
            .with_m_d(r.m_d)
            .with_rho(self.rho)
            .with_kappa(r.kappa)
            .with_kappa1(r.kappa1)
            .with_kappa2(r.kappa2)
            .with_g(self.g)
            .with_c_phi(self.c_phi)
            .with_c_th1(self.c_th1)
    }

    pub fn m_t(&self) -> f64 {
        self.big_m + self.rider.m_s + self.rider.m_d
    }
    pub fn f2<S: Scalar>(&self, th: S, th1: S) -> S {
        self.rider.f2_no_ic(th, th1) + self.i_c
    }

    /// Potential U of the paper (force function); V = -U.
    pub fn printed_u(&self, q: &[f64]) -> f64 {
        -self.rider.v1() * self.g * q[3].cos()
            + self.rider.kappa * self.rider.m_d * self.g * q[4].cos()
    }

    /// The DSL kinetic energy (closed form of the printed A (29)).
    pub fn kinetic_energy_closed_form(&self, _t: f64, q: &[f64], qd: &[f64]) -> f64 {
        let r = &self.rider;
        let (ph, th, th1) = (q[2], q[3], q[4]);
        let (xd, yd, phd, thd, th1d) = (qd[0], qd[1], qd[2], qd[3], qd[4]);
        let vpar = xd * ph.cos() + yd * ph.sin();
        let vperp = -xd * ph.sin() + yd * ph.cos();
        0.5 * self.m_t() * (xd * xd + yd * yd)
            + 0.5 * self.f2(th, th1) * phd * phd
            + 0.5 * r.v2() * thd * thd
            + 0.5 * r.m_d * r.kappa * r.kappa * th1d * th1d
            + r.v3() * (th + th1).cos() * thd * th1d
            - r.f1(th, th1) * phd * vpar
            + (r.v1() * th.cos() * thd + r.m_d * r.kappa * th1.cos() * th1d) * vperp
    }

    /// A as printed (29).
    pub fn printed_a(&self, q: &[f64]) -> Vec<Vec<f64>> {
        let r = &self.rider;
        let (ph, th, th1) = (q[2], q[3], q[4]);
        let (sp, cp) = ph.sin_cos();
        let f1 = r.f1(th, th1);
        let mk = r.m_d * r.kappa;
        let mt = self.m_t();
        let v1c = r.v1() * th.cos();
        let c13 = r.v3() * (th + th1).cos();
        vec![
            vec![mt, 0.0, -f1 * cp, -v1c * sp, -mk * th1.cos() * sp],
            vec![0.0, mt, -f1 * sp, v1c * cp, mk * th1.cos() * cp],
            vec![-f1 * cp, -f1 * sp, self.f2(th, th1), 0.0, 0.0],
            vec![-v1c * sp, v1c * cp, 0.0, r.v2(), c13],
            vec![
                -mk * th1.cos() * sp,
                mk * th1.cos() * cp,
                0.0,
                c13,
                mk * r.kappa,
            ],
        ]
    }

    pub fn printed_z(&self, q: &[f64]) -> Vec<Vec<f64>> {
        let (sp, cp) = q[2].sin_cos();
        let ir = 1.0 / self.rho;
        vec![
            vec![cp * ir, sp * ir, 0.0, 0.0, 0.0],
            vec![-sp * ir, cp * ir, 0.0, 0.0, 0.0],
            vec![0.0, 0.0, 0.0, 1.0, 0.0],
            vec![0.0, 0.0, 0.0, 0.0, 1.0],
        ]
    }

    pub fn printed_gamma(&self, q: &[f64]) -> Vec<Vec<f64>> {
        let (sp, cp) = q[2].sin_cos();
        let r = self.rho;
        vec![
            vec![r * cp, -r * sp, 0.0, 0.0],
            vec![r * sp, r * cp, 0.0, 0.0],
            vec![0.0, 1.0, 0.0, 0.0],
            vec![0.0, 0.0, 1.0, 0.0],
            vec![0.0, 0.0, 0.0, 1.0],
        ]
    }

    /// alpha of (30) with ERRATA (R/2 -> rho).
    pub fn printed_alpha(&self, q: &[f64]) -> Vec<f64> {
        vec![q[2].sin(), -q[2].cos(), self.rho, 0.0, 0.0]
    }

    pub fn printed_a_gamma(&self, q: &[f64]) -> Vec<Vec<f64>> {
        let r = &self.rider;
        let (th, th1) = (q[3], q[4]);
        let rho = self.rho;
        let f1 = r.f1(th, th1);
        let mt = self.m_t();
        let mk = r.m_d * r.kappa;
        let c13 = r.v3() * (th + th1).cos();
        vec![
            vec![mt * rho * rho, -rho * f1, 0.0, 0.0],
            vec![
                -rho * f1,
                self.f2(th, th1) + rho * rho * mt,
                rho * r.v1() * th.cos(),
                rho * mk * th1.cos(),
            ],
            vec![0.0, rho * r.v1() * th.cos(), r.v2(), c13],
            vec![0.0, rho * mk * th1.cos(), c13, mk * r.kappa],
        ]
    }

    /// The four printed equations of motion as (coefficients of etadot, rest), so that
    /// `coef . etadot + rest = 0`:
    /// * `Print::Verbatim`: as printed;
    /// * `Print::Eq17`: the misprints fixed, i.e. what the paper's own (17)/(26) give
    ///   (checked against [`hamel_residual`] with `complete = false`);
    /// * `Print::Corrected`: additionally the term that (16)-(17) drop (see
    ///   [`hamel_residual`]): here it is p_phi (eta2, -eta1, 0, 0) with p_phi = dL/dphid =
    ///   F2 eta2 - rho F1 eta1 on the constraint. This is the true dynamics.
    ///
    /// The extra forces enter as `- Gamma^T F` (our extension; the paper has none).
    pub fn printed_equations(
        &self,
        q: &[f64],
        eta: &[f64],
        mode: Print,
    ) -> (Vec<Vec<f64>>, Vec<f64>) {
        let r = &self.rider;
        let (th, th1) = (q[3], q[4]);
        let (e1, e2, e3, e4) = (eta[0], eta[1], eta[2], eta[3]);
        let rho = self.rho;
        let mt = self.m_t();
        let (v1, v2, v3) = (r.v1(), r.v2(), r.v3());
        let mk = r.m_d * r.kappa;
        let g = self.g;
        let f1 = r.f1(th, th1);
        let f2 = self.f2(th, th1);
        let (f1_th, f1_th1) = d_dth(|a, b| r.f1(a, b), th, th1);
        let (f2_th, f2_th1) = d_dth(|a, b| self.f2(a, b), th, th1);
        let (cp, sp) = ((th + th1).cos(), (th + th1).sin());
        let (ct, st, ct1, st1) = (th.cos(), th.sin(), th1.cos(), th1.sin());
        // v = 1 keeps a misprinted term, 0 drops it; x = 1 adds the term (17) lacks.
        let v = if mode == Print::Verbatim { 1.0 } else { 0.0 };
        let x = if mode == Print::Corrected { 1.0 } else { 0.0 };

        // ---- equation 1 (as printed = (17)) ----
        let m1 = vec![rho * rho * mt, -rho * f1, 0.0, 0.0];
        let mut rest1 = -(f2 + rho * rho * mt) * e2 * e2 + rho * f1 * e1 * e2
            - rho * (v1 * ct + f1_th) * e2 * e3
            - rho * (mk * ct1 + f1_th1) * e2 * e4;

        // ---- equation 2 ----
        let m2 = vec![
            -rho * f1,
            f2 + rho * rho * mt,
            rho * v1 * ct,
            rho * mk * ct1,
        ];
        // ERRATA (new): "+ rho F1 eta1^2" should be "- rho F1 eta1^2" ((17) gives the minus sign);
        // ERRATA (new): "- 2 rho F1 eta2^2" is spurious;
        // ERRATA (new): "(rho^2 M_T - F2) eta1 eta2" should be "(rho^2 M_T + F2) eta1 eta2";
        // ERRATA (new): "- rho dF1/dtheta (eta1 eta3 + eta1 eta4)" is spurious;
        // ERRATA (new): "dF2/dtheta (eta2 eta3 + eta2 eta4)" should be
        //               "dF2/dtheta eta2 eta3 + dF2/dtheta1 eta2 eta4".
        let mut rest2 = (if v == 1.0 { rho * f1 } else { -rho * f1 }) * e1 * e1
            - v * 2.0 * rho * f1 * e2 * e2
            - rho * v1 * e3 * e3 * st
            - rho * mk * e4 * e4 * st1
            + (rho * rho * mt + if v == 1.0 { -f2 } else { f2 }) * e1 * e2
            - v * rho * f1_th * (e1 * e3 + e1 * e4)
            + f2_th * e2 * e3
            + (if v == 1.0 { f2_th } else { f2_th1 }) * e2 * e4;

        // ---- equation 3 ----
        // ERRATA (new): "rho v1 cos(theta) eta2^2", "(v2 - rho/2 v1 sin theta) eta2 eta3" and
        // "v3 eta2 eta4 cos(theta + theta1)" are spurious (neither (17) nor the Lagrange equations have them).
        let m3 = vec![0.0, rho * v1 * ct, v2, v3 * cp];
        let rest3 = (v * rho * v1 * ct - 0.5 * f2_th) * e2 * e2 - v3 * e4 * e4 * sp
            + rho * f1_th * e1 * e2
            + v * (v2 - 0.5 * rho * v1 * st) * e2 * e3
            + v * v3 * e2 * e4 * cp
            - v1 * g * st;

        // ---- equation 4 ----
        // ERRATA (new): the coefficient of etadot3 is printed "v3 sin(theta + theta1)";
        // A_Gamma and (17) give v3 cos(theta + theta1).
        // ERRATA (new): "rho m_D kappa cos(theta) eta2^2", "v3 eta2 eta3 cos(theta + theta1)" and
        // "m_D kappa^2 eta2 eta4" are spurious.
        let m4 = vec![
            0.0,
            mk * rho * ct1,
            v3 * if v == 1.0 { sp } else { cp },
            mk * r.kappa,
        ];
        let rest4 = (v * rho * mk * ct - 0.5 * f2_th1) * e2 * e2 - v3 * e3 * e3 * sp
            + rho * f1_th1 * e1 * e2
            + v * v3 * e2 * e3 * cp
            + v * mk * r.kappa * e2 * e4
            + r.kappa * r.m_d * g * st1;

        // NOT A MISPRINT but a gap in the paper's (16)-(17): the projected equations need
        // Gamma^T (alphadot^T - J_q^T (alpha qd)) Theta^T grad_qd L, which for this alpha =
        // (sin phi, -cos phi, rho, 0, 0) is p_phi (eta2, -eta1, 0, 0), p_phi = F2 eta2 - rho F1 eta1.
        // Without it eq. 1 would say rho^2 M_T etadot1 = (F2 + rho^2 M_T) eta2^2 + ..., i.e. I_C enters
        // the e_phi-component of Newton's law for the centre of mass.
        let p_phi = f2 * e2 - rho * f1 * e1;
        rest1 += x * p_phi * e2;
        rest2 -= x * p_phi * e1;

        let mut rest = vec![rest1, rest2, rest3, rest4];
        // extra forces: - Gamma^T F
        let qd = matvec(&self.printed_gamma(q), eta);
        let f = self.forces(0.0, q, &qd);
        let gtf = matvec(&transpose(&self.printed_gamma(q)), &f);
        for i in 0..4 {
            rest[i] -= gtf[i];
        }
        (vec![m1, m2, m3, m4], rest)
    }

    /// State [x_C, y_C, phi, theta, theta1, eta1..eta4]; qd = Gamma eta and the printed
    /// equations in the given mode solved for etadot.
    pub fn printed_rhs_mode(&self, _t: f64, s: &[f64], mode: Print) -> Vec<f64> {
        let (q, eta) = s.split_at(5);
        let mut out = matvec(&self.printed_gamma(q), eta);
        let (m, rest) = self.printed_equations(q, eta, mode);
        out.extend(solve_printed(m, rest));
        out
    }

    /// The printed first-order system with every correction applied (true dynamics).
    pub fn printed_rhs(&self, t: f64, s: &[f64]) -> Vec<f64> {
        self.printed_rhs_mode(t, s, Print::Corrected)
    }

    /// eta = Z qd (speeds from velocities).
    pub fn speeds(&self, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64> {
        self.eta(t, q, qd)
    }

    /// Velocity of the back wheel P_B = C - rho e_phi crossed with e_phi (30), from geometry.
    pub fn geometric_constraint(&self, q: &[f64], qd: &[f64]) -> f64 {
        let (_tt, qq) = seed_velocity(0.0, q, qd);
        let c = [qq[0], qq[1], Dual::from_re(0.0)];
        let ep = e_phi(qq[2]);
        let pb = v_add(c, v_scale(ep, -self.rho));
        let vb = [pb[0].eps, pb[1].eps, pb[2].eps];
        v_cross(vb, [ep[0].re, ep[1].re, ep[2].re])[2]
    }
}

impl System for PendulumSkate {
    fn nq(&self) -> usize {
        5
    }
    fn nz(&self) -> usize {
        4
    }
    fn lagrangian<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> D {
        let r = &self.rider;
        let (_tt, qq) = seed_velocity(t, q, qd);
        let c = [qq[0], qq[1], Dual::from_re(k::<D>(0.0))];
        let (ps, pd) = rider_points(c, qq[2], qq[3], qq[4], r.kappa, r.kappa1, r.kappa2);
        let t_kin = point_ke(self.big_m, &c)
            + qd[2] * qd[2] * (0.5 * self.i_c)
            + point_ke(r.m_s, &ps)
            + point_ke(r.m_d, &pd);
        // gravity, from the heights of the points
        let v = (ps[2].re * r.m_s + pd[2].re * r.m_d) * self.g;
        t_kin - v
    }
    fn forces<D: Scalar>(&self, _t: D, _q: &[D], qd: &[D]) -> Vec<D> {
        vec![
            k(0.0),
            k(0.0),
            -qd[2] * self.c_phi,
            k(0.0),
            -qd[4] * self.c_th1,
        ]
    }
    fn constraints<D: Scalar>(&self, _t: D, q: &[D], qd: &[D]) -> Vec<D> {
        vec![qd[0] * q[2].sin() - qd[1] * q[2].cos() + qd[2] * self.rho]
    }
    fn psi<D: Scalar>(&self, _t: D, q: &[D], z: &[D]) -> Vec<D> {
        let (sp, cp) = (q[2].sin(), q[2].cos());
        vec![
            (cp * z[0] - sp * z[1]) * self.rho,
            (sp * z[0] + cp * z[1]) * self.rho,
            z[1],
            z[2],
            z[3],
        ]
    }
}

impl QuasiVelocities for PendulumSkate {
    fn eta<D: Scalar>(&self, _t: D, q: &[D], qd: &[D]) -> Vec<D> {
        let (sp, cp) = (q[2].sin(), q[2].cos());
        let ir = 1.0 / self.rho;
        vec![
            (cp * qd[0] + sp * qd[1]) * ir,
            (cp * qd[1] - sp * qd[0]) * ir,
            qd[3],
            qd[4],
        ]
    }
}

impl PaperSystem for PendulumSkate {
    const NAME: &'static str = "3.1 pendulum on skate";
    const SEED: u64 = 31;
    const ANGLES: &'static [(usize, f64)] = &[(2, 3.2), (3, 0.8), (4, 0.8)];
    const EQ17: bool = true;

    fn random(rng: &mut SplitMix64) -> Self {
        PendulumSkate::new(rng)
    }

    fn printed_systems() -> Vec<(&'static str, PrintedRhs<Self>)> {
        vec![("corrected", |s, t, x| s.printed_rhs(t, x))]
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
        Some(PendulumSkate::printed_equations(self, q, eta, mode))
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
        let qd = psi_f64(s, t, q, z);
        let a = mass_matrix(s, t, q, &qd);
        assert!(rel_err_mat(&s.printed_a(q), &a) < 1e-13, "A (29)");
        let zero = vec![0.0; 5];
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
        assert!(rel_err_mat(&psi_z(s, t, q, z), &gam) < 1e-14);
        let zg = matmul(&s.printed_z(q), &gam);
        let id: Vec<Vec<f64>> = (0..4)
            .map(|i| (0..4).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
            .collect();
        assert!(rel_err_mat(&zg, &id) < 1e-14, "Z Gamma = I");
        assert!(
            max_abs(&matvec(&transpose(&gam), &s.printed_alpha(q))) < 1e-14,
            "alpha Gamma = 0 (with rho)"
        );
        let ag = matmul(&transpose(&gam), &matmul(&a, &gam));
        assert!(rel_err_mat(&s.printed_a_gamma(q), &ag) < 1e-13, "A_Gamma");
        assert!(
            (s.geometric_constraint(q, &qd)).abs() < 1e-13,
            "(30) from geometry"
        );
        let qd_free = rng.uniform_vec(5, -1.0, 1.0);
        assert!(
            (s.geometric_constraint(q, &qd_free) - constraints_f64(s, t, q, &qd_free)[0]).abs()
                < 1e-13
        );
    }

    fn unforced(&self) -> Option<(&'static str, Self)> {
        let mut free = *self;
        free.c_phi = 0.0;
        free.c_th1 = 0.0;
        Some(("no damping", free))
    }
}
