#![deny(warnings)]
use nonholo::prelude::*;

nonholonomic! {
    /// Every section of the DSL at once, rheonomic.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Everything;
    parameters { m, inertia, g = 9.81, w = 0.5 }
    coordinates { x, y, theta }
    let c = cos(theta);
    let s = theta.sin();
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2)
        + m * t * dot(x);
    potential_energy = m * g * y.powf(1.0) + 0.1 * sqrt(1.0 + x * x) + exp(-t) * abs(y) + atan2(y, 1.0 + x * x);
    forces { theta: -0.1 * dot(theta) + tanh(t), x: sinh(0.1 * x) / cosh(w * t) }
    constraints { dot(x) * s - dot(y) * c == w * sin(t); }
    speeds { v = c * dot(x) + s * dot(y); omega = dot(theta); }
    formulation = gibbs_appell;
}

fn main() {}
