use nonholo::prelude::*;

nonholonomic! {
    pub struct Pendulum;
    parameters { m = 1.0, l = 1.0, g = 9.81 }
    coordinates { a }
    frame N;
    point O;
    frame P = N.rotate(y, a);
    point B = O + l * P.z;
    particle bob { point: B, mass: m }
    gravity = -g * N.z;
    draw {
        segment { from: O, to: O + l * P.x };
    }
}

fn main() {}
