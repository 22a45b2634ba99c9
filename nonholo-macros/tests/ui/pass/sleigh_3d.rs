#![deny(warnings)]
use nonholo::prelude::*;

nonholonomic! {
    /// Chaplygin sleigh in 3D items: a knife edge at `P` that cannot slide along `B.y`, the
    /// centre of mass `a` ahead of it, viscous drag at the blade and a steering torque.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Sleigh3d;
    parameters { m = 1.0, a = 0.3, i = 0.2, c = 0.1, tau = 0.05 }
    coordinates { x, y, theta }
    frame N;
    point O;
    frame B = N.rotate(z, theta);
    point P = O + N[x, y, 0.0];
    point G = P + a * B.x;
    body sleigh { frame: B, center: G, mass: m, inertia: inertia(B, i, i, i) }
    constraints { velocity(P).dot(B.y) == 0.0; }
    forces { at P: -c * velocity(P); on sleigh: tau * N.z; }
    dependent { y }
}

fn main() {
    let s = Sleigh3d::new();
    let state = [0.1, -0.2, 0.3, 1.0, 0.5];
    let mut d = [0.0; Sleigh3d::DIM];
    s.rhs(0.0, &state, &mut d).unwrap();
    assert!(d.iter().all(|x| x.is_finite()));
}
