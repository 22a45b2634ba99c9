use nonholo::prelude::*;

nonholonomic! {
    /// The root is not said.
    pub struct Robot;
    parameters { g = 9.81 }
    urdf "urdf/arm.urdf" { actuated: all }
    gravity = -g * world.z;
}

fn main() {}
