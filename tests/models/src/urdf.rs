//! Robots read from URDF files (`tests/data/urdf/`): arms from example-robot-data with
//! fixed roots and a quadruped with a floating root (Pinocchio's reference
//! dynamics in `tests/data/pinocchio_urdf.json`), and the library's own mobile
//! manipulator rolling on two wheels.

use nonholo::prelude::*;

nonholonomic! {
    /// Universal Robots' UR5: six revolute joints on a fixed base.
    pub struct Ur5;
    urdf "../data/urdf/ur5_robot.urdf" { root: fixed, actuated: all }
    parameters { g = 9.81 }
    gravity = -g * world.z;
}

nonholonomic! {
    /// UFactory's xArm 7: seven revolute joints with damping.
    pub struct Xarm7;
    urdf "../data/urdf/xarm7.urdf" { root: fixed, actuated: all }
    parameters { g = 9.81 }
    gravity = -g * world.z;
}

nonholonomic! {
    /// Kinova's arm: revolute and continuous joints.
    pub struct Kinova;
    urdf "../data/urdf/kinova.urdf" { root: fixed, actuated: all }
    parameters { g = 9.81 }
    gravity = -g * world.z;
}

nonholonomic! {
    /// The Solo 12 quadruped, floating.
    pub struct Solo12;
    urdf "../data/urdf/solo12.urdf" {
        root: floating(x, y, z, yaw, pitch, roll),
        actuated: all,
    }
    parameters { g = 9.81 }
    gravity = -g * world.z;
}

nonholonomic! {
    /// A differential-drive base carrying a turning arm, a slider along a slanted axis
    /// and a wrist about an unaligned axis, its wheels rolling on the ground; the wheels'
    /// rates are the speeds.
    pub struct MobileArm;
    urdf "../data/urdf/mobile_arm.urdf" { root: planar(x, y, yaw), actuated: all }
    parameters { g = 9.81 }
    gravity = -g * world.z;
    plane ground { point: world_origin, up: world.z }
    rolls wheel_left_link on ground;
    rolls wheel_right_link on ground { lateral: false }
    dependent { x, y, yaw }
}
