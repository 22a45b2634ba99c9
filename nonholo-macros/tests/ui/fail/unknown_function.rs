use nonholo::prelude::*;

nonholonomic! {
    pub struct Pendulum;
    parameters { m, l, g }
    coordinates { phi }
    kinetic_energy = 0.5 * m * l * l * dot(phi).powi(2);
    potential_energy = -m * g * l * cosine(phi);
}

fn main() {}
