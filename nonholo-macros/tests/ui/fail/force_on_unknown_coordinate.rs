use nonholo::prelude::*;

nonholonomic! {
    pub struct Skate;
    parameters { m, inertia }
    coordinates { x, y, theta }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
    forces { thetta: -0.1 * dot(theta) }
}

fn main() {}
