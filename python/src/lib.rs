//! `nonholo._native`: the library's models (`nonholo::models`) for Python.

use nonholo::models::{
    AssignedFront, AssignedSpin, ChaplyginBall, CoaxialDisks, DiffDriveRobot, DiskOverBump,
    MobileManipulator, ParallelPoints, PendulumSkate, Rattleback, RimlessWheel, RollingDisk3d,
    RollingDiskPendulum, RouthSphere, Skate, TippeTop, VerticalDisk, WhippleBicycle,
};

nonholo_python::export!(
    _native: Skate,
    VerticalDisk,
    CoaxialDisks,
    ParallelPoints,
    PendulumSkate,
    AssignedFront,
    RollingDiskPendulum,
    AssignedSpin,
    RollingDisk3d,
    WhippleBicycle,
    DiffDriveRobot,
    MobileManipulator,
    RimlessWheel,
    Rattleback,
    RouthSphere,
    ChaplyginBall,
    TippeTop,
    DiskOverBump,
);
