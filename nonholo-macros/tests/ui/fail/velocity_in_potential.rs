use nonholo::prelude::*;

nonholonomic! {
    pub struct Particle;
    parameters { m, c }
    coordinates { x }
    kinetic_energy = 0.5 * m * dot(x).powi(2);
    potential_energy = c * x * dot(x);
}

fn main() {}
