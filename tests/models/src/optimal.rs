//! The models of `optimal`: a driven mass and a driven oscillator (the closed-form optimal
//! controls) and a skate steered by a push and a torque (a nonholonomic plan).

use nonholo::nonholonomic;

nonholonomic! {
    /// A mass on a line driven by a force: `m x'' = f`.
    pub struct DrivenMass;
    parameters { m = 1.0 }
    inputs { f }
    coordinates { x }
    kinetic_energy = 0.5 * m * dot(x).powi(2);
    forces { x: f }
}

nonholonomic! {
    /// A driven harmonic oscillator: `m x'' = -k x + f`.
    pub struct DrivenOscillator;
    parameters { m = 1.0, k = 4.0 }
    inputs { f }
    coordinates { x }
    kinetic_energy = 0.5 * m * dot(x).powi(2);
    potential_energy = 0.5 * k * x * x;
    forces { x: f }
}

nonholonomic! {
    /// A skate (a knife edge on ice) pushed along its blade and turned by a torque: it
    /// cannot move sideways, so reaching a point beside it takes manoeuvres.
    pub struct SteeredSkate;
    parameters { m = 1.0, j = 0.1 }
    inputs { push, turn }
    coordinates { x, y, theta }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * j * dot(theta).powi(2);
    forces { x: push * cos(theta), y: push * sin(theta), theta: turn }
    constraints { dot(y) * cos(theta) - dot(x) * sin(theta) == 0.0; }
    speeds { v = cos(theta) * dot(x) + sin(theta) * dot(y); w = dot(theta); }
}

nonholonomic! {
    /// A pendulum in Cartesian coordinates (its length a configuration constraint, `y`
    /// solved for) pushed along its path by a tangential force `f`.
    pub struct PushedCartesianPendulum;
    parameters { m = 1.0, l = 1.5, g = 9.81 }
    inputs { f }
    coordinates { x, y }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2));
    potential_energy = m * g * y;
    forces { x: -f * y / l, y: f * x / l }
    holonomic(y) { x * x + y * y == l * l; }
    dependent { y }
}
