use nonholo::prelude::*;

nonholonomic! {
    /// `.dot(v)` is the scalar product of vectors; `x` is a scalar coordinate.
    pub struct Particle3d;
    parameters { m = 1.0 }
    coordinates { x, y }
    frame N;
    point O;
    point P = O + N[x, y, 0.0];
    particle p { point: P, mass: m }
    constraints { x.dot(N.x) == 0.0; }
}

fn main() {}
