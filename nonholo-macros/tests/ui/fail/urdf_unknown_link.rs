use nonholo::prelude::*;

nonholonomic! {
    /// A joint names a link the file does not have.
    pub struct Robot;
    parameters { g = 9.81 }
    urdf "urdf/unknown_link.urdf" { root: fixed }
    gravity = -g * world.z;
}

fn main() {}
