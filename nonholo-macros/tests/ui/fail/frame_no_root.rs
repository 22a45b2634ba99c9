use nonholo::prelude::*;

nonholonomic! {
    /// `B` is rotated from `N`, but the inertial frame `frame N;` was never declared.
    pub struct Spinner;
    parameters { m = 1.0 }
    coordinates { yaw }
    frame B = N.rotate(z, yaw);
    point O;
    particle p { point: O, mass: m }
}

fn main() {}
