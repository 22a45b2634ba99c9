//! `Contacts::contact_loads`: the forces the ground supplies, against closed forms and
//! against a contact whose normal force is a multiplier.

use nonholo::models::WhippleBicycle;
use nonholo::prelude::*;
use nonholo::{ContactEvent, ContactLoad, Geometry, Method};
use nonholo_test_models::contact_forces::*;

/// The bicycle upright (pitch solved) at forward speed `v` with the lean rate `roll_rate`.
pub(super) fn upright(bike: &WhippleBicycle, v: f64, roll_rate: f64) -> [f64; WhippleBicycle::DIM] {
    let mut state = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut state[..WhippleBicycle::NQ])
        .unwrap();
    state[WhippleBicycle::NQ] = roll_rate;
    state[WhippleBicycle::NQ + 1] = -v / bike.r_r;
    state
}

fn loads<M: Contacts>(m: &M, state: &[f64], u: &[f64]) -> Vec<ContactLoad> {
    let mut out = vec![ContactLoad::ZERO; M::CONTACTS.len()];
    m.contact_loads(0.0, state, u, &mut out)
        .expect("contact loads");
    out
}

/// Upright, at rest or at constant speed, the bicycle's weight splits by the position of
/// its centre of mass between the wheels (`design/contact_forces.md`, T3; SymBRiM asserts
/// the same numbers): 309.3035294117647 N front, 612.8364705882353 N rear.
#[test]
fn bicycle_upright_carries_its_weight_by_its_centre_of_mass() {
    let bike = WhippleBicycle::default();
    for v in [0.0, 5.0] {
        let state = upright(&bike, v, 0.0);
        let l = loads(&bike, &state, &[0.0; 3]);
        let (rear, front) = (l[0], l[1]);
        println!("v = {v}: rear {rear:?}\n front {front:?}");
        for (load, n) in [(rear, 612.8364705882353), (front, 309.3035294117647)] {
            assert!(
                (load.normal - n).abs() < 1e-10 * n,
                "{} vs {n}",
                load.normal
            );
            // up = -N.z (benchmark axes, z down)
            assert!((load.force[2] + n).abs() < 1e-10 * n);
            assert!(load.tangential() < 1e-10 * n, "{load:?}");
        }
    }
}

/// The anchored disk's normal (Newton–Euler) equals the released disk's (the multiplier
/// of its height row) at random states, and so do the tangential forces.
#[test]
fn anchored_normal_equals_the_multiplier_of_a_released_contact() {
    let (a, m, r) = (
        DiskAnchored::default(),
        DiskAnchoredMu::default(),
        DiskReleased::default(),
    );
    let mut rng = 0x2545f4914f6cdd1du64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let mut worst = 0.0f64;
    for _ in 0..20 {
        let (yaw, lean, spin) = (next() * 3.0, next() * 0.8, next() * 3.0);
        let (dyaw, dlean, dspin) = (next() * 2.0, next() * 2.0, next() * 8.0);
        let (x, y) = (next(), next());
        // rolling: the contact moves at r dot(spin) along the heading
        let (dx, dy) = (a.r * dspin * yaw.cos(), a.r * dspin * yaw.sin());
        let q = [x, y, yaw, lean, spin];
        let qd = [dx, dy, dyaw, dlean, dspin];
        let sa = a.state_from_qdot(0.0, &q, &qd).unwrap();
        let sm = m.state_from_qdot(0.0, &q, &qd).unwrap();
        // the released disk: centre height r cos(lean); C = P + r L.z moves its height at
        // -r sin(lean) dot(lean), and (x, y) is the centre
        let (cx, cy) = (
            x + a.r * yaw.sin() * lean.sin(),
            y - a.r * yaw.cos() * lean.sin(),
        );
        let c = (yaw.cos() * lean.sin() * dyaw + yaw.sin() * lean.cos() * dlean) * a.r;
        let d = (yaw.sin() * lean.sin() * dyaw - yaw.cos() * lean.cos() * dlean) * a.r;
        let qr = [cx, cy, a.r * lean.cos(), yaw, lean, spin];
        let qdr = [
            dx + c,
            dy + d,
            -a.r * lean.sin() * dlean,
            dyaw,
            dlean,
            dspin,
        ];
        let sr = r.state_from_qdot(0.0, &qr, &qdr).unwrap();
        let (la, lm, lr) = (
            loads(&a, &sa, &[]),
            loads(&m, &sm, &[]),
            loads(&r, &sr, &[]),
        );
        let scale = a.m * a.g;
        for k in 0..3 {
            for other in [lm[0].force[k], lr[0].force[k]] {
                let e = (la[0].force[k] - other).abs() / scale;
                worst = worst.max(e);
                assert!(
                    e < 1e-10,
                    "force[{k}]: {:?} vs {:?} / {:?}",
                    la[0],
                    lm[0],
                    lr[0]
                );
            }
        }
    }
    println!("worst relative difference {worst:.1e}");
}

/// A thin disk rolling straight down a slope of angle alpha needs the friction ratio
/// tan(alpha) / 3 at every speed; its normal force is m g cos(alpha).
#[test]
fn disk_rolling_down_a_slope_needs_tan_alpha_over_3() {
    let d = DiskOnSlope::default();
    for v in [0.0, 1.5] {
        let s = d
            .state_from_qdot(0.0, &[0.0; 5], &[v, 0.0, 0.0, 0.0, v / d.r])
            .unwrap();
        let l = loads(&d, &s, &[])[0];
        let ratio = l.tangential() / l.normal;
        println!("v = {v}: {l:?}, ratio {ratio}");
        assert!((l.normal - d.m * d.g * d.alpha.cos()).abs() < 1e-12 * d.m * d.g);
        assert!((ratio - d.alpha.tan() / 3.0).abs() < 1e-12, "{ratio}");
        assert!((l.utilization * d.mu - ratio).abs() < 1e-12);
        assert!((l.friction_margin - (d.mu * l.normal - l.tangential())).abs() < 1e-12);
    }
}

/// At rest on three wheels, the normal forces are the statics of the weights: they sum to
/// the weight and their moments about the vertical through any point balance the weights'
/// (a check of the balance's tilt equations, independent of its heave equation).
fn statics_hold<M: Contacts + Geometry>(m: &M, q: &[f64], masses: &[(&str, f64)], g: f64) {
    let state = m.state_from_qdot(0.0, q, &vec![0.0; M::NQ]).unwrap();
    let l = loads(m, state.as_ref(), &vec![0.0; M::NU]);
    let weight: f64 = masses.iter().map(|(_, mb)| mb * g).sum();
    let (mut mx, mut my) = (0.0, 0.0);
    for (p, mb) in masses {
        let r = m.position(p, 0.0, q).unwrap();
        mx += mb * g * r[0];
        my += mb * g * r[1];
    }
    let n: f64 = l.iter().map(|c| c.normal).sum();
    let nx: f64 = l.iter().map(|c| c.normal * c.point[0]).sum();
    let ny: f64 = l.iter().map(|c| c.normal * c.point[1]).sum();
    println!("{:?}", l.iter().map(|c| c.normal).collect::<Vec<_>>());
    assert!((n - weight).abs() < 1e-10 * weight, "{n} vs {weight}");
    assert!((nx - mx).abs() < 1e-10 * weight, "{nx} vs {mx}");
    assert!((ny - my).abs() < 1e-10 * weight, "{ny} vs {my}");
    for c in &l {
        assert!(c.normal > 0.0 && c.tangential() < 1e-10 * weight, "{c:?}");
    }
}

#[test]
fn robot_and_manipulator_at_rest_carry_their_weights_by_statics() {
    use nonholo::models::{DiffDriveRobot, MobileManipulator};
    let r = DiffDriveRobot::default();
    let q = [0.3, -0.2, 0.7, 0.1, 0.2, 0.4, 0.0];
    let masses = [("G", r.m_c), ("L_o", r.m_w), ("R_o", r.m_w), ("K_o", r.m_k)];
    statics_hold(&r, &q, &masses, r.g);
    let m = MobileManipulator::default();
    // the arm upright (its pitch joints at 0): at rest, in equilibrium without torques
    let q = [
        0.3, -0.2, 0.7, 0.1, 0.2, 0.4, 0.0, 0.5, 0.0, 0.0, 0.2, 0.0, 0.1,
    ];
    let masses = [
        ("G", m.m_c),
        ("L_o", m.m_w),
        ("R_o", m.m_w),
        ("K_o", m.m_k),
        ("G1", m.m1),
        ("G2", m.m2),
        ("G3", m.m3),
        ("G4", m.m4),
        ("G5", m.m5),
        ("G6", m.m6),
    ];
    statics_hold(&m, &q, &masses, m.g);
}

/// Turning, the two drive wheels share the lateral force of their common row in proportion
/// to the lateral friction each can still give, `sqrt((mu N)^2 - F_long^2)` (the documented
/// split): both reach the friction limit together.
#[test]
fn wheels_on_one_axle_share_the_lateral_force_by_their_capacities() {
    use nonholo::models::DiffDriveRobot;
    let r = DiffDriveRobot::default();
    // speeds: the wheel rates; a turn with the caster swivelled to follow it
    let mut state = DiffDriveRobot::ZERO_STATE;
    state[5] = 0.3;
    state[DiffDriveRobot::NQ] = 6.0;
    state[DiffDriveRobot::NQ + 1] = 12.0;
    let l = loads(&r, &state, &[0.5, -0.2]);
    let (left, right) = (l[0], l[1]);
    println!("{left:?}\n{right:?}");
    assert!(left.lateral.abs() > 1e-3, "a turn needs a lateral force");
    let capacity = |w: &ContactLoad| ((r.mu * w.normal).powi(2) - w.longitudinal.powi(2)).sqrt();
    let (a, b) = (
        left.lateral / capacity(&left),
        right.lateral / capacity(&right),
    );
    assert!((a - b).abs() < 1e-12 * a.abs().max(1.0), "{a} vs {b}");
    // both at the limit at once: scaled to it, each needs exactly mu N
    let total = left.lateral + right.lateral;
    let limit = capacity(&left) + capacity(&right);
    for w in [left, right] {
        let at_limit = w.lateral * limit / total.abs();
        let need = w.longitudinal.hypot(at_limit);
        assert!((need - r.mu * w.normal).abs() < 1e-9 * w.normal, "{need}");
    }
}

/// A start that already asks for more friction than `mu N` ends the run at once, naming
/// the contact; with the checks off the run goes on.
#[test]
fn a_start_beyond_the_friction_limit_is_reported_at_once() {
    let d = DiskOnSlope {
        mu: 0.9 * 0.3f64.tan() / 3.0,
        ..DiskOnSlope::default()
    };
    let s = d
        .state_from_qdot(0.0, &[0.0; 5], &[1.0, 0.0, 0.0, 0.0, 1.0 / d.r])
        .unwrap();
    let e = simulate(&d, &s, 0.0..1.0, &Options::default()).unwrap_err();
    match e.error {
        Error::ContactLost {
            contact, event, t, ..
        } => {
            assert_eq!(
                (contact, event, t),
                ("disk on slope", ContactEvent::Slip, 0.0)
            );
        }
        other => panic!("{other}"),
    }
    assert_eq!(e.partial.len(), 1);
    let run = simulate(&d, &s, 0.0..1.0, &Options::default().contact_checks(false)).unwrap();
    assert_eq!(run.last().unwrap().0, 1.0);
}

/// Within the friction limit the checks change nothing: the same samples bit for bit.
#[test]
fn a_run_within_the_limits_is_unchanged_by_the_checks() {
    let d = DiskOnSlope::default();
    let s = d
        .state_from_qdot(
            0.0,
            &[0.0, 0.0, 0.2, 0.1, 0.0],
            &[0.2f64.cos(), 0.2f64.sin(), 0.3, 0.0, 1.0 / d.r],
        )
        .unwrap();
    for method in [Method::Tsit45, Method::Dop853] {
        let o = Options::default().method(method).sample_every(0.05);
        let on = simulate(&d, &s, 0.0..1.0, &o).unwrap();
        let off = simulate(&d, &s, 0.0..1.0, &o.clone().contact_checks(false)).unwrap();
        assert_eq!(on.states(), off.states(), "{method:?}");
        assert_eq!(on.times(), off.times());
    }
}

/// Pedalling harder and harder, the bicycle's front wheel unloads until it lifts (a
/// wheelie): every method stops there, naming the front wheel, its normal force zero at
/// the event to the root finder's tolerance, and they agree on the time.
#[test]
fn pedalling_hard_lifts_the_front_wheel_and_the_run_stops_there() {
    let bike = WhippleBicycle::default();
    let s = upright(&bike, 5.0, 0.0);
    let mut times = Vec::new();
    for method in [Method::Tsit45, Method::Dop853, Method::Bdf] {
        let mut pedal = |t: f64, _x: &[f64], u: &mut [f64]| u[2] = 150.0 * t;
        let o = Options::default().method(method).rtol(1e-10).atol(1e-10);
        let e = simulate_controlled(&bike, &mut pedal, &s, 0.0..5.0, &o).unwrap_err();
        let Error::ContactLost {
            contact,
            event,
            t,
            state,
        } = e.error
        else {
            panic!("{}", e.error);
        };
        assert_eq!(
            (contact, event),
            ("front_wheel on ground", ContactEvent::LiftOff)
        );
        assert_eq!(e.partial.event_time(), Some(t));
        assert_eq!(e.partial.last().unwrap().1, &state[..]);
        let l = loads(&bike, &state, &[0.0, 0.0, 150.0 * t]);
        println!(
            "{method:?}: the front wheel lifts at t = {t:.12}, N = {:e}, rear {:?}",
            l[1].normal, l[0]
        );
        assert!(l[1].normal.abs() < 1e-8 * 922.0, "{}", l[1].normal);
        assert!(l[0].normal > 900.0);
        times.push(t);
    }
    for t in &times {
        assert!((t - times[0]).abs() < 1e-7, "{times:?}");
    }
}

/// The robot rolling forward, its motors braking harder and harder: the load moves to the
/// drive wheels, and the caster, whose small friction need meets a vanishing `mu N`,
/// slips just before it would lift.
#[test]
fn braking_unloads_the_caster_until_it_slips() {
    use nonholo::models::DiffDriveRobot;
    let r = DiffDriveRobot::default();
    let mut s = DiffDriveRobot::ZERO_STATE;
    s[DiffDriveRobot::NQ] = 10.0;
    s[DiffDriveRobot::NQ + 1] = 10.0;
    let mut brake = |t: f64, _x: &[f64], u: &mut [f64]| {
        u[0] = -0.6 * t;
        u[1] = -0.6 * t;
    };
    let e = simulate_controlled(&r, &mut brake, &s, 0.0..5.0, &Options::default()).unwrap_err();
    let Error::ContactLost {
        contact,
        event,
        t,
        state,
    } = e.error
    else {
        panic!("{}", e.error);
    };
    assert_eq!((contact, event), ("caster on ground", ContactEvent::Slip));
    let l = loads(&r, &state, &[-0.6 * t, -0.6 * t]);
    let weight = (r.m_c + 2.0 * r.m_w + r.m_k) * r.g;
    println!("caster slips at t = {t}: {:?}", l[2]);
    assert!(l[2].normal > 0.0 && l[2].normal < 0.01 * weight);
    assert!((l[2].utilization - 1.0).abs() < 1e-8);
}

/// Pulling away harder and harder, the drive wheels unload toward the caster and need
/// more traction, until `mu N` is reached: a slip of a drive wheel ends the run.
#[test]
fn hard_acceleration_makes_a_drive_wheel_slip() {
    use nonholo::models::DiffDriveRobot;
    let r = DiffDriveRobot::default();
    let s = DiffDriveRobot::ZERO_STATE;
    let mut push = |t: f64, _x: &[f64], u: &mut [f64]| {
        u[0] = 2.0 * t;
        u[1] = 2.0 * t;
    };
    let e = simulate_controlled(&r, &mut push, &s, 0.0..5.0, &Options::default()).unwrap_err();
    let Error::ContactLost {
        contact,
        event,
        t,
        state,
    } = e.error
    else {
        panic!("{}", e.error);
    };
    println!("{contact} {event} at t = {t}");
    assert_eq!(event, ContactEvent::Slip);
    assert!(contact == "left on ground" || contact == "right on ground");
    let l = loads(&r, &state, &[2.0 * t, 2.0 * t]);
    let i = if contact.starts_with("left") { 0 } else { 1 };
    assert!(
        l[i].friction_margin.abs() < 1e-8 * l[i].normal,
        "{:?}",
        l[i]
    );
    assert!((l[i].utilization - 1.0).abs() < 1e-8);
}

/// A run from `x0` with the inputs `u` held, DOP853 at 1e-12 sampled every 0.1 s, and its
/// contact loads at the samples.
pub(super) fn run_with_loads<M: Contacts>(
    m: &M,
    x0: &[f64],
    u: &[f64],
    t1: f64,
) -> (Trajectory, Vec<Vec<ContactLoad>>) {
    let u = u.to_vec();
    let mut hold = move |_t: f64, _x: &[f64], v: &mut [f64]| v.copy_from_slice(&u);
    let o = Options::default()
        .method(Method::Dop853)
        .rtol(1e-12)
        .atol(1e-12)
        .sample_every(0.1);
    let tr = simulate_controlled(m, &mut hold, x0, 0.0..t1, &o).expect("a run within the limits");
    let series = tr.contact_loads(m).unwrap();
    (tr, series)
}

/// The states `h` ahead of and behind `s` along its derivative `ds`.
pub(super) fn along(s: &[f64], ds: &[f64], h: f64) -> [Vec<f64>; 2] {
    [1.0, -1.0].map(|sign| s.iter().zip(ds).map(|(x, d)| x + sign * h * d).collect())
}

/// Along a run, the contact forces plus gravity equal the rate of the bodies' momentum,
/// `sum_c F_c + sum_b m_b g = sum_b m_b a_b`, with `a_b` a central difference of the bodies'
/// centre velocities (`Geometry::point_velocities`, which knows nothing of the dynamics)
/// along the state's derivative: the horizontal part checks the tangential forces (the
/// rows' multipliers) against Newton's law.
fn momentum_balance_holds<M: Contacts + Geometry>(
    m: &M,
    x0: &[f64],
    u: &[f64],
    masses: &[(&str, f64)],
    g: [f64; 3],
    t1: f64,
) {
    let (tr, series) = run_with_loads(m, x0, u, t1);
    let index: Vec<usize> = masses
        .iter()
        .map(|(p, _)| M::point_index(p).unwrap())
        .collect();
    let weight: f64 = masses.iter().map(|(_, mb)| mb).sum::<f64>() * (g[0].hypot(g[1]).hypot(g[2]));
    let momentum = |t: f64, s: &[f64]| -> [f64; 3] {
        let mut v = vec![[0.0; 3]; M::POINTS.len()];
        m.point_velocities(t, s, &mut v).unwrap();
        let mut p = [0.0; 3];
        for ((_, mb), i) in masses.iter().zip(&index) {
            for k in 0..3 {
                p[k] += mb * v[*i][k];
            }
        }
        p
    };
    // dP/dt along the state's own derivative (the rhs recorded with the sample): a central
    // difference in (t, state), free of the integrator's error
    let eps = 1e-6;
    let mut worst = 0.0f64;
    for (i, loads) in series.iter().enumerate() {
        let (t, s, ds) = (
            tr.times()[i],
            tr.state(i).unwrap(),
            tr.derivative(i).unwrap(),
        );
        let [ahead, behind] = along(s, ds, eps);
        let (pp, pm) = (momentum(t + eps, &ahead), momentum(t - eps, &behind));
        for k in 0..3 {
            let rate = (pp[k] - pm[k]) / (2.0 * eps);
            let forces: f64 = loads.iter().map(|c| c.force[k]).sum::<f64>()
                + masses.iter().map(|(_, mb)| mb * g[k]).sum::<f64>();
            let e = (rate - forces).abs() / weight;
            worst = worst.max(e);
            assert!(
                e < 1e-8,
                "t = {t}, component {k}: dP/dt {rate} vs forces {forces}"
            );
        }
    }
    println!("worst |dP/dt - F| / weight {worst:.1e}");
}

#[test]
fn contact_forces_and_gravity_give_the_momentum_rate() {
    use nonholo::models::{DiffDriveRobot, MobileManipulator};
    let r = DiffDriveRobot::default();
    let mut x = DiffDriveRobot::ZERO_STATE;
    x[5] = 0.2;
    x[DiffDriveRobot::NQ] = 4.0;
    x[DiffDriveRobot::NQ + 1] = 6.0;
    let masses = [("G", r.m_c), ("L_o", r.m_w), ("R_o", r.m_w), ("K_o", r.m_k)];
    momentum_balance_holds(&r, &x, &[0.3, 0.1], &masses, [0.0, 0.0, -r.g], 1.0);

    let bike = WhippleBicycle::default();
    let x = upright(&bike, 5.0, 0.5);
    let masses = [
        ("R_o", bike.m_r),
        ("B_c", bike.m_b),
        ("H_c", bike.m_h),
        ("F_o", bike.m_f),
    ];
    momentum_balance_holds(
        &bike,
        &x,
        &[0.0, 1.0, 20.0],
        &masses,
        [0.0, 0.0, bike.g],
        1.0,
    );

    let arm = MobileManipulator::default();
    let mut x = MobileManipulator::ZERO_STATE;
    x[MobileManipulator::NQ] = 3.0;
    x[MobileManipulator::NQ + 1] = 4.0;
    let masses = [
        ("G", arm.m_c),
        ("L_o", arm.m_w),
        ("R_o", arm.m_w),
        ("K_o", arm.m_k),
        ("G1", arm.m1),
        ("G2", arm.m2),
        ("G3", arm.m3),
        ("G4", arm.m4),
        ("G5", arm.m5),
        ("G6", arm.m6),
    ];
    // the unpowered arm starts to fall from upright; the caster slips at 0.86 s
    let u = [0.2, 0.1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    momentum_balance_holds(&arm, &x, &u, &masses, [0.0, 0.0, -arm.g], 0.8);
}

/// A sampled controller whose new torques at a control instant ask more than `mu N` at once
/// (no sign change inside a step) ends the run at that instant, every method alike.
#[test]
fn a_control_instant_past_the_limit_ends_the_run_there() {
    use nonholo::models::DiffDriveRobot;
    let r = DiffDriveRobot::default();
    for method in [Method::Tsit45, Method::Dop853, Method::Bdf] {
        let mut kick = |t: f64, _x: &[f64], u: &mut [f64]| u.fill(if t > 0.0 { 3.0 } else { 0.0 });
        let o = Options::default().method(method).control_period(0.01);
        let e = simulate_controlled(&r, &mut kick, &DiffDriveRobot::ZERO_STATE, 0.0..1.0, &o)
            .unwrap_err();
        let Error::ContactLost { event, t, .. } = e.error else {
            panic!("{method:?}: {}", e.error);
        };
        assert_eq!((event, t), (ContactEvent::Slip, 0.01), "{method:?}");
        assert_eq!(e.partial.last().unwrap().0, 0.01);
    }
}
