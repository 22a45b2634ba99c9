//! The contact loads and reactions along a run: `Trajectory::contact_loads` and
//! `reactions` against direct calls at every sample with the recorded inputs, the contact
//! CSV read back, and the contact forces the HTML viewer carries.

use nonholo::models::{DiffDriveRobot, RollingDisk3d, WhippleBicycle};
use nonholo::prelude::*;
use nonholo::viz::Animation;
use nonholo::ContactLoad;
use nonholo_test_models::contact_forces::DiskOnSlope;

use super::contact_forces::upright;

/// The bicycle's upright loads (`contact_forces`): rear, front.
const REAR_N: f64 = 612.8364705882353;
const FRONT_N: f64 = 309.3035294117647;

/// Every field the same, bit for bit (`NaN`s included).
fn same(a: &ContactLoad, b: &ContactLoad) -> bool {
    let bits = |l: &ContactLoad| {
        let mut v: Vec<u64> = l
            .force
            .iter()
            .chain(&l.point)
            .map(|x| x.to_bits())
            .collect();
        v.extend(
            [
                l.normal,
                l.longitudinal,
                l.lateral,
                l.utilization,
                l.friction_margin,
            ]
            .map(f64::to_bits),
        );
        v
    };
    bits(a) == bits(b)
}

fn direct_loads<M: Contacts>(m: &M, t: f64, state: &[f64], u: &[f64]) -> Vec<ContactLoad> {
    let mut out = vec![ContactLoad::ZERO; M::CONTACTS.len()];
    m.contact_loads(t, state, u, &mut out).unwrap();
    out
}

fn direct_reactions<M: Contacts>(m: &M, t: f64, state: &[f64], u: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; M::NQ];
    m.reactions(t, state, u, &mut out).unwrap();
    out
}

/// A second of riding at 5 m/s under a steering law (sampled every 10 ms) and a constant
/// pedalling torque.
fn bicycle_ride() -> (WhippleBicycle, Trajectory) {
    let bike = WhippleBicycle::default();
    let state = upright(&bike, 5.0, 0.3);
    let mut rider = |_t: f64, x: &[f64], u: &mut [f64]| {
        let (roll, roll_rate) = (x[3], x[WhippleBicycle::NQ]);
        u.copy_from_slice(&[0.0, 8.0 * roll + 2.0 * roll_rate, 6.0]);
    };
    let options = Options::default().control_period(0.01).sample_every(0.01);
    let tr = simulate_controlled(&bike, &mut rider, &state, 0.0..1.0, &options).unwrap();
    (bike, tr)
}

#[test]
fn series_equal_direct_calls_with_the_recorded_inputs() {
    let (bike, tr) = bicycle_ride();
    assert!(tr.len() > 90, "{} samples", tr.len());
    let loads = tr.contact_loads(&bike).unwrap();
    let reactions = tr.reactions(&bike).unwrap();
    assert_eq!((loads.len(), reactions.len()), (tr.len(), tr.len()));
    let mut pedalled = 0;
    for i in 0..tr.len() {
        let (t, state, u) = (tr.times()[i], tr.state(i).unwrap(), tr.input(i).unwrap());
        let direct = direct_loads(&bike, t, state, u);
        assert_eq!(loads[i].len(), 2);
        assert!(
            loads[i].iter().zip(&direct).all(|(a, b)| same(a, b)),
            "sample {i}: {:?} vs {direct:?}",
            loads[i]
        );
        assert_eq!(
            reactions[i],
            direct_reactions(&bike, t, state, u),
            "sample {i}"
        );
        // the inputs are the recorded ones: without the pedalling torque the rear
        // wheel's traction differs
        let unforced = direct_loads(&bike, t, state, &[0.0; 3]);
        assert_eq!(u[2], 6.0);
        if (unforced[0].longitudinal - loads[i][0].longitudinal).abs() > 1.0 {
            pedalled += 1;
        }
        // no friction coefficient: no utilization
        assert!(loads[i].iter().all(|l| l.utilization.is_nan()));
    }
    assert_eq!(pedalled, tr.len());
    // in the CSV, `NaN`
    let csv = tr.contact_csv_string(&bike).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "t,rear_wheel.N,rear_wheel.long,rear_wheel.lat,rear_wheel.Fx,rear_wheel.Fy,\
         rear_wheel.Fz,rear_wheel.util,front_wheel.N,front_wheel.long,front_wheel.lat,\
         front_wheel.Fx,front_wheel.Fy,front_wheel.Fz,front_wheel.util,R.x,R.y,R.yaw,R.roll,\
         R.pitch,R.th_r,R.steer,R.th_f"
    );
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!((cells[7], cells[14]), ("NaN", "NaN"));
    }
}

#[test]
fn the_bicycle_at_rest_carries_its_weight_at_every_sample() {
    let bike = WhippleBicycle::default();
    let state = upright(&bike, 0.0, 0.0);
    let mut dstate = [0.0; WhippleBicycle::DIM];
    bike.rhs(0.0, &state, &mut dstate).unwrap();
    // recorded with inputs (u = 0 pushed) and without any (evaluated at u = 0)
    let mut with_u = Trajectory::new::<WhippleBicycle>();
    let mut without = Trajectory::from_names(WhippleBicycle::COORDINATES, WhippleBicycle::SPEEDS);
    for k in 0..5 {
        let t = 0.25 * f64::from(k);
        with_u.push(t, &state, &dstate).unwrap();
        without.push(t, &state, &dstate).unwrap();
    }
    assert_eq!(without.nu(), 0);
    let loads = with_u.contact_loads(&bike).unwrap();
    for l in &loads {
        for (load, n) in [(l[0], REAR_N), (l[1], FRONT_N)] {
            assert!(
                (load.normal - n).abs() < 1e-10 * n,
                "{} vs {n}",
                load.normal
            );
            assert!(load.tangential() < 1e-10 * n);
        }
    }
    let other = without.contact_loads(&bike).unwrap();
    assert!(loads
        .iter()
        .flatten()
        .zip(other.iter().flatten())
        .all(|(a, b)| same(a, b)));
    assert_eq!(
        with_u.reactions(&bike).unwrap(),
        without.reactions(&bike).unwrap()
    );
}

#[test]
fn samples_of_another_shape_are_refused() {
    let bike = WhippleBicycle::default();
    let disk = RollingDisk3d::default();
    let tr = Trajectory::new::<RollingDisk3d>();
    assert!(matches!(
        tr.contact_loads(&bike),
        Err(Error::Dimension { .. })
    ));
    assert!(matches!(tr.reactions(&bike), Err(Error::Dimension { .. })));
    assert!(matches!(
        tr.contact_csv_string(&bike),
        Err(Error::Dimension { .. })
    ));
    // no samples: no rows
    assert!(tr.contact_loads(&disk).unwrap().is_empty());
    // one input where the bicycle has three
    let one = Trajectory::from_names_with_inputs(
        WhippleBicycle::COORDINATES,
        WhippleBicycle::SPEEDS,
        &["t_steer"],
    );
    for e in [
        one.contact_loads(&bike).map(|_| ()),
        one.reactions(&bike).map(|_| ()),
    ] {
        assert!(
            matches!(
                e,
                Err(Error::Dimension {
                    what: "trajectory inputs",
                    expected: 3,
                    found: 1
                })
            ),
            "{e:?}"
        );
    }
}

/// Fixed ideal constraints do no work, `R . dot(q) = 0`, at every sample of a rolling,
/// turning disk; upright and not leaning yet it stands on `m g`.
#[test]
fn the_reactions_of_a_rolling_disk_do_no_work() {
    let disk = RollingDisk3d::default();
    // [x, y, yaw, lean, spin], speeds dot(yaw), dot(lean), dot(spin): 1 m/s (below the
    // self-stable speed), turning upright: it starts to lean
    let state = [0.0, 0.0, 0.0, 0.0, 0.0, 0.2, 0.0, 1.0 / disk.r];
    let options = Options::default().sample_every(0.02);
    let tr = simulate(&disk, &state, 0.0..1.0, &options).unwrap();
    let reactions = tr.reactions(&disk).unwrap();
    let loads = tr.contact_loads(&disk).unwrap();
    let mut qdot = [0.0; RollingDisk3d::NQ];
    for (i, r) in reactions.iter().enumerate() {
        disk.qdot(tr.times()[i], tr.q(i).unwrap(), tr.z(i).unwrap(), &mut qdot)
            .unwrap();
        let power: f64 = r.iter().zip(&qdot).map(|(r, v)| r * v).sum();
        let scale =
            r.iter().map(|x| x.abs()).sum::<f64>() * qdot.iter().map(|x| x.abs()).sum::<f64>();
        assert!(power.abs() <= 1e-12 * scale.max(1.0), "sample {i}: {power}");
        // the force on the wheel at its contact point (x, y)
        let (q, p) = (tr.q(i).unwrap(), loads[i][0].point);
        assert!((p[0] - q[0]).abs() < 1e-12 && (p[1] - q[1]).abs() < 1e-12 && p[2].abs() < 1e-12);
    }
    let l0 = loads[0][0];
    assert!((l0.normal - disk.m * disk.g).abs() < 1e-10, "{l0:?}");
    // it leans during the second
    assert!(tr.last().unwrap().1[3].abs() > 1e-3);
}

/// The robot driving off with its caster swivelled, the motors' torques rising.
fn robot_run() -> (DiffDriveRobot, Trajectory) {
    let robot = DiffDriveRobot::default();
    // [x, y, th, phi_l, phi_r, sw, phi_c], the wheels' rates
    let state = [0.0, 0.0, 0.0, 0.0, 0.0, 0.4, 0.0, 2.0, 2.0];
    let mut motors = |t: f64, _x: &[f64], u: &mut [f64]| u.copy_from_slice(&[0.2, 0.3 * t]);
    let options = Options::default().sample_every(0.05);
    let tr = simulate_controlled(&robot, &mut motors, &state, 0.0..1.0, &options).unwrap();
    (robot, tr)
}

/// The CSV header names each wheel's seven columns and the reactions; every number reads
/// back bit for bit. The robot's wheels grip with `mu`: `util = |F_t| / (mu N)`.
#[test]
fn the_contact_csv_reads_back() {
    let (robot, tr) = robot_run();
    let csv = tr.contact_csv_string(&robot).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mut expected = vec!["t".to_string()];
    for wheel in ["left", "right", "caster"] {
        for c in ["N", "long", "lat", "Fx", "Fy", "Fz", "util"] {
            expected.push(format!("{wheel}.{c}"));
        }
    }
    for q in ["x", "y", "th", "phi_l", "phi_r", "sw", "phi_c"] {
        expected.push(format!("R.{q}"));
    }
    assert_eq!(header, expected);
    let loads = tr.contact_loads(&robot).unwrap();
    let reactions = tr.reactions(&robot).unwrap();
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), tr.len());
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<&str> = row.split(',').collect();
        assert_eq!(cells.len(), header.len());
        let x: Vec<f64> = cells.iter().map(|c| c.parse().unwrap()).collect();
        assert_eq!(x[0].to_bits(), tr.times()[i].to_bits());
        for (k, l) in loads[i].iter().enumerate() {
            let got = &x[1 + 7 * k..8 + 7 * k];
            let want = [
                l.normal,
                l.longitudinal,
                l.lateral,
                l.force[0],
                l.force[1],
                l.force[2],
                l.utilization,
            ];
            assert!(
                got.iter()
                    .zip(want)
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "row {i}, contact {k}: {got:?} vs {want:?}"
            );
            assert!((l.utilization * robot.mu * l.normal - l.tangential()).abs() < 1e-9);
        }
        let r: Vec<u64> = x[22..].iter().map(|v| v.to_bits()).collect();
        let want: Vec<u64> = reactions[i].iter().map(|v| v.to_bits()).collect();
        assert_eq!(r, want, "row {i}");
    }
    // the robot stands on its wheels: the normals carry its weight
    let n: f64 = loads[0].iter().map(|l| l.normal).sum();
    assert!(n > 5.0 * 9.81 && n < 7.0 * 9.81, "{n}");

    let dir = std::env::temp_dir().join(format!("nonholo_contact_series_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("robot_contacts.csv");
    tr.write_contact_csv(&robot, &path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), csv);
    let nowhere = dir.join("no_such_folder").join("c.csv");
    assert!(matches!(
        tr.write_contact_csv(&robot, &nowhere),
        Err(Error::InvalidOptions(_))
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A disk rolling down a slope with a friction coefficient: its utilization in the series
/// and in the CSV is `tan(alpha) / (3 mu)`.
#[test]
fn a_contact_with_friction_carries_its_utilization() {
    let d = DiskOnSlope::default();
    let s = d
        .state_from_qdot(0.0, &[0.0; 5], &[1.0, 0.0, 0.0, 0.0, 1.0 / d.r])
        .unwrap();
    let tr = simulate(&d, &s, 0.0..0.5, &Options::default().sample_every(0.1)).unwrap();
    let loads = tr.contact_loads(&d).unwrap();
    let expected = d.alpha.tan() / (3.0 * d.mu);
    let csv = tr.contact_csv_string(&d).unwrap();
    assert!(csv.starts_with("t,disk.N,disk.long,disk.lat,disk.Fx,disk.Fy,disk.Fz,disk.util,R.x,"));
    for (i, row) in csv.lines().skip(1).enumerate() {
        let l = loads[i][0];
        // rolling straight down, upright: the same ratio all along
        assert!((l.utilization - expected).abs() < 1e-9, "{l:?}");
        let util: f64 = row.split(',').nth(7).unwrap().parse().unwrap();
        assert_eq!(util.to_bits(), l.utilization.to_bits());
    }
}

/// The integers of the array `"key":[...]` in the page's data, and of the numbers after
/// `"key":`.
fn json_ints(page: &str, key: &str) -> Vec<i64> {
    let start = page.find(&format!("\"{key}\":[")).unwrap() + key.len() + 4;
    let end = start + page[start..].find(']').unwrap();
    page[start..end]
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.trim().parse().unwrap())
        .collect()
}

fn json_num(page: &str, key: &str) -> f64 {
    let start = page.find(&format!("\"{key}\":")).unwrap() + key.len() + 3;
    let end = start + page[start..].find([',', '}', '\n']).unwrap();
    page[start..end].parse().unwrap()
}

/// The page carries, per frame and contact, the contact point, the force, the normal
/// force and the utilization of `contact_loads` at that frame, within their quanta.
#[test]
fn the_viewer_page_carries_the_loads_of_each_frame() {
    let (bike, tr) = bicycle_ride();
    let page = tr
        .animation_html_with_contacts(&bike, &Animation::default())
        .unwrap();
    assert!(page.contains(
        "\"contacts\":{\"names\":[\"rear_wheel\",\"front_wheel\"],\"friction\":[false,false]"
    ));
    assert!(page.contains("<input id=\"forces\" type=\"checkbox\" checked>"));
    let (pq, fq, tq, t0) = (
        json_num(&page, "pq"),
        json_num(&page, "fq"),
        json_num(&page, "tq"),
        json_num(&page, "t0"),
    );
    let frames: Vec<f64> = json_ints(&page, "t")
        .iter()
        .map(|k| t0 + *k as f64 * tq)
        .collect();
    let c = json_ints(&page, "C");
    assert_eq!(c.len(), frames.len() * 2 * 8);
    // the recorded samples among the frames: their loads as the series gives them
    let loads = tr.contact_loads(&bike).unwrap();
    let mut checked = 0;
    for (f, &t) in frames.iter().enumerate() {
        let Some(i) = tr.times().iter().position(|s| (s - t).abs() < tq) else {
            continue;
        };
        for (k, l) in loads[i].iter().enumerate() {
            let row = &c[(f * 2 + k) * 8..(f * 2 + k + 1) * 8];
            for (j, x) in l.point.iter().enumerate() {
                assert!((row[j] as f64 * pq - x).abs() <= 0.5 * pq * 1.000001);
            }
            for (j, x) in l.force.iter().chain([&l.normal]).enumerate() {
                let got = row[3 + j] as f64 * fq;
                assert!(
                    (got - x).abs() <= 0.5 * fq * 1.000001,
                    "frame {f}: {got} vs {x}"
                );
            }
            assert_eq!(row[7], 0); // no friction
        }
        checked += 1;
    }
    assert!(checked > 50, "{checked} frames at samples");
    // the default scale: the mean total normal force (the weight, upright) is 0.4 of the
    // model's size, a bicycle's 1 to 3 m
    let weight = REAR_N + FRONT_N;
    let arrow = json_num(&page, "scale") * weight;
    assert!(arrow > 0.4 && arrow < 1.2, "{arrow} m");
    let (robot, run) = robot_run();
    let page = run
        .animation_html_with_contacts(&robot, &Animation::default())
        .unwrap();
    assert!(
        page.contains("\"names\":[\"left\",\"right\",\"caster\"],\"friction\":[true,true,true]")
    );
    // a scale of one's own, and one that cannot be
    let page = tr
        .animation_html_with_contacts(&bike, &Animation::default().force_scale(2e-3))
        .unwrap();
    assert_eq!(json_num(&page, "scale"), 2e-3);
    let bad = tr.animation_html_with_contacts(&bike, &Animation::default().force_scale(0.0));
    assert!(matches!(bad, Err(Error::InvalidOptions(_))));
    // the page without contact forces is as it was
    let plain = tr.animation_html(&bike, &Animation::default()).unwrap();
    assert!(!plain.contains("\"contacts\"") && !plain.contains("id=\"forces\""));
}
