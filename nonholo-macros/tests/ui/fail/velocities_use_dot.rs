use nonholo::prelude::*;

nonholonomic! {
    pub struct Particle;
    parameters { m }
    coordinates { x, y }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2));
    velocities(u, v) { dot(x) = u; dot(y) = dot(x) + v; }
}

fn main() {}
