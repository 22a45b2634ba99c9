//! The worked systems of the papers, the Whipple bicycle, a differential-drive robot, a
//! mobile manipulator and a rimless wheel, as ready-made models.
//!
//! Each is written in the `nonholonomic!` DSL exactly as a user would write it, its physics
//! (parameters, coordinates, energies, forces, constraints) in an exported `*_model!` macro
//! (`nonholo::skate_model!`, ...) so that the same system can be derived with other speeds
//! or another formulation; see the source for the model text and
//! [`Model::EQUATIONS`](crate::Model::EQUATIONS) for the derived equations.

/// The physics of Benenti 2007, §9.1 (see [`models::Skate`](crate::models::Skate)) —
/// parameters, coordinates, energies, forces and constraints — as a macro, to derive the
/// same system with other speeds or another formulation: append the parametrization and
/// `formulation` sections.
///
/// ```
/// nonholo::skate_model! {
///     /// The same system, through Voronec's equations.
///     pub struct Mine;
///     formulation = voronec;
/// }
/// ```
#[macro_export]
macro_rules! skate_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        $crate::nonholonomic! {
            $(#[$attr])* $vis struct $name;
            parameters { m = 1.0, inertia = 0.1, g = 9.81, alpha = 0.0, c = 0.0 }
            coordinates { x, y, theta }
            kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
            potential_energy = -m * g * sin(alpha) * x;
            forces { theta: -c * dot(theta) }
            constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
            $($rest)*
        }
    };
}

/// The physics of Benenti 2007, §9.2 (see [`models::VerticalDisk`](crate::models::VerticalDisk)) —
/// parameters, coordinates, energies, forces and constraints — as a macro, to derive the
/// same system with other speeds or another formulation: append the parametrization and
/// `formulation` sections.
///
/// ```
/// nonholo::vertical_disk_model! {
///     /// The same system, through Voronec's equations.
///     pub struct Mine;
///     formulation = voronec;
/// }
/// ```
#[macro_export]
macro_rules! vertical_disk_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        $crate::nonholonomic! {
            $(#[$attr])* $vis struct $name;
            parameters { m = 1.0, a_inertia = 0.5, b_inertia = 0.25, r = 1.0, g = 9.81, alpha = 0.0 }
            coordinates { x, y, theta, psi }
            kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2))
                + 0.5 * (a_inertia * dot(theta).powi(2) + b_inertia * dot(psi).powi(2));
            potential_energy = -m * g * sin(alpha) * x;
            constraints {
                dot(x) - r * cos(psi) * dot(theta) == 0.0;
                dot(y) - r * sin(psi) * dot(theta) == 0.0;
            }
            $($rest)*
        }
    };
}

/// The physics of Benenti 2007, §9.3 (see [`models::CoaxialDisks`](crate::models::CoaxialDisks)) —
/// parameters, coordinates, energies, forces and constraints — as a macro, to derive the
/// same system with other speeds or another formulation: append the parametrization and
/// `formulation` sections.
///
/// ```
/// nonholo::coaxial_disks_model! {
///     /// The same system, through Voronec's equations.
///     pub struct Mine;
///     formulation = voronec;
/// }
/// ```
#[macro_export]
macro_rules! coaxial_disks_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        $crate::nonholonomic! {
            $(#[$attr])* $vis struct $name;
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
            $($rest)*
        }
    };
}

/// The physics of Benenti 2007, §9.4 (see [`models::ParallelPoints`](crate::models::ParallelPoints)) —
/// parameters, coordinates, energies, forces and constraints — as a macro, to derive the
/// same system with other speeds or another formulation: append the parametrization and
/// `formulation` sections.
///
/// ```
/// nonholo::parallel_points_model! {
///     /// The same system, through Voronec's equations.
///     pub struct Mine;
///     dependent { y2 }
///     formulation = voronec;
/// }
/// ```
#[macro_export]
macro_rules! parallel_points_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        $crate::nonholonomic! {
            $(#[$attr])* $vis struct $name;
            parameters { m1 = 1.0, m2 = 2.0, g = 9.81 }
            coordinates { x1, y1, x2, y2 }
            kinetic_energy = 0.5 * m1 * (dot(x1).powi(2) + dot(y1).powi(2))
                + 0.5 * m2 * (dot(x2).powi(2) + dot(y2).powi(2));
            potential_energy = -g * (m1 * x1 + m2 * x2);
            constraints { dot(x1) * dot(y2) - dot(x2) * dot(y1) == 0.0; }
            $($rest)*
        }
    };
}

/// The physics of Talamucci 2015, §3.1 (see [`models::PendulumSkate`](crate::models::PendulumSkate)) — parameters, coordinates, energies, forces and
/// constraints — as a macro, to derive the same system with other speeds or another
/// formulation: append the parametrization and `formulation` sections.
///
/// ```
/// nonholo::pendulum_skate_model! {
///     /// The same system, through Voronec's equations.
///     pub struct Mine;
///     formulation = voronec;
/// }
/// ```
#[macro_export]
macro_rules! pendulum_skate_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        $crate::nonholonomic! {
            $(#[$attr])* $vis struct $name;
            parameters {
                big_m = 4.0, i_c = 0.3, m_s = 3.0, m_d = 1.0, rho = 0.5,
                kappa = 0.4, kappa1 = 1.0, kappa2 = 0.3, g = 9.81, c_phi = 0.0, c_th1 = 0.0
            }
            coordinates { x_c, y_c, phi, theta, theta1 }
            let v1 = m_s * kappa1 + m_d * (kappa1 + kappa2);
            let v2 = m_s * kappa1.powi(2) + m_d * (kappa1 + kappa2).powi(2);
            let v3 = m_d * kappa * (kappa1 + kappa2);
            let m_t = big_m + m_s + m_d;
            let f1 = v1 * sin(theta) + m_d * kappa * sin(theta1);
            let f2 = i_c + m_d * kappa.powi(2) * sin(theta1).powi(2) + v2 * sin(theta).powi(2)
                + 2.0 * m_d * kappa * (kappa1 + kappa2) * sin(theta) * sin(theta1);
            let v_par = dot(x_c) * cos(phi) + dot(y_c) * sin(phi);
            let v_perp = -dot(x_c) * sin(phi) + dot(y_c) * cos(phi);
            kinetic_energy = 0.5 * m_t * (dot(x_c).powi(2) + dot(y_c).powi(2)) + 0.5 * f2 * dot(phi).powi(2)
                + 0.5 * v2 * dot(theta).powi(2) + 0.5 * m_d * kappa.powi(2) * dot(theta1).powi(2)
                + v3 * cos(theta + theta1) * dot(theta) * dot(theta1)
                - f1 * dot(phi) * v_par
                + (v1 * cos(theta) * dot(theta) + m_d * kappa * cos(theta1) * dot(theta1)) * v_perp;
            potential_energy = v1 * g * cos(theta) - m_d * kappa * g * cos(theta1);
            forces { phi: -c_phi * dot(phi), theta1: -c_th1 * dot(theta1) }
            constraints { dot(x_c) * sin(phi) - dot(y_c) * cos(phi) + rho * dot(phi) == 0.0; }
            $($rest)*
        }
    };
}

/// The physics of Talamucci 2015, §3.2 (see [`models::AssignedFront`](crate::models::AssignedFront)) — parameters, coordinates, energies, forces and
/// constraints — as a macro, to derive the same system with other speeds or another
/// formulation: append the parametrization and `formulation` sections.
///
/// ```
/// nonholo::assigned_front_model! {
///     /// The same system, through Voronec's equations.
///     pub struct Mine;
///     formulation = voronec;
/// }
/// ```
#[macro_export]
macro_rules! assigned_front_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        $crate::nonholonomic! {
            $(#[$attr])* $vis struct $name;
            parameters {
                big_m = 4.0, i_c = 0.3, m_s = 3.0, m_d = 1.0, rho = 0.5,
                kappa = 0.4, kappa1 = 1.0, kappa2 = 0.3, g = 9.81, c_th = 0.0, c_th1 = 0.0,
                v0 = 1.0, a_f = 0.3, omega = 1.0
            }
            coordinates { phi, theta, theta1 }
            let xfd = v0;
            let yfd = a_f * omega * cos(omega * t);
            let xcd = xfd + rho * sin(phi) * dot(phi);
            let ycd = yfd - rho * cos(phi) * dot(phi);
            let v1 = m_s * kappa1 + m_d * (kappa1 + kappa2);
            let v2 = m_s * kappa1.powi(2) + m_d * (kappa1 + kappa2).powi(2);
            let v3 = m_d * kappa * (kappa1 + kappa2);
            let m_t = big_m + m_s + m_d;
            let f1 = v1 * sin(theta) + m_d * kappa * sin(theta1);
            let f2 = i_c + m_d * kappa.powi(2) * sin(theta1).powi(2) + v2 * sin(theta).powi(2)
                + 2.0 * m_d * kappa * (kappa1 + kappa2) * sin(theta) * sin(theta1);
            let v_par = xcd * cos(phi) + ycd * sin(phi);
            let v_perp = -xcd * sin(phi) + ycd * cos(phi);
            kinetic_energy = 0.5 * m_t * (xcd.powi(2) + ycd.powi(2)) + 0.5 * f2 * dot(phi).powi(2)
                + 0.5 * v2 * dot(theta).powi(2) + 0.5 * m_d * kappa.powi(2) * dot(theta1).powi(2)
                + v3 * cos(theta + theta1) * dot(theta) * dot(theta1)
                - f1 * dot(phi) * v_par
                + (v1 * cos(theta) * dot(theta) + m_d * kappa * cos(theta1) * dot(theta1)) * v_perp;
            potential_energy = v1 * g * cos(theta) - m_d * kappa * g * cos(theta1);
            forces { theta: -c_th * dot(theta), theta1: -c_th1 * dot(theta1) }
            constraints { 2.0 * rho * dot(phi) + xfd * sin(phi) - yfd * cos(phi) == 0.0; }
            $($rest)*
        }
    };
}

/// The physics of Talamucci 2015, §3.3 (see [`models::RollingDiskPendulum`](crate::models::RollingDiskPendulum)) — parameters, coordinates, energies, forces and
/// constraints — as a macro, to derive the same system with other speeds or another
/// formulation: append the parametrization and `formulation` sections.
///
/// ```
/// nonholo::rolling_disk_pendulum_model! {
///     /// The same system, through Voronec's equations.
///     pub struct Mine;
///     formulation = voronec;
/// }
/// ```
#[macro_export]
macro_rules! rolling_disk_pendulum_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        $crate::nonholonomic! {
            $(#[$attr])* $vis struct $name;
            parameters {
                big_m = 2.0, r = 0.5, m_s = 3.0, m_d = 1.0, kappa = 0.4, kappa1 = 1.0, kappa2 = 0.3,
                g = 9.81, c_phi = 0.0, c_th1 = 0.0, tau = 0.0
            }
            coordinates { x_c, y_c, phi, phi1, theta, theta1 }
            let i_d = 0.5 * big_m * r.powi(2);
            let v1 = m_s * kappa1 + m_d * (kappa1 + kappa2);
            let v2 = m_s * kappa1.powi(2) + m_d * (kappa1 + kappa2).powi(2);
            let v3 = m_d * kappa * (kappa1 + kappa2);
            let m_t = big_m + m_s + m_d;
            let v1h = v1 + big_m * r;
            let v2h = v2 + big_m * r.powi(2);
            let f1h = v1 * sin(theta) + m_d * kappa * sin(theta1) + big_m * r * sin(theta);
            let f2h = m_d * kappa.powi(2) * sin(theta1).powi(2) + v2 * sin(theta).powi(2)
                + 2.0 * m_d * kappa * (kappa1 + kappa2) * sin(theta) * sin(theta1)
                + (big_m * r.powi(2) + 0.5 * i_d) * sin(theta).powi(2) + 0.5 * i_d;
            let v_par = dot(x_c) * cos(phi) + dot(y_c) * sin(phi);
            let v_perp = -dot(x_c) * sin(phi) + dot(y_c) * cos(phi);
            kinetic_energy = 0.5 * m_t * (dot(x_c).powi(2) + dot(y_c).powi(2)) + 0.5 * f2h * dot(phi).powi(2)
                + 0.5 * i_d * dot(phi1).powi(2) - i_d * sin(theta) * dot(phi) * dot(phi1)
                + 0.5 * (v2h + 0.5 * i_d) * dot(theta).powi(2) + 0.5 * m_d * kappa.powi(2) * dot(theta1).powi(2)
                + v3 * cos(theta + theta1) * dot(theta) * dot(theta1)
                - f1h * dot(phi) * v_par
                + (v1h * cos(theta) * dot(theta) + m_d * kappa * cos(theta1) * dot(theta1)) * v_perp;
            potential_energy = v1h * g * cos(theta) - m_d * kappa * g * cos(theta1);
            forces { phi: -c_phi * dot(phi), phi1: tau, theta1: -c_th1 * dot(theta1) }
            constraints {
                dot(x_c) - r * cos(phi) * dot(phi1) == 0.0;
                dot(y_c) - r * sin(phi) * dot(phi1) == 0.0;
            }
            $($rest)*
        }
    };
}

/// The physics of Talamucci 2015, §3.4 (see [`models::AssignedSpin`](crate::models::AssignedSpin)) — parameters, coordinates, energies, forces and
/// constraints — as a macro, to derive the same system with other speeds or another
/// formulation: append the parametrization and `formulation` sections.
///
/// ```
/// nonholo::assigned_spin_model! {
///     /// The same system, through Voronec's equations.
///     pub struct Mine;
///     formulation = voronec;
/// }
/// ```
#[macro_export]
macro_rules! assigned_spin_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        $crate::nonholonomic! {
            $(#[$attr])* $vis struct $name;
            parameters {
                big_m = 2.0, r = 0.5, m_s = 3.0, m_d = 1.0, kappa = 0.4, kappa1 = 1.0, kappa2 = 0.3,
                g = 9.81, c_phi = 0.0, c_th1 = 0.0, w0 = 2.0, a_s = 0.5, omega = 1.0
            }
            coordinates { x_c, y_c, phi, theta, theta1 }
            let phi1d = w0 + a_s * omega * cos(omega * t);
            let i_d = 0.5 * big_m * r.powi(2);
            let v1 = m_s * kappa1 + m_d * (kappa1 + kappa2);
            let v2 = m_s * kappa1.powi(2) + m_d * (kappa1 + kappa2).powi(2);
            let v3 = m_d * kappa * (kappa1 + kappa2);
            let m_t = big_m + m_s + m_d;
            let v1h = v1 + big_m * r;
            let v2h = v2 + big_m * r.powi(2);
            let f1h = v1 * sin(theta) + m_d * kappa * sin(theta1) + big_m * r * sin(theta);
            let f2h = m_d * kappa.powi(2) * sin(theta1).powi(2) + v2 * sin(theta).powi(2)
                + 2.0 * m_d * kappa * (kappa1 + kappa2) * sin(theta) * sin(theta1)
                + (big_m * r.powi(2) + 0.5 * i_d) * sin(theta).powi(2) + 0.5 * i_d;
            let v_par = dot(x_c) * cos(phi) + dot(y_c) * sin(phi);
            let v_perp = -dot(x_c) * sin(phi) + dot(y_c) * cos(phi);
            kinetic_energy = 0.5 * m_t * (dot(x_c).powi(2) + dot(y_c).powi(2)) + 0.5 * f2h * dot(phi).powi(2)
                + 0.5 * i_d * phi1d.powi(2) - i_d * sin(theta) * dot(phi) * phi1d
                + 0.5 * (v2h + 0.5 * i_d) * dot(theta).powi(2) + 0.5 * m_d * kappa.powi(2) * dot(theta1).powi(2)
                + v3 * cos(theta + theta1) * dot(theta) * dot(theta1)
                - f1h * dot(phi) * v_par
                + (v1h * cos(theta) * dot(theta) + m_d * kappa * cos(theta1) * dot(theta1)) * v_perp;
            potential_energy = v1h * g * cos(theta) - m_d * kappa * g * cos(theta1);
            forces { phi: -c_phi * dot(phi), theta1: -c_th1 * dot(theta1) }
            constraints {
                dot(x_c) - r * phi1d * cos(phi) == 0.0;
                dot(y_c) - r * phi1d * sin(phi) == 0.0;
            }
            $($rest)*
        }
    };
}

/// The thin disk rolling without slipping on a horizontal plane, described with the 3D
/// items (frames, a body, gravity, a plane and a rolling contact; see
/// [`models::RollingDisk3d`](crate::models::RollingDisk3d)): the macro derives T, V and
/// the two no-slip rows itself. Append the parametrization and `formulation` sections.
///
/// ```
/// nonholo::rolling_disk_3d_model! {
///     /// The same disk, its reactions through the multipliers.
///     pub struct Mine;
///     formulation = multipliers;
/// }
/// ```
#[macro_export]
macro_rules! rolling_disk_3d_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        $crate::nonholonomic! {
            $(#[$attr])* $vis struct $name;
            parameters { m = 1.0, r = 0.5, g = 9.81 }
            coordinates { x, y, yaw, lean, spin }
            frame N;
            point O;
            frame L = N.rotate(z, yaw).rotate(x, lean);
            frame D = L.rotate(y, spin);
            point P = O + N[x, y, 0.0];
            point C = P + r * L.z;
            body disk { frame: D, center: C, mass: m,
                        inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }
            gravity = -g * N.z;
            plane ground { point: O, up: N.z }
            rolls disk on ground { center: C, axis: L.y, radius: r, contact: P }
            $($rest)*
        }
    };
}

skate_model! {
    /// Benenti 2007, §9.1: the skate, a rod sliding on a plane with its velocity along the
    /// rod. The plane is inclined by `alpha` along x; `c` damps the rotation.
    ///
    /// Speeds: `v` along the blade and `w = dot(theta)` (Benenti's z¹, z²).
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Skate;
    speeds { v = cos(theta) * dot(x) + sin(theta) * dot(y); w = dot(theta); }
}

vertical_disk_model! {
    /// Benenti 2007, §9.2: a vertical disk of radius `r` rolling without sliding; `a_inertia`
    /// and `b_inertia` are its moments about the axle and a diameter (Benenti's A, B).
    /// The plane is inclined by `alpha` along x.
    ///
    /// Speeds: the spin `z1 = dot(theta)` and the heading rate `z2 = dot(psi)`.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct VerticalDisk;
    speeds { z1 = dot(theta); z2 = dot(psi); }
}

coaxial_disks_model! {
    /// Benenti 2007, §9.3: two identical disks of radius `r` on a common axle at fixed
    /// distance `a`, both rolling without sliding. (x, y) is the first disk's centre.
    ///
    /// Speeds: the two spins `z1 = dot(theta1)`, `z2 = dot(theta2)`.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct CoaxialDisks;
    speeds { z1 = dot(theta1); z2 = dot(theta2); }
}

parallel_points_model! {
    /// Benenti 2007, §9.4: two points whose velocities stay parallel,
    /// `dot(x1) dot(y2) - dot(x2) dot(y1) = 0` — a genuinely nonlinear constraint —
    /// on a plane inclined along x.
    ///
    /// Parametric form (Benenti's 9.15): `rho`, `sigma` the signed speeds, `theta` the
    /// common direction.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct ParallelPoints;
    velocities(rho, sigma, theta) {
        dot(x1) = rho * cos(theta);
        dot(y1) = rho * sin(theta);
        dot(x2) = sigma * cos(theta);
        dot(y2) = sigma * sin(theta);
    }
}

pendulum_skate_model! {
    /// Talamucci 2015, §3.1: a pendulum on a skate, the simple bicycle of Figure 1.
    /// The bar P_B P_F (mass `big_m`, length `2 rho`, moment `i_c` about its midpoint C) slides
    /// with the back point's velocity along the bar; P_S (mass `m_s`) sits at height
    /// `kappa1` above C on the frame, which leans by `theta`; the rider P_D (mass `m_d`)
    /// swings by `theta1` on an arm `kappa` hung at `kappa1 + kappa2`. `c_phi`, `c_th1` damp
    /// steering and rider.
    ///
    /// Speeds (Talamucci's eta): the velocity of C along and across the bar divided by
    /// `rho`, then `dot(theta)`, `dot(theta1)`. The constraint carries `rho` where the paper
    /// prints `R/2` (ERRATA).
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct PendulumSkate;
    speeds {
        eta1 = (cos(phi) * dot(x_c) + sin(phi) * dot(y_c)) / rho;
        eta2 = (-sin(phi) * dot(x_c) + cos(phi) * dot(y_c)) / rho;
        eta3 = dot(theta);
        eta4 = dot(theta1);
    }
}

assigned_front_model! {
    /// Talamucci 2015, §3.2: the pendulum on a skate with the front point driven along
    /// `x_F = v0 t`, `y_F = a_f sin(omega t)` — a rheonomic system (time in T and in the
    /// constraint). Coordinates: the heading `phi`, the lean `theta`, the rider `theta1`.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct AssignedFront;
    speeds { eta1 = dot(theta); eta2 = dot(theta1); }
}

rolling_disk_pendulum_model! {
    /// Talamucci 2015, §3.3: a rolling disk with a pendulum rider (the unicycle with rider).
    /// The disk (mass `big_m`, radius `r`) rolls without sliding at C; `phi` is the heading,
    /// `phi1` the spin, `theta` the lean of the frame, `theta1` the rider's swing; `tau`
    /// pedals the wheel.
    ///
    /// Speeds as in the paper: the momenta `dL/d dot(phi)`, `dL/d dot(phi1)`, then
    /// `dot(theta)`, `dot(theta1)`.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct RollingDiskPendulum;
    speeds {
        eta1 = f2h * dot(phi) - i_d * sin(theta) * dot(phi1) - f1h * v_par;
        eta2 = i_d * dot(phi1) - i_d * sin(theta) * dot(phi);
        eta3 = dot(theta);
        eta4 = dot(theta1);
    }
}

assigned_spin_model! {
    /// Talamucci 2015, §3.4: the rolling disk with pendulum, its spin assigned,
    /// `phi1 = w0 t + a_s sin(omega t)` (a motor-driven wheel) — rheonomic through b, c and
    /// beta.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct AssignedSpin;
    speeds {
        eta1 = f2h * dot(phi) - f1h * v_par - i_d * phi1d * sin(theta);
        eta2 = dot(theta);
        eta3 = dot(theta1);
    }
}

rolling_disk_3d_model! {
    /// A thin disk (mass `m`, radius `r`) rolling without slipping on a horizontal plane,
    /// z up: `(x, y)` is the contact point, `yaw` the heading, `lean` the tilt about the
    /// heading (0 upright), `spin` the rotation about the axle. Written with frames, a
    /// body, gravity, a plane and a rolling contact: the DSL derives T, V and the no-slip
    /// rows `cos(yaw) dot(x) + sin(yaw) dot(y) - r dot(spin) = 0`,
    /// `-sin(yaw) dot(x) + cos(yaw) dot(y) = 0`.
    ///
    /// Speeds: the independent velocities `dot(yaw)`, `dot(lean)`, `dot(spin)`. Straight
    /// upright rolling at speed `v` is stable for `v^2 > g r / 3`.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct RollingDisk3d;
    dependent { x, y }
}

/// The Whipple bicycle of Meijaard et al. 2007 (see
/// [`models::WhippleBicycle`](crate::models::WhippleBicycle)) described with frames,
/// bodies, gravity and two rolling contacts: the macro derives T, V, the four no-slip
/// rows and the front contact's height constraint. Append the parametrization and
/// `formulation` sections.
///
/// ```
/// nonholo::whipple_bicycle_model! {
///     /// The same bicycle, its contact reactions through the multipliers.
///     pub struct Mine;
///     formulation = multipliers;
/// }
/// ```
#[macro_export]
macro_rules! whipple_bicycle_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        $crate::nonholonomic! {
            $(#[$attr])* $vis struct $name;
            parameters {
                w = 1.02, c = 0.08, lam = 0.3141592653589793, g = 9.81,
                r_r = 0.3, m_r = 2.0, i_rxx = 0.0603, i_ryy = 0.12,
                x_b = 0.3, z_b = -0.9, m_b = 85.0, i_bxx = 9.2, i_byy = 11.0, i_bzz = 2.8, i_bxz = 2.4,
                x_h = 0.9, z_h = -0.7, m_h = 4.0,
                i_hxx = 0.05892, i_hyy = 0.06, i_hzz = 0.00708, i_hxz = -0.00756,
                r_f = 0.35, m_f = 3.0, i_fxx = 0.1405, i_fyy = 0.28,
                t_r = 0.0, t_f = 0.0
            }
            inputs { t_roll, t_steer, t_rear }
            coordinates { x, y, yaw, roll, pitch, th_r, steer, th_f }
            frame N;
            point O;
            frame A = N.rotate(z, yaw);
            frame R = A.rotate(x, roll);
            frame B = R.rotate(y, pitch);
            frame S = B.rotate(y, lam);
            frame H = S.rotate(z, steer).rotate(y, -lam);
            frame WR = B.rotate(y, th_r);
            frame WF = H.rotate(y, th_f);
            point P_r = O + N[x, y, 0.0];
            point R_o = P_r - t_r * N.z - (r_r - t_r) * R.z;
            point B_c = R_o + B[x_b, 0.0, z_b + r_r];
            point S_a = R_o + B[w + c, 0.0, r_r];
            point F_o = S_a + H[-c, 0.0, -r_f];
            point H_c = S_a + H[x_h - w - c, 0.0, z_h];
            body rear_wheel { frame: WR, center: R_o, mass: m_r, inertia: inertia(B, i_rxx, i_ryy, i_rxx) }
            body rear_frame {
                frame: B, center: B_c, mass: m_b,
                inertia: inertia(B, i_bxx, i_byy, i_bzz, 0.0, 0.0, i_bxz)
            }
            body fork {
                frame: H, center: H_c, mass: m_h,
                inertia: inertia(H, i_hxx, i_hyy, i_hzz, 0.0, 0.0, i_hxz)
            }
            body front_wheel { frame: WF, center: F_o, mass: m_f, inertia: inertia(H, i_fxx, i_fyy, i_fxx) }
            gravity = g * N.z;
            plane ground { point: O, up: -N.z }
            rolls rear_wheel on ground { surface: torus(r_r - t_r, t_r), center: R_o, axis: B.y, contact: P_r }
            rolls front_wheel on ground { surface: torus(r_f - t_f, t_f), center: F_o, axis: H.y, solve: pitch }
            forces {
                on rear_frame: t_roll * A.x;
                between fork, rear_frame: t_steer * S.z;
                between rear_wheel, rear_frame: -t_rear * B.y;
            }
            draw {
                segment { from: R_o, to: S_a, color: gray };
                segment { from: S_a, to: F_o, color: black };
                segment { from: S_a, to: H_c, color: black };
                hide fork;
            }
            $($rest)*
        }
    };
}

whipple_bicycle_model! {
    /// The Whipple bicycle: the benchmark of Meijaard, Papadopoulos, Ruina & Schwab 2007
    /// (Proc. R. Soc. A 463:1955), its geometry and Table 1 parameters as defaults.
    /// Four rigid bodies — rear wheel, rear frame with rider, front fork with handlebar,
    /// front wheel — two knife-edge wheels rolling without slipping on level ground.
    ///
    /// Benchmark axes: x forward, y right, z down, origin at the rear contact point `(x, y)`;
    /// `yaw`, `roll` (lean, positive to the right) and `pitch` of the rear frame, the wheel
    /// angles `th_r`, `th_f` and the `steer` angle about the steer axis (tilted back by `lam`).
    /// The front contact height is a configuration constraint solved for `pitch`
    /// (`solve_configuration`); 4 no-slip rows and its derivative leave 3 speeds
    /// `dot(roll)`, `dot(th_r)`, `dot(steer)`. Forward speed `v` is `dot(th_r) = -v / r_r`.
    ///
    /// Inputs (`inputs { t_roll, t_steer, t_rear }`, [`Model::rhs_u`](crate::Model::rhs_u)): a lean
    /// torque `t_roll` on the rear frame about the heading axis, a steer torque `t_steer`
    /// between fork and frame, and a pedalling torque `t_rear` between rear frame and rear
    /// wheel (positive drives forward). Linearized upright at speed `v` it is Meijaard's
    /// `M qdd + v C1 qd + (g K0 + v^2 K2) q = [t_roll, t_steer]` for `q = [roll, steer]`;
    /// self-stable for 4.29 < v < 6.02 m/s.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct WhippleBicycle;
    dependent { x, y, yaw, pitch, th_f }
}

mod diff_drive_robot;
pub use diff_drive_robot::DiffDriveRobot;

mod mobile_manipulator;
pub use mobile_manipulator::MobileManipulator;

mod rimless_wheel;
pub use rimless_wheel::RimlessWheel;

mod rolling_bodies;
pub use rolling_bodies::{ChaplyginBall, DiskOverBump, Rattleback, RouthSphere, TippeTop};
