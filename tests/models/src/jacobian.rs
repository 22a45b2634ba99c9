//! The models of `jacobian`: skates through the multipliers and with Jacobians by dual
//! numbers.

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

nonholonomic! {
    /// The steered skate of `optimal` with its Jacobians by dual numbers (and so its
    /// `JACOBIAN_PATTERN` by dependence).
    pub struct SteeredSkateDual;
    parameters { m = 1.0, j = 0.1 }
    inputs { push, turn }
    coordinates { x, y, theta }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * j * dot(theta).powi(2);
    forces { x: push * cos(theta), y: push * sin(theta), theta: turn }
    constraints { dot(y) * cos(theta) - dot(x) * sin(theta) == 0.0; }
    speeds { v = cos(theta) * dot(x) + sin(theta) * dot(y); w = dot(theta); }
    jacobians = dual;
}

nonholonomic! {
    /// A skate pushed along its blade, through the multipliers.
    pub struct PushedSkateMultipliers;
    parameters { m = 1.3, inertia = 0.2 }
    inputs { push }
    coordinates { x, y, theta }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
    forces { x: push * cos(theta), y: push * sin(theta) }
    constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
    formulation = multipliers;
}
