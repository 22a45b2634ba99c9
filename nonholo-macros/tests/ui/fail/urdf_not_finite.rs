use nonholo::prelude::*;

nonholonomic! {
    /// A non-finite number.
    pub struct Robot;
    parameters { g = 9.81 }
    urdf "urdf/not_finite.urdf" { root: fixed }
    gravity = -g * world.z;
}

fn main() {}
