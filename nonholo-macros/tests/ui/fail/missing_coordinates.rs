use nonholo::prelude::*;

nonholonomic! {
    pub struct Particle;
    parameters { m }
    kinetic_energy = 0.5 * m;
}

fn main() {}
