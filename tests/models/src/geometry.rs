//! The models of `geometry`: a bicycle frame in Moore's geometry and an arm drawn by hand.

use nonholo::nonholonomic;

nonholonomic! {
    /// The bicycle's frame and fork in Moore's geometry (his thesis; DynamicistToolKit's
    /// `front_contact`): z down, the rear frame C pitched so that C.z is the steer axis,
    /// the front wheel centre `d1` along C.x, `d2` along the steer axis and `d3` along the
    /// fork's E.x from the rear wheel centre; the front contact's height solved for pitch.
    pub struct MooreFrame;
    parameters { rr = 0.3, rf = 0.3, d1 = 0.6, d2 = 0.3, d3 = 0.03 }
    coordinates { x, y, yaw, roll, pitch, steer, spin }
    frame N;
    point O;
    frame A = N.rotate(z, yaw);
    frame R = A.rotate(x, roll);
    frame C = R.rotate(y, pitch);
    frame E = C.rotate(z, steer);
    frame W = E.rotate(y, spin);
    point P = O + N[x, y, 0.0];
    point R_o = P - rr * R.z;
    point F_o = R_o + d1 * C.x + d2 * C.z + d3 * E.x;
    body frame_body { frame: C, center: R_o, mass: 1.0, inertia: inertia(C, 0.1, 0.2, 0.1) }
    body wheel { frame: W, center: F_o, mass: 1.0, inertia: inertia(E, 0.1, 0.2, 0.1) }
    plane ground { point: O, up: -N.z }
    rolls wheel on ground { center: F_o, axis: E.y, radius: rf, solve: pitch }
}

nonholonomic! {
    /// A two-link arm on a turntable, drawn by hand: links as segments and a cylinder, the
    /// elbow a sphere, the base a box; the forearm's default ellipsoid hidden.
    pub struct DrawnArm;
    parameters { m = 1.0, l = 0.5, g = 9.81 }
    coordinates { base, shoulder, elbow }
    frame N;
    point O;
    frame B = N.rotate(z, base);
    frame U = B.rotate(y, shoulder);
    frame F = U.rotate(y, elbow);
    point E = O + l * U.x;
    point H = E + l * F.x;
    point M = E + 0.5 * l * F.x;
    body upper { frame: U, center: O + 0.5 * l * U.x, mass: m, inertia: inertia(U, 0.01, 0.02, 0.02) }
    body fore { frame: F, center: M, mass: m, inertia: inertia(F, 0.01, 0.02, 0.02) }
    gravity = -g * N.z;
    draw {
        segment { from: O, to: E, color: blue };
        cylinder { center: M, axis: F.x, radius: 0.03, length: l, color: rgb(250, 120, 20) };
        sphere { center: E, radius: 0.05 };
        cuboid { center: O, half: B[0.2, 0.2, 0.05], color: gray };
        hide fore;
    }
}
