//! A differential-drive robot with a caster, written with frames, bodies and three rolling
//! contacts (the second drive wheel on the same axle with `lateral: false`): its velocity
//! map against the textbook kinematics, energy and constraints along a coasting run, and
//! the wheel torques' power.

use nonholo::prelude::*;

use nonholo::models::DiffDriveRobot as DiffDrive;

use crate::common;
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
