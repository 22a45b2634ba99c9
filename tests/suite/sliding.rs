//! Contacts that slip and grip again (`simulate_hybrid` on a model with `friction`): a disk
//! thrown sliding against its closed form (the switch time and speed, the friction's power
//! against the energy lost), the same run in three formulations and four methods, and a
//! robot that never reaches its friction limit left as `simulate` gives it.

use nonholo::models::DiffDriveRobot;
use nonholo::prelude::*;
use nonholo::{ContactEvent, Error, EventKind, Method};
use nonholo_test_models::hybrid_events::{
    DrivenDisk, UprightDisk, UprightDiskMu, UprightDiskVo, Wagon,
};

/// The closed form of the disk thrown at `v0` along `x` without spin: it slides for
/// `v0 / (3 mu g)`, then rolls at `2 v0 / 3`.
fn stick_time(d: &UprightDisk, v0: f64) -> f64 {
    v0 / (3.0 * d.mu * d.g)
}

/// `T` of the disk at `[q, dot(q)]` (upright: its centre at a fixed height).
fn energy(d: &UprightDisk, x: &[f64]) -> f64 {
    let (m, r) = (d.m, d.r);
    0.5 * m * (x[4] * x[4] + x[5] * x[5])
        + 0.5 * (0.25 * m * r * r) * x[6] * x[6]
        + 0.5 * (0.5 * m * r * r) * x[7] * x[7]
}

fn tight(method: Method) -> Options {
    Options::default()
        .method(method)
        .rtol(1e-11)
        .atol(1e-12)
        .sample_every(0.01)
}

fn throw<M: Model>(model: &M, v0: f64, options: &Options) -> Trajectory {
    simulate_hybrid(model, &[0.0; 4], &[v0, 0.0, 0.0, 0.0], 0.0..1.5, options).expect("a throw")
}

#[test]
fn a_disk_thrown_sliding_rolls_after_v0_over_3_mu_g_at_two_thirds_of_its_speed() {
    let d = UprightDisk::default();
    let v0 = 3.0;
    let tr = throw(&d, v0, &tight(Method::Dop853));
    let ts = stick_time(&d, v0);
    // one event: the grip, at the closed form's time
    let [event] = tr.events() else {
        panic!("one event: {:?}", tr.events())
    };
    assert_eq!(
        event.kind,
        EventKind::Contact {
            contact: "disk on ground",
            event: ContactEvent::Stick
        }
    );
    assert!((event.t - ts).abs() < 1e-8, "{} vs {ts}", event.t);
    assert_eq!(
        tr.names()[4..],
        ["dot(x)", "dot(y)", "dot(yaw)", "dot(spin)"]
    );
    let loads = tr.contact_loads(&d).expect("recorded loads");
    let (m, g, mu, r) = (d.m, d.g, d.mu, d.r);
    let e0 = energy(&d, tr.state(0).unwrap());
    for (i, &t) in tr.times().iter().enumerate() {
        let x = tr.state(i).unwrap();
        let sliding = tr.sliding(i).unwrap()[0];
        let load = loads[i][0];
        assert!(
            (load.normal - m * g).abs() < 1e-9,
            "N at {t}: {}",
            load.normal
        );
        let before = t < event.t || (t == event.t && i + 1 < tr.len() && tr.times()[i + 1] == t);
        assert_eq!(sliding, before, "mode at {t}");
        if sliding {
            // v = v0 - mu g t, r spin = 2 mu g t, friction -mu N along x
            assert!((x[4] - (v0 - mu * g * t)).abs() < 1e-8, "v at {t}");
            assert!((r * x[7] - 2.0 * mu * g * t).abs() < 1e-8, "spin at {t}");
            assert!((load.longitudinal + mu * m * g).abs() < 1e-8 && load.lateral.abs() < 1e-8);
            assert!((load.utilization - 1.0).abs() < 1e-9);
            // the friction's power integrated: mu N (v0 t - 3 mu g t^2 / 2)
            let lost = mu * m * g * (v0 * t - 1.5 * mu * g * t * t);
            assert!((e0 - energy(&d, x) - lost).abs() < 1e-8, "energy at {t}");
        } else {
            // rolling at two thirds of v0, no friction needed, the energy m v0^2 / 6 gone
            assert!((x[4] - 2.0 * v0 / 3.0).abs() < 1e-8 && (r * x[7] - x[4]).abs() < 1e-8);
            assert!(load.tangential() < 1e-8);
            assert!(
                (e0 - energy(&d, x) - m * v0 * v0 / 6.0).abs() < 1e-8,
                "at {t}"
            );
        }
    }
}

#[test]
fn the_formulations_and_the_methods_agree_on_the_grip() {
    let v0 = 2.0;
    let d = UprightDisk::default();
    let ts = stick_time(&d, v0);
    let reference = throw(&d, v0, &tight(Method::Dop853));
    let last = |tr: &Trajectory| tr.last().unwrap().1.to_vec();
    for tr in [
        throw(&UprightDiskVo::default(), v0, &tight(Method::Dop853)),
        throw(&UprightDiskMu::default(), v0, &tight(Method::Dop853)),
    ] {
        assert!((tr.events()[0].t - reference.events()[0].t).abs() < 1e-9);
        for (a, b) in last(&tr).iter().zip(last(&reference)) {
            assert!((a - b).abs() < 1e-8, "{a} vs {b}");
        }
    }
    // every method at rtol 1e-10: the grip at the closed form's instant, to 1e-9 s
    for method in [Method::Tsit45, Method::Bdf, Method::Esdirk34] {
        let o = Options::default()
            .method(method)
            .rtol(1e-10)
            .atol(1e-12)
            .sample_every(0.01);
        let tr = throw(&d, v0, &o);
        assert_eq!(tr.events().len(), 1, "{method:?}");
        assert!(
            (tr.events()[0].t - ts).abs() < 1e-9,
            "{method:?}: {} vs {ts}",
            tr.events()[0].t
        );
    }
}

#[test]
fn a_thrown_disk_turned_sideways_slides_along_its_slip_and_grips() {
    // thrown at 45 degrees to its plane: the lateral slip decays with the longitudinal one
    // (the disk is held upright, so nothing turns it), and it grips once both are gone
    let d = UprightDisk::default();
    let o = tight(Method::Dop853);
    let tr = simulate_hybrid(&d, &[0.0; 4], &[1.0, 1.0, 0.0, 0.0], 0.0..1.5, &o).unwrap();
    let [event] = tr.events() else {
        panic!("{:?}", tr.events())
    };
    assert_eq!(
        event.kind,
        EventKind::Contact {
            contact: "disk on ground",
            event: ContactEvent::Stick
        }
    );
    let loads = tr.contact_loads(&d).unwrap();
    for (i, l) in loads.iter().enumerate() {
        if tr.sliding(i).unwrap()[0] {
            assert!((l[0].utilization - 1.0).abs() < 1e-9);
            // friction against the slip: the force and the slip velocity antiparallel
            let x = tr.state(i).unwrap();
            let vs = [x[4] - d.r * x[7], x[5]];
            let f = [l[0].force[0], l[0].force[1]];
            let (speed, force) = (vs[0].hypot(vs[1]), f[0].hypot(f[1]));
            let sine = (vs[0] * f[1] - vs[1] * f[0]) / (speed * force);
            assert!(speed < 1e-6 || sine.abs() < 1e-6, "{sine} at speed {speed}");
            assert!(
                vs[0] * f[0] + vs[1] * f[1] <= 1e-8 * force,
                "power at sample {i}"
            );
        }
    }
    let x = tr.last().unwrap().1;
    assert!(x[5].abs() < 1e-8 && (x[4] - d.r * x[7]).abs() < 1e-8);
}

#[test]
fn a_robot_that_never_slips_runs_as_simulate_gives_it() {
    let robot = DiffDriveRobot::default();
    let q0 = [0.0, 0.0, 0.2, 0.0, 0.0, 0.0, 0.0];
    let rolling = robot
        .state_from_qdot(0.0, &q0, &{
            // the wheel rates 2 and 3 rad/s, the rest from the rows
            let s = robot.state_from_qdot(0.0, &q0, &[0.0; 7]).unwrap();
            let mut qd = [0.0; 7];
            let mut z = s;
            z[7] = 2.0;
            z[8] = 3.0;
            robot.qdot(0.0, &q0, &z[7..], &mut qd).unwrap();
            qd
        })
        .unwrap();
    let mut qd0 = [0.0; 7];
    robot.qdot(0.0, &q0, &rolling[7..], &mut qd0).unwrap();
    let o = Options::default().sample_every(0.05);
    let smooth = simulate(&robot, &rolling, 0.0..2.0, &o).unwrap();
    let hybrid = simulate_hybrid(&robot, &q0, &qd0, 0.0..2.0, &o).unwrap();
    assert!(hybrid.events().is_empty());
    assert_eq!(smooth.times(), hybrid.times());
    let smooth_loads = smooth.contact_loads(&robot).unwrap();
    let hybrid_loads = hybrid.contact_loads(&robot).unwrap();
    let mut qd = [0.0; 7];
    for i in 0..smooth.len() {
        // q bit for bit; dot(q) the model's own
        assert_eq!(smooth.q(i), hybrid.q(i), "q at sample {i}");
        robot
            .qdot(
                smooth.times()[i],
                smooth.q(i).unwrap(),
                smooth.z(i).unwrap(),
                &mut qd,
            )
            .unwrap();
        assert_eq!(&hybrid.state(i).unwrap()[7..], &qd[..]);
        assert!(hybrid.sliding(i).unwrap().iter().all(|s| !s));
        // the released model with every row on gives the formulation's loads
        for (a, b) in smooth_loads[i].iter().zip(&hybrid_loads[i]) {
            let scale = 1.0 + a.normal.abs();
            for k in 0..3 {
                assert!(
                    (a.force[k] - b.force[k]).abs() < 1e-9 * scale,
                    "{a:?}\n{b:?}"
                );
            }
        }
        // and its accelerations: d dot(q)/dt against the formulation's, by the chain rule
        let dz = &smooth.derivative(i).unwrap()[7..];
        let dqd = &hybrid.derivative(i).unwrap()[7..];
        let h = 1e-6;
        let mut z1 = smooth.z(i).unwrap().to_vec();
        let mut q1 = smooth.q(i).unwrap().to_vec();
        for (zk, dk) in z1.iter_mut().zip(dz) {
            *zk += h * dk;
        }
        for (qk, dk) in q1.iter_mut().zip(&qd) {
            *qk += h * dk;
        }
        let mut qd1 = [0.0; 7];
        robot
            .qdot(smooth.times()[i] + h, &q1, &z1, &mut qd1)
            .unwrap();
        for k in 0..7 {
            let fd = (qd1[k] - qd[k]) / h;
            assert!(
                (fd - dqd[k]).abs() < 1e-4 * (1.0 + fd.abs()),
                "qdd {k}: {fd} vs {}",
                dqd[k]
            );
        }
    }
}

#[test]
fn a_robot_started_with_spinning_wheels_slips_until_each_wheel_grips() {
    // the drive wheels spin at 20 and 14 rad/s under a robot at rest: both slide (the
    // caster rolls), friction drives the robot and brakes the wheels, and each grips
    let robot = DiffDriveRobot::default();
    let q0 = [0.0; 7];
    let qd0 = [0.0, 0.0, 0.0, 20.0, 14.0, 0.0, 0.0];
    let o = Options::default()
        .rtol(1e-10)
        .atol(1e-12)
        .sample_every(0.01);
    let tr = simulate_hybrid(&robot, &q0, &qd0, 0.0..2.0, &o).expect("a burnout");
    assert_eq!(tr.sliding(0).unwrap(), [true, true, false]);
    let kinds: Vec<_> = tr.events().iter().map(|e| e.kind).collect();
    let stick = |contact| EventKind::Contact {
        contact,
        event: ContactEvent::Stick,
    };
    assert!(
        kinds == [stick("left on ground"), stick("right on ground")]
            || kinds == [stick("right on ground"), stick("left on ground")],
        "{kinds:?}"
    );
    let loads = tr.contact_loads(&robot).unwrap();
    let (m_total, g) = (robot.m_c + 2.0 * robot.m_w + robot.m_k, robot.g);
    let mut rows = [0.0; 5];
    for (i, l) in loads.iter().enumerate() {
        let (t, x) = (tr.times()[i], tr.state(i).unwrap());
        let sliding = tr.sliding(i).unwrap();
        // the normals carry the weight (no heave), each positive
        let n: f64 = l.iter().map(|c| c.normal).sum();
        assert!(
            (n - m_total * g).abs() < 1e-8 * m_total * g,
            "N at {t}: {n}"
        );
        for (c, s) in sliding.iter().enumerate() {
            assert!(l[c].normal > 0.0);
            if *s {
                assert!((l[c].utilization - 1.0).abs() < 1e-9, "sliding at {t}");
            } else {
                assert!(l[c].utilization <= 1.0 + 1e-9, "gripping at {t}");
            }
        }
        // the rows of the contacts that roll hold (to the integration's drift)
        robot
            .constraint_residual(t, &x[..7], &x[7..], &mut rows)
            .unwrap();
        let caster = [rows[3], rows[4]];
        assert!(
            caster.iter().all(|r| r.abs() < 1e-7),
            "caster rows at {t}: {caster:?}"
        );
        if sliding.iter().all(|s| !s) {
            assert!(rows.iter().all(|r| r.abs() < 1e-7), "rows at {t}: {rows:?}");
        }
    }
    // rolling at the end: the energy stays (flat ground, no inputs), below the start's
    let energy = |i: usize| {
        let x = tr.state(i).unwrap();
        let s = robot
            .state_from_qdot(tr.times()[i], &x[..7], &x[7..])
            .unwrap();
        robot.energy(tr.times()[i], &s).unwrap()
    };
    let last_switch = tr.events().last().unwrap().t;
    let after: Vec<usize> = (0..tr.len())
        .filter(|&i| tr.times()[i] > last_switch)
        .collect();
    let e_end = energy(*after.last().unwrap());
    assert!((energy(after[0]) - e_end).abs() < 1e-8 * e_end);
    // at the start: the wheels' spin about their axles and the (constant) potential
    let at_rest = robot.state_from_qdot(0.0, &q0, &[0.0; 7]).unwrap();
    let e0 = robot.energy(0.0, &at_rest).unwrap()
        + 0.5 * robot.i_wa * (20.0f64.powi(2) + 14.0f64.powi(2));
    assert!(e_end < e0, "{e_end} < {e0}");
}

#[test]
fn controllers_run_through_the_switches_on_their_own_clock() {
    // a burst of the motors spins the left wheel (it slips), then it grips: the sampled
    // controller's instants keep their times through the switches, and every controller sees
    // [q, dot(q)]
    let robot = DiffDriveRobot {
        mu: 0.3,
        ..DiffDriveRobot::default()
    };
    let mut seen = Vec::new();
    let mut motors = |t: f64, x: &[f64], u: &mut [f64]| {
        seen.push((t, x.len()));
        if t < 0.3 {
            u[0] = 0.9;
            u[1] = 0.7;
        }
    };
    let o = Options::default().control_period(0.05).sample_every(0.01);
    let tr = simulate_hybrid_controlled(&robot, &mut motors, &[0.0; 7], &[0.0; 7], 0.0..0.8, &o)
        .expect("a burst");
    assert!(seen.iter().all(|(_, n)| *n == 14));
    // one call per instant, on the grid t = 0.05 k
    for (t, _) in &seen {
        let k = (t / 0.05).round();
        assert!((t - 0.05 * k).abs() < 1e-12, "controller called at {t}");
    }
    let ks: Vec<i64> = seen
        .iter()
        .map(|(t, _)| (t / 0.05).round() as i64)
        .collect();
    assert_eq!(ks, (0..=16).collect::<Vec<_>>());
    let kinds: Vec<_> = tr.events().iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds.first(),
        Some(&EventKind::Contact {
            contact: "left on ground",
            event: ContactEvent::Slip
        })
    );
    assert!(kinds.contains(&EventKind::Contact {
        contact: "left on ground",
        event: ContactEvent::Stick
    }));
    // the inputs recorded are the held ones: the burst until 0.3, nothing after
    for i in 0..tr.len() {
        let (t, u) = (tr.times()[i], tr.input(i).unwrap());
        let on = t < 0.3 - 1e-12;
        assert_eq!(u, if on { [0.9, 0.7] } else { [0.0, 0.0] }, "u at {t}");
    }
    // and continuous feedback the same way, every evaluation seeing [q, dot(q)]
    let mut feedback = |t: f64, x: &[f64], u: &mut [f64]| {
        assert_eq!(x.len(), 14);
        if t < 0.3 {
            u[0] = 0.9;
            u[1] = 0.7;
        }
    };
    let o = Options::default().sample_every(0.01);
    let fb = simulate_hybrid_controlled(&robot, &mut feedback, &[0.0; 7], &[0.0; 7], 0.0..0.8, &o)
        .expect("a burst under feedback");
    // rolling needs more than mu N at once: the sample before the slip, then the one after
    assert_eq!(fb.times()[..2], [0.0, 0.0]);
    assert_eq!(fb.sliding(0).unwrap(), [false, false, false]);
    assert_eq!(fb.sliding(1).unwrap(), [true, false, false]);
    assert_eq!(fb.events()[0].t, 0.0);
}

/// The robot (`mu = 0.3`) driven straight, then turned hard until its axle skids sideways,
/// its motors off from 2.2 s, by `method`.
fn skid(method: Method) -> Trajectory {
    let robot = DiffDriveRobot {
        mu: 0.3,
        ..DiffDriveRobot::default()
    };
    let mut motors = |t: f64, _x: &[f64], u: &mut [f64]| {
        (u[0], u[1]) = match t {
            t if t < 1.5 => (0.25, 0.25),
            t if t < 2.2 => (0.6, -0.3),
            _ => (0.0, 0.0),
        };
    };
    // the motors' schedule sampled at 10 Hz (held between samples), so that each method
    // lands on its jumps at 1.5 and 2.2 s rather than stepping across them
    let o = Options::default()
        .method(method)
        .rtol(1e-10)
        .atol(1e-12)
        .control_period(0.1)
        .sample_every(0.01);
    simulate_hybrid_controlled(&robot, &mut motors, &[0.0; 7], &[0.0; 7], 0.0..4.0, &o)
        .map_err(|e| e.error)
        .expect("a skid")
}

#[test]
fn a_robot_turned_too_hard_skids_on_both_wheels_and_grips_with_both() {
    // the axle's lateral slip is one for both wheels: they slip together, and the grip of
    // one stops the other's (its slip was that lateral slip)
    let robot = DiffDriveRobot {
        mu: 0.3,
        ..DiffDriveRobot::default()
    };
    // (where the two slips pass through zero together at 2.4704 s and slide on reversed,
    // Esdirk34's Newton iterations cannot converge: the run bridges that stretch by Tsit45)
    let runs: Vec<(Method, Trajectory)> = [
        Method::Tsit45,
        Method::Dop853,
        Method::Bdf,
        Method::Esdirk34,
    ]
    .into_iter()
    .map(|m| (m, skid(m)))
    .collect();
    let reference = &runs[0].1;
    let times = |tr: &Trajectory| -> (f64, f64) {
        let ev = tr.events();
        assert_eq!(ev.len(), 4, "{ev:?}");
        for (i, e) in ev.iter().enumerate() {
            let want = if i < 2 {
                ContactEvent::Slip
            } else {
                ContactEvent::Stick
            };
            let EventKind::Contact { contact, event } = e.kind else {
                panic!("{:?}", e.kind)
            };
            assert_eq!(event, want, "{ev:?}");
            assert!(contact == "left on ground" || contact == "right on ground");
        }
        assert_ne!(ev[0].kind, ev[1].kind);
        assert_ne!(ev[2].kind, ev[3].kind);
        assert_eq!((ev[0].t, ev[2].t), (ev[1].t, ev[3].t));
        (ev[0].t, ev[2].t)
    };
    let (slip, stick) = times(reference);
    assert!((1.76..1.77).contains(&slip) && (3.41..3.42).contains(&stick));
    for (m, tr) in &runs {
        let (s, g) = times(tr);
        println!("{m:?}: slip {s:.15} grip {g:.15}");
        // the slip is where a smooth guard crosses zero (4e-12 apart at rtol 1e-10); the grip
        // ends a slip that grew from rest (its friction kept the way rolling pulled until the
        // slip reached `still_speed`, an event of its own) and reversed through zero on the
        // way, both wheels restarting together (2.6e-9 apart; 4.9e-8 while the friction
        // turned from its start direction within a step, 7.6e-5 at the end of a step)
        assert!((s - slip).abs() < 1e-9, "{m:?}: slip {s} vs {slip}");
        assert!((g - stick).abs() < 1e-8, "{m:?}: grip {g} vs {stick}");
    }
    for (m, tr) in &runs {
        let loads = tr.contact_loads(&robot).unwrap();
        for (i, l) in loads.iter().enumerate() {
            let t = tr.times()[i];
            let sliding = tr.sliding(i).unwrap();
            assert_eq!(sliding[0], sliding[1], "{m:?} at {t}");
            let (s, g) = times(tr);
            if t != s && t != g {
                assert_eq!(sliding[0], t > s && t < g, "{m:?} at {t}");
            }
            for (c, s) in sliding.iter().enumerate() {
                assert!(l[c].normal > 0.0);
                if *s {
                    assert!(
                        (l[c].utilization - 1.0).abs() < 1e-9,
                        "{m:?} sliding at {t}"
                    );
                }
            }
        }
        // rolling again with the motors off: its energy stays
        let energy = |i: usize| {
            let x = tr.state(i).unwrap();
            let s = robot
                .state_from_qdot(tr.times()[i], &x[..7], &x[7..])
                .unwrap();
            robot.energy(tr.times()[i], &s).unwrap()
        };
        let after: Vec<usize> = (0..tr.len())
            .filter(|&i| tr.times()[i] > stick + 1e-3)
            .collect();
        let e_end = energy(*after.last().unwrap());
        assert!(
            (energy(after[0]) - e_end).abs() < 1e-7 * e_end,
            "{m:?}: {} vs {e_end}",
            energy(after[0])
        );
    }
}

#[test]
fn a_wheel_that_lifts_off_ends_the_run_with_the_time_and_the_state() {
    // motors as strong as these pivot the robot on its caster: at once, or, where friction
    // limits their push, while the wheels spin
    let strong = |mu: f64, torque: f64| {
        let robot = DiffDriveRobot {
            mu,
            ..DiffDriveRobot::default()
        };
        let mut motors = |_t: f64, _x: &[f64], u: &mut [f64]| u.fill(torque);
        let o = Options::default()
            .rtol(1e-10)
            .atol(1e-12)
            .sample_every(0.01);
        let e = simulate_hybrid_controlled(&robot, &mut motors, &[0.0; 7], &[0.0; 7], 0.0..1.0, &o)
            .expect_err("a lift-off");
        (robot, e)
    };
    let (_, at_once) = strong(5.0, 8.0);
    let Error::ContactLost { event, t, .. } = at_once.error else {
        panic!("{}", at_once.error)
    };
    assert_eq!((event, t), (ContactEvent::LiftOff, 0.0));
    let (robot, later) = strong(3.0, 5.0);
    let Error::ContactLost {
        contact,
        event,
        t,
        ref state,
    } = later.error
    else {
        panic!("{}", later.error)
    };
    assert_eq!(event, ContactEvent::LiftOff);
    assert!(t > 0.5, "{t}");
    let tr = &later.partial;
    // the wheels slid from the start, and the record ends at the lift-off
    let slips: Vec<_> = tr.events().iter().map(|e| (e.t, e.kind)).collect();
    assert!(
        slips.len() == 2
            && slips.iter().all(|(t, k)| *t == 0.0
                && matches!(
                    k,
                    EventKind::Contact {
                        event: ContactEvent::Slip,
                        ..
                    }
                )),
        "{slips:?}"
    );
    assert_eq!(tr.sliding(tr.len() - 1).unwrap(), [true, true, false]);
    let (t_last, x) = tr.last().unwrap();
    assert_eq!(t_last, t);
    assert_eq!(x, &state[..]);
    let c = ["left on ground", "right on ground"]
        .iter()
        .position(|n| *n == contact)
        .expect("a drive wheel");
    let loads = tr.contact_loads(&robot).unwrap();
    let weight = (robot.m_c + 2.0 * robot.m_w + robot.m_k) * robot.g;
    let n = loads.last().unwrap()[c].normal;
    assert!(n.abs() < 1e-8 * weight, "N = {n} at the lift-off");
}

#[test]
fn sliding_phases_keep_the_rows_that_hold() {
    // the skid's sliding phases (both drive wheels sliding, the caster rolling): Baumgarte's
    // term keeps the caster's rows within the integrator's tolerance: below rtol times the
    // largest velocity of the run. Measured at rtol 1e-10: Tsit45 2.0e-12, DOP853
    // 6.5e-12, BDF 3.0e-10 (1.0e-9 without the term), Esdirk34 1.4e-9 (DOP853's samples
    // just after the slip were 6.6e-4 off before its dense output was taken on the step's
    // own field)
    let robot = DiffDriveRobot {
        mu: 0.3,
        ..DiffDriveRobot::default()
    };
    for method in [
        Method::Tsit45,
        Method::Dop853,
        Method::Bdf,
        Method::Esdirk34,
    ] {
        let tr = skid(method);
        let r = tr.held_residuals(&robot).expect("residuals");
        assert_eq!(r.len(), tr.len());
        let worst = r.iter().fold(0.0f64, |a, b| a.max(*b));
        let nq = tr.nq();
        let speed = (0..tr.len())
            .flat_map(|i| tr.state(i).unwrap()[nq..].to_vec())
            .fold(0.0f64, |a, b| a.max(b.abs()));
        assert!(
            worst < 1e-10 * speed,
            "{method:?}: {worst:e} (speeds to {speed})"
        );
        let slides = (0..tr.len()).filter(|&i| tr.sliding(i).unwrap().iter().any(|s| *s));
        assert!(slides.count() > 50, "{method:?}: a long sliding phase");
    }
    // not a hybrid run's trajectory: said so
    let plain = simulate(&robot, &[0.0; 9], 0.0..0.1, &Options::default()).unwrap();
    assert!(matches!(
        plain.held_residuals(&robot),
        Err(Error::NotAvailable { .. })
    ));
}

#[test]
fn a_wagon_thrown_sideways_slides_on_four_wheels_and_grips_on_four() {
    // four wheels on two fixed axles: the normals are statically indeterminate, and the
    // sliding dynamics take the least-norm split, as the rolling loads do. Symmetric front
    // to rear, the wagon slides without turning at -mu g and grips on all four together
    // at v0 / (mu g), v0^2 / (2 mu g) along.
    let wagon = Wagon::default();
    let (v0, mu, g) = (1.0, wagon.mu, wagon.g);
    let weight = (wagon.m_c + 4.0 * wagon.m_w) * g;
    let mut qd0 = [0.0; 7];
    qd0[1] = v0;
    for method in [
        Method::Tsit45,
        Method::Dop853,
        Method::Bdf,
        Method::Esdirk34,
    ] {
        let o = Options::default()
            .method(method)
            .rtol(1e-10)
            .atol(1e-12)
            .sample_every(0.01);
        let tr = simulate_hybrid(&wagon, &[0.0; 7], &qd0, 0.0..0.5, &o)
            .map_err(|e| e.error)
            .unwrap_or_else(|e| panic!("{method:?}: {e}"));
        let ev = tr.events();
        assert_eq!(ev.len(), 4, "{method:?}: {ev:?}");
        for e in ev {
            assert!(
                matches!(
                    e.kind,
                    EventKind::Contact {
                        event: ContactEvent::Stick,
                        ..
                    }
                ),
                "{method:?}: {e:?}"
            );
            assert!((e.t - v0 / (mu * g)).abs() < 1e-9, "{method:?}: {e:?}");
        }
        let loads = tr.contact_loads(&wagon).unwrap();
        for (i, l) in loads.iter().enumerate() {
            let t = tr.times()[i];
            let sliding = tr.sliding(i).unwrap();
            let total: f64 = l.iter().map(|c| c.normal).sum();
            assert!((total - weight).abs() < 1e-9 * weight, "{method:?} at {t}");
            if t == ev[0].t {
                // the sample at the grip, slipping at zero speed: its friction's direction
                // is round-off's
                continue;
            }
            // front and rear alike (the least-norm split of a symmetric wagon)
            assert!(
                (l[0].normal - l[2].normal).abs() < 1e-9 * weight,
                "{method:?} at {t}"
            );
            assert!(
                (l[1].normal - l[3].normal).abs() < 1e-9 * weight,
                "{method:?} at {t}"
            );
            if t < ev[0].t {
                assert_eq!(sliding, [true; 4], "{method:?} at {t}");
                for c in l {
                    assert!((c.lateral + mu * c.normal).abs() < 1e-9 * weight);
                }
            } else if t > ev[0].t {
                assert_eq!(sliding, [false; 4], "{method:?} at {t}");
            }
        }
        let (_, end) = tr.last().unwrap();
        assert!(
            (end[1] - v0 * v0 / (2.0 * mu * g)).abs() < 1e-9,
            "{method:?}: {end:?}"
        );
        assert!(end[2].abs() < 1e-12 && end[7..].iter().all(|v| v.abs() < 1e-9));
    }
}

#[test]
fn a_disk_driven_in_bursts_slips_at_each_and_grips_at_the_closed_form_in_every_method() {
    // 3 N m for 0.15 s of every 0.5 s: more than friction passes on, so each burst starts a
    // slip from rest (the wheel spinning ahead) that grows at 2 tau / (m r) - 3 mu g and,
    // the torque off, falls at 3 mu g: it grips 0.15 * 2 tau / (3 mu g m r) after the burst
    // starts
    let d = DrivenDisk::default();
    let grip_after = 0.15 * 2.0 * 3.0 / (3.0 * d.mu * d.g * d.m * d.r);
    let mut grips: Vec<Vec<f64>> = Vec::new();
    for method in [
        Method::Tsit45,
        Method::Dop853,
        Method::Bdf,
        Method::Esdirk34,
    ] {
        let mut bursts = |t: f64, _x: &[f64], u: &mut [f64]| {
            u[0] = if t.rem_euclid(0.5) < 0.15 { 3.0 } else { 0.0 };
        };
        // the torque held between samples at 20 Hz: each method lands on its jumps
        let o = tight(method).control_period(0.05);
        let tr = simulate_hybrid_controlled(&d, &mut bursts, &[0.0; 4], &[0.0; 4], 0.0..1.9, &o)
            .map_err(|e| e.error)
            .unwrap_or_else(|e| panic!("{method:?}: {e}"));
        let ev = tr.events();
        assert_eq!(ev.len(), 8, "{method:?}: {ev:?}");
        let mut own = Vec::new();
        for (k, pair) in ev.chunks(2).enumerate() {
            let burst = 0.5 * k as f64;
            let kinds: Vec<_> = pair.iter().map(|e| e.kind).collect();
            let on = |event| EventKind::Contact {
                contact: "disk on ground",
                event,
            };
            assert_eq!(
                kinds,
                [on(ContactEvent::Slip), on(ContactEvent::Stick)],
                "{method:?}"
            );
            assert!(
                (pair[0].t - burst).abs() < 1e-9,
                "{method:?}: slip {}",
                pair[0].t
            );
            let want = burst + grip_after;
            assert!(
                (pair[1].t - want).abs() < 1e-9,
                "{method:?}: grip {} vs {want}",
                pair[1].t
            );
            own.push(pair[1].t);
        }
        grips.push(own);
    }
    for g in &grips[1..] {
        for (a, b) in g.iter().zip(&grips[0]) {
            assert!((a - b).abs() < 1e-8, "{a} vs {b}");
        }
    }
}
