use nonholo::prelude::*;

nonholonomic! {
    /// A frame's angle is a position; a velocity cannot orient a frame.
    pub struct Spinner;
    parameters { m = 1.0, r = 0.5 }
    coordinates { yaw }
    frame N;
    frame B = N.rotate(z, dot(yaw));
    point O;
    point P = O + r * B.x;
    particle p { point: P, mass: m }
}

fn main() {}
