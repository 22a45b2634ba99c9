//! Benenti 2007, §9.1: the skate. Model: the library's [`nonholo::models::Skate`] (gravity
//! on the incline as `potential_energy`, the same equations as the force A_1 here; speeds
//! v = z1 along the blade and w = z2).

use super::{PaperSystem, PrintedRhs, Worst};
use crate::common::oracle::*;
use crate::common::rng::SplitMix64;
use num_dual::Dual;

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

    /// The library model with these parameters.
    pub fn model(&self) -> nonholo::models::Skate {
        nonholo::models::Skate::new()
            .with_m(self.m)
            .with_inertia(self.inertia)
            .with_g(self.g)
            .with_alpha(self.alpha)
            .with_c(self.c)
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
impl QuasiVelocities for Skate {
    fn eta<D: Scalar>(&self, _t: D, q: &[D], qd: &[D]) -> Vec<D> {
        vec![qd[0] * q[2].cos() + qd[1] * q[2].sin(), qd[2]]
    }
}

impl PaperSystem for Skate {
    const NAME: &'static str = "9.1 skate";
    const SEED: u64 = 91;
    const ANGLES: &'static [(usize, f64)] = &[(2, 3.2)];

    fn random(rng: &mut SplitMix64) -> Self {
        Skate::new(rng)
    }

    fn printed_systems() -> Vec<(&'static str, PrintedRhs<Self>)> {
        vec![("first method", |s, t, x| s.printed_rhs(t, x))]
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
        println!("9.1 skate second method (D^i) vs oracle: {e:.1e}");
        assert!(e < 1e-10);
    }

    fn unforced(&self) -> Option<(&'static str, Self)> {
        let mut free = *self;
        free.alpha = 0.0;
        free.c = 0.0;
        Some(("no forces", free))
    }
}
