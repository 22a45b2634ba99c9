//! The models of `multipliers`: worked systems through Lagrange multipliers.

nonholo::skate_model! {
    pub struct SkateM;
    formulation = multipliers;
}

// Benenti 9.2 with the forces of its oracle (the library model has only gravity).
crate::systems::forced_vertical_disk_model! {
    pub struct RollingDiskM;
    formulation = multipliers;
}

nonholo::parallel_points_model! {
    pub struct ParallelPointsM;
    formulation = multipliers;
}

nonholo::pendulum_skate_model! {
    pub struct PendulumSkateM;
    formulation = multipliers;
}

nonholo::assigned_spin_model! {
    pub struct AssignedSpinM;
    formulation = multipliers;
}
