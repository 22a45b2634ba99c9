    /// The benchmark bicycle, benchmark axes (x forward, y right, z down).
    pub struct Whipple;
    parameters {
        w = 1.02, c = 0.08, lam = 0.3141592653589793, g = 9.81,
        r_r = 0.3, m_r = 2.0, i_rxx = 0.0603, i_ryy = 0.12,
        x_b = 0.3, z_b = -0.9, m_b = 85.0, i_bxx = 9.2, i_byy = 11.0, i_bzz = 2.8, i_bxz = 2.4,
        x_h = 0.9, z_h = -0.7, m_h = 4.0, i_hxx = 0.05892, i_hyy = 0.06, i_hzz = 0.00708, i_hxz = -0.00756,
        r_f = 0.35, m_f = 3.0, i_fxx = 0.1405, i_fyy = 0.28,
        t_steer = 0.0
    }
    coordinates { x, y, yaw, roll, pitch, th_r, steer, th_f }
    frame N;
    point O;
    frame A = N.rotate(z, yaw);
    frame R = A.rotate(x, roll);
    frame B = R.rotate(y, pitch);
    frame S = B.rotate(y, lam);
    frame H = S.rotate(z, steer).rotate(y, -lam);
    frame WR = B.rotate(y, th_r);
    frame WF = H.rotate(y, th_f);
    point P_r = O + N[x, y, 0.0];
    point R_o = P_r - r_r * R.z;
    point B_c = R_o + B[x_b, 0.0, z_b + r_r];
    point S_a = R_o + B[w + c, 0.0, r_r];
    point F_o = S_a + H[-c, 0.0, -r_f];
    point H_c = S_a + H[x_h - w - c, 0.0, z_h];
    body rear_wheel { frame: WR, center: R_o, mass: m_r, inertia: inertia(B, i_rxx, i_ryy, i_rxx) }
    body rear_frame { frame: B, center: B_c, mass: m_b, inertia: inertia(B, i_bxx, i_byy, i_bzz, 0.0, 0.0, i_bxz) }
    body fork { frame: H, center: H_c, mass: m_h, inertia: inertia(H, i_hxx, i_hyy, i_hzz, 0.0, 0.0, i_hxz) }
    body front_wheel { frame: WF, center: F_o, mass: m_f, inertia: inertia(H, i_fxx, i_fyy, i_fxx) }
    gravity = g * N.z;
    plane ground { point: O, up: -N.z }
    rolls rear_wheel on ground { center: R_o, axis: B.y, radius: r_r, contact: P_r }
    rolls front_wheel on ground { center: F_o, axis: H.y, radius: r_f, solve: pitch }
    forces { between fork, rear_frame: t_steer * S.z; }
    dependent { x, y, yaw, pitch, th_f }
