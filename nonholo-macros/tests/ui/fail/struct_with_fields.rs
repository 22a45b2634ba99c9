use nonholo::prelude::*;

nonholonomic! {
    pub struct Particle { m: f64 }
    coordinates { x }
    kinetic_energy = 0.5 * dot(x).powi(2);
}

fn main() {}
