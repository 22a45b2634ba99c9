use nonholo::prelude::*;

nonholonomic! {
    /// Holding a joint the file does not have.
    pub struct Robot;
    parameters { g = 9.81 }
    urdf "urdf/arm.urdf" { root: fixed, hold { shoulde } }
    gravity = -g * world.z;
}

fn main() {}
