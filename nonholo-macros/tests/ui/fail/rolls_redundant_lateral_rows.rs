use nonholo::prelude::*;

nonholonomic! {
    /// Two wheels on one axle both with their lateral row: the second repeats the first.
    pub struct Axle;
    parameters { m = 1.0, r = 0.1, b = 0.2 }
    coordinates { x, y, th, phi_l, phi_r }
    frame N;
    point O;
    frame C = N.rotate(z, th);
    frame WL = C.rotate(y, phi_l);
    frame WR = C.rotate(y, phi_r);
    point P = O + N[x, y, 0.0];
    point L_o = P + C[0.0, b, r];
    point R_o = P + C[0.0, -b, r];
    body left { frame: WL, center: L_o, mass: m, inertia: inertia(C, 0.1, 0.2, 0.1) }
    body right { frame: WR, center: R_o, mass: m, inertia: inertia(C, 0.1, 0.2, 0.1) }
    plane ground { point: O, up: N.z }
    rolls left on ground { center: L_o, axis: C.y, radius: r }
    rolls right on ground { center: R_o, axis: C.y, radius: r }
}

fn main() {}
