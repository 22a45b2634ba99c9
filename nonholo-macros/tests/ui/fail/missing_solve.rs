use nonholo::prelude::*;

nonholonomic! {
    /// The centre's height `h` is a coordinate, so the contact is on the plane only when
    /// `h == r cos(lean)`: the rolling contact must name the coordinate it determines.
    pub struct RollingDisk;
    parameters { m = 1.0, r = 0.5 }
    coordinates { x, y, h, yaw, lean, spin }
    frame N;
    point O;
    frame L = N.rotate(z, yaw).rotate(x, lean);
    frame D = L.rotate(y, spin);
    point C = O + N[x, y, h];
    body disk { frame: D, center: C, mass: m,
                inertia: inertia(L, 0.25*m*r*r, 0.5*m*r*r, 0.25*m*r*r) }
    plane ground { point: O, up: N.z }
    rolls disk on ground { center: C, axis: L.y, radius: r }
    dependent { x, y }
}

fn main() {}
