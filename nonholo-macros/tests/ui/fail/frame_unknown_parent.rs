use nonholo::prelude::*;

nonholonomic! {
    /// `B` is rotated from a frame `A` that was never declared.
    pub struct Spinner;
    parameters { m = 1.0 }
    coordinates { yaw }
    frame N;
    frame B = A.rotate(z, yaw);
    point O;
    particle p { point: O, mass: m }
}

fn main() {}
