use nonholo::prelude::*;

nonholonomic! {
    /// Two links are no joint's child.
    pub struct Robot;
    parameters { g = 9.81 }
    urdf "urdf/second_root.urdf" { root: fixed }
    gravity = -g * world.z;
}

fn main() {}
