//! The models of `surfaces`: a torus rolling upright, the same torus thin, and the library's
//! sphere and rattleback written again with their contact spelled out by hand.

use nonholo::nonholonomic;

nonholonomic! {
    /// A torus (major radius `r_major`, crown radius `rc`) rolling without slipping on level
    /// ground, its moments `i_a` about a diameter and `i_c` about the axle.
    pub struct RollingTorus;
    parameters { m = 1.2, r_major = 0.3, rc = 0.05, i_a = 0.03, i_c = 0.05, g = 9.81 }
    coordinates { x, y, yaw, lean, spin }
    frame N;
    point O;
    frame L = N.rotate(z, yaw).rotate(x, lean);
    frame D = L.rotate(y, spin);
    point P = O + N[x, y, 0.0];
    point C = P + rc * N.z + r_major * L.z;
    body tyre { frame: D, center: C, mass: m, inertia: inertia(L, i_a, i_c, i_a) }
    gravity = -g * N.z;
    plane ground { point: O, up: N.z }
    rolls tyre on ground { surface: torus(r_major, rc), center: C, axis: L.y, contact: P }
    dependent { x, y }
}

nonholonomic! {
    /// `nonholo::models::RollingDisk3d` as a torus of crown radius `rc` (0 by default: the
    /// same disk), its centre placed by the macro (`solve` would be needed otherwise: here
    /// the height is anchored by `C`).
    pub struct ThinTorus;
    parameters { m = 1.0, r = 0.5, rc = 0.0, g = 9.81 }
    coordinates { x, y, yaw, lean, spin }
    frame N;
    point O;
    frame L = N.rotate(z, yaw).rotate(x, lean);
    frame D = L.rotate(y, spin);
    point P = O + N[x, y, 0.0];
    point C = P + rc * N.z + (r - rc) * L.z;
    body disk { frame: D, center: C, mass: m,
                inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }
    gravity = -g * N.z;
    plane ground { point: O, up: N.z }
    rolls disk on ground { surface: torus(r - rc, rc), center: C, axis: L.y }
    dependent { x, y }
}

nonholonomic! {
    /// `nonholo::models::RouthSphere` with its two no-slip rows written by hand: the
    /// material point `E - r N.z` has no horizontal velocity.
    pub struct RouthByHand;
    parameters { m = 2.0, r = 0.15, e = 0.04, i_a = 0.02, i_c = 0.03, g = 9.81 }
    coordinates { x, y, yaw, roll, pitch }
    frame N;
    point O;
    frame B = N.rotate(z, yaw).rotate(x, roll).rotate(y, pitch);
    point E = O + N[x, y, r];
    point G = E + e * B.z;
    body ball { frame: B, center: G, mass: m, inertia: inertia(B, i_a, i_a, i_c) }
    gravity = -g * N.z;
    let vm = velocity(E) + angular_velocity(B).cross(-r * N.z);
    constraints { vm.dot(N.x) == 0.0; vm.dot(N.y) == 0.0; }
    dependent { x, y }
}

nonholonomic! {
    /// `nonholo::models::Rattleback` with its support point, height and no-slip rows written
    /// by hand: `n = -N.z` in B, `sigma = sqrt(n . A n)`, the contact `E + A n / sigma`.
    pub struct RattlebackByHand;
    parameters {
        m = 1.0, a = 0.20, b = 0.03, c = 0.02, h = 0.01,
        i_a = 2.0e-4, i_b = 1.6e-3, i_c = 1.7e-3, i_d = -2.0e-5, g = 9.81
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
    let nx = -N.z.dot(B.x);
    let ny = -N.z.dot(B.y);
    let nz = -N.z.dot(B.z);
    let sigma = sqrt(a * a * nx * nx + b * b * ny * ny + c * c * nz * nz);
    let rho = B[a * a * nx, b * b * ny, c * c * nz] / sigma;
    let vm = velocity(E) + angular_velocity(B).cross(rho);
    holonomic(z) { z == sigma; }
    constraints { vm.dot(N.x) == 0.0; vm.dot(N.y) == 0.0; }
    dependent { x, y, z }
}

// The library's rolling bodies through the other formulations: `speeds` for
// Boltzmann–Hamel, the dependent velocities for Voronec, nothing for the multipliers.
nonholo::rattleback_model! {
    /// `Rattleback` by Boltzmann–Hamel.
    pub struct RattlebackBh;
    speeds { w_yaw = dot(yaw); w_roll = dot(roll); w_pitch = dot(pitch); }
    formulation = boltzmann_hamel;
}
nonholo::rattleback_model! {
    /// `Rattleback` by Voronec.
    pub struct RattlebackVo;
    dependent { x, y, z }
    formulation = voronec;
}
nonholo::rattleback_model! {
    /// `Rattleback` by Lagrange's multipliers.
    pub struct RattlebackMu;
    formulation = multipliers;
}
nonholo::tippe_top_model! {
    /// `TippeTop` by Voronec.
    pub struct TippeTopVo;
    dependent { x, y }
    formulation = voronec;
}
nonholo::tippe_top_model! {
    /// `TippeTop` by Lagrange's multipliers.
    pub struct TippeTopMu;
    formulation = multipliers;
}

nonholonomic! {
    /// `nonholo::models::RollingDisk3d` on a ground whose height is 0 everywhere: the same
    /// disk, its contact and normal from the ground.
    pub struct DiskOnFlatGround;
    parameters { m = 1.0, r = 0.5, g = 9.81 }
    coordinates { x, y, yaw, lean, spin }
    frame N;
    point O;
    frame L = N.rotate(z, yaw).rotate(x, lean);
    frame D = L.rotate(y, spin);
    ground flat { height(u, v) = 0.0 * u * v }
    point P = flat.at(x, y);
    point C = P + r * L.y.cross(flat.normal(x, y).cross(L.y)).unit();
    body disk { frame: D, center: C, mass: m,
                inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }
    gravity = -g * N.z;
    rolls disk on flat { center: C, axis: L.y, radius: r, contact: P }
    dependent { x, y }
}

nonholonomic! {
    /// A uniform ball on ground sloping down along x (`z = -s x`): from rest it rolls down
    /// with `5/7 g sin(alpha)` along the slope, `tan(alpha) = s`.
    pub struct BallOnSlope;
    parameters { m = 1.5, r = 0.1, s = 0.3, g = 9.81 }
    coordinates { x, y, yaw, roll, pitch }
    frame N;
    point O;
    frame B = N.rotate(z, yaw).rotate(x, roll).rotate(y, pitch);
    ground slope { height(u, v) = -s * u + 0.0 * v }
    point P = slope.at(x, y);
    point E = P + r * slope.normal(x, y);
    body ball { frame: B, center: E, mass: m,
                inertia: inertia(B, 0.4 * m * r * r, 0.4 * m * r * r, 0.4 * m * r * r) }
    gravity = -g * N.z;
    rolls ball on slope { surface: sphere(r), center: E, contact: P }
    dependent { x, y }
}
nonholo::disk_over_bump_model! {
    /// `DiskOverBump` by Voronec.
    pub struct DiskOverBumpVo;
    dependent { x, y }
    formulation = voronec;
}
nonholo::disk_over_bump_model! {
    /// `DiskOverBump` by Lagrange's multipliers.
    pub struct DiskOverBumpMu;
    formulation = multipliers;
}
