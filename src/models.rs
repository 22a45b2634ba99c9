//! The worked systems of the papers, as ready-made models.
//!
//! Each is written in the `nonholonomic!` DSL exactly as a user would write it; see the
//! source for the model text and [`Model::EQUATIONS`](crate::Model::EQUATIONS) for the
//! derived equations.

use crate::nonholonomic;

nonholonomic! {
    /// Benenti 2007, §9.1: the skate, a rod sliding on a plane with its velocity along the
    /// rod. The plane is inclined by `alpha` along x; `c` damps the rotation.
    ///
    /// Speeds: `v` along the blade and `w = dot(theta)` (Benenti's z¹, z²).
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Skate;
    parameters { m = 1.0, inertia = 0.1, g = 9.81, alpha = 0.0, c = 0.0 }
    coordinates { x, y, theta }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
    potential_energy = -m * g * sin(alpha) * x;
    forces { theta: -c * dot(theta) }
    constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
    speeds { v = cos(theta) * dot(x) + sin(theta) * dot(y); w = dot(theta); }
}

nonholonomic! {
    /// Benenti 2007, §9.2: a vertical disc of radius `r` rolling without sliding; `a_inertia`
    /// and `b_inertia` are its moments about the axle and a diameter (Benenti's A, B).
    /// The plane is inclined by `alpha` along x.
    ///
    /// Speeds: the spin `z1 = dot(theta)` and the heading rate `z2 = dot(psi)`.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct VerticalDisc;
    parameters { m = 1.0, a_inertia = 0.5, b_inertia = 0.25, r = 1.0, g = 9.81, alpha = 0.0 }
    coordinates { x, y, theta, psi }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2))
        + 0.5 * (a_inertia * dot(theta).powi(2) + b_inertia * dot(psi).powi(2));
    potential_energy = -m * g * sin(alpha) * x;
    constraints {
        dot(x) - r * cos(psi) * dot(theta) == 0.0;
        dot(y) - r * sin(psi) * dot(theta) == 0.0;
    }
    speeds { z1 = dot(theta); z2 = dot(psi); }
}

nonholonomic! {
    /// Benenti 2007, §9.3: two identical discs of radius `r` on a common axle at fixed
    /// distance `a`, both rolling without sliding. (x, y) is the first disc's centre.
    ///
    /// Speeds: the two spins `z1 = dot(theta1)`, `z2 = dot(theta2)`.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct CoaxialDiscs;
    parameters { m = 1.0, a_inertia = 0.5, b_inertia = 0.25, r = 1.0, a = 2.0 }
    coordinates { x, y, theta1, theta2, psi }
    kinetic_energy = m * (dot(x).powi(2) + dot(y).powi(2))
        + 0.5 * a_inertia * (dot(theta1).powi(2) + dot(theta2).powi(2))
        + (0.5 * m * a * a + b_inertia) * dot(psi).powi(2)
        + m * a * dot(psi) * (dot(x) * cos(psi) + dot(y) * sin(psi));
    constraints {
        dot(x) - r * cos(psi) * dot(theta1) == 0.0;
        dot(y) - r * sin(psi) * dot(theta1) == 0.0;
        r * dot(theta1) + a * dot(psi) - r * dot(theta2) == 0.0;
    }
    speeds { z1 = dot(theta1); z2 = dot(theta2); }
}

nonholonomic! {
    /// Benenti 2007, §9.4: two points whose velocities stay parallel,
    /// `dot(x1) dot(y2) - dot(x2) dot(y1) = 0` — a genuinely nonlinear constraint —
    /// on a plane inclined along x.
    ///
    /// Parametric form (Benenti's 9.15): `rho`, `sigma` the signed speeds, `theta` the
    /// common direction.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct ParallelPoints;
    parameters { m1 = 1.0, m2 = 2.0, g = 9.81 }
    coordinates { x1, y1, x2, y2 }
    kinetic_energy = 0.5 * m1 * (dot(x1).powi(2) + dot(y1).powi(2))
        + 0.5 * m2 * (dot(x2).powi(2) + dot(y2).powi(2));
    potential_energy = -g * (m1 * x1 + m2 * x2);
    constraints { dot(x1) * dot(y2) - dot(x2) * dot(y1) == 0.0; }
    velocities(rho, sigma, theta) {
        dot(x1) = rho * cos(theta);
        dot(y1) = rho * sin(theta);
        dot(x2) = sigma * cos(theta);
        dot(y2) = sigma * sin(theta);
    }
}
