//! The models of `formulation_matrix`: every worked system through every formulation that
//! applies.

use nonholo::nonholonomic;

/// One model body, four formulations: `speeds` for the first two, `dependent` (or
/// nothing) for Voronec, no parametrization for the multipliers.
macro_rules! four_ways {
    ($ga:ident, $bh:ident, $vo:ident, $mu:ident,
     { $($common:tt)* }, { $($speeds:tt)* }, { $($dependent:tt)* }) => {
        nonholonomic! { pub struct $ga; $($common)* $($speeds)* }
        nonholonomic! { pub struct $bh; $($common)* $($speeds)* formulation = boltzmann_hamel; }
        nonholonomic! { pub struct $vo; $($common)* $($dependent)* formulation = voronec; }
        nonholonomic! { pub struct $mu; $($common)* formulation = multipliers; }
    };
    // A library model's physics (`nonholo::*_model!`) with the given sections.
    (@model $model:ident, $ga:ident, $bh:ident, $vo:ident, $mu:ident,
     { $($speeds:tt)* }, { $($dependent:tt)* }) => {
        nonholo::$model! { pub struct $ga; $($speeds)* }
        nonholo::$model! { pub struct $bh; $($speeds)* formulation = boltzmann_hamel; }
        nonholo::$model! { pub struct $vo; $($dependent)* formulation = voronec; }
        nonholo::$model! { pub struct $mu; formulation = multipliers; }
    };
}

four_ways!(SkateGa, SkateBh, SkateVo, SkateMu, {
    parameters { m = 1.3, inertia = 0.2, g = 9.81, alpha = 0.2, c = 0.1 }
    coordinates { x, y, theta }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2)) + 0.5 * inertia * dot(theta).powi(2);
    potential_energy = -m * g * sin(alpha) * x;
    forces { theta: -c * dot(theta) }
    constraints { dot(x) * sin(theta) - dot(y) * cos(theta) == 0.0; }
}, { speeds { v = cos(theta) * dot(x) + sin(theta) * dot(y); w = dot(theta); } }, { dependent { y } });

four_ways!(DiskGa, DiskBh, DiskVo, DiskMu, {
    parameters { m = 1.0, a_inertia = 0.5, b_inertia = 0.25, r = 1.0, g = 9.81, alpha = 0.2, k = 0.3 }
    coordinates { x, y, theta, psi }
    kinetic_energy = 0.5 * m * (dot(x).powi(2) + dot(y).powi(2))
        + 0.5 * (a_inertia * dot(theta).powi(2) + b_inertia * dot(psi).powi(2));
    potential_energy = -m * g * sin(alpha) * x + 0.5 * k * psi * psi;
    constraints {
        dot(x) - r * cos(psi) * dot(theta) == 0.0;
        dot(y) - r * sin(psi) * dot(theta) == 0.0;
    }
}, { speeds { z1 = dot(theta); z2 = dot(psi); } }, { dependent { x, y } });

four_ways!(CoaxGa, CoaxBh, CoaxVo, CoaxMu, {
    parameters { m = 1.0, a_inertia = 0.5, b_inertia = 0.25, r = 1.0, a = 2.0, c = 0.2 }
    coordinates { x, y, theta1, theta2, psi }
    kinetic_energy = m * (dot(x).powi(2) + dot(y).powi(2))
        + 0.5 * a_inertia * (dot(theta1).powi(2) + dot(theta2).powi(2))
        + (0.5 * m * a * a + b_inertia) * dot(psi).powi(2)
        + m * a * dot(psi) * (dot(x) * cos(psi) + dot(y) * sin(psi));
    forces { theta1: -c * dot(theta1), theta2: 0.3 - c * dot(theta2) }
    constraints {
        dot(x) - r * cos(psi) * dot(theta1) == 0.0;
        dot(y) - r * sin(psi) * dot(theta1) == 0.0;
        r * dot(theta1) + a * dot(psi) - r * dot(theta2) == 0.0;
    }
}, { speeds { z1 = dot(theta1); z2 = dot(theta2); } }, { dependent { x, y, psi } });

four_ways!(@model pendulum_skate_model, BikeGa, BikeBh, BikeVo, BikeMu,
    { speeds {
        eta1 = (cos(phi) * dot(x_c) + sin(phi) * dot(y_c)) / rho;
        eta2 = (-sin(phi) * dot(x_c) + cos(phi) * dot(y_c)) / rho;
        eta3 = dot(theta);
        eta4 = dot(theta1);
    } },
    { dependent { y_c } });

four_ways!(@model assigned_front_model, FrontGa, FrontBh, FrontVo, FrontMu,
    { speeds { eta1 = dot(theta); eta2 = dot(theta1); } },
    { dependent { phi } });

four_ways!(@model rolling_disk_pendulum_model, UniGa, UniBh, UniVo, UniMu,
    { speeds {
        eta1 = f2h * dot(phi) - i_d * sin(theta) * dot(phi1) - f1h * v_par;
        eta2 = i_d * dot(phi1) - i_d * sin(theta) * dot(phi);
        eta3 = dot(theta);
        eta4 = dot(theta1);
    } },
    { dependent { x_c, y_c } });

four_ways!(@model assigned_spin_model, SpinGa, SpinBh, SpinVo, SpinMu,
    { speeds {
        eta1 = f2h * dot(phi) - f1h * v_par - i_d * phi1d * sin(theta);
        eta2 = dot(theta);
        eta3 = dot(theta1);
    } },
    { dependent { x_c, y_c } });

// A spatial chain: a rolling disk with two links hanging from its centre, each turned
// about two axes (the body-wise Lagrange terms of `bench/spatial`'s family).
four_ways!(ChainGa, ChainBh, ChainVo, ChainMu, {
    parameters { m = 1.0, r = 0.5, g = 9.81, ml = 0.2, l = 0.3 }
    coordinates { x, y, yaw, lean, spin, a1, b1, a2, b2 }
    frame N;
    point O;
    frame L = N.rotate(z, yaw).rotate(x, lean);
    frame D = L.rotate(y, spin);
    point P = O + N[x, y, 0.0];
    point C = P + r * L.z;
    body disk { frame: D, center: C, mass: m,
                inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }
    frame K1 = L.rotate(x, a1).rotate(y, b1);
    point G1 = C - 0.5 * l * K1.z;
    point J1 = C - l * K1.z;
    body link1 { frame: K1, center: G1, mass: ml,
                 inertia: inertia(K1, ml * l * l / 12.0, ml * l * l / 12.0, 0.001 * ml * l * l) }
    frame K2 = K1.rotate(x, a2).rotate(y, b2);
    point G2 = J1 - 0.5 * l * K2.z;
    body link2 { frame: K2, center: G2, mass: ml,
                 inertia: inertia(K2, ml * l * l / 12.0, ml * l * l / 12.0, 0.001 * ml * l * l) }
    gravity = -g * N.z;
    plane ground { point: O, up: N.z }
    rolls disk on ground { center: C, axis: L.y, radius: r, contact: P }
}, { speeds {
    w_yaw = dot(yaw); w_lean = dot(lean); w_spin = dot(spin);
    w_a1 = dot(a1); w_b1 = dot(b1); w_a2 = dot(a2); w_b2 = dot(b2);
} }, { dependent { x, y } });

/// Benenti 9.4 (nonlinear): Boltzmann–Hamel does not apply.
pub mod parallel {
    nonholo::parallel_points_model! {
        pub struct Ga;
        velocities(rho, sigma, theta) {
            dot(x1) = rho * cos(theta); dot(y1) = rho * sin(theta);
            dot(x2) = sigma * cos(theta); dot(y2) = sigma * sin(theta);
        }
    }
    nonholo::parallel_points_model! { pub struct Vo; dependent { y2 } formulation = voronec; }
    nonholo::parallel_points_model! { pub struct Mu; formulation = multipliers; }
}
