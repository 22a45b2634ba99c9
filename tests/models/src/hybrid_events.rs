//! Models of `tests/suite/hybrid_events.rs` (the rimless wheel is the library's).

use nonholo::nonholonomic;

nonholonomic! {
    /// A mass falling along `z` (a ball above a floor at `z = 0`).
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct FallingMass;
    parameters { m = 1.0, g = 9.81 }
    coordinates { z }
    kinetic_energy = 0.5 * m * dot(z).powi(2);
    potential_energy = m * g * z;
}
