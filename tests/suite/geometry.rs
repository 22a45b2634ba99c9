//! Where the parts are (`Geometry`): positions against closed forms (the rolling disk's
//! centre above its contact, the bicycle's wheelbase and front contact on the ground),
//! velocities against differences of positions along `dot(q)` and, for the wheels'
//! material contact points, against the rolling constraints (zero); orientations are
//! rotations; names and errors; the default scene.

use nonholo::models::{RollingDisk3d, WhippleBicycle};
use nonholo::prelude::*;
use nonholo::Shape;
use nonholo_test_models::geometry::*;

use crate::common;
use common::rng::SplitMix64;

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn norm(a: [f64; 3]) -> f64 {
    (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt()
}

/// The positions of every point at `q`.
fn positions<M: Geometry>(m: &M, q: &[f64]) -> Vec<[f64; 3]> {
    let mut out = vec![[0.0; 3]; M::POINTS.len()];
    m.point_positions(0.0, q, &mut out).unwrap();
    out
}

/// The worst difference between `point_velocities` and central differences of the
/// positions along `dot(q)`, relative to the largest speed. Not for the wheels' contacts:
/// their velocity is the material point's (zero when rolling), while the position is the
/// contact's, which travels.
fn velocity_error<M: Geometry>(m: &M, state: &[f64]) -> f64 {
    let (nq, np) = (M::NQ, M::POINTS.len());
    let mut v = vec![[0.0; 3]; np];
    m.point_velocities(0.0, state, &mut v).unwrap();
    let mut qd = vec![0.0; nq];
    m.qdot(0.0, &state[..nq], &state[nq..], &mut qd).unwrap();
    let h = 1e-6;
    let at = |s: f64| -> Vec<[f64; 3]> {
        let q: Vec<f64> = state[..nq]
            .iter()
            .zip(&qd)
            .map(|(a, b)| a + s * b)
            .collect();
        positions(m, &q)
    };
    let (p, n) = (at(h), at(-h));
    let scale = 1.0 + v.iter().fold(0.0f64, |a, x| a.max(norm(*x)));
    (0..np)
        .filter(|k| !M::POINTS[*k].ends_with(".contact"))
        .fold(0.0f64, |worst, k| {
            let fd: [f64; 3] = core::array::from_fn(|i| (p[k][i] - n[k][i]) / (2.0 * h));
            worst.max(norm(sub(v[k], fd)) / scale)
        })
}

#[test]
fn rolling_disk_points_frames_and_velocities() {
    assert_eq!(RollingDisk3d::FRAMES, ["N", "L", "D"]);
    assert_eq!(
        RollingDisk3d::POINTS,
        ["O", "P", "C", "disk.center", "disk.contact", "ground.point"]
    );
    assert_eq!(RollingDisk3d::BODIES, ["disk"]);
    let disk = RollingDisk3d::default();
    let mut rng = SplitMix64::new(21);
    let mut worst_v = 0.0f64;
    for _ in 0..20 {
        let q = rng.uniform_vec(5, -1.2, 1.2);
        let p = positions(&disk, &q);
        // C is r above the contact along the disk's plane, the contact is P on the ground
        let (c, contact) = (p[2], p[4]);
        assert!(norm(sub(contact, p[1])) < 1e-14, "{contact:?} {:?}", p[1]);
        assert!((norm(sub(c, contact)) - disk.r).abs() < 1e-14);
        assert!((c[2] - disk.r * q[3].cos()).abs() < 1e-14);
        assert_eq!(disk.position("C", 0.0, &q).unwrap(), c);
        // orientations: rotations, L = Rz(yaw) Rx(lean)
        let mut r = [[[0.0; 3]; 3]; 3];
        disk.frame_orientations(0.0, &q, &mut r).unwrap();
        assert_eq!(r[0], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
        let (cy, sy, cl, sl) = (q[2].cos(), q[2].sin(), q[3].cos(), q[3].sin());
        let l = [
            [cy, -sy * cl, sy * sl],
            [sy, cy * cl, -cy * sl],
            [0.0, sl, cl],
        ];
        for i in 0..3 {
            for j in 0..3 {
                assert!((r[1][i][j] - l[i][j]).abs() < 1e-15);
            }
        }
        let state: Vec<f64> = q
            .iter()
            .copied()
            .chain(rng.uniform_vec(3, -2.0, 2.0))
            .collect();
        worst_v = worst_v.max(velocity_error(&disk, &state));
        // the material contact point does not move: the rolling constraints
        let mut v = [[0.0; 3]; 6];
        disk.point_velocities(0.0, &state, &mut v).unwrap();
        assert!(norm(v[4]) < 1e-13, "contact velocity {:?}", v[4]);
    }
    println!("rolling disk: velocities vs differences {worst_v:e}");
    assert!(worst_v < 1e-8, "{worst_v:e}");
    assert!(matches!(
        disk.position("Q", 0.0, &[0.0; 5]),
        Err(Error::UnknownName { .. })
    ));
    let mut short = [[0.0; 3]; 2];
    assert!(matches!(
        disk.point_positions(0.0, &[0.0; 5], &mut short),
        Err(Error::Dimension { .. })
    ));
}

#[test]
fn bicycle_contacts_wheelbase_and_velocities() {
    let bike = WhippleBicycle::default();
    let idx = |n: &str| WhippleBicycle::POINTS.iter().position(|p| *p == n).unwrap();
    let (rear, front) = (idx("rear_wheel.contact"), idx("front_wheel.contact"));
    // upright: the wheelbase w, both contacts on the ground
    let mut q = [0.0; 8];
    bike.solve_configuration(0.0, &mut q).unwrap();
    let p = positions(&bike, &q);
    println!(
        "upright: rear contact {:?}, front contact {:?}",
        p[rear], p[front]
    );
    assert!(norm(p[rear]) < 1e-15);
    assert!(
        norm(sub(p[front], [bike.w, 0.0, 0.0])) < 1e-13,
        "{:?}",
        p[front]
    );
    let mut rng = SplitMix64::new(8);
    let mut worst_v = 0.0f64;
    for _ in 0..20 {
        let mut q: Vec<f64> = rng.uniform_vec(8, -0.4, 0.4);
        bike.solve_configuration(0.0, &mut q).unwrap();
        let p = positions(&bike, &q);
        // the configuration constraint: the front contact is on the ground (z = 0)
        assert!(
            p[front][2].abs() < 1e-12,
            "front contact height {:e}",
            p[front][2]
        );
        assert!(norm(sub(p[rear], [q[0], q[1], 0.0])) < 1e-14);
        // the wheel centres are their radius from the contacts
        let d_r = norm(sub(p[idx("R_o")], p[rear]));
        let d_f = norm(sub(p[idx("F_o")], p[front]));
        assert!((d_r - bike.r_r).abs() < 1e-14 && (d_f - bike.r_f).abs() < 1e-13);
        let state: Vec<f64> = q
            .iter()
            .copied()
            .chain(rng.uniform_vec(3, -3.0, 3.0))
            .collect();
        worst_v = worst_v.max(velocity_error(&bike, &state));
        let mut v = [[0.0; 3]; WhippleBicycle::POINTS.len()];
        bike.point_velocities(0.0, &state, &mut v).unwrap();
        assert!(
            norm(v[rear]) < 1e-13 && norm(v[front]) < 1e-12,
            "{:?} {:?}",
            v[rear],
            v[front]
        );
    }
    println!("bicycle: velocities vs differences {worst_v:e}");
    assert!(worst_v < 1e-8, "{worst_v:e}");
}

#[test]
fn default_scene_from_the_model() {
    let bike = WhippleBicycle::default();
    let scene = bike.scene();
    let disks: Vec<f64> = scene
        .iter()
        .filter_map(|s| match s {
            Shape::Disk { radius, .. } => Some(*radius),
            _ => None,
        })
        .collect();
    assert_eq!(disks, [bike.r_r, bike.r_f]);
    let ellipsoids = scene
        .iter()
        .filter(|s| matches!(s, Shape::Ellipsoid { .. }))
        .count();
    // the rear frame's; the wheels are disks, the fork is hidden and drawn as segments
    assert_eq!(ellipsoids, 1);
    let segments = scene
        .iter()
        .filter(|s| matches!(s, Shape::Segment { .. }))
        .count();
    assert_eq!(segments, 3);
    assert!(scene
        .iter()
        .any(|s| matches!(s, Shape::Grid { up, .. } if *up == [0.0, 0.0, -1.0])));
    // every index names a point and a frame of the model
    for s in &scene {
        if let Shape::Disk { center, frame, .. } | Shape::Ellipsoid { center, frame, .. } = s {
            assert!(
                *center < WhippleBicycle::POINTS.len() && *frame < WhippleBicycle::FRAMES.len()
            );
        }
    }
    // the rear frame's ellipsoid has the rider's inertia: a ~ sqrt(5 (I2 + I3 - I1) / 2m)
    let Some(Shape::Ellipsoid { axes, .. }) =
        scene.iter().find(|s| matches!(s, Shape::Ellipsoid { .. }))
    else {
        panic!("no ellipsoid")
    };
    let lengths: Vec<f64> = axes.iter().map(|a| norm(*a)).collect();
    assert!(lengths.iter().all(|l| *l > 0.1 && *l < 1.0), "{lengths:?}");
}

/// Moore's closed form (DynamicistToolKit's `front_contact` docstring): yaw, roll and steer
/// of 5 degrees, `d1, d2, d3, rr, rf = 0.6, 0.3, 0.03, 0.3, 0.3`, the rear contact at the
/// origin: the front contact at (0.6987001194987257, 0.05266663513621053).
#[test]
fn front_contact_against_moores_closed_form() {
    let m = MooreFrame::default();
    let five = 5f64.to_radians();
    let mut q = [0.0, 0.0, five, five, 0.3, five, 0.0];
    m.solve_configuration(0.0, &mut q).unwrap();
    let p = m.position("wheel.contact", 0.0, &q).unwrap();
    println!("front contact {p:?} (pitch {})", q[4]);
    assert!((p[0] - 0.6987001194987257).abs() < 1e-14, "{p:?}");
    assert!((p[1] - 0.05266663513621053).abs() < 1e-14, "{p:?}");
    assert!(p[2].abs() < 1e-14);
}

#[test]
fn draw_adds_and_hides_shapes() {
    let arm = DrawnArm::default();
    let scene = arm.scene();
    let p = |n: &str| DrawnArm::POINTS.iter().position(|x| *x == n).unwrap();
    let f = |n: &str| DrawnArm::FRAMES.iter().position(|x| *x == n).unwrap();
    // the upper arm keeps its ellipsoid, the forearm's is hidden
    let ellipsoids: Vec<usize> = scene
        .iter()
        .filter_map(|s| match s {
            Shape::Ellipsoid { center, .. } => Some(*center),
            _ => None,
        })
        .collect();
    assert_eq!(ellipsoids, [p("upper.center")]);
    assert!(scene.contains(&Shape::Segment {
        from: p("O"),
        to: p("E"),
        color: [31, 119, 180]
    }));
    assert!(scene.contains(&Shape::Cylinder {
        center: p("M"),
        frame: f("F"),
        axis: [1.0, 0.0, 0.0],
        radius: 0.03,
        length: arm.l,
        color: [250, 120, 20]
    }));
    assert!(scene
        .iter()
        .any(|s| matches!(s, Shape::Sphere { center, radius, .. } if *center == p("E") && *radius == 0.05)));
    assert!(scene.contains(&Shape::Cuboid {
        center: p("O"),
        frame: f("B"),
        half: [0.2, 0.2, 0.05],
        color: [127, 127, 127]
    }));
    // H at full stretch along B.x turned by the base
    let q = [0.3, 0.0, 0.0];
    let h = arm.position("H", 0.0, &q).unwrap();
    assert!(
        norm(sub(
            h,
            [2.0 * arm.l * 0.3f64.cos(), 2.0 * arm.l * 0.3f64.sin(), 0.0]
        )) < 1e-15
    );
}
