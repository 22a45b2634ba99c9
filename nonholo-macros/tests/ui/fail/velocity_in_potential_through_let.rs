use nonholo::prelude::*;

nonholonomic! {
    pub struct Particle;
    parameters { m, c }
    coordinates { x }
    let v = dot(x);
    kinetic_energy = 0.5 * m * v.powi(2);
    potential_energy = c * v;
}

fn main() {}
