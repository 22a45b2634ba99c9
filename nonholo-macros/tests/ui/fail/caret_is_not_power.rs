use nonholo::prelude::*;

nonholonomic! {
    pub struct Particle;
    parameters { m }
    coordinates { x }
    kinetic_energy = 0.5 * m * dot(x)^2;
}

fn main() {}
