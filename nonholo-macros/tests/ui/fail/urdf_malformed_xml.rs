use nonholo::prelude::*;

nonholonomic! {
    /// The file is not well-formed XML.
    pub struct Robot;
    parameters { g = 9.81 }
    urdf "urdf/malformed.urdf" { root: fixed }
    gravity = -g * world.z;
}

fn main() {}
