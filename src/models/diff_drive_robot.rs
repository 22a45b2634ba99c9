crate::nonholonomic! {
    /// A differential-drive robot: two drive wheels (radius `r`, half track `b`) on one
    /// axle, the chassis' mass centre `c` behind the axle, a caster wheel (radius `r_c`) on
    /// a fork swivelling about a vertical axis `a` behind the axle with trail `d`, written
    /// with frames, bodies and three rolling contacts (the second drive wheel on the same
    /// axle with `lateral: false`). z up; `(x, y)` is the axle's midpoint on the ground,
    /// `th` the heading, `sw` the caster's swivel angle; the speeds are the wheel rates
    /// `dot(phi_l)`, `dot(phi_r)`. Inputs: the wheel motors' torques `t_l`, `t_r`. Every
    /// wheel grips with the friction coefficient `mu`: a run stops where one would slip or
    /// lift off (`Options::contact_checks`), and `contact_loads` gives the wheel loads.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct DiffDriveRobot;
    parameters {
        r = 0.1, b = 0.2, c = 0.05, a = 0.3, d = 0.04, h_s = 0.15, r_c = 0.05,
        m_c = 5.0, i_cx = 0.1, i_cy = 0.15, i_cz = 0.2,
        m_w = 0.5, i_wd = 0.0013, i_wa = 0.0025,
        m_k = 0.1, i_kd = 0.00007, i_ka = 0.00013,
        g = 9.81, mu = 0.8
    }
    inputs { t_l, t_r }
    coordinates { x, y, th, phi_l, phi_r, sw, phi_c }
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
    gravity = -g * N.z;
    plane ground { point: O, up: N.z }
    rolls left on ground { center: L_o, axis: C.y, radius: r, friction: mu }
    rolls right on ground { center: R_o, axis: C.y, radius: r, lateral: false, friction: mu }
    rolls caster on ground { center: K_o, axis: K.y, radius: r_c, friction: mu }
    forces {
        between left, chassis: t_l * C.y;
        between right, chassis: t_r * C.y;
    }
    draw {
        cuboid { center: G, half: C[0.2, 0.15, 0.04], color: gray };
        segment { from: L_o, to: R_o, color: black };
        hide chassis;
    }
    dependent { x, y, th, sw, phi_c }
}
