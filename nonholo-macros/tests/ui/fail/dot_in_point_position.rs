use nonholo::prelude::*;

nonholonomic! {
    /// A point's position cannot depend on velocities.
    pub struct Particle3d;
    parameters { m = 1.0 }
    coordinates { x }
    frame N;
    point O;
    point P = O + N[dot(x), 0.0, 0.0];
    particle p { point: P, mass: m }
}

fn main() {}
