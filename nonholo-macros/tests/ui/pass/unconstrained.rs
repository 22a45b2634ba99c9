#![deny(warnings)]
use nonholo::prelude::*;

nonholonomic! {
    pub struct Pendulum;
    parameters { m = 1.0, l = 1.0, g = 9.81 }
    coordinates { phi }
    kinetic_energy = 0.5 * m * l.powi(2) * dot(phi).powi(2);
    potential_energy = -m * g * l * cos(phi);
}

fn main() {}
