use nonholo::prelude::*;

nonholonomic! {
    /// A prescribed heading rate belongs to `t`, not to an input.
    pub struct Skate;
    parameters { m, inertia }
    inputs { rate }
    coordinates { x, y, theta }
    let w = 2.0 * rate;
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
    constraints {
        dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0;
        dot(theta) == w;
    }
}

fn main() {}
