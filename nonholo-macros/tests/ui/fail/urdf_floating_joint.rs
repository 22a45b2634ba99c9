use nonholo::prelude::*;

nonholonomic! {
    /// A floating joint inside the tree.
    pub struct Robot;
    parameters { g = 9.81 }
    urdf "urdf/floating_joint.urdf" { root: fixed }
    gravity = -g * world.z;
}

fn main() {}
