use nonholo::prelude::*;

nonholonomic! {
    /// `B` is defined from itself: there is no inertial frame and `B` is on a cycle.
    pub struct Spinner;
    parameters { m = 1.0 }
    coordinates { yaw }
    frame B = B.rotate(z, yaw);
    point O;
    particle p { point: O, mass: m }
}

fn main() {}
