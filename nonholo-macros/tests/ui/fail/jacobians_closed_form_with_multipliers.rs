use nonholo::prelude::*;

nonholonomic! {
    pub struct Skate;
    parameters { m, inertia }
    coordinates { x, y, theta }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
    constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
    formulation = multipliers;
    jacobians = closed_form;
}

fn main() {}
