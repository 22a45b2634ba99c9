use nonholo::prelude::*;

nonholonomic! {
    pub struct Particle;
    parameters { m }
    coordinates { x }
    kinetic_energy = 0.5 * m * dot(x).powi(2);
    speeds { v = dot(x); }
    velocities(u) { dot(x) = u; }
}

fn main() {}
