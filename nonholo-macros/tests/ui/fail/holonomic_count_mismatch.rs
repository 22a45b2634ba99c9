use nonholo::prelude::*;

nonholonomic! {
    /// One equation cannot be solved for two coordinates.
    pub struct Particle3d;
    parameters { m = 1.0 }
    coordinates { x, y, z }
    frame N;
    point O;
    point P = O + N[x, y, z];
    particle p { point: P, mass: m }
    holonomic(y, z) { z == x * x; }
}

fn main() {}
