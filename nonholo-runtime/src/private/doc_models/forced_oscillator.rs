//! The mass on a spring driven by a runtime input, [`ForcedOscillator`].

use super::{finite, Oscillator};
use crate::private::{as_array, as_array_mut};
use crate::{Error, Formulation, Model};
use alloc::vec;
use alloc::vec::Vec;

/// A mass on a spring driven by a runtime input force, `m x'' + k x = f`, state `[x, v]`,
/// `INPUTS = ["f"]`: what a generated model with `inputs { f }` looks like to the runtime.
///
/// Energy `1/2 m v^2 + 1/2 k x^2`; its rate is the input's power `f v`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ForcedOscillator {
    /// Mass.
    pub m: f64,
    /// Spring constant.
    pub k: f64,
}

impl Model for ForcedOscillator {
    const COORDINATES: &'static [&'static str] = &["x"];
    const SPEEDS: &'static [&'static str] = &["v"];
    const PARAMETERS: &'static [&'static str] = &["m", "k"];
    const CONSTRAINTS: &'static [&'static str] = &[];
    const INPUTS: &'static [&'static str] = &["f"];
    const NU: usize = 1;
    const NQ: usize = 1;
    const NZ: usize = 1;
    const NC: usize = 0;
    const DIM: usize = 2;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = "dot(x) = v\nm dot(v) = -k x + f";
    type State = [f64; 2];
    const ZERO_STATE: [f64; 2] = [0.0; 2];

    fn parameters(&self) -> Vec<f64> {
        vec![self.m, self.k]
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        self.rhs_u(t, state, &[0.0], dstate)
    }
    fn rhs_u(&self, t: f64, state: &[f64], u: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        let [x, v] = *as_array(state, "state")?;
        let [f] = *as_array(u, "inputs u")?;
        let d = as_array_mut(dstate, "dstate")?;
        *d = [v, (f - self.k * x) / self.m];
        finite(t, state, d)
    }
    fn rhs_jvp(&self, t: f64, state: &[f64], dir: &[f64], out: &mut [f64]) -> Result<(), Error> {
        self.unforced().rhs_jvp(t, state, dir, out)
    }
    // linear in the state, whatever the force: the same at every u
    fn rhs_u_jvp(
        &self,
        t: f64,
        state: &[f64],
        u: &[f64],
        dir: &[f64],
        out: &mut [f64],
    ) -> Result<(), Error> {
        as_array::<_, 1>(u, "inputs u")?;
        self.rhs_jvp(t, state, dir, out)
    }
    // the rest is the unforced oscillator's
    fn qdot(&self, t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        self.unforced().qdot(t, q, z, qdot)
    }
    fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 2], Error> {
        self.unforced().state_from_qdot(t, q, qdot)
    }
    fn energy(&self, t: f64, state: &[f64]) -> Result<f64, Error> {
        self.unforced().energy(t, state)
    }
    fn constraint_residual(
        &self,
        t: f64,
        q: &[f64],
        qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        self.unforced().constraint_residual(t, q, qdot, residual)
    }
}

impl ForcedOscillator {
    /// The same mass and spring without damping or force.
    fn unforced(&self) -> Oscillator {
        Oscillator {
            m: self.m,
            k: self.k,
            c: 0.0,
            u: 0.0,
        }
    }
}
