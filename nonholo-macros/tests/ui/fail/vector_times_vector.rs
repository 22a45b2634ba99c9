use nonholo::prelude::*;

nonholonomic! {
    /// `*` scales a vector by a scalar; two vectors have a dot and a cross product.
    pub struct Particle3d;
    parameters { m = 1.0 }
    coordinates { x }
    frame N;
    point O;
    point P = O + x * (N.x * N.y);
    particle p { point: P, mass: m }
}

fn main() {}
