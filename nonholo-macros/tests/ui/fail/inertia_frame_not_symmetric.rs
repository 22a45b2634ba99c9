use nonholo::prelude::*;

nonholonomic! {
    /// The inertia is given in `L`, which turns relative to the body frame `D` about `L.x`,
    /// but the moments about y and z differ: the inertia would not be constant in the body.
    pub struct Tumbler;
    parameters { m = 1.0 }
    coordinates { yaw, lean }
    frame N;
    frame L = N.rotate(z, yaw);
    frame D = L.rotate(x, lean);
    point O;
    body b { frame: D, center: O, mass: m, inertia: inertia(L, 1.0, 2.0, 3.0) }
}

fn main() {}
