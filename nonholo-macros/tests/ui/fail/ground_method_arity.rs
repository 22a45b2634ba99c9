use nonholo::prelude::*;

nonholonomic! {
    /// `.at` takes the two coordinates of the point.
    pub struct Disk;
    parameters { m = 1.0, r = 0.3, g = 9.81 }
    coordinates { x, y, yaw, lean, spin }
    frame N;
    point O;
    frame L = N.rotate(z, yaw).rotate(x, lean);
    frame D = L.rotate(y, spin);
    ground road { height(u, v) = 0.05 * exp(-(u - 2.0).powi(2) / 0.1) + 0.0 * v }
    point P = road.at(x);
    point C = P + r * L.y.cross(road.normal(x, y).cross(L.y)).unit();
    body disk { frame: D, center: C, mass: m, inertia: inertia(L, 0.1, 0.2, 0.1) }
    gravity = -g * N.z;
    rolls disk on road { center: C, axis: L.y, radius: r, contact: P }
    dependent { x, y }
}

fn main() {}
