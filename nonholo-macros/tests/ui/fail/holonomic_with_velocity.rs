use nonholo::prelude::*;

nonholonomic! {
    /// A configuration constraint relates positions; `dot(x)` is a velocity.
    pub struct Particle3d;
    parameters { m = 1.0 }
    coordinates { x, z }
    frame N;
    point O;
    point P = O + N[x, 0.0, z];
    particle p { point: P, mass: m }
    holonomic(z) { z == dot(x); }
}

fn main() {}
