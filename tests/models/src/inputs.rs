//! The models of `inputs`: a driven rolling disk with its loads as parameters and as
//! inputs, in every formulation.

use nonholo::nonholonomic;

/// A rolling disk carrying a pendulum, driven at every kind of load site: a pedalling
/// torque between disk and fork, a steering torque on the fork, a push at the bob and a
/// spring whose rest angle is set from outside. `$loads` declares the four names (as
/// parameters or as inputs); `$rest` picks the speeds and the formulation.
macro_rules! driven_disk {
    ($name:ident; $($loads:tt)*) => {
        driven_disk!(@ $name; [$($loads)*] []);
    };
    (@ $name:ident; [$($loads:tt)*] [$($rest:tt)*]) => {
        nonholonomic! {
            pub struct $name;
            $($loads)*
            coordinates { x, y, yaw, lean, spin, swing }
            frame N;
            point O;
            frame L = N.rotate(z, yaw).rotate(x, lean);
            frame D = L.rotate(y, spin);
            frame F = L.rotate(y, swing);
            point P = O + N[x, y, 0.0];
            point C = P + r * L.z;
            point Q = C + l * F.z;
            body disk { frame: D, center: C, mass: m,
                        inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }
            body fork { frame: F, center: Q, mass: m_b, inertia: inertia(F, 0.01, 0.02, 0.01) }
            gravity = -g * N.z;
            plane ground { point: O, up: N.z }
            rolls disk on ground { center: C, axis: L.y, radius: r, contact: P }
            potential_energy = 0.5 * k * (swing - rest).powi(2);
            forces {
                between disk, fork: pedal * L.y;
                on fork: steer * N.z;
                at Q: push * L.x - 0.05 * velocity(Q);
            }
            $($rest)*
        }
    };
}

macro_rules! parameter_and_input_versions {
    ($($p:ident, $u:ident: [$($rest:tt)*];)*) => {$(
        driven_disk!(@ $p; [parameters {
            m = 1.0, r = 0.5, g = 9.81, l = 0.4, m_b = 0.3, k = 2.0,
            pedal = 0.0, steer = 0.0, push = 0.0, rest = 0.0
        }] [$($rest)*]);
        driven_disk!(@ $u; [
            parameters { m = 1.0, r = 0.5, g = 9.81, l = 0.4, m_b = 0.3, k = 2.0 }
            inputs { pedal, steer, push, rest }
        ] [$($rest)*]);
    )*};
}

parameter_and_input_versions! {
    GaP, GaU: [dependent { x, y }];
    BhP, BhU: [dependent { x, y } formulation = boltzmann_hamel;];
    VoP, VoU: [dependent { x, y } formulation = voronec;];
    MuP, MuU: [formulation = multipliers;];
}
