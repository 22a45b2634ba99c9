use nonholo::prelude::*;

nonholonomic! {
    pub struct Particle;
    parameters { m }
    coordinates { x }
    let a = b * 2.0;
    let b = m;
    kinetic_energy = 0.5 * a * dot(x).powi(2);
}

fn main() {}
