use nonholo::prelude::*;

nonholonomic! {
    pub struct Particle;
    parameters { m, g = m * 2.0 }
    coordinates { x }
    kinetic_energy = 0.5 * m * dot(x).powi(2);
}

fn main() {}
