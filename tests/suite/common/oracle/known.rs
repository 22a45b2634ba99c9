//! Small systems with known answers (used to test the oracle itself).

use super::{Scalar, System};

/// Free particle in polar coordinates (r, phi), no constraints, z = qd.
/// Known: r'' = r phi'^2, phi'' = -2 r' phi' / r.
#[derive(Debug, Clone, Copy)]
pub struct PolarParticle {
    pub m: f64,
}

impl System for PolarParticle {
    fn nq(&self) -> usize {
        2
    }
    fn nz(&self) -> usize {
        2
    }
    fn lagrangian<D: Scalar>(&self, _t: D, q: &[D], qd: &[D]) -> D {
        (qd[0] * qd[0] + q[0] * q[0] * qd[1] * qd[1]) * (0.5 * self.m)
    }
    fn constraints<D: Scalar>(&self, _t: D, _q: &[D], _qd: &[D]) -> Vec<D> {
        vec![]
    }
    fn psi<D: Scalar>(&self, _t: D, _q: &[D], z: &[D]) -> Vec<D> {
        z.to_vec()
    }
}

/// Planar pendulum in Cartesian coordinates (x, y), length l, held by the velocity form
/// of the holonomic constraint x xd + y yd = 0; z = angular velocity phidot with
/// (x, y) = l (sin phi, -cos phi) => xd = -y z, yd = x z.
/// Known: phi'' = -(g/l) sin phi, i.e. qdd = (-y phidd - x phid^2, x phidd - y phid^2).
#[derive(Debug, Clone, Copy)]
pub struct CartesianPendulum {
    pub m: f64,
    pub g: f64,
}

impl System for CartesianPendulum {
    fn nq(&self) -> usize {
        2
    }
    fn nz(&self) -> usize {
        1
    }
    fn lagrangian<D: Scalar>(&self, _t: D, q: &[D], qd: &[D]) -> D {
        (qd[0] * qd[0] + qd[1] * qd[1]) * (0.5 * self.m) - q[1] * (self.m * self.g)
    }
    fn constraints<D: Scalar>(&self, _t: D, q: &[D], qd: &[D]) -> Vec<D> {
        vec![q[0] * qd[0] + q[1] * qd[1]]
    }
    fn psi<D: Scalar>(&self, _t: D, q: &[D], z: &[D]) -> Vec<D> {
        vec![-q[1] * z[0], q[0] * z[0]]
    }
}

/// Unforced skate (Benenti 9.1 without forces): known solution z = const, a circle of
/// radius z1/z2: x = x0 + (z1/z2)(sin(th0 + z2 t) - sin th0), y = y0 - (z1/z2)(cos(th0 + z2 t) - cos th0).
#[derive(Debug, Clone, Copy)]
pub struct FreeSkate {
    pub m: f64,
    pub inertia: f64,
}

impl System for FreeSkate {
    fn nq(&self) -> usize {
        3
    }
    fn nz(&self) -> usize {
        2
    }
    fn lagrangian<D: Scalar>(&self, _t: D, _q: &[D], qd: &[D]) -> D {
        (qd[0] * qd[0] + qd[1] * qd[1]) * (0.5 * self.m) + qd[2] * qd[2] * (0.5 * self.inertia)
    }
    fn constraints<D: Scalar>(&self, _t: D, q: &[D], qd: &[D]) -> Vec<D> {
        vec![qd[0] * q[2].sin() - qd[1] * q[2].cos()]
    }
    fn psi<D: Scalar>(&self, _t: D, q: &[D], z: &[D]) -> Vec<D> {
        vec![z[0] * q[2].cos(), z[0] * q[2].sin(), z[1]]
    }
}

/// A 1-dof check of the term psi_q psi in the core equation (absent from Benenti's
/// (6.2)-(7.4)): a free particle on a line, L = qd^2/2, parametrized by qd = z e^q.
/// True dynamics: qdd = 0 => zdot = -z^2 e^q. Benenti's printed (7.1) would give zdot = 0.
#[derive(Debug, Clone, Copy)]
pub struct ExpLine;

impl System for ExpLine {
    fn nq(&self) -> usize {
        1
    }
    fn nz(&self) -> usize {
        1
    }
    fn lagrangian<D: Scalar>(&self, _t: D, _q: &[D], qd: &[D]) -> D {
        qd[0] * qd[0] * 0.5
    }
    fn constraints<D: Scalar>(&self, _t: D, _q: &[D], _qd: &[D]) -> Vec<D> {
        vec![]
    }
    fn psi<D: Scalar>(&self, _t: D, q: &[D], z: &[D]) -> Vec<D> {
        vec![z[0] * q[0].exp()]
    }
}
