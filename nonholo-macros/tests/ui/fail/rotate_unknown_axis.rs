use nonholo::prelude::*;

nonholonomic! {
    /// A frame rotates about `x`, `y` or `z`; there is no axis `w`.
    pub struct Spinner;
    parameters { m = 1.0, r = 0.5 }
    coordinates { yaw }
    frame N;
    frame B = N.rotate(w, yaw);
    point O;
    point P = O + r * B.x;
    particle p { point: P, mass: m }
}

fn main() {}
