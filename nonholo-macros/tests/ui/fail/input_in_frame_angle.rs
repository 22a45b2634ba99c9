use nonholo::prelude::*;

nonholonomic! {
    pub struct Arm;
    parameters { m = 1.0, l = 1.0 }
    inputs { tau, offset }
    coordinates { a }
    frame N;
    point O;
    frame B = N.rotate(z, a + offset);
    point P = O + l * B.x;
    particle tip { point: P, mass: m }
    forces { on B: tau * N.z; }
}

fn main() {}
