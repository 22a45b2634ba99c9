//! The models of `speed_choices`: the same systems with other choices of speeds.

use nonholo::nonholonomic;

/// A skate held by a spring at the origin (not the library's physics), with the given
/// parametrization.
macro_rules! spring_skate {
    ($(#[$attr:meta])* $name:ident; $($parametrization:tt)*) => {
        nonholonomic! {
            $(#[$attr])*
            pub struct $name;
            parameters { m = 1.3, inertia = 0.2, k = 0.7 }
            coordinates { x, y, theta }
            kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
            potential_energy = 0.5 * k * (x * x + y * y) + 0.3 * sin(theta);
            constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
            $($parametrization)*
        }
    };
}

spring_skate! {
    /// Skate, speeds along the blade.
    SkateSpeeds;
    speeds { v = cos(theta) * dot(x) + sin(theta) * dot(y); w = dot(theta); }
}

spring_skate! {
    /// Skate, Benenti's parametric form with a scaled, mixed parameter.
    SkateVelocities;
    velocities(a, b) { dot(x) = 2.0 * a * cos(theta); dot(y) = 2.0 * a * sin(theta); dot(theta) = b - a; }
}

spring_skate! {
    /// Skate, independent velocities: dot(y) solved from the constraint.
    SkateIndependentX;
    dependent { y }
}

spring_skate! {
    /// Skate, independent velocities: dot(x) solved from the constraint.
    SkateIndependentY;
    dependent { x }
}

nonholo::rolling_disk_pendulum_model! {
    /// Talamucci 3.3 with the plain velocities as speeds instead of the momenta.
    pub struct RollingDiskPlainSpeeds;
    speeds { w_phi = dot(phi); w_spin = dot(phi1); w_lean = dot(theta); w_rider = dot(theta1); }
}

nonholo::parallel_points_model! {
    /// Benenti 9.4 with independent velocities: dot(y2) solved from the nonlinear constraint.
    pub struct ParallelPointsIndependent;
    dependent { y2 }
}
