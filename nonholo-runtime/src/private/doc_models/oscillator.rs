//! The damped, driven mass on a spring, [`Oscillator`].

use super::finite;
use crate::private::{as_array, as_array_mut};
use crate::{Error, Formulation, Model};
use alloc::vec;
use alloc::vec::Vec;

/// A damped, driven mass on a spring, `m x'' + c x' + k x = u`, state `[x, v]`.
///
/// Energy `1/2 m v^2 + 1/2 k x^2`. With `c = u = 0` the motion is
/// `x(t) = x0 cos(w t) + v0 / w sin(w t)`, `w = sqrt(k / m)`. [`Model::rhs_param_jvp`]
/// along every parameter, as in generated models.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Oscillator {
    /// Mass.
    pub m: f64,
    /// Spring constant.
    pub k: f64,
    /// Damping.
    pub c: f64,
    /// Applied force.
    pub u: f64,
}

impl Oscillator {
    /// Unit mass, `k = w^2`, no damping and no force: `x'' = -w^2 x`.
    pub const fn new(w: f64) -> Self {
        Self {
            m: 1.0,
            k: w * w,
            c: 0.0,
            u: 0.0,
        }
    }
}

impl Model for Oscillator {
    const COORDINATES: &'static [&'static str] = &["x"];
    const SPEEDS: &'static [&'static str] = &["v"];
    const PARAMETERS: &'static [&'static str] = &["m", "k", "c", "u"];
    const CONSTRAINTS: &'static [&'static str] = &[];
    const NQ: usize = 1;
    const NZ: usize = 1;
    const NC: usize = 0;
    const DIM: usize = 2;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = "dot(x) = v\nm dot(v) = -k x - c v + u";
    type State = [f64; 2];
    const ZERO_STATE: [f64; 2] = [0.0; 2];

    fn parameters(&self) -> Vec<f64> {
        vec![self.m, self.k, self.c, self.u]
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        let [x, v] = *as_array(state, "state")?;
        let d = as_array_mut(dstate, "dstate")?;
        *d = [v, (self.u - self.k * x - self.c * v) / self.m];
        finite(t, state, d)
    }
    fn rhs_jvp(&self, _t: f64, state: &[f64], dir: &[f64], out: &mut [f64]) -> Result<(), Error> {
        as_array::<_, 2>(state, "state")?;
        let [dx, dv] = *as_array(dir, "jvp direction")?;
        *as_array_mut(out, "jvp output")? = [dv, -(self.k * dx + self.c * dv) / self.m];
        Ok(())
    }
    fn rhs_param_jvp(
        &self,
        _t: f64,
        state: &[f64],
        dp: &[f64],
        out: &mut [f64],
    ) -> Result<(), Error> {
        let [x, v] = *as_array(state, "state")?;
        let [dm, dk, dc, du] = *as_array(dp, "parameter direction")?;
        // v' = (u - k x - c v) / m
        let a = (self.u - self.k * x - self.c * v) / self.m;
        *as_array_mut(out, "jvp output")? = [0.0, (du - x * dk - v * dc - a * dm) / self.m];
        Ok(())
    }
    fn qdot(&self, _t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        as_array::<_, 1>(q, "q")?;
        *as_array_mut(qdot, "qdot")? = *as_array::<_, 1>(z, "z")?;
        Ok(())
    }
    fn state_from_qdot(&self, _t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 2], Error> {
        let [x] = *as_array(q, "q")?;
        let [v] = *as_array(qdot, "qdot")?;
        Ok([x, v])
    }
    fn energy(&self, _t: f64, state: &[f64]) -> Result<f64, Error> {
        let [x, v] = *as_array(state, "state")?;
        Ok(0.5 * self.m * v * v + 0.5 * self.k * x * x)
    }
    fn constraint_residual(
        &self,
        _t: f64,
        _q: &[f64],
        _qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        as_array_mut::<_, 0>(residual, "constraint residual")?;
        Ok(())
    }
}
