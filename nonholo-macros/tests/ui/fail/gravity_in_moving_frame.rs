use nonholo::prelude::*;

nonholonomic! {
    /// Gravity written along the body's `B.z` turns with `lean`: it is not a uniform field.
    pub struct Pendulum3d;
    parameters { m = 1.0, l = 1.0, g = 9.81 }
    coordinates { lean }
    frame N;
    frame B = N.rotate(x, lean);
    point O;
    point P = O - l * B.z;
    particle bob { point: P, mass: m }
    gravity = -g * B.z;
}

fn main() {}
