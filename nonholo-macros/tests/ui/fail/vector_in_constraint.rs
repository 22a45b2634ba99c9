use nonholo::prelude::*;

nonholonomic! {
    /// A constraint is a scalar equation; `velocity(P) == 0.0` compares a vector with a number.
    pub struct Particle3d;
    parameters { m = 1.0 }
    coordinates { x, y }
    frame N;
    point O;
    point P = O + N[x, y, 0.0];
    particle p { point: P, mass: m }
    constraints { velocity(P) == 0.0; }
}

fn main() {}
