crate::nonholonomic! {
    /// A mobile manipulator: [`DiffDriveRobot`](super::DiffDriveRobot)'s base (two drive
    /// wheels on one axle, a castor on a swivelling fork, three rolling contacts) carrying a
    /// six-joint arm on a mount `M` above the chassis: `q1` turns the arm about the
    /// chassis' vertical, `q2` (shoulder) and `q3` (elbow) pitch it, `q4` rolls the
    /// forearm about its own axis, `q5` pitches the wrist and `q6` rolls the flange. Each
    /// link is a slender rod of length `l_i` and mass `m_i` along its frame's z axis (up
    /// when every joint angle is 0).
    ///
    /// 13 coordinates, 5 no-slip rows, 8 speeds (`dot(phi_l)`, `dot(phi_r)` and the joint
    /// rates), 10 bodies; the macro derives it body by body (Kane's form), like the
    /// recursive algorithms of robotics. Inputs: the wheel motors' torques `t_l`, `t_r`
    /// and the joint motors' torques `tau1`..`tau6`, each between a link and the one it
    /// hangs from.
    ///
    /// ```
    /// use nonholo::models::MobileManipulator;
    /// use nonholo::prelude::*;
    ///
    /// let m = MobileManipulator::default();
    /// assert_eq!((MobileManipulator::NQ, MobileManipulator::NZ, MobileManipulator::NU), (13, 8, 8));
    /// // at rest with the arm upright, gravity pulls on nothing that can move
    /// let s = MobileManipulator::ZERO_STATE;
    /// let mut d = MobileManipulator::ZERO_STATE;
    /// m.rhs(0.0, &s, &mut d).unwrap();
    /// assert!(d.iter().all(|x| x.abs() < 1e-12));
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct MobileManipulator;
    parameters {
        r = 0.1, b = 0.2, c = 0.05, a = 0.3, d = 0.04, h_s = 0.15, r_c = 0.05,
        m_c = 8.0, i_cx = 0.15, i_cy = 0.25, i_cz = 0.3,
        m_w = 0.5, i_wd = 0.0013, i_wa = 0.0025,
        m_k = 0.1, i_kd = 0.00007, i_ka = 0.00013,
        e_m = 0.05, h_m = 0.25,
        l1 = 0.12, l2 = 0.4, l3 = 0.35, l4 = 0.08, l5 = 0.08, l6 = 0.06,
        m1 = 2.0, m2 = 2.5, m3 = 1.5, m4 = 0.6, m5 = 0.5, m6 = 0.3,
        g = 9.81, mu = 0.8
    }
    inputs { t_l, t_r, tau1, tau2, tau3, tau4, tau5, tau6 }
    coordinates { x, y, th, phi_l, phi_r, sw, phi_c, q1, q2, q3, q4, q5, q6 }
    frame N;
    point O;
    frame C = N.rotate(z, th);
    frame WL = C.rotate(y, phi_l);
    frame WR = C.rotate(y, phi_r);
    frame K = C.rotate(z, sw);
    frame WC = K.rotate(y, phi_c);
    point P = O + N[x, y, 0.0];
    point G = P + C[-c, 0.0, 0.2];
    point L_o = P + C[0.0, b, r];
    point R_o = P + C[0.0, -b, r];
    point S_o = P + C[-a, 0.0, h_s];
    point K_o = S_o + K[-d, 0.0, r_c - h_s];
    body chassis { frame: C, center: G, mass: m_c, inertia: inertia(C, i_cx, i_cy, i_cz) }
    body left { frame: WL, center: L_o, mass: m_w, inertia: inertia(C, i_wd, i_wa, i_wd) }
    body right { frame: WR, center: R_o, mass: m_w, inertia: inertia(C, i_wd, i_wa, i_wd) }
    body caster { frame: WC, center: K_o, mass: m_k, inertia: inertia(K, i_kd, i_ka, i_kd) }
    // the arm
    point M = P + C[e_m, 0.0, h_m];
    frame A1 = C.rotate(z, q1);
    frame A2 = A1.rotate(y, q2);
    frame A3 = A2.rotate(y, q3);
    frame A4 = A3.rotate(z, q4);
    frame A5 = A4.rotate(y, q5);
    frame A6 = A5.rotate(z, q6);
    point G1 = M + 0.5 * l1 * A1.z;
    point J1 = M + l1 * A1.z;
    point G2 = J1 + 0.5 * l2 * A2.z;
    point J2 = J1 + l2 * A2.z;
    point G3 = J2 + 0.5 * l3 * A3.z;
    point J3 = J2 + l3 * A3.z;
    point G4 = J3 + 0.5 * l4 * A4.z;
    point J4 = J3 + l4 * A4.z;
    point G5 = J4 + 0.5 * l5 * A5.z;
    point J5 = J4 + l5 * A5.z;
    point G6 = J5 + 0.5 * l6 * A6.z;
    point E = J5 + l6 * A6.z;
    body link1 { frame: A1, center: G1, mass: m1,
                 inertia: inertia(A1, m1 * l1 * l1 / 12.0, m1 * l1 * l1 / 12.0, 0.002) }
    body link2 { frame: A2, center: G2, mass: m2,
                 inertia: inertia(A2, m2 * l2 * l2 / 12.0, m2 * l2 * l2 / 12.0, 0.002) }
    body link3 { frame: A3, center: G3, mass: m3,
                 inertia: inertia(A3, m3 * l3 * l3 / 12.0, m3 * l3 * l3 / 12.0, 0.001) }
    body link4 { frame: A4, center: G4, mass: m4,
                 inertia: inertia(A4, m4 * l4 * l4 / 12.0, m4 * l4 * l4 / 12.0, 0.0005) }
    body link5 { frame: A5, center: G5, mass: m5,
                 inertia: inertia(A5, m5 * l5 * l5 / 12.0, m5 * l5 * l5 / 12.0, 0.0004) }
    body link6 { frame: A6, center: G6, mass: m6,
                 inertia: inertia(A6, m6 * l6 * l6 / 12.0, m6 * l6 * l6 / 12.0, 0.00015) }
    gravity = -g * N.z;
    plane ground { point: O, up: N.z }
    rolls left on ground { center: L_o, axis: C.y, radius: r, friction: mu }
    rolls right on ground { center: R_o, axis: C.y, radius: r, lateral: false, friction: mu }
    rolls caster on ground { center: K_o, axis: K.y, radius: r_c, friction: mu }
    forces {
        between left, chassis: t_l * C.y;
        between right, chassis: t_r * C.y;
        between link1, chassis: tau1 * C.z;
        between link2, link1: tau2 * A1.y;
        between link3, link2: tau3 * A2.y;
        between link4, link3: tau4 * A3.z;
        between link5, link4: tau5 * A4.y;
        between link6, link5: tau6 * A5.z;
    }
    draw {
        cuboid { center: G, half: C[0.2, 0.15, 0.04], color: gray };
        segment { from: L_o, to: R_o, color: black };
        segment { from: M, to: J1, color: orange };
        segment { from: J1, to: J2, color: orange };
        segment { from: J2, to: J3, color: blue };
        segment { from: J3, to: J4, color: blue };
        segment { from: J4, to: J5, color: green };
        segment { from: J5, to: E, color: red };
        sphere { center: E, radius: 0.025, color: red };
        hide chassis;
        hide link1;
        hide link2;
        hide link3;
        hide link4;
        hide link5;
        hide link6;
    }
    dependent { x, y, th, sw, phi_c }
}
