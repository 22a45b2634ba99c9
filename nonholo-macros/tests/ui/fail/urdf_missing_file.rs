use nonholo::prelude::*;

nonholonomic! {
    /// The file does not exist.
    pub struct Robot;
    parameters { g = 9.81 }
    urdf "urdf/no_such_file.urdf" { root: fixed }
    gravity = -g * world.z;
}

fn main() {}
