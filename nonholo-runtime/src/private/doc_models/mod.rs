//! Small hand-written [`Model`](crate::Model)s with exact solutions, for the crate's
//! doctests (the runtime cannot use `nonholonomic!` in its own docs). Not a stable API.
//!
//! - [`Oscillator`]: `m x'' + c x' + k x = u`, no constraints.
//! - [`ForcedOscillator`]: `m x'' + k x = f` with the force `f` a runtime input.
//! - [`Skate`]: a skate on ice (a knife edge at its centre of mass), one nonholonomic
//!   constraint; it runs on a circle. [`SkateLagrange`]: the same by Lagrange
//!   multipliers, state `[q, dot(q)]`, which can violate the constraint.
//! - [`Wheel`]: a disk rolling on a line, tethered by a spring at its centre; the rolling
//!   constraint is integrable (a configuration constraint `x = r phi`).
//! - [`Kepler`]: a planet around a fixed sun, `r'' = -mu r / |r|^3`: nonlinear, with the
//!   exact elliptic orbit (Kepler's equation) to compare against.
//! - [`Unicycle`]: a rider on a wheel rolling in a circle, with [`Geometry`](crate::Geometry)
//!   and a scene, what the animations are shown on.
//! - [`Mislabelled`]: an [`Oscillator`] whose constants do not match (one speed, no
//!   speed name).
//!
//! One model per file; the shared `finite` check is here.

use super::to_vec;
use crate::Error;

mod forced_oscillator;
mod kepler;
mod mislabelled;
mod oscillator;
mod skate;
mod skate_lagrange;
mod unicycle;
mod wheel;

pub use forced_oscillator::ForcedOscillator;
pub use kepler::Kepler;
pub use mislabelled::Mislabelled;
pub use oscillator::Oscillator;
pub use skate::Skate;
pub use skate_lagrange::SkateLagrange;
pub use unicycle::Unicycle;
pub use wheel::Wheel;

/// `Err(NonFinite)` unless every derivative is finite.
fn finite(t: f64, state: &[f64], d: &[f64]) -> Result<(), Error> {
    if super::all_finite(d) {
        Ok(())
    } else {
        Err(Error::NonFinite {
            what: "dstate",
            t,
            state: to_vec(state),
        })
    }
}
