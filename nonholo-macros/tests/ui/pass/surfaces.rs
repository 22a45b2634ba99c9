#![deny(warnings)]
use nonholo::prelude::*;

nonholonomic! {
    /// A sphere, an ellipsoid and a torus, each rolling on its own plane (they do not meet):
    /// every surface expands, and a state on the ground has no constraint residual.
    pub struct Three;
    parameters { m = 1.0, r = 0.1, a = 0.2, b = 0.1, c = 0.05, big_r = 0.3, rc = 0.02, g = 9.81 }
    coordinates { x1, y1, yaw1, roll1, pitch1, x2, y2, z2, yaw2, roll2, pitch2, x3, y3, yaw3, lean3, spin3 }
    frame N;
    point O;
    frame B1 = N.rotate(z, yaw1).rotate(x, roll1).rotate(y, pitch1);
    frame B2 = N.rotate(z, yaw2).rotate(x, roll2).rotate(y, pitch2);
    frame L3 = N.rotate(z, yaw3).rotate(x, lean3);
    frame D3 = L3.rotate(y, spin3);
    point E1 = O + N[x1, y1, r];
    point E2 = O + N[x2, y2, z2];
    point P3 = O + N[x3, y3, 0.0];
    point C3 = P3 + rc * N.z + big_r * L3.z;
    body ball { frame: B1, center: E1, mass: m, inertia: inertia(B1, 0.01, 0.01, 0.01) }
    body shell { frame: B2, center: E2, mass: m, inertia: inertia(B2, 0.01, 0.02, 0.03) }
    body tyre { frame: D3, center: C3, mass: m, inertia: inertia(L3, 0.02, 0.04, 0.02) }
    gravity = -g * N.z;
    plane ground { point: O, up: N.z }
    rolls ball on ground { surface: sphere(r), center: E1, friction: 0.5 }
    rolls shell on ground { surface: ellipsoid(a, b, c), frame: B2, center: E2, solve: z2 }
    rolls tyre on ground { surface: torus(big_r, rc), center: C3, axis: L3.y, contact: P3 }
    dependent { x1, y1, x2, y2, z2, x3, y3 }
}

fn main() {
    let m = Three::default();
    let mut q = [0.0; Three::NQ];
    q[7] = 0.3;
    m.solve_configuration(0.0, &mut q).unwrap();
    assert!((q[7] - m.c).abs() < 1e-12);
    let s = m.state_from_qdot(0.0, &q, &[0.0; Three::NQ]).unwrap();
    let mut d = [0.0; Three::DIM];
    m.rhs(0.0, &s, &mut d).unwrap();
    assert!(d.iter().all(|x| x.abs() < 1e-12));
}
