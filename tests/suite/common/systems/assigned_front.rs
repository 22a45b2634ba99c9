//! Talamucci 2015, §3.2: the pendulum on a skate with the front point on an assigned path
//! (rheonomic). Model: the library's [`nonholo::models::AssignedFront`]
//! (`nonholo::assigned_front_model!`).

use super::talamucci::*;
use super::vec3::*;
use super::{PaperSystem, PendulumSkate, Print, PrintedEquations, PrintedRhs, Worst};
use crate::common::oracle::*;
use crate::common::rng::SplitMix64;
use num_dual::Dual;

/// Talamucci 3.2, the skate-pendulum with the front point P_F moving on an assigned path:
/// x_F = v0 t, y_F = a_f sin(omega t) (our choice). q = (phi, theta, theta1),
/// C = P_F - rho e_phi; constraint 2 rho phid + beta = 0, beta = xFd sin phi - yFd cos phi;
/// speeds eta1 = thetad, eta2 = theta1d. Forces (our addition): F_theta = -c_th thetad,
/// F_theta1 = -c_th1 theta1d. `base` holds the 3.1 parameters (its c_phi unused).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AssignedFront {
    pub base: PendulumSkate,
    pub v0: f64,
    pub a_f: f64,
    pub omega: f64,
    pub c_th: f64,
}

impl AssignedFront {
    pub fn new(rng: &mut SplitMix64) -> Self {
        AssignedFront {
            base: PendulumSkate::new(rng),
            v0: rng.uniform(0.5, 2.0),
            a_f: rng.uniform(0.1, 0.5),
            omega: rng.uniform(0.5, 2.0),
            c_th: rng.uniform(0.1, 0.5),
        }
    }
    /// The library model with these parameters.
    pub fn model(&self) -> nonholo::models::AssignedFront {
        let b = &self.base;
        let r = &b.rider;
        nonholo::models::AssignedFront::new()
            .with_big_m(b.big_m)
            .with_i_c(b.i_c)
            .with_m_s(r.m_s)
            .with_m_d(r.m_d)
            .with_rho(b.rho)
            .with_kappa(r.kappa)
            .with_kappa1(r.kappa1)
            .with_kappa2(r.kappa2)
            .with_g(b.g)
            .with_c_th(self.c_th)
            .with_c_th1(b.c_th1)
            .with_v0(self.v0)
            .with_a_f(self.a_f)
            .with_omega(self.omega)
    }

    pub fn front<S: Scalar>(&self, t: S) -> (S, S) {
        (t * self.v0, (t * self.omega).sin() * self.a_f)
    }
    /// (xFd, yFd, xFdd, yFdd), closed form.
    pub fn front_derivs(&self, t: f64) -> (f64, f64, f64, f64) {
        let w = self.omega;
        (
            self.v0,
            self.a_f * w * (w * t).cos(),
            0.0,
            -self.a_f * w * w * (w * t).sin(),
        )
    }
    pub fn beta(&self, t: f64, phi: f64) -> f64 {
        let (xd, yd, _, _) = self.front_derivs(t);
        xd * phi.sin() - yd * phi.cos()
    }

    pub fn kinetic_energy_closed_form(&self, t: f64, q: &[f64], qd: &[f64]) -> f64 {
        let (xfd, yfd, _, _) = self.front_derivs(t);
        let ph = q[0];
        let xcd = xfd + self.base.rho * ph.sin() * qd[0];
        let ycd = yfd - self.base.rho * ph.cos() * qd[0];
        self.base.kinetic_energy_closed_form(
            t,
            &[0.0, 0.0, q[0], q[1], q[2]],
            &[xcd, ycd, qd[0], qd[1], qd[2]],
        )
    }

    /// Printed A of 3.2 (ERRATA for (2,1) unless verbatim), b, c.
    pub fn printed_abc(&self, t: f64, q: &[f64], verbatim: bool) -> (Vec<Vec<f64>>, Vec<f64>, f64) {
        let b = &self.base;
        let r = &b.rider;
        let (ph, th, th1) = (q[0], q[1], q[2]);
        let rho = b.rho;
        let mk = r.m_d * r.kappa;
        let c13 = r.v3() * (th + th1).cos();
        let a = vec![
            vec![
                b.f2(th, th1) + rho * rho * b.m_t(),
                -rho * r.v1() * th.cos(),
                -rho * mk * th1.cos(),
            ],
            // ERRATA (known): printed (2,1) = -rho v1 cos(theta1); symmetric value -rho v1 cos(theta).
            vec![
                -rho * r.v1() * if verbatim { th1.cos() } else { th.cos() },
                r.v2(),
                c13,
            ],
            vec![-rho * mk * th1.cos(), c13, mk * r.kappa],
        ];
        let (xfd, yfd, _, _) = self.front_derivs(t);
        let beta = xfd * ph.sin() - yfd * ph.cos();
        let beta_phi = xfd * ph.cos() + yfd * ph.sin();
        // ERRATA (new): b_1 is printed (1/2) rho M_T beta - F_1 dbeta/dphi; from T,
        // b_phi = sum m dr/dphi . dr/dt = rho M_T beta - F_1 dbeta/dphi (no 1/2). b_1 drops out
        // of the equations of motion (Gamma has no phi row and d b_1/d theta does not see it).
        let bv = vec![
            (if verbatim { 0.5 } else { 1.0 }) * rho * b.m_t() * beta - r.f1(th, th1) * beta_phi,
            -r.v1() * beta * th.cos(),
            -mk * beta * th1.cos(),
        ];
        let c = 0.5 * b.m_t() * (xfd * xfd + yfd * yfd);
        (a, bv, c)
    }

    pub fn printed_a_gamma(&self, q: &[f64]) -> Vec<Vec<f64>> {
        let r = &self.base.rider;
        let c13 = r.v3() * (q[1] + q[2]).cos();
        vec![vec![r.v2(), c13], vec![c13, r.m_d * r.kappa * r.kappa]]
    }

    /// The two printed equations (coef . etadot + rest = 0). Here alpha = (2 rho, 0, 0) is
    /// constant, so (17) is exact and `Eq17` = `Corrected`.
    pub fn printed_equations(
        &self,
        t: f64,
        q: &[f64],
        eta: &[f64],
        mode: Print,
    ) -> (Vec<Vec<f64>>, Vec<f64>) {
        let verbatim = mode == Print::Verbatim;
        let b = &self.base;
        let r = &b.rider;
        let (ph, th, th1) = (q[0], q[1], q[2]);
        let rho = b.rho;
        let (v1, v3) = (r.v1(), r.v3());
        let mk = r.m_d * r.kappa;
        let (xfd, yfd, xfdd, yfdd) = self.front_derivs(t);
        let beta = xfd * ph.sin() - yfd * ph.cos();
        let beta_phi = xfd * ph.cos() + yfd * ph.sin();
        let beta_t = xfdd * ph.sin() - yfdd * ph.cos();
        let (f2_th, f2_th1) = d_dth(|a, c| b.f2(a, c), th, th1);
        let sp = (th + th1).sin();
        let g = b.g;
        let m = self.printed_a_gamma(q);
        let mut rest1 = -v3 * sp * eta[1] * eta[1]
            - beta * beta * f2_th / (8.0 * rho * rho)
            - beta * beta_phi * v1 * th.cos() / (4.0 * rho)
            - v1 * g * th.sin();
        // ERRATA (new): the second equation prints "-(xFd sin phi - yFd cos phi)^2 dF2/dtheta1"
        // without the factor 1/(8 rho^2) that the first equation (and N) carry.
        let f = if verbatim {
            1.0
        } else {
            1.0 / (8.0 * rho * rho)
        };
        let mut rest2 = -v3 * sp * eta[0] * eta[0]
            - beta * beta * f2_th1 * f
            - beta * beta_phi * mk * th1.cos() / (4.0 * rho)
            + mk * g * th1.sin();
        if !verbatim {
            // ERRATA (new): the printed equations drop the terms - A_{Gamma,Theta} dbeta/dt
            // + Gamma^T db/dt of (20), i.e. -(1/2) v1 cos(theta) dbeta/dt and
            // -(1/2) m_D kappa cos(theta1) dbeta/dt (zero only for a uniform front velocity).
            rest1 -= 0.5 * v1 * th.cos() * beta_t;
            rest2 -= 0.5 * mk * th1.cos() * beta_t;
        }
        let qd = self.psi(t, q, eta);
        let fo = self.forces(t, q, &qd);
        rest1 -= fo[1];
        rest2 -= fo[2];
        (m, vec![rest1, rest2])
    }

    /// State [phi, theta, theta1, eta1, eta2].
    pub fn printed_rhs_mode(&self, t: f64, s: &[f64], mode: Print) -> Vec<f64> {
        let (q, eta) = s.split_at(3);
        let mut out = vec![-self.beta(t, q[0]) / (2.0 * self.base.rho), eta[0], eta[1]];
        let (m, rest) = self.printed_equations(t, q, eta, mode);
        out.extend(solve_printed(m, rest));
        out
    }

    pub fn printed_rhs(&self, t: f64, s: &[f64]) -> Vec<f64> {
        self.printed_rhs_mode(t, s, Print::Corrected)
    }

    pub fn speeds(&self, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64> {
        self.eta(t, q, qd)
    }

    /// (v_B x e_phi)_z from geometry, P_B = P_F - 2 rho e_phi.
    pub fn geometric_constraint(&self, t: f64, q: &[f64], qd: &[f64]) -> f64 {
        let (tt, qq) = seed_velocity(t, q, qd);
        let (xf, yf) = self.front(tt);
        let ep = e_phi(qq[0]);
        let pb = v_add(
            [xf, yf, Dual::from_re(0.0)],
            v_scale(ep, -2.0 * self.base.rho),
        );
        let vb = [pb[0].eps, pb[1].eps, pb[2].eps];
        v_cross(vb, [ep[0].re, ep[1].re, ep[2].re])[2]
    }
}

impl System for AssignedFront {
    fn nq(&self) -> usize {
        3
    }
    fn nz(&self) -> usize {
        2
    }
    fn stationary(&self) -> bool {
        false
    }
    fn lagrangian<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> D {
        let b = &self.base;
        let r = &b.rider;
        let (tt, qq) = seed_velocity(t, q, qd);
        let (xf, yf) = self.front(tt);
        let ep = e_phi(qq[0]);
        let c = [
            xf - ep[0] * b.rho,
            yf - ep[1] * b.rho,
            Dual::from_re(k::<D>(0.0)),
        ];
        let (ps, pd) = rider_points(c, qq[0], qq[1], qq[2], r.kappa, r.kappa1, r.kappa2);
        let t_kin = point_ke(b.big_m, &c)
            + qd[0] * qd[0] * (0.5 * b.i_c)
            + point_ke(r.m_s, &ps)
            + point_ke(r.m_d, &pd);
        t_kin - (ps[2].re * r.m_s + pd[2].re * r.m_d) * b.g
    }
    fn forces<D: Scalar>(&self, _t: D, _q: &[D], qd: &[D]) -> Vec<D> {
        vec![k(0.0), -qd[1] * self.c_th, -qd[2] * self.base.c_th1]
    }
    fn constraints<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> Vec<D> {
        let w = self.omega;
        let xfd = k::<D>(self.v0);
        let yfd = (t * w).cos() * (self.a_f * w);
        vec![qd[0] * (2.0 * self.base.rho) + xfd * q[0].sin() - yfd * q[0].cos()]
    }
    fn psi<D: Scalar>(&self, t: D, q: &[D], z: &[D]) -> Vec<D> {
        let w = self.omega;
        let xfd = k::<D>(self.v0);
        let yfd = (t * w).cos() * (self.a_f * w);
        let beta = xfd * q[0].sin() - yfd * q[0].cos();
        vec![-beta / (2.0 * self.base.rho), z[0], z[1]]
    }
}

impl QuasiVelocities for AssignedFront {
    fn eta<D: Scalar>(&self, _t: D, _q: &[D], qd: &[D]) -> Vec<D> {
        vec![qd[1], qd[2]]
    }
}

impl PaperSystem for AssignedFront {
    const NAME: &'static str = "3.2 assigned front";
    const SEED: u64 = 32;
    const ANGLES: &'static [(usize, f64)] = &[(0, 3.2), (1, 0.8), (2, 0.8)];
    const EQ17: bool = true;

    fn random(rng: &mut SplitMix64) -> Self {
        AssignedFront::new(rng)
    }

    fn printed_systems() -> Vec<(&'static str, PrintedRhs<Self>)> {
        vec![("corrected", |s, t, x| s.printed_rhs(t, x))]
    }

    fn misprinted_systems() -> Vec<(&'static str, PrintedRhs<Self>)> {
        vec![("verbatim", |s, t, x| {
            s.printed_rhs_mode(t, x, Print::Verbatim)
        })]
    }

    fn quasi_velocities(&self) -> Option<&dyn super::Quasi> {
        Some(self)
    }

    fn printed_equations(
        &self,
        t: f64,
        q: &[f64],
        eta: &[f64],
        mode: Print,
    ) -> Option<PrintedEquations> {
        Some(AssignedFront::printed_equations(self, t, q, eta, mode))
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
        let (pa, pb, pc) = s.printed_abc(t, q, false);
        assert!(rel_err_mat(&pa, &a) < 1e-13, "A");
        let (pav, pbv, _) = s.printed_abc(t, q, true);
        assert!(
            rel_err_mat(&pav, &a) > 1e-6 || (q[1] - q[2]).abs() < 1e-3,
            "printed A_21 should differ"
        );
        let zero = vec![0.0; 3];
        let b = momenta(s, t, q, &zero);
        assert!(rel_err(&pb, &b) < 1e-13, "b");
        assert!(
            rel_err(&pbv, &b) > 1e-6 || s.beta(t, q[0]).abs() < 1e-3,
            "printed b_1 should differ"
        );
        let u = s.base.printed_u(&[0.0, 0.0, q[0], q[1], q[2]]);
        assert!((lagrangian_f64(s, t, q, &zero) - u - pc).abs() < 1e-11, "c");
        assert!(
            (s.kinetic_energy_closed_form(t, q, &qd) + u - lagrangian_f64(s, t, q, &qd)).abs()
                < 1e-11
        );
        let gam = psi_z(s, t, q, z);
        let ag = matmul(&transpose(&gam), &matmul(&a, &gam));
        assert!(rel_err_mat(&s.printed_a_gamma(q), &ag) < 1e-13, "A_Gamma");
        assert!(s.geometric_constraint(t, q, &qd).abs() < 1e-13);
        let qd_free = rng.uniform_vec(3, -1.0, 1.0);
        assert!(
            (s.geometric_constraint(t, q, &qd_free) - constraints_f64(s, t, q, &qd_free)[0]).abs()
                < 1e-13
        );
    }
}
