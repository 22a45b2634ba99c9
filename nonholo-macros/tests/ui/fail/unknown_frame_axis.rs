use nonholo::prelude::*;

nonholonomic! {
    /// The unit vectors of a frame are `.x`, `.y` and `.z`.
    pub struct Particle3d;
    parameters { m = 1.0 }
    coordinates { x }
    frame N;
    point O;
    point P = O + x * N.w;
    particle p { point: P, mass: m }
}

fn main() {}
