use nonholo::prelude::*;

nonholonomic! {
    /// Principal moments that break the triangle inequality.
    pub struct Robot;
    parameters { g = 9.81 }
    urdf "urdf/impossible_inertia.urdf" { root: fixed }
    gravity = -g * world.z;
}

fn main() {}
