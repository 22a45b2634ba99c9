//! The skate by Lagrange multipliers, [`SkateLagrange`].

use super::{finite, Skate};
use crate::private::{as_array, as_array_mut};
use crate::{check_velocities, Error, Formulation, Model, Scalar};
use alloc::vec;
use alloc::vec::Vec;

/// The [`Skate`] by Benenti's second method (Lagrange multipliers), state
/// `[x, y, theta, dot(x), dot(y), dot(theta)]`.
///
/// `m ddot(x) = -lambda sin(theta)`, `m ddot(y) = lambda cos(theta)`, `i ddot(theta) = 0`,
/// with `lambda = m dot(theta) (dot(x) cos(theta) + dot(y) sin(theta))` from the derivative
/// of the constraint `C = dot(y) cos(theta) - dot(x) sin(theta)`: so `dC/dt = 0` and `C`
/// keeps its initial value, which a state `[q, dot(q)]` can set to anything
/// ([`Formulation::Multipliers`]). The central-difference [`Model::rhs_jvp`] default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkateLagrange {
    /// Mass.
    pub m: f64,
    /// Moment of inertia about the contact point.
    pub i: f64,
}

impl Model for SkateLagrange {
    const COORDINATES: &'static [&'static str] = &["x", "y", "theta"];
    const SPEEDS: &'static [&'static str] = &["dot(x)", "dot(y)", "dot(theta)"];
    const PARAMETERS: &'static [&'static str] = &["m", "i"];
    const CONSTRAINTS: &'static [&'static str] = Skate::CONSTRAINTS;
    const NQ: usize = 3;
    const NZ: usize = 3;
    const NC: usize = 1;
    const DIM: usize = 6;
    const FORMULATION: Formulation = Formulation::Multipliers;
    const EQUATIONS: &'static str = "m ddot(x) = -lambda sin(theta)\n\
                                     m ddot(y) = lambda cos(theta)\ni ddot(theta) = 0";
    type State = [f64; 6];
    const ZERO_STATE: [f64; 6] = [0.0; 6];

    fn parameters(&self) -> Vec<f64> {
        vec![self.m, self.i]
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        let [_, _, th, xd, yd, thd] = *as_array(state, "state")?;
        let (s, c) = (Scalar::sin(th), Scalar::cos(th));
        // lambda / m
        let l = thd * (xd * c + yd * s);
        let d = as_array_mut(dstate, "dstate")?;
        *d = [xd, yd, thd, -l * s, l * c, 0.0];
        finite(t, state, d)
    }
    fn qdot(&self, _t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        as_array::<_, 3>(q, "q")?;
        *as_array_mut(qdot, "qdot")? = *as_array::<_, 3>(z, "z")?;
        Ok(())
    }
    fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 6], Error> {
        let [x, y, th] = *as_array(q, "q")?;
        let [xd, yd, thd] = *as_array(qdot, "qdot")?;
        check_velocities(self, t, q, qdot, 1e-8)?;
        Ok([x, y, th, xd, yd, thd])
    }
    fn energy(&self, _t: f64, state: &[f64]) -> Result<f64, Error> {
        let [_, _, _, xd, yd, thd] = *as_array(state, "state")?;
        Ok(0.5 * self.m * (xd * xd + yd * yd) + 0.5 * self.i * thd * thd)
    }
    fn constraint_residual(
        &self,
        t: f64,
        q: &[f64],
        qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        Skate {
            m: self.m,
            i: self.i,
        }
        .constraint_residual(t, q, qdot, residual)
    }
}
