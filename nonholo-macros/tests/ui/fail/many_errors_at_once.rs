use nonholo::prelude::*;

nonholonomic! {
    pub struct Skate;
    parameters { m, inertia }
    coordinates { x, y, theta }
    kinetic_energy = 0.5 * mass * (dot(x)^2 + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
    potential_energy = m * dot(y);
    forces { phi: 1.0 }
    constraints { dot(x) * sine(theta) - dot(y) * cos(theta) == 0.0; }
}

fn main() {}
