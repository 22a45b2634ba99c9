use nonholo::prelude::*;

nonholonomic! {
    /// The inertia is given in `N`, which turns relative to the body frame `D` about z and
    /// about x: no inertia is constant in the body then, even a symmetric one.
    pub struct Tumbler;
    parameters { m = 1.0 }
    coordinates { yaw, lean }
    frame N;
    frame D = N.rotate(z, yaw).rotate(x, lean);
    point O;
    body b { frame: D, center: O, mass: m, inertia: inertia(N, 1.0, 2.0, 2.0) }
}

fn main() {}
