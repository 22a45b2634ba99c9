//! The oracles' systems of `tests/suite/common/systems` whose forces the library models
//! lack, as model texts for `papers` and `multipliers`.

/// The system of the oracle `systems::rolling_disk` in the `nonholonomic!` DSL (fields =
/// parameters): Benenti 9.2 with gravity on the incline as a force, axle damping and a
/// spring on the heading. Append the parametrization and `formulation` sections, as for
/// the library's `*_model!` macros.
macro_rules! forced_vertical_disk_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        nonholo::nonholonomic! {
            $(#[$attr])* $vis struct $name;
            parameters { m, r, ia, ib, g = 9.81, alpha, c, kspring }
            coordinates { x, y, theta, psi }
            kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2))
                           + 0.5 * (ia * dot(theta).powi(2) + ib * dot(psi).powi(2));
            forces { x: m * g * sin(alpha), theta: -c * dot(theta), psi: -kspring * psi }
            constraints {
                dot(x) - r * cos(psi) * dot(theta) == 0.0;
                dot(y) - r * sin(psi) * dot(theta) == 0.0;
            }
            $($rest)*
        }
    };
}
pub(crate) use forced_vertical_disk_model;

/// The system of the oracle `systems::coaxial_disks` in the `nonholonomic!` DSL (fields =
/// parameters): Benenti 9.3 on an incline with axle friction; (9.11) with a = const has
/// rank 3, these are three independent rows. Append the parametrization and `formulation`
/// sections, as for the library's `*_model!` macros.
macro_rules! forced_coaxial_disks_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        nonholo::nonholonomic! {
            $(#[$attr])* $vis struct $name;
            parameters { m, r, ia, ib, a, g = 9.81, alpha, c }
            coordinates { x, y, theta1, theta2, psi }
            kinetic_energy = m * (dot(x).powi(2) + dot(y).powi(2))
                           + 0.5 * ia * (dot(theta1).powi(2) + dot(theta2).powi(2))
                           + (0.5 * m * a.powi(2) + ib) * dot(psi).powi(2)
                           + m * a * dot(psi) * (dot(x) * cos(psi) + dot(y) * sin(psi));
            forces {
                x: 2.0 * m * g * sin(alpha),
                theta1: -c * dot(theta1),
                theta2: -c * dot(theta2),
                psi: m * g * sin(alpha) * a * cos(psi),
            }
            constraints {
                dot(x) - r * cos(psi) * dot(theta1) == 0.0;
                dot(y) - r * sin(psi) * dot(theta1) == 0.0;
                a * dot(psi) - r * (dot(theta2) - dot(theta1)) == 0.0;
            }
            $($rest)*
        }
    };
}
pub(crate) use forced_coaxial_disks_model;
