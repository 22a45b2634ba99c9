//! The models of `papers`: Benenti 9.2 and 9.3 with the forces of their oracles.

// Benenti 9.2 and 9.3 with the forces of their oracles (the library models have only
// gravity, in the potential); 9.1 and 9.4 are the library models.
crate::systems::forced_vertical_disk_model! {
    pub struct RollingDisk;
    speeds { z1 = dot(theta); z2 = dot(psi); }
}

crate::systems::forced_coaxial_disks_model! {
    pub struct CoaxialDisks;
    speeds { z1 = dot(theta1); z2 = dot(theta2); }
}
