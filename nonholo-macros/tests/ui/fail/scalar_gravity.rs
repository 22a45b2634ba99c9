use nonholo::prelude::*;

nonholonomic! {
    /// Gravity is a vector (an acceleration with a direction), not a number.
    pub struct Particle3d;
    parameters { m = 1.0 }
    coordinates { z }
    frame N;
    point O;
    point P = O + N[0.0, 0.0, z];
    particle p { point: P, mass: m }
    gravity = 9.81;
}

fn main() {}
