use nonholo::prelude::*;

nonholonomic! {
    /// A sphere has no axle.
    pub struct Ball;
    parameters { m = 1.0, r = 0.1, a = 0.2, b = 0.1, c = 0.05 }
    coordinates { x, y, yaw, roll, pitch }
    frame N;
    point O;
    frame B = N.rotate(z, yaw).rotate(x, roll).rotate(y, pitch);
    point E = O + N[x, y, r];
    point P = O + N[x, y, 0.0];
    body ball { frame: B, center: E, mass: m, inertia: inertia(B, 0.01, 0.01, 0.01) }
    plane ground { point: O, up: N.z }
    rolls ball on ground { surface: sphere(r), center: E, axis: B.y }
    dependent { x, y }
}

fn main() {}
