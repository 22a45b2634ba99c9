//! The models of `linearize`: the pendulums and the Chaplygin sleigh.

use nonholo::nonholonomic;

nonholonomic! {
    /// A point mass on a massless rod, a torque `tau` at the pivot.
    pub struct Pendulum;
    parameters { m = 2.0, l = 1.5, g = 9.81, tau = 0.0 }
    coordinates { theta }
    kinetic_energy = 0.5 * m * l * l * dot(theta).powi(2);
    potential_energy = -m * g * l * cos(theta);
    forces { theta: tau }
}

nonholo::nonholonomic! {
    /// A pendulum in Cartesian coordinates under gravity `g` tilted by `alpha` from -y:
    /// the force is `m g (sin alpha, -cos alpha)`, so it hangs at `l (sin alpha, -cos alpha)`.
    pub struct TiltedPendulum;
    parameters { m = 1.3, l = 1.5, g = 9.81, alpha = 0.3 }
    coordinates { x, y }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2));
    potential_energy = -m * g * sin(alpha) * x + m * g * cos(alpha) * y;
    holonomic(y) { x * x + y * y == l * l; }
    dependent { y }
}

nonholonomic! {
    /// Chaplygin's sleigh: blade at the contact point (x, y), heading th, the mass centre
    /// a distance `a` ahead of the blade, `i_c` the moment of inertia about it.
    pub struct Sleigh;
    parameters { m = 2.0, a = 0.4, i_c = 0.3 }
    coordinates { x, y, th }
    kinetic_energy = 0.5 * m * ((dot(x) - a * sin(th) * dot(th)).powi(2)
        + (dot(y) + a * cos(th) * dot(th)).powi(2)) + 0.5 * i_c * dot(th).powi(2);
    constraints { -sin(th) * dot(x) + cos(th) * dot(y) == 0.0; }
    speeds { v = cos(th) * dot(x) + sin(th) * dot(y); w = dot(th); }
}
