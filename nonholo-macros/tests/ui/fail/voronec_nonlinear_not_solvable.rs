use nonholo::prelude::*;

nonholonomic! {
    pub struct Particle;
    parameters { m }
    coordinates { x, y }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2));
    constraints { dot(x).powi(2) + dot(y).powi(2) == 1.0; }
    formulation = voronec;
}

fn main() {}
