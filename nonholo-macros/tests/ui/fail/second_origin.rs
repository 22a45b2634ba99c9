use nonholo::prelude::*;

nonholonomic! {
    /// Only one point is fixed at the origin; `Q` needs a position.
    pub struct Particle3d;
    parameters { m = 1.0 }
    coordinates { x }
    frame N;
    point O;
    point Q;
    point P = O + N[x, 0.0, 0.0];
    particle p { point: P, mass: m }
}

fn main() {}
