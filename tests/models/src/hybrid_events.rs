//! Models of `tests/suite/hybrid_events.rs` (the rimless wheel is the library's).

use nonholo::nonholonomic;

nonholonomic! {
    /// A mass falling along `z` (a ball above a floor at `z = 0`).
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct FallingMass;
    parameters { m = 1.0, g = 9.81 }
    coordinates { z }
    kinetic_energy = 0.5 * m * dot(z).powi(2);
    potential_energy = m * g * z;
}

/// The upright disk of `tests/suite/sliding.rs` in one formulation (or with a motor).
macro_rules! upright_disk {
    ($(#[$doc:meta])* $name:ident, $($tail:tt)*) => {
        nonholonomic! {
            $(#[$doc])*
            #[derive(Debug, Clone, Copy, PartialEq)]
            pub struct $name;
            parameters { m = 2.0, r = 0.3, g = 9.81, mu = 0.2 }
            coordinates { x, y, yaw, spin }
            frame N;
            point O;
            frame L = N.rotate(z, yaw);
            frame D = L.rotate(y, spin);
            point P = O + N[x, y, 0.0];
            point C = P + r * N.z;
            body disk { frame: D, center: C, mass: m,
                        inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }
            gravity = -g * N.z;
            plane ground { point: O, up: N.z }
            rolls disk on ground { center: C, axis: L.y, radius: r, contact: P, friction: mu }
            $($tail)*
        }
    };
}

upright_disk!(
    /// A thin disk (`m r^2 / 2` about its axle) held upright on the ground, with the friction
    /// coefficient `mu`: thrown sliding, it spins up until it rolls.
    UprightDisk,
    dependent { x, y }
);
upright_disk!(
    /// [`UprightDisk`] through Voronec's equations.
    UprightDiskVo,
    dependent { x, y }
    formulation = voronec;
);
upright_disk!(
    /// [`UprightDisk`] through Lagrange multipliers.
    UprightDiskMu,
    formulation = multipliers;
);

nonholonomic! {
    /// Painlevé's rod: a uniform rod of half-length `l` (moments `m l^2 / 3` about its
    /// centre across it) ending in a sphere of radius `rho` centred at its end `A`, the
    /// sphere on rough ground, the rod raised by `theta` in the `xz` plane (`B.x` along
    /// it). Sliding with its foot moving away from the side of its centre of mass
    /// (`dot(x) + rho dot(theta) < 0`), the normal force is `N = m (g - l sin(theta)
    /// dot(theta)^2) / k` with `k = 1 + 3 cos^2(theta) - 3 mu cos(theta) (sin(theta) + rho /
    /// l)`: no consistent sliding where `k <= 0`, that is for
    /// `mu > (1 + 3 cos^2(theta)) / (3 cos(theta) (sin(theta) + rho / l))`.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct PainleveRod;
    parameters { m = 1.0, l = 0.5, rho = 0.02, g = 9.81, mu = 1.5 }
    coordinates { x, y, theta }
    frame N;
    point O;
    frame B = N.rotate(y, -theta);
    point A = O + N[x, y, rho];
    point G = A + l * B.x;
    body rod { frame: B, center: G, mass: m, inertia: inertia(B, 0.0, m * l * l / 3.0, m * l * l / 3.0) }
    gravity = -g * N.z;
    plane ground { point: O, up: N.z }
    rolls rod on ground { surface: sphere(rho), center: A, friction: mu }
    dependent { x, y }
}

nonholonomic! {
    /// A wagon: a rigid chassis on two fixed axles (half wheelbase `a`, half track `b`),
    /// four wheels of radius `r` with friction `mu` (one lateral row per axle, the second
    /// wheel of each `lateral: false`). z up; `(x, y)` is the chassis' centre on the
    /// ground, `th` its heading. Rolling, it can only go straight (one speed); its four
    /// normal forces are statically indeterminate.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Wagon;
    parameters {
        r = 0.15, a = 0.5, b = 0.35, h = 0.3,
        m_c = 20.0, i_cx = 1.0, i_cy = 2.0, i_cz = 2.5,
        m_w = 1.0, i_wd = 0.006, i_wa = 0.011,
        g = 9.81, mu = 0.4
    }
    coordinates { x, y, th, p_fl, p_fr, p_rl, p_rr }
    frame N;
    point O;
    frame C = N.rotate(z, th);
    frame FL = C.rotate(y, p_fl);
    frame FR = C.rotate(y, p_fr);
    frame RL = C.rotate(y, p_rl);
    frame RR = C.rotate(y, p_rr);
    point P = O + N[x, y, 0.0];
    point G = P + C[0.0, 0.0, h];
    point W_fl = P + C[a, b, r];
    point W_fr = P + C[a, -b, r];
    point W_rl = P + C[-a, b, r];
    point W_rr = P + C[-a, -b, r];
    body chassis { frame: C, center: G, mass: m_c, inertia: inertia(C, i_cx, i_cy, i_cz) }
    body fl { frame: FL, center: W_fl, mass: m_w, inertia: inertia(C, i_wd, i_wa, i_wd) }
    body fr { frame: FR, center: W_fr, mass: m_w, inertia: inertia(C, i_wd, i_wa, i_wd) }
    body rl { frame: RL, center: W_rl, mass: m_w, inertia: inertia(C, i_wd, i_wa, i_wd) }
    body rr { frame: RR, center: W_rr, mass: m_w, inertia: inertia(C, i_wd, i_wa, i_wd) }
    gravity = -g * N.z;
    plane ground { point: O, up: N.z }
    rolls fl on ground { center: W_fl, axis: C.y, radius: r, friction: mu }
    rolls fr on ground { center: W_fr, axis: C.y, radius: r, lateral: false, friction: mu }
    rolls rl on ground { center: W_rl, axis: C.y, radius: r, friction: mu }
    rolls rr on ground { center: W_rr, axis: C.y, radius: r, lateral: false, friction: mu }
    dependent { x, y, th, p_fr, p_rl, p_rr }
}

upright_disk!(
    /// A thin disk held upright on the floor, its spin driven by a motor torque `tau`.
    DrivenDisk,
    inputs { tau }
    forces { on disk: tau * L.y; }
    dependent { x, y }
);
