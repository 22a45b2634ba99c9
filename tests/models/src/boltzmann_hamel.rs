//! The models of `boltzmann_hamel`: the worked systems through Boltzmann–Hamel with the
//! library models' speeds, and two rheonomic systems once per formulation.

use nonholo::nonholonomic;

nonholo::skate_model! {
    /// Benenti 9.1, Boltzmann–Hamel.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct SkateBh;
    speeds { v = cos(theta) * dot(x) + sin(theta) * dot(y); w = dot(theta); }
    formulation = boltzmann_hamel;
}

nonholo::vertical_disk_model! {
    /// Benenti 9.2, Boltzmann–Hamel.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct VerticalDiskBh;
    speeds { z1 = dot(theta); z2 = dot(psi); }
    formulation = boltzmann_hamel;
}

nonholo::coaxial_disks_model! {
    /// Benenti 9.3, Boltzmann–Hamel.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct CoaxialDisksBh;
    speeds { z1 = dot(theta1); z2 = dot(theta2); }
    formulation = boltzmann_hamel;
}

nonholo::pendulum_skate_model! {
    /// Talamucci 3.1, Boltzmann–Hamel.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct PendulumSkateBh;
    speeds {
        eta1 = (cos(phi) * dot(x_c) + sin(phi) * dot(y_c)) / rho;
        eta2 = (-sin(phi) * dot(x_c) + cos(phi) * dot(y_c)) / rho;
        eta3 = dot(theta);
        eta4 = dot(theta1);
    }
    formulation = boltzmann_hamel;
}

nonholo::assigned_front_model! {
    /// Talamucci 3.2, Boltzmann–Hamel.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct AssignedFrontBh;
    speeds { eta1 = dot(theta); eta2 = dot(theta1); }
    formulation = boltzmann_hamel;
}

nonholo::rolling_disk_pendulum_model! {
    /// Talamucci 3.3, Boltzmann–Hamel.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct RollingDiskPendulumBh;
    speeds {
        eta1 = f2h * dot(phi) - i_d * sin(theta) * dot(phi1) - f1h * v_par;
        eta2 = i_d * dot(phi1) - i_d * sin(theta) * dot(phi);
        eta3 = dot(theta);
        eta4 = dot(theta1);
    }
    formulation = boltzmann_hamel;
}

nonholo::assigned_spin_model! {
    /// Talamucci 3.4, Boltzmann–Hamel.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct AssignedSpinBh;
    speeds {
        eta1 = f2h * dot(phi) - f1h * v_par - i_d * phi1d * sin(theta);
        eta2 = dot(theta);
        eta3 = dot(theta1);
    }
    formulation = boltzmann_hamel;
}

// A rheonomic model with every ingredient of (20) nonzero: Z(q,t), psi(q,t), alpha(q,t),
// beta(q,t), b(q,t), c(q,t), V(q,t) and velocity-dependent forces; once per formulation.
macro_rules! everything {
    ($name:ident, $formulation:ident) => {
        nonholonomic! {
            /// Every term of Talamucci's (20) at once.
            #[derive(Debug, Clone, Copy, PartialEq)]
            pub struct $name;
            parameters { m = 1.3, inertia = 0.4, k = 0.7, cd = 0.2 }
            coordinates { x, y, th, u }
            kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(th).powi(2)
                + 0.5 * (1.0 + 0.3 * sin(x).powi(2)) * dot(u).powi(2) + 0.2 * cos(th) * dot(x) * dot(u)
                + m * t * sin(u) * dot(x) + 0.3 * y * dot(th) + 0.5 * t * cos(x) * y;
            potential_energy = k * (x * x + y * y) + t * sin(th) * u;
            forces { th: -cd * dot(th), u: 0.1 * sin(t) * dot(x) }
            constraints { dot(x) * sin(th) - dot(y) * cos(th) + 0.2 * t * cos(x) * dot(u) == 0.1 * sin(t) * y; }
            speeds {
                v = cos(th) * dot(x) + sin(th) * dot(y) + 0.3 * t * sin(u);
                w = (1.0 + 0.1 * t * x * x) * dot(th) + y * cos(t);
                s = dot(u) + 0.2 * sin(th) * dot(x) + x * t;
            }
            formulation = $formulation;
        }
    };
}
everything!(EverythingGa, gibbs_appell);
everything!(EverythingBh, boltzmann_hamel);

// Independent velocities (no `speeds`): dot(x), dot(theta) free, dot(y) from the constraint.
macro_rules! independent_skate {
    ($name:ident, $formulation:ident) => {
        nonholonomic! {
            /// A rheonomic skate with independent velocities.
            #[derive(Debug, Clone, Copy, PartialEq)]
            pub struct $name;
            parameters { m = 1.3, inertia = 0.2, k = 0.7 }
            coordinates { x, y, theta }
            kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
            potential_energy = 0.5 * k * (x * x + y * y) + 0.3 * sin(theta);
            constraints { dot(x) * sin(theta) - dot(y) * (2.0 + cos(theta)) == 0.2 * cos(t) * x; }
            dependent { y }
            formulation = $formulation;
        }
    };
}
independent_skate!(IndependentSkateGa, gibbs_appell);
independent_skate!(IndependentSkateBh, boltzmann_hamel);
