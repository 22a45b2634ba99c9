use nonholo::prelude::*;

nonholonomic! {
    /// The joints make a cycle.
    pub struct Robot;
    parameters { g = 9.81 }
    urdf "urdf/cycle.urdf" { root: fixed }
    gravity = -g * world.z;
}

fn main() {}
