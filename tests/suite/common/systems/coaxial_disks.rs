//! Benenti 2007, §9.3: two co-axial rolling disks. Model: the library's
//! [`nonholo::models::CoaxialDisks`] has the same T and constraints but no forces; the
//! forces here (the pair on an incline, axle friction) are the test model
//! `nonholo_test_models::systems::forced_coaxial_disks_model!`.

use super::{PaperSystem, Print, PrintedRhs, Worst};
use crate::common::oracle::*;
use crate::common::rng::SplitMix64;
use num_dual::{Dual, DualNum};

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
impl QuasiVelocities for CoaxialDisks {
    fn eta<D: Scalar>(&self, _t: D, _q: &[D], qd: &[D]) -> Vec<D> {
        vec![qd[2], qd[3]]
    }
}

impl PaperSystem for CoaxialDisks {
    const NAME: &'static str = "9.3 coaxial disks";
    const SEED: u64 = 93;
    const ANGLES: &'static [(usize, f64)] = &[(4, 3.2)];

    fn random(rng: &mut SplitMix64) -> Self {
        CoaxialDisks::new(rng)
    }

    fn printed_systems() -> Vec<(&'static str, PrintedRhs<Self>)> {
        vec![("corrected", |s, t, x| s.printed_rhs(t, x))]
    }

    fn misprinted_systems() -> Vec<(&'static str, PrintedRhs<Self>)> {
        vec![("printed verbatim (no G^-1)", |s, t, x| {
            s.printed_rhs_mode(t, x, Print::Verbatim)
        })]
    }

    fn quasi_velocities(&self) -> Option<&dyn super::Quasi> {
        Some(self)
    }

    fn check_printed_terms(
        &self,
        t: f64,
        q: &[f64],
        z: &[f64],
        _rng: &mut SplitMix64,
        worst: &mut Worst,
    ) {
        let qd = psi_f64(self, t, q, z);
        let a = mass_matrix(self, t, q, &qd);
        worst.update("g", rel_err_mat(&self.printed_mass_matrix(q, false), &a));
        worst.update(
            "g verbatim",
            rel_err_mat(&self.printed_mass_matrix(q, true), &a),
        );
        let pz = psi_z(self, t, q, z);
        let g = matmul(&transpose(&pz), &matmul(&a, &pz));
        worst.update("G", rel_err_mat(&self.printed_g(false), &g));
        assert!(rel_err_mat(&self.printed_g(true), &g) > 1e-3);
        assert!(
            (self.kinetic_energy_closed_form(t, q, &qd) - lagrangian_f64(self, t, q, &qd)).abs()
                < 1e-12
        );
    }

    fn check_worst(&self, worst: &Worst) {
        let (eg, eg_v, e_gg) = (worst.get("g"), worst.get("g verbatim"), worst.get("G"));
        println!("9.3 g_ij (g_15 = m a cos psi) vs AD {eg:.1e}; printed g_15 = m a/2 cos psi: {eg_v:.1e}; derived G vs AD {e_gg:.1e}");
        assert!(eg < 1e-13 && eg_v > 1e-3 && e_gg < 1e-13);
    }

    fn unforced(&self) -> Option<(&'static str, Self)> {
        let mut free = *self;
        free.alpha = 0.0;
        free.c = 0.0;
        Some(("no forces", free))
    }
}
