//! Bodies that roll on a plane by their surface: the rattleback, Routh's sphere, the
//! Chaplygin ball and the tippe top, each written with `rolls .. { surface: .. }`.

/// The physics of [`models::Rattleback`](crate::models::Rattleback) — parameters, coordinates,
/// frames, the body, gravity and its rolling contact — as a macro, to derive the same system
/// with other speeds or another formulation: append the parametrization and `formulation`.
///
/// ```
/// nonholo::rattleback_model! {
///     /// The same system, through Lagrange's multipliers.
///     pub struct Mine;
///     formulation = multipliers;
/// }
/// ```
#[macro_export]
macro_rules! rattleback_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        $crate::nonholonomic! {
            $(#[$attr])* $vis struct $name;
            parameters {
                m = 1.0, a = 0.20, b = 0.03, c = 0.02, h = 0.01,
                i_a = 2.0e-4, i_b = 1.6e-3, i_c = 1.7e-3, i_d = -2.0e-5, g = 9.81, mu = 0.3
            }
            coordinates { x, y, z, yaw, roll, pitch }
            frame N;
            point O;
            frame B = N.rotate(z, yaw).rotate(x, roll).rotate(y, pitch);
            frame K = B.rotate(x, 3.141592653589793);
            point E = O + N[x, y, z];
            point G = E + h * K.z;
            body shell { frame: B, center: G, mass: m, inertia: inertia(K, i_a, i_b, i_c, i_d, 0.0, 0.0) }
            gravity = -g * N.z;
            plane ground { point: O, up: N.z }
            rolls shell on ground { surface: ellipsoid(a, b, c), center: E, solve: z, friction: mu }
            $($rest)*
        }
    };
}

rattleback_model! {
    /// The rattleback (celt) of Kane and Levinson 1982 (J. Appl. Mech. 49:345): an
    /// ellipsoidal shell of semi-axes `a`, `b`, `c` rolling without slipping on level ground,
    /// its centre of mass `h` below the shell's centre, its inertia about the centre of mass
    /// `i_a`, `i_b`, `i_c` with the product `i_d` (the xy entry of the inertia matrix) in their
    /// axes `K` (x along the long semi-axis, z down to the contact). The misalignment `i_d`
    /// of the principal axes with the shell's couples rocking to spin: spun one way it
    /// wobbles, stops and spins the other way.
    ///
    /// `E = (x, y, z)` is the shell's centre, `yaw`, `roll`, `pitch` turn the body frame `B`
    /// (z up) from the ground's; `K` is `B` turned half a turn about its x axis. The contact
    /// height `z = sqrt(n . A n)` is a configuration constraint solved for `z`
    /// (`solve_configuration`); the two no-slip rows and its derivative leave the speeds
    /// `dot(yaw)`, `dot(roll)`, `dot(pitch)`. At rest its small rocking has the squared
    /// frequencies of `K = m g diag(b^2/c - (c - h), a^2/c - (c - h))` against
    /// `M = [[i_a + m (c - h)^2, i_d], [i_d, i_b + m (c - h)^2]]` (33.8 and 107.2 rad/s).
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Rattleback;
    dependent { x, y, z }
}

/// The physics of [`models::RouthSphere`](crate::models::RouthSphere) — parameters, coordinates,
/// frames, the body, gravity and its rolling contact — as a macro, to derive the same system
/// with other speeds or another formulation: append the parametrization and `formulation`.
///
/// ```
/// nonholo::routh_sphere_model! {
///     /// The same system, through Lagrange's multipliers.
///     pub struct Mine;
///     formulation = multipliers;
/// }
/// ```
#[macro_export]
macro_rules! routh_sphere_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        $crate::nonholonomic! {
            $(#[$attr])* $vis struct $name;
            parameters { m = 2.0, r = 0.15, e = 0.04, i_a = 0.02, i_c = 0.03, g = 9.81, mu = 0.3 }
            coordinates { x, y, yaw, roll, pitch }
            frame N;
            point O;
            frame B = N.rotate(z, yaw).rotate(x, roll).rotate(y, pitch);
            point E = O + N[x, y, r];
            point G = E + e * B.z;
            body ball { frame: B, center: G, mass: m, inertia: inertia(B, i_a, i_a, i_c) }
            gravity = -g * N.z;
            plane ground { point: O, up: N.z }
            rolls ball on ground { surface: sphere(r), center: E, friction: mu }
            $($rest)*
        }
    };
}

routh_sphere_model! {
    /// Routh's sphere: a ball of radius `r` whose centre of mass lies `e` from its centre
    /// on its axis of symmetry (`B.z`), with moments `i_a` (about a diameter through the
    /// centre of mass) and `i_c` (about the axis), rolling without slipping on level ground.
    ///
    /// `(x, y)` is the contact point (under the centre `E`, at height `r`), `yaw`, `roll`,
    /// `pitch` turn the body frame; speeds `dot(yaw)`, `dot(roll)`, `dot(pitch)`. Besides the
    /// energy it keeps Jellett's integral `(I_G omega) . (G - contact)` and Routh's integral.
    /// Spinning upright with its centre of mass above the centre (`e > 0`), it is stable only
    /// above a critical spin.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct RouthSphere;
    dependent { x, y }
}

/// The physics of [`models::ChaplyginBall`](crate::models::ChaplyginBall) — parameters, coordinates,
/// frames, the body, gravity and its rolling contact — as a macro, to derive the same system
/// with other speeds or another formulation: append the parametrization and `formulation`.
///
/// ```
/// nonholo::chaplygin_ball_model! {
///     /// The same system, through Lagrange's multipliers.
///     pub struct Mine;
///     formulation = multipliers;
/// }
/// ```
#[macro_export]
macro_rules! chaplygin_ball_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        $crate::nonholonomic! {
            $(#[$attr])* $vis struct $name;
            parameters { m = 1.5, r = 0.12, i_1 = 0.004, i_2 = 0.006, i_3 = 0.009, g = 9.81, mu = 0.3 }
            coordinates { x, y, yaw, roll, pitch }
            frame N;
            point O;
            frame B = N.rotate(z, yaw).rotate(x, roll).rotate(y, pitch);
            point E = O + N[x, y, r];
            body ball { frame: B, center: E, mass: m, inertia: inertia(B, i_1, i_2, i_3) }
            gravity = -g * N.z;
            plane ground { point: O, up: N.z }
            rolls ball on ground { surface: sphere(r), center: E, friction: mu }
            $($rest)*
        }
    };
}

chaplygin_ball_model! {
    /// The Chaplygin ball: a ball of radius `r` whose centre of mass is its centre and whose
    /// principal moments `i_1`, `i_2`, `i_3` differ (a ball with its mass placed unevenly),
    /// rolling without slipping on level ground.
    ///
    /// Coordinates as for [`RouthSphere`]. Its angular momentum about the contact point,
    /// `I omega + m r^2 (omega - (omega . up) up)`, is fixed in space, and so is the energy.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct ChaplyginBall;
    dependent { x, y }
}

/// The physics of [`models::TippeTop`](crate::models::TippeTop) — parameters, coordinates,
/// frames, the body, gravity and its rolling contact — as a macro, to derive the same system
/// with other speeds or another formulation: append the parametrization and `formulation`.
///
/// ```
/// nonholo::tippe_top_model! {
///     /// The same system, through Lagrange's multipliers.
///     pub struct Mine;
///     formulation = multipliers;
/// }
/// ```
#[macro_export]
macro_rules! tippe_top_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        $crate::nonholonomic! {
            $(#[$attr])* $vis struct $name;
            parameters {
                m = 0.006, r = 0.015, a = 0.003, i_1 = 8.0e-7, i_3 = 7.0e-7,
                r_s = 0.005, l_s = 0.016, g = 9.81, mu = 0.3
            }
            coordinates { x, y, psi, theta, phi }
            frame N;
            point O;
            frame L = N.rotate(z, psi).rotate(x, theta);
            frame B = L.rotate(z, phi);
            point E = O + N[x, y, r];
            point G = E - a * B.z;
            point S = G + l_s * B.z;
            body top { frame: B, center: G, mass: m, inertia: inertia(L, i_1, i_1, i_3) }
            gravity = -g * N.z;
            plane ground { point: O, up: N.z }
            rolls top on ground { surface: sphere(r), center: E, friction: mu }
            draw {
                segment { from: G, to: S, color: black };
                sphere { center: S, radius: r_s, color: gray };
            }
            $($rest)*
        }
    };
}

tippe_top_model! {
    /// The tippe top of Leine and Glocker 2003 (Eur. J. Mech. A 22:361): a sphere of radius
    /// `r` whose centre of mass G lies `a` below its centre on the axis (`B.z`, up when it
    /// stands), a stem ending in a sphere of radius `r_s` centred `l_s` above G, moments `i_1`
    /// (about a diameter through G) and `i_3` (about the axis), Coulomb friction `mu` at the
    /// contact. Spun fast on its sphere it slides, and the friction turns it over onto its
    /// stem, raising G (`stem_clearance` and `stem_touches` below say where the stem lands).
    ///
    /// `(x, y)` is the contact point (under the sphere's centre `E`, at height `r`); `psi`,
    /// `theta`, `phi` are the Euler angles (precession, nutation from the vertical, spin).
    /// Friction here is Coulomb's at a point only (Leine and Glocker add drilling friction),
    /// so the times of its turn differ from their figures. Sliding or rolling it keeps
    /// Jellett's integral `(I_G omega) . (G - contact)`; sliding, the energy falls.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct TippeTop;
    dependent { x, y }
}

impl TippeTop {
    /// The height of the stem's lowest point above the ground, `r + (l_s - a) cos(theta) -
    /// r_s`, at the coordinates `q`: the top is on its sphere alone while it is positive, and
    /// a run is stopped where it reaches zero
    /// ([`Options::stop_when`](crate::Options::stop_when) with `|_, s| top.stem_clearance(s)`).
    ///
    /// ```
    /// let top = nonholo::models::TippeTop::default();
    /// assert!((top.stem_clearance(&[0.0; 5]) - 0.023).abs() < 1e-12);
    /// ```
    pub fn stem_clearance(&self, q: &[f64]) -> f64 {
        self.r + (self.l_s - self.a) * crate::Scalar::cos(q[3]) - self.r_s
    }

    /// The nutation at which the stem touches the ground,
    /// `acos((r_s - r) / (l_s - a))` (about 2.45 rad).
    ///
    /// ```
    /// let top = nonholo::models::TippeTop::default();
    /// assert!((top.stem_touches() - 2.4484).abs() < 1e-4);
    /// ```
    pub fn stem_touches(&self) -> f64 {
        crate::Scalar::acos((self.r_s - self.r) / (self.l_s - self.a))
    }
}

/// The physics of [`models::DiskOverBump`](crate::models::DiskOverBump) — parameters,
/// coordinates, the uneven ground, the disk and its contact — as a macro, to derive the same
/// system with other speeds or another formulation.
///
/// ```
/// nonholo::disk_over_bump_model! {
///     /// The same system, through Voronec's equations.
///     pub struct Mine;
///     dependent { x, y }
///     formulation = voronec;
/// }
/// ```
#[macro_export]
macro_rules! disk_over_bump_model {
    ($(#[$attr:meta])* $vis:vis struct $name:ident; $($rest:tt)*) => {
        $crate::nonholonomic! {
            $(#[$attr])* $vis struct $name;
            parameters { m = 2.0, r = 0.3, g = 9.81, bump = 0.05, at = 2.0, width = 0.1, mu = 0.8 }
            coordinates { x, y, yaw, lean, spin }
            frame N;
            point O;
            frame L = N.rotate(z, yaw).rotate(x, lean);
            frame D = L.rotate(y, spin);
            ground road { height(u, v) = bump * exp(-(u - at).powi(2) / width) + 0.0 * v }
            point P = road.at(x, y);
            point C = P + r * L.y.cross(road.normal(x, y).cross(L.y)).unit();
            body disk { frame: D, center: C, mass: m,
                        inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }
            gravity = -g * N.z;
            rolls disk on road { center: C, axis: L.y, radius: r, contact: P, friction: mu }
            $($rest)*
        }
    };
}

disk_over_bump_model! {
    /// A thin disk (mass `m`, radius `r`) rolling without slipping over a bump in the road:
    /// uneven ground `z = bump exp(-(u - at)^2 / width)` (a ridge across the x axis, `bump`
    /// high at `x = at`; its crest's radius of curvature `width / (2 bump)` must exceed `r`).
    /// `(x, y)` is the contact point on the road, `road.at(x, y)`; the centre is `r` from it
    /// along the disk's plane, towards the road's normal there. Coordinates and speeds as for
    /// [`RollingDisk3d`](crate::models::RollingDisk3d); `friction: mu` watches the grip.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct DiskOverBump;
    dependent { x, y }
}
