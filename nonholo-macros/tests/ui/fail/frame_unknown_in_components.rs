use nonholo::prelude::*;

nonholonomic! {
    /// Components are given in a frame `M` that was never declared.
    pub struct Particle3d;
    parameters { m = 1.0 }
    coordinates { x }
    frame N;
    point O;
    point P = O + M[x, 0.0, 0.0];
    particle p { point: P, mass: m }
}

fn main() {}
