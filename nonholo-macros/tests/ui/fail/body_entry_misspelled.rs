use nonholo::prelude::*;

nonholonomic! {
    /// The body's entry is `center`, not `centre`.
    pub struct Spinner;
    parameters { m = 1.0 }
    coordinates { yaw }
    frame N;
    frame B = N.rotate(z, yaw);
    point O;
    body b { frame: B, centre: O, mass: m, inertia: inertia(B, 1.0, 1.0, 1.0) }
}

fn main() {}
