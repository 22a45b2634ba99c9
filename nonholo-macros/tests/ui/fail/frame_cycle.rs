use nonholo::prelude::*;

nonholonomic! {
    /// `A` and `B` are each defined from the other: neither descends from `N`.
    pub struct Spinner;
    parameters { m = 1.0 }
    coordinates { yaw, lean }
    frame N;
    frame A = B.rotate(z, yaw);
    frame B = A.rotate(x, lean);
    point O;
    particle p { point: O, mass: m }
}

fn main() {}
