use nonholo::prelude::*;

nonholonomic! {
    pub struct Particle;
    parameters { m }
    coordinates { x }
    kinetic_energy = 0.5 * m * u.powi(2);
    velocities(u) { dot(x) = u; }
}

fn main() {}
