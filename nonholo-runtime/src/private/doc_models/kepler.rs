//! The planet around a fixed sun, [`Kepler`].

use super::finite;
use crate::private::{as_array, as_array_mut};
use crate::{Error, Formulation, Model, Scalar};
use alloc::vec;
use alloc::vec::Vec;

/// A planet around a fixed sun at the origin, `r'' = -mu r / |r|^3`, state `[x, y, vx, vy]`,
/// energy `1/2 |v|^2 - mu / |r|`: the classic nonlinear test of explicit integrators
/// (Hairer, Nørsett & Wanner I, §II.10), whose orbits with large eccentricity need steps
/// of very different sizes.
///
/// [`Kepler::orbit`] is the exact motion on the ellipse of semi-major axis 1 and
/// eccentricity `e` that starts at its pericentre: period `2 pi / sqrt(mu)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kepler {
    /// Gravitational parameter of the sun.
    pub mu: f64,
}

impl Kepler {
    /// The state at time `t` on the orbit of semi-major axis 1 and eccentricity
    /// `0 <= e < 1` that is at its pericentre `(1 - e, 0)` at `t = 0`, moving towards `+y`.
    pub fn orbit(&self, e: f64, t: f64) -> [f64; 4] {
        let n = Scalar::sqrt(self.mu);
        // Kepler's equation E - e sin E = n t by Newton's method from E = n t (+ e).
        let m = n * t;
        let mut ea = if e > 0.8 { m + e } else { m };
        for _ in 0..50 {
            let step = (ea - e * Scalar::sin(ea) - m) / (1.0 - e * Scalar::cos(ea));
            ea -= step;
            if step.abs() <= 1e-16 * ea.abs().max(1.0) {
                break;
            }
        }
        let (s, c) = (Scalar::sin(ea), Scalar::cos(ea));
        let b = Scalar::sqrt(1.0 - e * e);
        let ea_dot = n / (1.0 - e * c);
        [c - e, b * s, -s * ea_dot, b * c * ea_dot]
    }
}

impl Model for Kepler {
    const COORDINATES: &'static [&'static str] = &["x", "y"];
    const SPEEDS: &'static [&'static str] = &["vx", "vy"];
    const PARAMETERS: &'static [&'static str] = &["mu"];
    const CONSTRAINTS: &'static [&'static str] = &[];
    const NQ: usize = 2;
    const NZ: usize = 2;
    const NC: usize = 0;
    const DIM: usize = 4;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = "dot(x) = vx\ndot(y) = vy\n\
                                     dot(vx) = -mu x / r^3\ndot(vy) = -mu y / r^3";
    type State = [f64; 4];
    const ZERO_STATE: [f64; 4] = [0.0; 4];

    fn parameters(&self) -> Vec<f64> {
        vec![self.mu]
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        let [x, y, vx, vy] = *as_array(state, "state")?;
        let r2 = x * x + y * y;
        let k = -self.mu / (r2 * Scalar::sqrt(r2));
        let d = as_array_mut(dstate, "dstate")?;
        *d = [vx, vy, k * x, k * y];
        finite(t, state, d)
    }
    fn qdot(&self, _t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        as_array::<_, 2>(q, "q")?;
        *as_array_mut(qdot, "qdot")? = *as_array::<_, 2>(z, "z")?;
        Ok(())
    }
    fn state_from_qdot(&self, _t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 4], Error> {
        let [x, y] = *as_array(q, "q")?;
        let [vx, vy] = *as_array(qdot, "qdot")?;
        Ok([x, y, vx, vy])
    }
    fn energy(&self, _t: f64, state: &[f64]) -> Result<f64, Error> {
        let [x, y, vx, vy] = *as_array(state, "state")?;
        Ok(0.5 * (vx * vx + vy * vy) - self.mu / Scalar::sqrt(x * x + y * y))
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
