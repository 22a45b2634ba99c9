//! The worked examples of Benenti 2007 (§9.1–9.4) and Talamucci 2015 (§3.1–3.4) as
//! hand-written [`System`]s for the oracle, with random-but-fixed parameters (`new(rng)`),
//! kinetic energies derived from the geometry (point positions as functions of q and t,
//! velocities by AD, plus rotational terms), and transcriptions of the printed equations
//! (`printed_rhs`: state [q, z] in the paper's own speeds, every misprint corrected and
//! marked `// ERRATA`; `printed_rhs_mode(.., Print::Verbatim)` keeps the print as is).
//!
//! Conventions: Benenti's active forces A_i are our `forces` (V = 0); Talamucci's force
//! function U is V = -U. Talamucci's forces are zero in the paper; we add damping (and a
//! pedalling torque in 3.3) so that the force path is exercised; the printed equations
//! then get the extra term -Gamma^T F.
//!
//! Two findings about the papers' general equations (not misprints of the examples):
//! * Benenti (6.1)–(7.4) drop the term g_ik (d psi^i/d q^j) psi^j psi^k_alpha of the
//!   acceleration energy (a_0 contains d_i r psi^i_j psi^j). It vanishes in 9.1–9.4, so the
//!   examples are right; the DESIGN core equation has it (A psi_q psi). See `ExpLine`.
//! * Talamucci (16)–(17) (hence (20), (26)) drop
//!   Gamma^T (alphadot^T - J_q^T (alpha qd + beta)) Theta^T grad_qd L, because
//!   grad_qd L = Z^T grad_eta Lt + alpha^T Theta^T grad_qd L, not Z^T grad_eta Lt. The term is
//!   nonzero whenever alpha depends on q or t (3.1, 3.3, 3.4; zero in 3.2). See
//!   `oracle::hamel_residual`.
//!
//! # The models in the `nonholonomic!` DSL (DESIGN.md)
//!
//! Field names = parameter names. Each `kinetic_energy` below is the closed form that
//! `kinetic_energy_closed_form` evaluates, checked in the self-check against the T derived
//! from the geometry.
//!
//! ## Benenti 9.1 — `Skate`
//! ```text
//! nonholonomic! {
//!     /// Skate: a rod sliding on an inclined plane (x down the slope), Benenti 2007, 9.1.
//!     pub struct Skate;
//!     parameters { m, inertia, g = 9.81, alpha, c }
//!     coordinates { x, y, theta }
//!     kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
//!     forces { x: m * g * sin(alpha), theta: -c * dot(theta) }
//!     constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
//!     velocities(z1, z2) { dot(x) = z1 * cos(theta); dot(y) = z1 * sin(theta); dot(theta) = z2; }
//!     // equivalently: speeds { z1 = cos(theta) * dot(x) + sin(theta) * dot(y); z2 = dot(theta); }
//! }
//! ```
//!
//! ## Benenti 9.2 — `RollingDisk`
//! ```text
//! nonholonomic! {
//!     /// Vertical rolling disk, Benenti 2007, 9.2 (A = ia, B = ib, R = r).
//!     pub struct RollingDisk;
//!     parameters { m, r, ia, ib, g = 9.81, alpha, c, kspring }
//!     coordinates { x, y, theta, psi }
//!     kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2))
//!                    + 0.5 * (ia * dot(theta).powi(2) + ib * dot(psi).powi(2));
//!     forces { x: m * g * sin(alpha), theta: -c * dot(theta), psi: -kspring * psi }
//!     constraints {
//!         dot(x) - r * cos(psi) * dot(theta) == 0.0;
//!         dot(y) - r * sin(psi) * dot(theta) == 0.0;
//!     }
//!     velocities(z1, z2) {
//!         dot(x) = r * cos(psi) * z1; dot(y) = r * sin(psi) * z1; dot(theta) = z1; dot(psi) = z2;
//!     }
//! }
//! ```
//!
//! ## Benenti 9.3 — `CoaxialDisks` (coordinate order of g_ij: x, y, theta1, theta2, psi)
//! ```text
//! nonholonomic! {
//!     /// Two co-axial rolling disks at fixed distance a, Benenti 2007, 9.3.
//!     pub struct CoaxialDisks;
//!     parameters { m, r, ia, ib, a, g = 9.81, alpha, c }
//!     coordinates { x, y, theta1, theta2, psi }
//!     kinetic_energy = m * (dot(x).powi(2) + dot(y).powi(2))
//!                    + 0.5 * ia * (dot(theta1).powi(2) + dot(theta2).powi(2))
//!                    + (0.5 * m * a.powi(2) + ib) * dot(psi).powi(2)
//!                    + m * a * dot(psi) * (dot(x) * cos(psi) + dot(y) * sin(psi));
//!     forces {
//!         x: 2.0 * m * g * sin(alpha),
//!         theta1: -c * dot(theta1),
//!         theta2: -c * dot(theta2),
//!         psi: m * g * sin(alpha) * a * cos(psi),
//!     }
//!     constraints {                         // (9.11) with a = const has rank 3: use these three
//!         dot(x) - r * cos(psi) * dot(theta1) == 0.0;
//!         dot(y) - r * sin(psi) * dot(theta1) == 0.0;
//!         a * dot(psi) - r * (dot(theta2) - dot(theta1)) == 0.0;
//!     }
//!     velocities(z1, z2) {
//!         dot(x) = r * cos(psi) * z1; dot(y) = r * sin(psi) * z1;
//!         dot(theta1) = z1; dot(theta2) = z2; dot(psi) = r / a * (z2 - z1);
//!     }
//! }
//! ```
//!
//! ## Benenti 9.4 — `ParallelPoints`
//! ```text
//! nonholonomic! {
//!     /// Two points with parallel velocities on an inclined plane, Benenti 2007, 9.4.
//!     pub struct ParallelPoints;
//!     parameters { m1, m2, g = 9.81 }
//!     coordinates { x1, y1, x2, y2 }
//!     kinetic_energy = 0.5 * m1 * (dot(x1).powi(2) + dot(y1).powi(2))
//!                    + 0.5 * m2 * (dot(x2).powi(2) + dot(y2).powi(2));
//!     forces { x1: m1 * g, x2: m2 * g }     // (as forces, not V: energy() is then T only)
//!     constraints { dot(x1) * dot(y2) - dot(x2) * dot(y1) == 0.0; }
//!     velocities(rho, sigma, theta) {
//!         dot(x1) = rho * cos(theta); dot(y1) = rho * sin(theta);
//!         dot(x2) = sigma * cos(theta); dot(y2) = sigma * sin(theta);
//!     }
//! }
//! ```
//!
//! ## Talamucci 3.1 — `PendulumSkate` (rider fields live in `rider: Rider`)
//! ```text
//! nonholonomic! {
//!     /// Pendulum on a skate (simple bicycle), Talamucci 2015, 3.1.
//!     pub struct PendulumSkate;
//!     parameters { big_m, i_c, m_s, m_d, rho, kappa, kappa1, kappa2, g = 9.81, c_phi, c_th1 }
//!     coordinates { x_c, y_c, phi, theta, theta1 }
//!     let v1 = m_s * kappa1 + m_d * (kappa1 + kappa2);
//!     let v2 = m_s * kappa1.powi(2) + m_d * (kappa1 + kappa2).powi(2);
//!     let v3 = m_d * kappa * (kappa1 + kappa2);
//!     let m_t = big_m + m_s + m_d;
//!     let f1 = v1 * sin(theta) + m_d * kappa * sin(theta1);
//!     let f2 = i_c + m_d * kappa.powi(2) * sin(theta1).powi(2) + v2 * sin(theta).powi(2)
//!            + 2.0 * m_d * kappa * (kappa1 + kappa2) * sin(theta) * sin(theta1);
//!     let v_par = dot(x_c) * cos(phi) + dot(y_c) * sin(phi);
//!     let v_perp = -dot(x_c) * sin(phi) + dot(y_c) * cos(phi);
//!     kinetic_energy = 0.5 * m_t * (dot(x_c).powi(2) + dot(y_c).powi(2)) + 0.5 * f2 * dot(phi).powi(2)
//!                    + 0.5 * v2 * dot(theta).powi(2) + 0.5 * m_d * kappa.powi(2) * dot(theta1).powi(2)
//!                    + v3 * cos(theta + theta1) * dot(theta) * dot(theta1)
//!                    - f1 * dot(phi) * v_par
//!                    + (v1 * cos(theta) * dot(theta) + m_d * kappa * cos(theta1) * dot(theta1)) * v_perp;
//!     potential_energy = v1 * g * cos(theta) - m_d * kappa * g * cos(theta1);
//!     forces { phi: -c_phi * dot(phi), theta1: -c_th1 * dot(theta1) }
//!     constraints { dot(x_c) * sin(phi) - dot(y_c) * cos(phi) + rho * dot(phi) == 0.0; }
//!     speeds {
//!         eta1 = (cos(phi) * dot(x_c) + sin(phi) * dot(y_c)) / rho;
//!         eta2 = (-sin(phi) * dot(x_c) + cos(phi) * dot(y_c)) / rho;
//!         eta3 = dot(theta);
//!         eta4 = dot(theta1);
//!     }
//! }
//! ```
//!
//! ## Talamucci 3.2 — `AssignedFront` (`base: PendulumSkate` holds the 3.1 parameters; c_phi unused)
//! ```text
//! nonholonomic! {
//!     /// Skate-pendulum with the front point on x_F = v0 t, y_F = a_f sin(omega t), Talamucci 2015, 3.2.
//!     pub struct AssignedFront;
//!     parameters { big_m, i_c, m_s, m_d, rho, kappa, kappa1, kappa2, g = 9.81, c_th, c_th1, v0, a_f, omega }
//!     coordinates { phi, theta, theta1 }
//!     let xfd = v0;                                    // d/dt x_F
//!     let yfd = a_f * omega * cos(omega * t);          // d/dt y_F
//!     let xcd = xfd + rho * sin(phi) * dot(phi);       // C = P_F - rho e_phi
//!     let ycd = yfd - rho * cos(phi) * dot(phi);
//!     let v1 = m_s * kappa1 + m_d * (kappa1 + kappa2);
//!     let v2 = m_s * kappa1.powi(2) + m_d * (kappa1 + kappa2).powi(2);
//!     let v3 = m_d * kappa * (kappa1 + kappa2);
//!     let m_t = big_m + m_s + m_d;
//!     let f1 = v1 * sin(theta) + m_d * kappa * sin(theta1);
//!     let f2 = i_c + m_d * kappa.powi(2) * sin(theta1).powi(2) + v2 * sin(theta).powi(2)
//!            + 2.0 * m_d * kappa * (kappa1 + kappa2) * sin(theta) * sin(theta1);
//!     let v_par = xcd * cos(phi) + ycd * sin(phi);
//!     let v_perp = -xcd * sin(phi) + ycd * cos(phi);
//!     kinetic_energy = 0.5 * m_t * (xcd.powi(2) + ycd.powi(2)) + 0.5 * f2 * dot(phi).powi(2)
//!                    + 0.5 * v2 * dot(theta).powi(2) + 0.5 * m_d * kappa.powi(2) * dot(theta1).powi(2)
//!                    + v3 * cos(theta + theta1) * dot(theta) * dot(theta1)
//!                    - f1 * dot(phi) * v_par
//!                    + (v1 * cos(theta) * dot(theta) + m_d * kappa * cos(theta1) * dot(theta1)) * v_perp;
//!     potential_energy = v1 * g * cos(theta) - m_d * kappa * g * cos(theta1);
//!     forces { theta: -c_th * dot(theta), theta1: -c_th1 * dot(theta1) }
//!     constraints { 2.0 * rho * dot(phi) + xfd * sin(phi) - yfd * cos(phi) == 0.0; }
//!     speeds { eta1 = dot(theta); eta2 = dot(theta1); }
//! }
//! ```
//!
//! ## Talamucci 3.3 — `RollingDiskPendulum` (I_D = M R^2 / 2, disk inertia I_D/2 about diameters)
//! ```text
//! nonholonomic! {
//!     /// Rolling disk with pendulum (unicycle with rider), Talamucci 2015, 3.3; C = contact point.
//!     pub struct RollingDiskPendulum;
//!     parameters { big_m, r, m_s, m_d, kappa, kappa1, kappa2, g = 9.81, c_phi, c_th1, tau }
//!     coordinates { x_c, y_c, phi, phi1, theta, theta1 }
//!     let i_d = 0.5 * big_m * r.powi(2);
//!     let v1 = m_s * kappa1 + m_d * (kappa1 + kappa2);
//!     let v2 = m_s * kappa1.powi(2) + m_d * (kappa1 + kappa2).powi(2);
//!     let v3 = m_d * kappa * (kappa1 + kappa2);
//!     let m_t = big_m + m_s + m_d;
//!     let v1h = v1 + big_m * r;
//!     let v2h = v2 + big_m * r.powi(2);
//!     let f1h = v1 * sin(theta) + m_d * kappa * sin(theta1) + big_m * r * sin(theta);
//!     let f2h = m_d * kappa.powi(2) * sin(theta1).powi(2) + v2 * sin(theta).powi(2)
//!             + 2.0 * m_d * kappa * (kappa1 + kappa2) * sin(theta) * sin(theta1)
//!             + (big_m * r.powi(2) + 0.5 * i_d) * sin(theta).powi(2) + 0.5 * i_d;
//!     let v_par = dot(x_c) * cos(phi) + dot(y_c) * sin(phi);
//!     let v_perp = -dot(x_c) * sin(phi) + dot(y_c) * cos(phi);
//!     kinetic_energy = 0.5 * m_t * (dot(x_c).powi(2) + dot(y_c).powi(2)) + 0.5 * f2h * dot(phi).powi(2)
//!                    + 0.5 * i_d * dot(phi1).powi(2) - i_d * sin(theta) * dot(phi) * dot(phi1)
//!                    + 0.5 * (v2h + 0.5 * i_d) * dot(theta).powi(2) + 0.5 * m_d * kappa.powi(2) * dot(theta1).powi(2)
//!                    + v3 * cos(theta + theta1) * dot(theta) * dot(theta1)
//!                    - f1h * dot(phi) * v_par
//!                    + (v1h * cos(theta) * dot(theta) + m_d * kappa * cos(theta1) * dot(theta1)) * v_perp;
//!     potential_energy = v1h * g * cos(theta) - m_d * kappa * g * cos(theta1);
//!     forces { phi: -c_phi * dot(phi), phi1: tau, theta1: -c_th1 * dot(theta1) }
//!     constraints {
//!         dot(x_c) - r * cos(phi) * dot(phi1) == 0.0;
//!         dot(y_c) - r * sin(phi) * dot(phi1) == 0.0;
//!     }
//!     speeds {
//!         eta1 = f2h * dot(phi) - i_d * sin(theta) * dot(phi1) - f1h * v_par;   // dL/d dot(phi)
//!         eta2 = i_d * dot(phi1) - i_d * sin(theta) * dot(phi);                  // dL/d dot(phi1)
//!         eta3 = dot(theta);
//!         eta4 = dot(theta1);
//!     }
//! }
//! ```
//!
//! ## Talamucci 3.4 — `AssignedSpin` (`base: RollingDiskPendulum`; tau unused)
//! ```text
//! nonholonomic! {
//!     /// Rolling disk with pendulum, spin assigned: phi1 = w0 t + a_s sin(omega t), Talamucci 2015, 3.4.
//!     pub struct AssignedSpin;
//!     parameters { big_m, r, m_s, m_d, kappa, kappa1, kappa2, g = 9.81, c_phi, c_th1, w0, a_s, omega }
//!     coordinates { x_c, y_c, phi, theta, theta1 }
//!     let phi1d = w0 + a_s * omega * cos(omega * t);
//!     let i_d = 0.5 * big_m * r.powi(2);
//!     let v1 = m_s * kappa1 + m_d * (kappa1 + kappa2);
//!     let v2 = m_s * kappa1.powi(2) + m_d * (kappa1 + kappa2).powi(2);
//!     let v3 = m_d * kappa * (kappa1 + kappa2);
//!     let m_t = big_m + m_s + m_d;
//!     let v1h = v1 + big_m * r;
//!     let v2h = v2 + big_m * r.powi(2);
//!     let f1h = v1 * sin(theta) + m_d * kappa * sin(theta1) + big_m * r * sin(theta);
//!     let f2h = m_d * kappa.powi(2) * sin(theta1).powi(2) + v2 * sin(theta).powi(2)
//!             + 2.0 * m_d * kappa * (kappa1 + kappa2) * sin(theta) * sin(theta1)
//!             + (big_m * r.powi(2) + 0.5 * i_d) * sin(theta).powi(2) + 0.5 * i_d;
//!     let v_par = dot(x_c) * cos(phi) + dot(y_c) * sin(phi);
//!     let v_perp = -dot(x_c) * sin(phi) + dot(y_c) * cos(phi);
//!     kinetic_energy = 0.5 * m_t * (dot(x_c).powi(2) + dot(y_c).powi(2)) + 0.5 * f2h * dot(phi).powi(2)
//!                    + 0.5 * i_d * phi1d.powi(2) - i_d * sin(theta) * dot(phi) * phi1d
//!                    + 0.5 * (v2h + 0.5 * i_d) * dot(theta).powi(2) + 0.5 * m_d * kappa.powi(2) * dot(theta1).powi(2)
//!                    + v3 * cos(theta + theta1) * dot(theta) * dot(theta1)
//!                    - f1h * dot(phi) * v_par
//!                    + (v1h * cos(theta) * dot(theta) + m_d * kappa * cos(theta1) * dot(theta1)) * v_perp;
//!     potential_energy = v1h * g * cos(theta) - m_d * kappa * g * cos(theta1);
//!     forces { phi: -c_phi * dot(phi), theta1: -c_th1 * dot(theta1) }
//!     constraints {
//!         dot(x_c) - r * phi1d * cos(phi) == 0.0;
//!         dot(y_c) - r * phi1d * sin(phi) == 0.0;
//!     }
//!     speeds {
//!         eta1 = f2h * dot(phi) - f1h * v_par - i_d * phi1d * sin(theta);     // dL/d dot(phi)
//!         eta2 = dot(theta);
//!         eta3 = dot(theta1);
//!     }
//! }
//! ```

use super::oracle::*;
use super::rng::SplitMix64;
use num_dual::{Dual, Dual64, DualNum};

// ==================================================================================
// Benenti 2007, section 9
// ==================================================================================

/// Benenti 9.1, the skate. q = (x, y, theta), z = (z1, z2):
/// xd = z1 cos(theta), yd = z1 sin(theta), thetad = z2.
/// Forces (our choice): A = (m g sin(alpha), 0, -c thetad): the skate on an inclined plane
/// (x down the slope) with a viscous torque about the vertical.
/// ERRATA (new, trivial): K is printed "1/2 m (xd^2 + yd^2) + 1/2 I thetad" (square missing);
/// the g_ij printed right after it are right.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Skate {
    pub m: f64,
    pub inertia: f64,
    pub g: f64,
    pub alpha: f64,
    pub c: f64,
}

impl Skate {
    pub fn new(rng: &mut SplitMix64) -> Self {
        Skate {
            m: rng.uniform(0.5, 3.0),
            inertia: rng.uniform(0.05, 0.5),
            g: 9.81,
            alpha: rng.uniform(0.1, 0.5),
            c: rng.uniform(0.05, 0.5),
        }
    }

    /// The DSL's kinetic energy (closed form), for checking against the geometric one.
    pub fn kinetic_energy_closed_form(&self, _t: f64, _q: &[f64], qd: &[f64]) -> f64 {
        0.5 * self.m * (qd[0].powi(2) + qd[1].powi(2)) + 0.5 * self.inertia * qd[2].powi(2)
    }

    /// Benenti's first-method system (the equations after "The dynamical equations are").
    /// State [x, y, theta, z1, z2].
    pub fn printed_rhs(&self, t: f64, s: &[f64]) -> Vec<f64> {
        let (th, z1, z2) = (s[2], s[3], s[4]);
        let qd = [z1 * th.cos(), z1 * th.sin(), z2];
        let a: Vec<f64> = self.forces(t, &s[..3], &qd);
        vec![
            z1 * th.cos(),
            z1 * th.sin(),
            z2,
            (a[0] * th.cos() + a[1] * th.sin()) / self.m,
            a[2] / self.inertia,
        ]
    }

    /// Benenti's second method (the D^i printed for the skate): qdd from (q, qd).
    pub fn printed_second_method(&self, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64> {
        let a = self.forces(t, q, qd);
        let (s, c) = q[2].sin_cos();
        let w = qd[2] * (qd[0] * c + qd[1] * s);
        vec![
            c / self.m * (a[0] * c + a[1] * s) - w * s,
            s / self.m * (a[0] * c + a[1] * s) + w * c,
            a[2] / self.inertia,
        ]
    }
}

impl System for Skate {
    fn nq(&self) -> usize {
        3
    }
    fn nz(&self) -> usize {
        2
    }
    fn lagrangian<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> D {
        let (tt, qq) = seed_velocity(t, q, qd);
        let _ = tt;
        // centre of mass G of the rod
        let g_pos = [qq[0], qq[1], Dual::from_re(k(0.0))];
        point_ke(self.m, &g_pos) + qd[2] * qd[2] * (0.5 * self.inertia)
    }
    fn forces<D: Scalar>(&self, _t: D, _q: &[D], qd: &[D]) -> Vec<D> {
        vec![
            k(self.m * self.g * self.alpha.sin()),
            k(0.0),
            -qd[2] * self.c,
        ]
    }
    fn constraints<D: Scalar>(&self, _t: D, q: &[D], qd: &[D]) -> Vec<D> {
        vec![qd[0] * q[2].sin() - qd[1] * q[2].cos()]
    }
    fn psi<D: Scalar>(&self, _t: D, q: &[D], z: &[D]) -> Vec<D> {
        vec![z[0] * q[2].cos(), z[0] * q[2].sin(), z[1]]
    }
}

/// Benenti 9.2, the vertical rolling disk. q = (x, y, theta, psi), z = (thetad, psid),
/// (9.4): xd = R cos(psi) z1, yd = R sin(psi) z1, thetad = z1, psid = z2.
/// Forces (our choice): A = (m g sin(alpha), 0, -c thetad, -kspring psi).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RollingDisk {
    pub m: f64,
    pub r: f64,
    pub ia: f64,
    pub ib: f64,
    pub g: f64,
    pub alpha: f64,
    pub c: f64,
    pub kspring: f64,
}

impl RollingDisk {
    pub fn new(rng: &mut SplitMix64) -> Self {
        let m = rng.uniform(0.5, 3.0);
        let r = rng.uniform(0.2, 0.6);
        RollingDisk {
            m,
            r,
            // uniform disk: A = m R^2 / 2, B = m R^2 / 4, perturbed
            ia: 0.5 * m * r * r * rng.uniform(0.8, 1.2),
            ib: 0.25 * m * r * r * rng.uniform(0.8, 1.2),
            g: 9.81,
            alpha: rng.uniform(0.1, 0.5),
            c: rng.uniform(0.05, 0.5),
            kspring: rng.uniform(0.1, 1.0),
        }
    }

    pub fn kinetic_energy_closed_form(&self, _t: f64, _q: &[f64], qd: &[f64]) -> f64 {
        0.5 * self.m * (qd[0].powi(2) + qd[1].powi(2))
            + 0.5 * (self.ia * qd[2].powi(2) + self.ib * qd[3].powi(2))
    }

    /// (9.5). State [x, y, theta, psi, z1, z2].
    pub fn printed_rhs(&self, t: f64, s: &[f64]) -> Vec<f64> {
        let (ps, z1, z2) = (s[3], s[4], s[5]);
        let r = self.r;
        let qd = [r * ps.cos() * z1, r * ps.sin() * z1, z1, z2];
        let a = self.forces(t, &s[..4], &qd);
        vec![
            r * ps.cos() * z1,
            r * ps.sin() * z1,
            z1,
            z2,
            (a[0] * r * ps.cos() + a[1] * r * ps.sin() + a[2]) / (self.m * r * r + self.ia),
            a[3] / self.ib,
        ]
    }

    /// (9.6), Benenti's second method: qdd from (q, qd).
    pub fn printed_second_method(&self, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64> {
        let a = self.forces(t, q, qd);
        let r = self.r;
        let (s, c) = q[3].sin_cos();
        let w = (a[0] * r * c + a[1] * r * s + a[2]) / (self.m * r * r + self.ia);
        vec![
            r * c * w - r * qd[2] * qd[3] * s,
            r * s * w + r * qd[2] * qd[3] * c,
            w,
            a[3] / self.ib,
        ]
    }
}

impl System for RollingDisk {
    fn nq(&self) -> usize {
        4
    }
    fn nz(&self) -> usize {
        2
    }
    fn lagrangian<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> D {
        let (_tt, qq) = seed_velocity(t, q, qd);
        // centre P of the disk, at height R; omega = thetad u + psid k with u horizontal
        let p = [qq[0], qq[1], Dual::from_re(k(self.r))];
        point_ke(self.m, &p) + qd[2] * qd[2] * (0.5 * self.ia) + qd[3] * qd[3] * (0.5 * self.ib)
    }
    fn forces<D: Scalar>(&self, _t: D, q: &[D], qd: &[D]) -> Vec<D> {
        vec![
            k(self.m * self.g * self.alpha.sin()),
            k(0.0),
            -qd[2] * self.c,
            -q[3] * self.kspring,
        ]
    }
    fn constraints<D: Scalar>(&self, _t: D, q: &[D], qd: &[D]) -> Vec<D> {
        // (9.2)
        vec![
            qd[0] - q[3].cos() * qd[2] * self.r,
            qd[1] - q[3].sin() * qd[2] * self.r,
        ]
    }
    fn psi<D: Scalar>(&self, _t: D, q: &[D], z: &[D]) -> Vec<D> {
        vec![
            q[3].cos() * z[0] * self.r,
            q[3].sin() * z[0] * self.r,
            z[0],
            z[1],
        ]
    }
}

/// Benenti 9.3, two co-axial rolling disks at fixed distance a (a = const).
///
/// COORDINATE ORDER (our choice): q = (x, y, theta1, theta2, psi), the order of the
/// paper's g_ij and of its Lagrange equations (A_3, A_4, A_5 = forces on theta1, theta2,
/// psi). The paper's (9.12)/(9.13) list psi third; its Z_alpha are written in that
/// (9.12) order, and we map indices accordingly in `printed_rhs`.
/// z = (thetad1, thetad2); (9.12): xd = R cos(psi) z1, yd = R sin(psi) z1,
/// psid = (R/a)(z2 - z1).
///
/// Constraints: with a = const the four equations (9.11) have rank 3 (eq3 - eq1 and
/// eq4 - eq2 both say a psid = R (thetad2 - thetad1), times cos psi and sin psi), so the
/// oracle uses the three independent ones
///   xd - R cos(psi) thetad1 = 0, yd - R sin(psi) thetad1 = 0, a psid - R (thetad2 - thetad1) = 0.
///
/// Forces (our choice): the pair on an inclined plane (x down the slope) with viscous
/// axle friction on each disk: A = (2 m g sin(alpha), 0, -c thetad1, -c thetad2,
/// m g sin(alpha) a cos(psi)) (the last one is m g sin(alpha) d x2 / d psi).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CoaxialDisks {
    pub m: f64,
    pub r: f64,
    pub ia: f64,
    pub ib: f64,
    pub a: f64,
    pub g: f64,
    pub alpha: f64,
    pub c: f64,
}

impl CoaxialDisks {
    pub fn new(rng: &mut SplitMix64) -> Self {
        let m = rng.uniform(0.5, 3.0);
        let r = rng.uniform(0.2, 0.6);
        CoaxialDisks {
            m,
            r,
            ia: 0.5 * m * r * r * rng.uniform(0.8, 1.2),
            ib: 0.25 * m * r * r * rng.uniform(0.8, 1.2),
            a: rng.uniform(0.5, 1.5),
            g: 9.81,
            alpha: rng.uniform(0.1, 0.5),
            c: rng.uniform(0.05, 0.5),
        }
    }

    /// The paper's final K (correct as printed in the text; its g_15 is not).
    pub fn kinetic_energy_closed_form(&self, _t: f64, q: &[f64], qd: &[f64]) -> f64 {
        let (m, a) = (self.m, self.a);
        let (xd, yd, t1d, t2d, psd) = (qd[0], qd[1], qd[2], qd[3], qd[4]);
        m * (xd * xd + yd * yd)
            + 0.5 * self.ia * (t1d * t1d + t2d * t2d)
            + (0.5 * m * a * a + self.ib) * psd * psd
            + m * a * psd * (xd * q[4].cos() + yd * q[4].sin())
    }

    /// g_ij as printed (in our order (x, y, theta1, theta2, psi)), ERRATA applied to g_15, g_25.
    pub fn printed_mass_matrix(&self, q: &[f64], verbatim: bool) -> Vec<Vec<f64>> {
        let (m, a) = (self.m, self.a);
        // ERRATA (new): printed g_15 = (m a / 2) cos(psi), g_25 = (m a / 2) sin(psi); the
        // paper's own K (cross term m a psid (xd cos psi + yd sin psi)) and its Lagrange
        // equations (2 m xdd + m a cos(psi) psidd ...) give m a cos(psi), m a sin(psi).
        let f = if verbatim { 0.5 } else { 1.0 };
        let (s, c) = q[4].sin_cos();
        vec![
            vec![2.0 * m, 0.0, 0.0, 0.0, f * m * a * c],
            vec![0.0, 2.0 * m, 0.0, 0.0, f * m * a * s],
            vec![0.0, 0.0, self.ia, 0.0, 0.0],
            vec![0.0, 0.0, 0.0, self.ia, 0.0],
            vec![
                f * m * a * c,
                f * m * a * s,
                0.0,
                0.0,
                m * a * a + 2.0 * self.ib,
            ],
        ]
    }

    /// [G_alpha beta]: as printed (verbatim) or as derived (G = psi_z^T g psi_z).
    pub fn printed_g(&self, verbatim: bool) -> Vec<Vec<f64>> {
        let (m, r, a, ia, ib) = (self.m, self.r, self.a, self.ia, self.ib);
        let rr = r * r / (a * a);
        if verbatim {
            vec![
                vec![2.0 * m * r * r + ia * (1.0 + rr), m * a * r - ia * rr],
                vec![m * a * r - ia * rr, ia * rr + m * a * a + 2.0 * ib],
            ]
        } else {
            // ERRATA (new): the printed G_11, G_12, G_22 mix the (9.13) column order
            // (x, y, psi, theta1, theta2) with the g_ij order (x, y, theta1, theta2, psi)
            // (e.g. A psi_1^3 psi_1^3 = A R^2/a^2 uses psi_1^3 = -R/a, the psi entry, with the
            // theta1 inertia). With consistent indices, G = psi_z^T g psi_z is
            //   G_11 = G_22 = m R^2 + A + 2 B R^2/a^2,  G_12 = -2 B R^2/a^2.
            vec![
                vec![m * r * r + ia + 2.0 * ib * rr, -2.0 * ib * rr],
                vec![-2.0 * ib * rr, m * r * r + ia + 2.0 * ib * rr],
            ]
        }
    }

    /// The paper's final first-order system. State [x, y, theta1, theta2, psi, z1, z2]
    /// (our coordinate order).
    /// `Print::Verbatim`: dz/dt = (Z_1, Z_2) exactly as printed (no G^{-1}).
    /// otherwise: dz/dt = G^{-1} Z with the derived G (ERRATA below).
    pub fn printed_rhs_mode(&self, t: f64, s: &[f64], mode: Print) -> Vec<f64> {
        let verbatim = mode == Print::Verbatim;
        let (r, a) = (self.r, self.a);
        let ps = s[4];
        let (z1, z2) = (s[5], s[6]);
        let qd = vec![
            r * ps.cos() * z1,
            r * ps.sin() * z1,
            z1,
            z2,
            r / a * (z2 - z1),
        ];
        let f = self.forces(t, &s[..5], &qd);
        // The printed Z_alpha use the (9.12)/(9.13) index order (x, y, psi, theta1, theta2):
        // paper A_3 = our force on psi (f[4]), paper A_4 = on theta1 (f[2]), paper A_5 = on theta2 (f[3]).
        let (pa1, pa2, pa3, pa4, pa5) = (f[0], f[1], f[4], f[2], f[3]);
        let zz1 = r * (pa1 * ps.cos() + pa2 * ps.sin() - pa3 / a) + pa4;
        let zz2 = r / a * pa3 + pa5;
        // (9.12). ERRATA (new): the second line is printed "dx/dt = R sin psi z^1" (read dy/dt).
        let mut out = qd.clone();
        if verbatim {
            out.extend([zz1, zz2]);
        } else {
            // ERRATA (new): the printed dz/dt = Z_alpha omit G^{alpha beta}: (7.5) has
            // dz^alpha/dt = Z^alpha = G^{alpha beta} Z_beta. G as derived (see printed_g).
            let zd = solve(self.printed_g(false), vec![zz1, zz2]);
            out.extend(zd);
        }
        out
    }

    pub fn printed_rhs(&self, t: f64, s: &[f64]) -> Vec<f64> {
        self.printed_rhs_mode(t, s, Print::Corrected)
    }
}

impl System for CoaxialDisks {
    fn nq(&self) -> usize {
        5
    }
    fn nz(&self) -> usize {
        2
    }
    fn lagrangian<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> D {
        let (_tt, qq) = seed_velocity(t, q, qd);
        let h = Dual::from_re(k::<D>(self.r));
        // centres: P1 = (x, y, R), P2 = P1 + a (sin psi, -cos psi, 0)
        let p1 = [qq[0], qq[1], h];
        let p2 = [
            qq[0] + qq[4].sin() * self.a,
            qq[1] - qq[4].cos() * self.a,
            h,
        ];
        // each vertical disk: omega_i = thetad_i u + psid k
        point_ke(self.m, &p1)
            + point_ke(self.m, &p2)
            + (qd[2] * qd[2] + qd[3] * qd[3]) * (0.5 * self.ia)
            + qd[4] * qd[4] * self.ib
    }
    fn forces<D: Scalar>(&self, _t: D, q: &[D], qd: &[D]) -> Vec<D> {
        let mgs = self.m * self.g * self.alpha.sin();
        vec![
            k(2.0 * mgs),
            k(0.0),
            -qd[2] * self.c,
            -qd[3] * self.c,
            q[4].cos() * (mgs * self.a),
        ]
    }
    fn constraints<D: Scalar>(&self, _t: D, q: &[D], qd: &[D]) -> Vec<D> {
        let r = self.r;
        vec![
            qd[0] - q[4].cos() * qd[2] * r,
            qd[1] - q[4].sin() * qd[2] * r,
            qd[4] * self.a - (qd[3] - qd[2]) * r,
        ]
    }
    fn psi<D: Scalar>(&self, _t: D, q: &[D], z: &[D]) -> Vec<D> {
        let r = self.r;
        vec![
            q[4].cos() * z[0] * r,
            q[4].sin() * z[0] * r,
            z[0],
            z[1],
            (z[1] - z[0]) * (r / self.a),
        ]
    }
}

/// Benenti 9.4, two points with parallel velocities (nonlinear constraint
/// x1d y2d - x2d y1d = 0). q = (x1, y1, x2, y2), z = (rho, sigma, theta), (9.15).
/// Forces: the inclined plane of the paper, A = (m1 g, 0, m2 g, 0) -> (9.18).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParallelPoints {
    pub m1: f64,
    pub m2: f64,
    pub g: f64,
}

impl ParallelPoints {
    pub fn new(rng: &mut SplitMix64) -> Self {
        ParallelPoints {
            m1: rng.uniform(0.5, 3.0),
            m2: rng.uniform(0.5, 3.0),
            g: 9.81,
        }
    }

    pub fn kinetic_energy_closed_form(&self, _t: f64, _q: &[f64], qd: &[f64]) -> f64 {
        0.5 * self.m1 * (qd[0].powi(2) + qd[1].powi(2))
            + 0.5 * self.m2 * (qd[2].powi(2) + qd[3].powi(2))
    }

    /// (9.17) with the Lagrangian forces of `forces`. State [x1, y1, x2, y2, rho, sigma, theta].
    // ERRATA (new): in (9.17) the line "dy2/dt = sigma sin theta" is missing and a duplicate
    // "dtheta/dt = (A3 cos theta + A4 sin theta)/m2" stands in its place; (9.18) labels the
    // rho and sigma equations "dtheta/dt". Transcribed with the evident reading.
    pub fn printed_rhs(&self, t: f64, s: &[f64]) -> Vec<f64> {
        let (rho, sig, th) = (s[4], s[5], s[6]);
        let (sn, cs) = th.sin_cos();
        let qd = [rho * cs, rho * sn, sig * cs, sig * sn];
        let a = self.forces(t, &s[..4], &qd);
        vec![
            rho * cs,
            rho * sn,
            sig * cs,
            sig * sn,
            (a[0] * cs + a[1] * sn) / self.m1,
            (a[2] * cs + a[3] * sn) / self.m2,
            (rho * (a[1] * cs - a[0] * sn) + sig * (a[3] * cs - a[2] * sn))
                / (self.m1 * rho * rho + self.m2 * sig * sig),
        ]
    }

    /// (9.18), the inclined-plane special case (A1 = m1 g, A3 = m2 g).
    pub fn printed_rhs_918(&self, _t: f64, s: &[f64]) -> Vec<f64> {
        let (rho, sig, th) = (s[4], s[5], s[6]);
        let (sn, cs) = th.sin_cos();
        let (m1, m2, g) = (self.m1, self.m2, self.g);
        vec![
            rho * cs,
            rho * sn,
            sig * cs,
            sig * sn,
            g * cs,
            g * cs,
            -g * sn * (m1 * rho + m2 * sig) / (m1 * rho * rho + m2 * sig * sig),
        ]
    }

    /// The printed second-method field D^i (8.12) for this case (general A_i form):
    /// qdd = D(q, qd), with 2K = m1 (x1d^2 + y1d^2) + m2 (x2d^2 + y2d^2).
    pub fn printed_second_method(&self, t: f64, q: &[f64], qd: &[f64]) -> Vec<f64> {
        let a = self.forces(t, q, qd);
        let (m1, m2) = (self.m1, self.m2);
        let (x1d, y1d, x2d, y2d) = (qd[0], qd[1], qd[2], qd[3]);
        let k2 = m1 * (x1d * x1d + y1d * y1d) + m2 * (x2d * x2d + y2d * y2d);
        vec![
            (a[0] * (m1 * (x1d * x1d + y1d * y1d) + m2 * x2d * x2d) / m1
                + a[1] * m2 * x2d * y2d / m1
                + a[2] * y1d * y2d
                - a[3] * x1d * y2d)
                / k2,
            (a[0] * m2 * x2d * y2d / m1
                + a[1] * (m1 * (x1d * x1d + y1d * y1d) + m2 * y2d * y2d) / m1
                - a[2] * x2d * y1d
                + a[3] * x1d * x2d)
                / k2,
            (a[0] * y1d * y2d - a[1] * x2d * y1d
                + a[2] * (m2 * (x2d * x2d + y2d * y2d) + m1 * x1d * x1d) / m2
                + a[3] * m1 * x1d * y1d / m2)
                / k2,
            (-a[0] * x1d * y2d
                + a[1] * x1d * x2d
                + a[2] * m1 * x1d * y1d / m2
                + a[3] * (m2 * (x2d * x2d + y2d * y2d) + m1 * y1d * y1d) / m2)
                / k2,
        ]
    }

    /// The printed inclined-plane D^i (the four fractions after "For two points running on
    /// an inclined plane").
    pub fn printed_second_method_inclined(&self, q: &[f64], qd: &[f64]) -> Vec<f64> {
        let _ = q;
        let (m1, m2, g) = (self.m1, self.m2, self.g);
        let (x1d, y1d, x2d, y2d) = (qd[0], qd[1], qd[2], qd[3]);
        let k2 = m1 * (x1d * x1d + y1d * y1d) + m2 * (x2d * x2d + y2d * y2d);
        vec![
            g * (m1 * (x1d * x1d + y1d * y1d) + m2 * (x2d * x2d + y1d * y2d)) / k2,
            g * m2 * x2d * (y2d - y1d) / k2,
            g * (m2 * (x2d * x2d + y2d * y2d) + m1 * (x1d * x1d + y1d * y2d)) / k2,
            g * m1 * x1d * (y1d - y2d) / k2,
        ]
    }
}

impl System for ParallelPoints {
    fn nq(&self) -> usize {
        4
    }
    fn nz(&self) -> usize {
        3
    }
    fn lagrangian<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> D {
        let (_tt, qq) = seed_velocity(t, q, qd);
        let zero = Dual::from_re(k::<D>(0.0));
        point_ke(self.m1, &[qq[0], qq[1], zero]) + point_ke(self.m2, &[qq[2], qq[3], zero])
    }
    fn forces<D: Scalar>(&self, _t: D, _q: &[D], _qd: &[D]) -> Vec<D> {
        vec![k(self.m1 * self.g), k(0.0), k(self.m2 * self.g), k(0.0)]
    }
    fn constraints<D: Scalar>(&self, _t: D, _q: &[D], qd: &[D]) -> Vec<D> {
        vec![qd[0] * qd[3] - qd[2] * qd[1]]
    }
    fn psi<D: Scalar>(&self, _t: D, _q: &[D], z: &[D]) -> Vec<D> {
        let (s, c) = (z[2].sin(), z[2].cos());
        vec![z[0] * c, z[0] * s, z[1] * c, z[1] * s]
    }
}

impl QuasiVelocities for Skate {
    fn eta<D: Scalar>(&self, _t: D, q: &[D], qd: &[D]) -> Vec<D> {
        vec![qd[0] * q[2].cos() + qd[1] * q[2].sin(), qd[2]]
    }
}

impl QuasiVelocities for RollingDisk {
    fn eta<D: Scalar>(&self, _t: D, _q: &[D], qd: &[D]) -> Vec<D> {
        vec![qd[2], qd[3]]
    }
}

impl QuasiVelocities for CoaxialDisks {
    fn eta<D: Scalar>(&self, _t: D, _q: &[D], qd: &[D]) -> Vec<D> {
        vec![qd[2], qd[3]]
    }
}

impl ParallelPoints {
    /// (rho, sigma, theta) from velocities satisfying the constraint, with theta the direction
    /// of the faster point's velocity (rho, sigma then signed); needs v1 or v2 nonzero.
    pub fn speeds(&self, _t: f64, _q: &[f64], qd: &[f64]) -> Vec<f64> {
        let (v1, v2) = (qd[0].hypot(qd[1]), qd[2].hypot(qd[3]));
        let th = if v1 >= v2 {
            qd[1].atan2(qd[0])
        } else {
            qd[3].atan2(qd[2])
        };
        let (s, c) = th.sin_cos();
        vec![qd[0] * c + qd[1] * s, qd[2] * c + qd[3] * s, th]
    }
}

// ==================================================================================
// Talamucci 2015, section 3
// ==================================================================================

// ---- geometry (generic over scalars, so that velocities come from AD) -------------

/// e_phi = (cos phi, sin phi, 0): direction P_B -> P_F.
pub fn e_phi<S: Scalar>(phi: S) -> [S; 3] {
    [phi.cos(), phi.sin(), k(0.0)]
}
/// e_perp = k x e_phi = (-sin phi, cos phi, 0).
pub fn e_perp<S: Scalar>(phi: S) -> [S; 3] {
    [-phi.sin(), phi.cos(), k(0.0)]
}
/// e_theta = (-sin th sin phi, sin th cos phi, cos th): P_S - C = kappa1 e_theta.
pub fn e_theta<S: Scalar>(phi: S, th: S) -> [S; 3] {
    [-th.sin() * phi.sin(), th.sin() * phi.cos(), th.cos()]
}
/// e_theta1 = (-sin th1 sin phi, sin th1 cos phi, -cos th1): P_D - O_1 = kappa e_theta1.
pub fn e_theta1<S: Scalar>(phi: S, th1: S) -> [S; 3] {
    [-th1.sin() * phi.sin(), th1.sin() * phi.cos(), -th1.cos()]
}
pub fn v_add<S: Scalar>(a: [S; 3], b: [S; 3]) -> [S; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
pub fn v_scale<S: Scalar>(a: [S; 3], s: f64) -> [S; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}
pub fn v_dot<S: Scalar>(a: [S; 3], b: [S; 3]) -> S {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
pub fn v_cross<S: Scalar>(a: [S; 3], b: [S; 3]) -> [S; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// The rider part common to 3.1-3.4: P_S = C + kappa1 e_theta, P_D = C + (kappa1 + kappa2)
/// e_theta + kappa e_theta1 (O_1 = C + (kappa1 + kappa2) e_theta), given C and the angles.
fn rider_points<S: Scalar>(
    c: [S; 3],
    phi: S,
    th: S,
    th1: S,
    kappa: f64,
    kappa1: f64,
    kappa2: f64,
) -> ([S; 3], [S; 3]) {
    let et = e_theta(phi, th);
    let ps = v_add(c, v_scale(et, kappa1));
    let pd = v_add(
        v_add(c, v_scale(et, kappa1 + kappa2)),
        v_scale(e_theta1(phi, th1), kappa),
    );
    (ps, pd)
}

/// Kinetic energy of the disk of 3.3/3.4 from its rotation matrix. Disk centre
/// D = C + R e_theta; the disk plane contains e_phi and e_theta, its axis is
/// n = e_phi x e_theta; material axes u1 = cos(phi1) e_phi - sin(phi1) e_theta,
/// u2 = n x u1 (phi1 is the spin angle; this orientation makes the rolling condition read
/// xd_C = R phi1d cos(phi), as (31)). omega from Rdot R^T (AD), inertia I_D about n and
/// I_D/2 about diameters (uniform disk, I_D = M R^2/2).
/// Returns (translational + rotational KE, omega, centre) on the seeded duals.
fn disk_ke<D: Scalar>(
    big_m: f64,
    r: f64,
    c: [Dual<D>; 3],
    phi: Dual<D>,
    th: Dual<D>,
    phi1: Dual<D>,
) -> (D, [D; 3], [Dual<D>; 3]) {
    let i_d = 0.5 * big_m * r * r;
    let ep = e_phi(phi);
    let et = e_theta(phi, th);
    let n = v_cross(ep, et);
    let (s1, c1) = (phi1.sin(), phi1.cos());
    let u1 = [
        ep[0] * c1 - et[0] * s1,
        ep[1] * c1 - et[1] * s1,
        ep[2] * c1 - et[2] * s1,
    ];
    let u2 = v_cross(n, u1);
    // rotation matrix columns u1, u2, n: R[i][j] = col_j[i]
    let cols = [u1, u2, n];
    let rm = |i: usize, j: usize| cols[j][i].re;
    let rd = |i: usize, j: usize| cols[j][i].eps;
    // Omega = Rdot R^T
    let om = |i: usize, j: usize| {
        let mut s = k::<D>(0.0);
        for l in 0..3 {
            s += rd(i, l) * rm(j, l);
        }
        s
    };
    let omega = [om(2, 1), om(0, 2), om(1, 0)];
    let nn = [n[0].re, n[1].re, n[2].re];
    let wn = v_dot(omega, nn);
    let w2 = v_dot(omega, omega);
    let rot = wn * wn * (0.5 * i_d) + (w2 - wn * wn) * (0.25 * i_d);
    let centre = v_add(c, v_scale(et, r));
    (point_ke(big_m, &centre) + rot, omega, centre)
}

/// Shared rider parameters and the paper's abbreviations (29).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rider {
    pub m_s: f64,
    pub m_d: f64,
    pub kappa: f64,
    pub kappa1: f64,
    pub kappa2: f64,
}

impl Rider {
    pub fn new(rng: &mut SplitMix64) -> Self {
        Rider {
            m_s: rng.uniform(2.0, 4.0),
            m_d: rng.uniform(0.5, 1.5),
            kappa: rng.uniform(0.3, 0.6),
            kappa1: rng.uniform(0.8, 1.2),
            kappa2: rng.uniform(0.2, 0.4),
        }
    }
    pub fn v1(&self) -> f64 {
        self.m_s * self.kappa1 + self.m_d * (self.kappa1 + self.kappa2)
    }
    pub fn v2(&self) -> f64 {
        self.m_s * self.kappa1.powi(2) + self.m_d * (self.kappa1 + self.kappa2).powi(2)
    }
    pub fn v3(&self) -> f64 {
        self.m_d * self.kappa * (self.kappa1 + self.kappa2)
    }
    /// F_1 = v1 sin th + m_D kappa sin th1 (29).
    pub fn f1<S: Scalar>(&self, th: S, th1: S) -> S {
        th.sin() * self.v1() + th1.sin() * (self.m_d * self.kappa)
    }
    /// F_2 - I_C = m_D kappa^2 sin^2 th1 + v2 sin^2 th + 2 m_D kappa (kappa1 + kappa2) sin th sin th1 (29).
    pub fn f2_no_ic<S: Scalar>(&self, th: S, th1: S) -> S {
        th1.sin() * th1.sin() * (self.m_d * self.kappa * self.kappa)
            + th.sin() * th.sin() * self.v2()
            + th.sin() * th1.sin() * (2.0 * self.m_d * self.kappa * (self.kappa1 + self.kappa2))
    }
}

/// d/dtheta and d/dtheta1 of a function of (theta, theta1) by Dual64.
fn d_dth<F: Fn(Dual64, Dual64) -> Dual64>(f: F, th: f64, th1: f64) -> (f64, f64) {
    (
        f(Dual64::new(th, 1.0), Dual64::from_re(th1)).eps,
        f(Dual64::from_re(th), Dual64::new(th1, 1.0)).eps,
    )
}

/// Solve printed equations `m etadot + rest = 0` for etadot.
fn solve_printed(m: Vec<Vec<f64>>, rest: Vec<f64>) -> Vec<f64> {
    solve(m, rest.iter().map(|x| -x).collect())
}

/// Which version of a printed set of equations to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Print {
    /// exactly as printed (extraction glitches resolved, known ERRATA not applied)
    Verbatim,
    /// misprints fixed: what the paper's general equations (17)/(20)/(26) really give
    Eq17,
    /// additionally corrected for the term (16)-(17) drop: the true dynamics
    Corrected,
}

// ---------------------------------------------------------------------------------
// 3.1 Pendulum on a skate
// ---------------------------------------------------------------------------------

/// Talamucci 3.1, pendulum on a skate. q = (x_C, y_C, phi, theta, theta1);
/// rod P_B P_F (length 2 rho, mass M at its midpoint C, moment I_C about C), P_S (m_s),
/// P_D (m_D); U = -v1 g cos(theta) + kappa m_D g cos(theta1), V = -U;
/// constraint (ERRATA: R/2 read rho) xd_C sin(phi) - yd_C cos(phi) + rho phid = 0;
/// speeds eta = Z qd with Z as printed: eta1 = (cos phi xd + sin phi yd)/rho,
/// eta2 = (-sin phi xd + cos phi yd)/rho (= phid on the constraint), eta3 = thetad, eta4 = theta1d.
/// Forces (our addition, not in the paper): F_phi = -c_phi phid, F_theta1 = -c_th1 theta1d.
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

// ---------------------------------------------------------------------------------
// 3.2 Assigned front motion
// ---------------------------------------------------------------------------------

/// Talamucci 3.2, the skate-pendulum with the front point P_F moving on an assigned path:
/// x_F = v0 t, y_F = a_f sin(omega t) (our choice). q = (phi, theta, theta1),
/// C = P_F - rho e_phi; constraint 2 rho phid + beta = 0, beta = xFd sin phi - yFd cos phi;
/// speeds eta1 = thetad, eta2 = theta1d. Forces (our addition): F_theta = -c_th thetad,
/// F_theta1 = -c_th1 theta1d.
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

// ---------------------------------------------------------------------------------
// 3.3 Rolling disk with pendulum
// ---------------------------------------------------------------------------------

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

/// The hatted abbreviations of 3.3 (used by 3.3 and 3.4).
#[derive(Debug, Clone, Copy)]
pub struct Hats {
    pub i_d: f64,
    pub v1h: f64,
    pub v2h: f64,
    pub v3: f64,
    pub mk: f64,
    pub m_t: f64,
}

fn hats(big_m: f64, r: f64, rider: &Rider) -> Hats {
    Hats {
        i_d: 0.5 * big_m * r * r,
        v1h: rider.v1() + big_m * r,
        v2h: rider.v2() + big_m * r * r,
        v3: rider.v3(),
        mk: rider.m_d * rider.kappa,
        m_t: big_m + rider.m_s + rider.m_d,
    }
}

/// F1hat = F1 + M R sin(theta).
fn f1h<S: Scalar>(big_m: f64, r: f64, rider: &Rider, th: S, th1: S) -> S {
    rider.f1(th, th1) + th.sin() * (big_m * r)
}
/// F2hat = F2 - I_C + (M R^2 + I_D/2) sin^2(theta) + I_D/2.
fn f2h<S: Scalar>(big_m: f64, r: f64, rider: &Rider, th: S, th1: S) -> S {
    let i_d = 0.5 * big_m * r * r;
    rider.f2_no_ic(th, th1) + th.sin() * th.sin() * (big_m * r * r + 0.5 * i_d) + k::<S>(0.5 * i_d)
}

/// The common Lagrangian of 3.3/3.4 from geometry, with phi1 and phi1d given.
#[allow(clippy::too_many_arguments)]
fn disk_rider_lagrangian<D: Scalar>(
    big_m: f64,
    r: f64,
    rider: &Rider,
    g: f64,
    xc: Dual<D>,
    yc: Dual<D>,
    phi: Dual<D>,
    phi1: Dual<D>,
    th: Dual<D>,
    th1: Dual<D>,
) -> D {
    let c = [xc, yc, Dual::from_re(k::<D>(0.0))];
    let (ke_disk, _w, centre) = disk_ke(big_m, r, c, phi, th, phi1);
    let (ps, pd) = rider_points(c, phi, th, th1, rider.kappa, rider.kappa1, rider.kappa2);
    let t_kin = ke_disk + point_ke(rider.m_s, &ps) + point_ke(rider.m_d, &pd);
    let v = (centre[2].re * big_m + ps[2].re * rider.m_s + pd[2].re * rider.m_d) * g;
    t_kin - v
}

/// Velocity of the material point of the disk at the contact C (zero = rolling), from geometry.
fn disk_contact_velocity(big_m: f64, r: f64, t: f64, q6: &[f64], qd6: &[f64]) -> [f64; 3] {
    // q6 = (x, y, phi, phi1, theta, theta1)
    let (_tt, qq) = seed_velocity(t, q6, qd6);
    let c = [qq[0], qq[1], Dual::from_re(0.0)];
    let (_ke, w, centre) = disk_ke(big_m, r, c, qq[2], qq[4], qq[3]);
    let vc = [centre[0].eps, centre[1].eps, centre[2].eps];
    let arm = [
        c[0].re - centre[0].re,
        c[1].re - centre[1].re,
        c[2].re - centre[2].re,
    ];
    v_add(vc, v_cross(w, arm))
}

/// psi from speeds that are affine in qd and affine constraints: solve [Z; alpha] qd =
/// [eta - Z0; -alpha0] where Z e_j = speeds(e_j) - speeds(0) (exact for affine maps).
fn psi_from_affine<D: Scalar, F: Fn(&[D]) -> Vec<D>, G: Fn(&[D]) -> Vec<D>>(
    n: usize,
    speeds: F,
    cons: G,
    z: &[D],
) -> Vec<D> {
    let zero = vec![k::<D>(0.0); n];
    let s0 = speeds(&zero);
    let c0 = cons(&zero);
    let mut cols_s = Vec::with_capacity(n);
    let mut cols_c = Vec::with_capacity(n);
    for j in 0..n {
        let mut e = zero.clone();
        e[j] = k(1.0);
        cols_s.push(speeds(&e));
        cols_c.push(cons(&e));
    }
    let mut m = Vec::with_capacity(n);
    let mut rhs = Vec::with_capacity(n);
    for a in 0..s0.len() {
        m.push((0..n).map(|j| cols_s[j][a] - s0[a]).collect::<Vec<D>>());
        rhs.push(z[a] - s0[a]);
    }
    for a in 0..c0.len() {
        m.push((0..n).map(|j| cols_c[j][a] - c0[a]).collect::<Vec<D>>());
        rhs.push(-c0[a]);
    }
    solve(m, rhs)
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

// ---------------------------------------------------------------------------------
// 3.4 Assigned rotational velocity of the disk
// ---------------------------------------------------------------------------------

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

impl QuasiVelocities for AssignedFront {
    fn eta<D: Scalar>(&self, _t: D, _q: &[D], qd: &[D]) -> Vec<D> {
        vec![qd[1], qd[2]]
    }
}

impl QuasiVelocities for RollingDiskPendulum {
    fn eta<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> Vec<D> {
        self.speeds_generic(t, q, qd)
    }
}

impl QuasiVelocities for AssignedSpin {
    fn eta<D: Scalar>(&self, t: D, q: &[D], qd: &[D]) -> Vec<D> {
        self.speeds_generic(t, q, qd)
    }
}
