use nonholo::prelude::*;

nonholonomic! {
    pub struct Skate;
    parameters { mass, inertia }
    coordinates { x, y, theta }
    kinetic_energy = 0.5 * mas * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
}

fn main() {}
