use nonholo::prelude::*;

nonholonomic! {
    /// Two frames without a parent: only one can be the inertial frame.
    pub struct Particle3d;
    parameters { m = 1.0 }
    coordinates { x }
    frame N;
    frame M;
    point O;
    point P = O + N[x, 0.0, 0.0];
    particle p { point: P, mass: m }
}

fn main() {}
