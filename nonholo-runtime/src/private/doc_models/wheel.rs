//! The disk rolling on a line, tethered by a spring, [`Wheel`].

use super::finite;
use crate::private::{as_array, as_array_mut};
use crate::{check_velocities, Error, Formulation, Model};
use alloc::vec;
use alloc::vec::Vec;

/// A uniform disk (mass `m`, radius `r`) rolling without slipping on a line, its centre
/// held by a spring `k`: coordinates `[x, phi]`, one speed `w = dot(phi)`, state
/// `[x, phi, w]`.
///
/// Rolling, `dot(x) = r dot(phi)`, is integrable: the configuration constraint
/// `x - r phi = 0` ([`Model::CONFIGURATION_CONSTRAINTS`], `x` its dependent coordinate).
/// With `T = 1/2 m dot(x)^2 + 1/4 m r^2 dot(phi)^2 = 3/4 m r^2 w^2` the equation is
/// `3/2 m r^2 dot(w) = -k r x`: on the constraint `phi'' = -(2k / 3m) phi`, an oscillation
/// at `sqrt(2k / 3m)`, slower by `sqrt(2/3)` than the same mass sliding. Energy
/// `3/4 m r^2 w^2 + 1/2 k x^2`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wheel {
    /// Mass.
    pub m: f64,
    /// Radius.
    pub r: f64,
    /// Spring constant.
    pub k: f64,
}

impl Model for Wheel {
    const COORDINATES: &'static [&'static str] = &["x", "phi"];
    const SPEEDS: &'static [&'static str] = &["w"];
    const PARAMETERS: &'static [&'static str] = &["m", "r", "k"];
    const CONSTRAINTS: &'static [&'static str] = &["dot(x) == r dot(phi)"];
    const CONFIGURATION_CONSTRAINTS: &'static [&'static str] = &["x == r phi"];
    const CONFIGURATION_COORDINATES: &'static [&'static str] = &["x"];
    const NQ: usize = 2;
    const NZ: usize = 1;
    const NC: usize = 1;
    const DIM: usize = 3;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = "dot(x) = r w\ndot(phi) = w\n3/2 m r^2 dot(w) = -k r x";
    type State = [f64; 3];
    const ZERO_STATE: [f64; 3] = [0.0; 3];

    fn parameters(&self) -> Vec<f64> {
        vec![self.m, self.r, self.k]
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        let [x, _, w] = *as_array(state, "state")?;
        let d = as_array_mut(dstate, "dstate")?;
        *d = [self.r * w, w, -2.0 * self.k * x / (3.0 * self.m * self.r)];
        finite(t, state, d)
    }
    fn rhs_jvp(&self, _t: f64, state: &[f64], dir: &[f64], out: &mut [f64]) -> Result<(), Error> {
        as_array::<_, 3>(state, "state")?;
        let [dx, _, dw] = *as_array(dir, "jvp direction")?;
        let a = -2.0 * self.k / (3.0 * self.m * self.r);
        *as_array_mut(out, "jvp output")? = [self.r * dw, dw, a * dx];
        Ok(())
    }
    fn qdot(&self, _t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        as_array::<_, 2>(q, "q")?;
        let [w] = *as_array(z, "z")?;
        *as_array_mut(qdot, "qdot")? = [self.r * w, w];
        Ok(())
    }
    fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 3], Error> {
        let [x, phi] = *as_array(q, "q")?;
        let [_, phid] = *as_array(qdot, "qdot")?;
        check_velocities(self, t, q, qdot, 1e-8)?;
        Ok([x, phi, phid])
    }
    fn energy(&self, _t: f64, state: &[f64]) -> Result<f64, Error> {
        let [x, _, w] = *as_array(state, "state")?;
        Ok(0.75 * self.m * self.r * self.r * w * w + 0.5 * self.k * x * x)
    }
    fn constraint_residual(
        &self,
        _t: f64,
        q: &[f64],
        qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        as_array::<_, 2>(q, "q")?;
        let [xd, phid] = *as_array(qdot, "qdot")?;
        *as_array_mut(residual, "constraint residual")? = [xd - self.r * phid];
        Ok(())
    }
    fn configuration_residual(
        &self,
        _t: f64,
        q: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        let [x, phi] = *as_array(q, "q")?;
        *as_array_mut(residual, "configuration residual")? = [x - self.r * phi];
        Ok(())
    }
    fn configuration_jacobian(
        &self,
        _t: f64,
        q: &[f64],
        jacobian: &mut [f64],
    ) -> Result<(), Error> {
        as_array::<_, 2>(q, "q")?;
        *as_array_mut(jacobian, "configuration jacobian")? = [1.0, -self.r];
        Ok(())
    }
    fn solve_configuration(&self, _t: f64, q: &mut [f64]) -> Result<(), Error> {
        let q = as_array_mut::<_, 2>(q, "q")?;
        q[0] = self.r * q[1];
        Ok(())
    }
}
