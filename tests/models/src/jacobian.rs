//! The model of `jacobian`: a skate through the multipliers.

use nonholo::nonholonomic;

nonholonomic! {
    pub struct SkateMultipliers;
    parameters { m = 1.3, inertia = 0.2, k = 0.7 }
    coordinates { x, y, theta }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
    potential_energy = 0.5 * k * (x * x + y * y) + 0.3 * sin(theta);
    forces { theta: -0.2 * dot(theta) * abs(dot(x)) }
    constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
    formulation = multipliers;
}
