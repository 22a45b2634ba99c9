use nonholo::prelude::*;

nonholonomic! {
    /// Points do not add: a point plus a vector is a point.
    pub struct Particle3d;
    parameters { m = 1.0 }
    coordinates { x }
    frame N;
    point O;
    point P = O + N[x, 0.0, 0.0];
    point Q = O + P;
    particle p { point: Q, mass: m }
}

fn main() {}
