//! The models of `scalars`: the other formulations' emitted code.

// The other formulations' emitted code (Benenti's second method among them).
nonholo::skate_model! { pub struct SkateMu; formulation = multipliers; }
nonholo::skate_model! {
    pub struct SkateBh;
    speeds { v = cos(theta) * dot(x) + sin(theta) * dot(y); w = dot(theta); }
    formulation = boltzmann_hamel;
}
nonholo::rolling_disk_pendulum_model! { pub struct UnicycleVo; formulation = voronec; }
nonholo::rolling_disk_pendulum_model! { pub struct UnicycleMu; formulation = multipliers; }
