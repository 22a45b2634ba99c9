use nonholo::prelude::*;

nonholonomic! {
    /// Points are placed in frames; this model declares none.
    pub struct Particle3d;
    parameters { m = 1.0 }
    coordinates { x }
    point O;
    particle p { point: O, mass: m }
    kinetic_energy = 0.5 * m * dot(x).powi(2);
}

fn main() {}
