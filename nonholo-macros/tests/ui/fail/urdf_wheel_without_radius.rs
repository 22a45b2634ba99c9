use nonholo::prelude::*;

nonholonomic! {
    /// The wheel's link has no collision cylinder to take its radius from.
    pub struct Robot;
    parameters { g = 9.81 }
    urdf "urdf/arm.urdf" { root: planar(x, y, yaw) }
    plane ground { point: world_origin, up: world.z }
    rolls upper on ground;
    gravity = -g * world.z;
}

fn main() {}
