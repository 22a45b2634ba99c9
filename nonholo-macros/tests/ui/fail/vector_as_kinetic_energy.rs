use nonholo::prelude::*;

nonholonomic! {
    /// The kinetic energy is a scalar, not a vector.
    pub struct Particle3d;
    parameters { m = 1.0 }
    coordinates { x }
    frame N;
    kinetic_energy = N.x;
}

fn main() {}
