use nonholo::prelude::*;

nonholonomic! {
    /// A joint that moves no mass.
    pub struct Robot;
    parameters { g = 9.81 }
    urdf "urdf/no_mass.urdf" { root: fixed }
    gravity = -g * world.z;
}

fn main() {}
