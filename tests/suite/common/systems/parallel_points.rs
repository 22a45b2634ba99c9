//! Benenti 2007, §9.4: two points with parallel velocities, a nonlinear constraint. Model:
//! the library's [`nonholo::models::ParallelPoints`] (gravity on the incline as
//! `potential_energy`, the same equations as the forces A_1, A_3 here; the parametric form
//! (9.15)).

use super::{PaperSystem, PrintedRhs, Worst};
use crate::common::oracle::*;
use crate::common::rng::SplitMix64;
use num_dual::Dual;

/// Benenti 9.4, two points with parallel velocities (nonlinear constraint
/// x1d y2d - x2d y1d = 0). q = (x1, y1, x2, y2), z = (rho, sigma, theta), (9.15).
/// Forces: the inclined plane of the paper, A = (m1 g, 0, m2 g, 0) -> (9.18) (as forces, not
/// V: the oracle's `energy` is then T only).
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

    /// The library model with these parameters.
    pub fn model(&self) -> nonholo::models::ParallelPoints {
        nonholo::models::ParallelPoints::new()
            .with_m1(self.m1)
            .with_m2(self.m2)
            .with_g(self.g)
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

impl PaperSystem for ParallelPoints {
    const NAME: &'static str = "9.4 parallel points";
    const SEED: u64 = 94;
    // theta is a speed here; the coordinates are positions.
    const ANGLES: &'static [(usize, f64)] = &[];

    fn random(rng: &mut SplitMix64) -> Self {
        ParallelPoints::new(rng)
    }

    fn printed_systems() -> Vec<(&'static str, PrintedRhs<Self>)> {
        vec![
            ("9.17", |s, t, x| s.printed_rhs(t, x)),
            ("9.18", |s, t, x| s.printed_rhs_918(t, x)),
        ]
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
        worst.update(
            "inclined",
            rel_err(&self.printed_second_method_inclined(q, &qd), &qdd),
        );
        let zz = self.speeds(t, q, &qd);
        worst.update("speeds", rel_err(&psi_f64(self, t, q, &zz), &qd));
        assert!(
            (self.kinetic_energy_closed_form(t, q, &qd) - lagrangian_f64(self, t, q, &qd)).abs()
                < 1e-13
        );
    }

    fn check_worst(&self, worst: &Worst) {
        let (e, ei, es) = (
            worst.get("second method"),
            worst.get("inclined"),
            worst.get("speeds"),
        );
        println!("9.4 second method D^i (8.12) vs oracle: {e:.1e}; inclined-plane D^i: {ei:.1e}");
        assert!(e < 1e-10 && ei < 1e-10 && es < 1e-13);
    }
}
