use nonholo::prelude::*;

nonholonomic! {
    /// `P` is built on `Q`, which is declared below it.
    pub struct Particle3d;
    parameters { m = 1.0 }
    coordinates { x }
    frame N;
    point O;
    point P = Q + N[x, 0.0, 0.0];
    point Q = O + N[0.0, 1.0, 0.0];
    particle p { point: P, mass: m }
}

fn main() {}
