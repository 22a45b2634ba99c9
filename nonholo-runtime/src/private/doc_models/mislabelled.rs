//! The oscillator with inconsistent constants, [`Mislabelled`].

use super::Oscillator;
use crate::{Error, Formulation, Model};
use alloc::vec::Vec;

/// An [`Oscillator`] whose constants disagree: one speed but no speed name (`SPEEDS` is
/// empty), what [`validate_layout`](crate::model::validate_layout) catches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mislabelled(pub Oscillator);

impl Model for Mislabelled {
    const COORDINATES: &'static [&'static str] = &["x"];
    const SPEEDS: &'static [&'static str] = &[];
    const PARAMETERS: &'static [&'static str] = Oscillator::PARAMETERS;
    const CONSTRAINTS: &'static [&'static str] = &[];
    const NQ: usize = 1;
    const NZ: usize = 1;
    const NC: usize = 0;
    const DIM: usize = 2;
    const FORMULATION: Formulation = Formulation::GibbsAppell;
    const EQUATIONS: &'static str = Oscillator::EQUATIONS;
    type State = [f64; 2];
    const ZERO_STATE: [f64; 2] = [0.0; 2];

    fn parameters(&self) -> Vec<f64> {
        self.0.parameters()
    }
    fn rhs(&self, t: f64, state: &[f64], dstate: &mut [f64]) -> Result<(), Error> {
        self.0.rhs(t, state, dstate)
    }
    fn qdot(&self, t: f64, q: &[f64], z: &[f64], qdot: &mut [f64]) -> Result<(), Error> {
        self.0.qdot(t, q, z, qdot)
    }
    fn state_from_qdot(&self, t: f64, q: &[f64], qdot: &[f64]) -> Result<[f64; 2], Error> {
        self.0.state_from_qdot(t, q, qdot)
    }
    fn energy(&self, t: f64, state: &[f64]) -> Result<f64, Error> {
        self.0.energy(t, state)
    }
    fn constraint_residual(
        &self,
        t: f64,
        q: &[f64],
        qdot: &[f64],
        residual: &mut [f64],
    ) -> Result<(), Error> {
        self.0.constraint_residual(t, q, qdot, residual)
    }
}
