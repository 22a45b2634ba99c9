use nonholo::prelude::*;

nonholonomic! {
    /// A joint without a direction.
    pub struct Robot;
    parameters { g = 9.81 }
    urdf "urdf/zero_axis.urdf" { root: fixed }
    gravity = -g * world.z;
}

fn main() {}
