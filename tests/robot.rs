//! A differential-drive robot with a caster, written with frames, bodies and three rolling
//! contacts (the second drive wheel on the same axle with `lateral: false`): its velocity
//! map against the textbook kinematics, energy and constraints along a coasting run, and
//! the wheel torques' power.

use nonholo::prelude::*;

nonholonomic! {
    /// Two drive wheels (radius `r`, half track `b`) on one axle, the chassis' mass centre
    /// `c` behind the axle, a caster wheel (radius `r_c`) on a fork swivelling about a
    /// vertical axis `a` behind the axle with trail `d`. z up; `(x, y)` is the axle's
    /// midpoint on the ground, `th` the heading, `sw` the caster's swivel angle.
    pub struct DiffDrive;
    parameters {
        r = 0.1, b = 0.2, c = 0.05, a = 0.3, d = 0.04, h_s = 0.15, r_c = 0.05,
        m_c = 5.0, i_cx = 0.1, i_cy = 0.15, i_cz = 0.2,
        m_w = 0.5, i_wd = 0.0013, i_wa = 0.0025,
        m_k = 0.1, i_kd = 0.00007, i_ka = 0.00013,
        g = 9.81
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
    rolls left on ground { center: L_o, axis: C.y, radius: r }
    rolls right on ground { center: R_o, axis: C.y, radius: r, lateral: false }
    rolls caster on ground { center: K_o, axis: K.y, radius: r_c }
    forces {
        between left, chassis: t_l * C.y;
        between right, chassis: t_r * C.y;
    }
    dependent { x, y, th, sw, phi_c }
}

mod common;
use common::rng::SplitMix64;

#[test]
fn velocity_map_is_the_unicycle_kinematics() {
    assert_eq!(DiffDrive::SPEEDS, ["dot(phi_l)", "dot(phi_r)"]);
    let m = DiffDrive::default();
    let mut rng = SplitMix64::new(11);
    for _ in 0..20 {
        let q = rng.uniform_vec(DiffDrive::NQ, -1.5, 1.5);
        let z = rng.uniform_vec(DiffDrive::NZ, -3.0, 3.0);
        let mut qd = [0.0; DiffDrive::NQ];
        m.qdot(0.0, &q, &z, &mut qd).unwrap();
        let (wl, wr, th) = (z[0], z[1], q[2]);
        let v = m.r * (wl + wr) / 2.0;
        let thd = m.r * (wr - wl) / (2.0 * m.b);
        for (got, want) in [(qd[0], v * th.cos()), (qd[1], v * th.sin()), (qd[2], thd)] {
            assert!((got - want).abs() < 1e-12, "{qd:?}: {got} vs {want}");
        }
        // the caster's contact point, a trail d behind the swivel axis, does not slip:
        // its velocity along and across the caster's heading th + sw
        let (sw, swd) = (q[5], qd[5]);
        let (ca, sa) = ((th + sw).cos(), (th + sw).sin());
        // swivel axis point S = P - a (cos th, sin th); contact = S - d (ca, sa)
        let vs = [qd[0] + m.a * th.sin() * thd, qd[1] - m.a * th.cos() * thd];
        let vc = [
            vs[0] + m.d * sa * (thd + swd),
            vs[1] - m.d * ca * (thd + swd),
        ];
        let lateral = -sa * vc[0] + ca * vc[1];
        let along = ca * vc[0] + sa * vc[1];
        assert!(lateral.abs() < 1e-12, "caster slips sideways: {lateral}");
        assert!(
            (along - m.r_c * qd[6]).abs() < 1e-12,
            "caster rolling: {along} vs {}",
            m.r_c * qd[6]
        );
    }
}

#[test]
fn coasting_conserves_energy_and_torques_do_work() {
    let m = DiffDrive::default();
    let state = [0.0, 0.0, 0.0, 0.0, 0.0, 0.7, 0.0, 4.0, 6.0];
    let options = Options::default()
        .rtol(1e-11)
        .atol(1e-11)
        .sample_every(0.05);
    let tr = simulate(&m, &state, 0.0..5.0, &options).unwrap();
    let e = tr.energy(&m).unwrap();
    let drift = e.iter().fold(0.0f64, |acc, x| acc.max((x - e[0]).abs())) / e[0].abs();
    let c = tr.max_constraint_residual(&m).unwrap();
    println!("coasting 5 s: energy drift {drift:e}, constraint residual {c:e}");
    assert!(drift < 1e-8 && c < 1e-10, "{drift:e} {c:e}");
    // equal torques speed it up: energy grows by the work t (phi_l + phi_r)
    let mut motors = |_t: f64, _x: &[f64], u: &mut [f64]| u.fill(0.05);
    let tr = simulate_controlled(&m, &mut motors, &state, 0.0..2.0, &options).unwrap();
    assert!(tr.inputs().iter().all(|u| *u == 0.05));
    let (e0, e1) = (m.energy(0.0, &state).unwrap(), {
        let (t, s) = tr.last().unwrap();
        m.energy(t, s).unwrap()
    });
    let s1 = tr.last().unwrap().1;
    let work = 0.05 * (s1[3] + s1[4]);
    println!("driven 2 s: energy gain {} vs work {work}", e1 - e0);
    assert!(((e1 - e0) - work).abs() < 1e-8 * (1.0 + work.abs()));
}
