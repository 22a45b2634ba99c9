//! The skate on ice in speeds, [`Skate`].

use super::finite;
use crate::private::{as_array, as_array_mut};
use crate::{check_velocities, Error, Formulation, Model, Scalar};
use alloc::vec;
use alloc::vec::Vec;

/// A skate on ice: mass `m`, moment of inertia `i` about its contact point (at the centre
/// of mass), state `[x, y, theta, v, omega]`.
///
/// The blade cannot slip sideways, `dot(y) cos(theta) - dot(x) sin(theta) = 0`, so
/// `dot(q) = psi(q, z) = [v cos(theta), v sin(theta), omega]` with speeds `z = [v, omega]`;
/// the equations are `m dot(v) = 0`, `i dot(omega) = 0`. From `(x0, y0, theta0)` it runs on
/// the circle `x = x0 + v/omega (sin(theta) - sin(theta0))`,
/// `y = y0 - v/omega (cos(theta) - cos(theta0))`, `theta = theta0 + omega t`.
/// Energy `1/2 m v^2 + 1/2 i omega^2`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skate {
    /// Mass.
    pub m: f64,
    /// Moment of inertia about the contact point.
    pub i: f64,
}

impl Model for Skate {
    const COORDINATES: &'static [&'static str] = &["x", "y", "theta"];
    const SPEEDS: &'static [&'static str] = &["v", "omega"];
    const PARAMETERS: &'static [&'static str] = &["m", "i"];
    const CONSTRAINTS: &'static [&'static str] = &["dot(y) cos(theta) == dot(x) sin(theta)"];
    const NQ: usize = 3;
    const NZ: usize = 2;
    const NC: usize = 1;
    const DIM: usize = 5;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = "dot(x) = v cos(theta)\ndot(y) = v sin(theta)\n\
                                     dot(theta) = omega\nm dot(v) = 0\ni dot(omega) = 0";
    type State = [f64; 5];
    const ZERO_STATE: [f64; 5] = [0.0; 5];

    fn parameters(&self) -> Vec<f64> {
        vec![self.m, self.i]
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        let [_, _, th, v, w] = *as_array(state, "state")?;
        let d = as_array_mut(dstate, "dstate")?;
        *d = [v * Scalar::cos(th), v * Scalar::sin(th), w, 0.0, 0.0];
        finite(t, state, d)
    }
    fn rhs_jvp(&self, _t: f64, state: &[f64], dir: &[f64], out: &mut [f64]) -> Result<(), Error> {
        let [_, _, th, v, _] = *as_array(state, "state")?;
        let [_, _, dth, dv, dw] = *as_array(dir, "jvp direction")?;
        let (s, c) = (Scalar::sin(th), Scalar::cos(th));
        *as_array_mut(out, "jvp output")? =
            [dv * c - v * s * dth, dv * s + v * c * dth, dw, 0.0, 0.0];
        Ok(())
    }
    fn qdot(&self, _t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        let [_, _, th] = *as_array(q, "q")?;
        let [v, w] = *as_array(z, "z")?;
        *as_array_mut(qdot, "qdot")? = [v * Scalar::cos(th), v * Scalar::sin(th), w];
        Ok(())
    }
    fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 5], Error> {
        let [x, y, th] = *as_array(q, "q")?;
        let [xd, yd, thd] = *as_array(qdot, "qdot")?;
        check_velocities(self, t, q, qdot, 1e-8)?;
        Ok([x, y, th, xd * Scalar::cos(th) + yd * Scalar::sin(th), thd])
    }
    fn energy(&self, _t: f64, state: &[f64]) -> Result<f64, Error> {
        let [_, _, _, v, w] = *as_array(state, "state")?;
        Ok(0.5 * self.m * v * v + 0.5 * self.i * w * w)
    }
    fn constraint_residual(
        &self,
        _t: f64,
        q: &[f64],
        qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        let [_, _, th] = *as_array(q, "q")?;
        let [xd, yd, _] = *as_array(qdot, "qdot")?;
        *as_array_mut(residual, "constraint residual")? =
            [yd * Scalar::cos(th) - xd * Scalar::sin(th)];
        Ok(())
    }
}

/// `R = A ddot(q) + h - F = m (ddot(x), ddot(y), 0)` with `ddot(x) = -v omega sin(theta)`,
/// `ddot(y) = v omega cos(theta)` (the blade's centripetal push).
impl crate::Contacts for Skate {
    const CONTACTS: &'static [&'static str] = &[];

    fn reactions(&self, _t: f64, state: &[f64], u: &[f64], out: &mut [f64]) -> Result<(), Error> {
        let [_, _, th, v, w] = *as_array(state, "state")?;
        let _: &[f64; 0] = as_array(u, "inputs u")?;
        let k = self.m * v * w;
        *as_array_mut(out, "reactions")? = [-k * Scalar::sin(th), k * Scalar::cos(th), 0.0];
        Ok(())
    }
}
