use nonholo::prelude::*;

nonholonomic! {
    pub struct Particle;
    parameters { m }
    coordinates { x, y }
    kinetic_energy = 0.5 * m * dot(x + y).powi(2);
}

fn main() {}
