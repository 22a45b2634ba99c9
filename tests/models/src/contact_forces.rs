//! The models of `contact_forces`: contacts whose normal force is a multiplier (solved)
//! beside the same contacts held on the plane by the coordinates, and a disk on a slope.

nonholo::rolling_disk_3d_model! {
    /// The library's disk, its contact held on the plane by the coordinates.
    pub struct DiskAnchored;
    dependent { x, y }
}

nonholo::rolling_disk_3d_model! {
    /// The same disk through Lagrange multipliers.
    pub struct DiskAnchoredMu;
    formulation = multipliers;
}

nonholo::nonholonomic! {
    /// The same disk with its centre's height `h` a coordinate: the contact height is a
    /// configuration constraint solved for `h`, so the normal force is its multiplier
    /// (independent of the Newton–Euler balance that gives the anchored disk's).
    pub struct DiskReleased;
    parameters { m = 1.0, r = 0.5, g = 9.81 }
    coordinates { x, y, h, yaw, lean, spin }
    frame N;
    point O;
    frame L = N.rotate(z, yaw).rotate(x, lean);
    frame D = L.rotate(y, spin);
    point C = O + N[x, y, h];
    body disk { frame: D, center: C, mass: m,
                inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }
    gravity = -g * N.z;
    plane ground { point: O, up: N.z }
    rolls disk on ground { center: C, axis: L.y, radius: r, solve: h }
    dependent { x, y, h }
}

nonholo::nonholonomic! {
    /// A thin disk on a plane sloping down along `S.x` at the angle `alpha`, with a
    /// friction coefficient: rolling straight down needs the friction ratio `tan(alpha)/3`.
    pub struct DiskOnSlope;
    parameters { m = 1.3, r = 0.4, g = 9.81, alpha = 0.3, mu = 0.5 }
    coordinates { x, y, yaw, lean, spin }
    frame N;
    point O;
    frame S = N.rotate(y, alpha);
    frame L = S.rotate(z, yaw).rotate(x, lean);
    frame D = L.rotate(y, spin);
    point P = O + S[x, y, 0.0];
    point C = P + r * L.z;
    body disk { frame: D, center: C, mass: m,
                inertia: inertia(L, 0.25 * m * r * r, 0.5 * m * r * r, 0.25 * m * r * r) }
    gravity = -g * N.z;
    plane slope { point: O, up: S.z }
    rolls disk on slope { center: C, axis: L.y, radius: r, contact: P, friction: mu }
    dependent { x, y }
}
