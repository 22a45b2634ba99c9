use nonholo::prelude::*;

nonholonomic! {
    /// A body needs a mass.
    pub struct Spinner;
    parameters { m = 1.0 }
    coordinates { yaw }
    frame N;
    frame B = N.rotate(z, yaw);
    point O;
    body b { frame: B, center: O, inertia: inertia(B, 1.0, 1.0, 1.0) }
}

fn main() {}
