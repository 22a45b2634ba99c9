use nonholo::prelude::*;

nonholonomic! {
    /// `velocity(..)` takes a point; `N` is a frame (its rotation is `angular_velocity(N)`).
    pub struct Particle3d;
    parameters { m = 1.0, c = 0.1 }
    coordinates { x }
    frame N;
    point O;
    point P = O + N[x, 0.0, 0.0];
    particle p { point: P, mass: m }
    forces { at P: -c * velocity(N); }
}

fn main() {}
