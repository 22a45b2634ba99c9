//! Benenti 2007, §9.2: the vertical rolling disk. Model: the library's
//! [`nonholo::models::VerticalDisk`] has the same T and constraints but gravity in the
//! potential and no other forces; the forces here (axle damping, a spring on the heading)
//! are the test model `nonholo_test_models::systems::forced_vertical_disk_model!`.

use super::{PaperSystem, PrintedRhs, Worst};
use crate::common::oracle::*;
use crate::common::rng::SplitMix64;
use num_dual::Dual;

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
impl QuasiVelocities for RollingDisk {
    fn eta<D: Scalar>(&self, _t: D, _q: &[D], qd: &[D]) -> Vec<D> {
        vec![qd[2], qd[3]]
    }
}

impl PaperSystem for RollingDisk {
    const NAME: &'static str = "9.2 rolling disk";
    const SEED: u64 = 92;
    const ANGLES: &'static [(usize, f64)] = &[(3, 3.2)];

    fn random(rng: &mut SplitMix64) -> Self {
        RollingDisk::new(rng)
    }

    fn printed_systems() -> Vec<(&'static str, PrintedRhs<Self>)> {
        vec![("9.5", |s, t, x| s.printed_rhs(t, x))]
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
        let (qdd, _) = qdd_multipliers(self, t, q, &qd);
        worst.update(
            "second method",
            rel_err(&self.printed_second_method(t, q, &qd), &qdd),
        );
        assert!(
            (self.kinetic_energy_closed_form(t, q, &qd) - lagrangian_f64(self, t, q, &qd)).abs()
                < 1e-13
        );
    }

    fn check_worst(&self, worst: &Worst) {
        let e = worst.get("second method");
        println!("9.2 disk second method (9.6) vs oracle: {e:.1e}");
        assert!(e < 1e-10);
    }

    fn unforced(&self) -> Option<(&'static str, Self)> {
        let mut free = *self;
        free.alpha = 0.0;
        free.c = 0.0;
        free.kspring = 0.0;
        Some(("no forces", free))
    }
}
