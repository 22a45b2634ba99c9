use nonholo::prelude::*;

nonholonomic! {
    /// A friction coefficient is a constant of the contact, not a function of the lean.
    pub struct RollingDisk;
    parameters { m = 1.0, r = 0.5, mu = 0.8 }
    coordinates { x, y, yaw, lean, spin }
    frame N;
    point O;
    frame L = N.rotate(z, yaw).rotate(x, lean);
    frame D = L.rotate(y, spin);
    point P = O + N[x, y, 0.0];
    point C = P + r * L.z;
    body disk { frame: D, center: C, mass: m,
                inertia: inertia(L, 0.25*m*r*r, 0.5*m*r*r, 0.25*m*r*r) }
    plane ground { point: O, up: N.z }
    rolls disk on ground { center: C, axis: L.y, radius: r, contact: P, friction: mu * cos(lean) }
    dependent { x, y }
}

fn main() {}
