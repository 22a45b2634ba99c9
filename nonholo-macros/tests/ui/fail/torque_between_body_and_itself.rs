use nonholo::prelude::*;

nonholonomic! {
    /// `between W, V` is an action-reaction pair on two bodies; on one body it cancels.
    pub struct Spinner;
    parameters { m = 1.0, tau = 0.1 }
    coordinates { yaw }
    frame N;
    frame B = N.rotate(z, yaw);
    point O;
    body b { frame: B, center: O, mass: m, inertia: inertia(B, 1.0, 1.0, 1.0) }
    forces { between b, b: tau * N.z; }
}

fn main() {}
