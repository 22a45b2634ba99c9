use nonholo::prelude::*;

nonholonomic! {
    /// A force acts at a declared point; `Q` is not one.
    pub struct Particle3d;
    parameters { m = 1.0, c = 0.1 }
    coordinates { x }
    frame N;
    point O;
    point P = O + N[x, 0.0, 0.0];
    particle p { point: P, mass: m }
    forces { at Q: -c * velocity(P); }
}

fn main() {}
