//! The 3D layer against hand-derived scalar models: T, V and the constraints written by
//! hand must give the same equations (rhs at random states to 1e-12) and trajectories.

mod common;

use common::rng::SplitMix64;
use nonholo::prelude::*;

nonholo::nonholonomic! {
    /// Thin disk rolling without slipping on a horizontal plane (z up), in 3D items.
    pub struct Disk3d;
    parameters { m = 1.0, r = 0.5, g = 9.81 }
    coordinates { x, y, yaw, lean, spin }
    frame N;
    point O;
    frame L = N.rotate(z, yaw).rotate(x, lean);
    frame D = L.rotate(y, spin);
    point P = O + N[x, y, 0.0];
    point C = P + r * L.z;
    body disk { frame: D, center: C, mass: m,
                inertia: inertia(L, 0.25*m*r*r, 0.5*m*r*r, 0.25*m*r*r) }
    gravity = -g * N.z;
    plane ground { point: O, up: N.z }
    rolls disk on ground { center: C, axis: L.y, radius: r, contact: P }
    dependent { x, y }
}

nonholo::nonholonomic! {
    /// The same disk derived by hand: v_C = d/dt (x, y, 0) + r L.z, omega in L.
    pub struct DiskByHand;
    parameters { m = 1.0, r = 0.5, g = 9.81 }
    coordinates { x, y, yaw, lean, spin }
    let vx = dot(x) + r * (cos(yaw) * sin(lean) * dot(yaw) + sin(yaw) * cos(lean) * dot(lean));
    let vy = dot(y) + r * (sin(yaw) * sin(lean) * dot(yaw) - cos(yaw) * cos(lean) * dot(lean));
    let vz = -r * sin(lean) * dot(lean);
    let w1 = dot(lean);
    let w2 = dot(yaw) * sin(lean) + dot(spin);
    let w3 = dot(yaw) * cos(lean);
    kinetic_energy = 0.5 * m * (vx * vx + vy * vy + vz * vz)
        + 0.5 * (0.25 * m * r * r * (w1 * w1 + w3 * w3) + 0.5 * m * r * r * w2 * w2);
    potential_energy = m * g * r * cos(lean);
    constraints {
        cos(yaw) * dot(x) + sin(yaw) * dot(y) - r * dot(spin) == 0.0;
        -sin(yaw) * dot(x) + cos(yaw) * dot(y) == 0.0;
    }
    dependent { x, y }
}

#[test]
fn rolling_disk_3d_equals_the_hand_derived_disk() {
    let a = Disk3d::new();
    let b = DiskByHand::new();
    println!("{}", Disk3d::EQUATIONS);
    let mut rng = SplitMix64::new(7);
    for _ in 0..20 {
        let s = rng.uniform_vec(Disk3d::DIM, -1.0, 1.0);
        let mut state = [0.0; Disk3d::DIM];
        state.copy_from_slice(&s);
        let (mut da, mut db) = ([0.0; Disk3d::DIM], [0.0; Disk3d::DIM]);
        a.rhs(0.0, &state, &mut da).unwrap();
        b.rhs(0.0, &state, &mut db).unwrap();
        for k in 0..Disk3d::DIM {
            assert!(
                (da[k] - db[k]).abs() <= 1e-12 * (1.0 + db[k].abs()),
                "{k}: {da:?} vs {db:?}"
            );
        }
        let (ea, eb) = (
            a.energy(0.0, &state).unwrap(),
            b.energy(0.0, &state).unwrap(),
        );
        assert!((ea - eb).abs() < 1e-12, "{ea} vs {eb}");
    }
}

nonholo::nonholonomic! {
    /// Chaplygin sleigh in 3D items: the blade constraint, drag and a torque written with
    /// `velocity(P)` and `angular_velocity` (lowered after the frames and points exist).
    pub struct Sleigh3d;
    parameters { m = 1.3, a = 0.3, i = 0.2, c = 0.1, tau = 0.05 }
    coordinates { x, y, theta }
    frame N;
    point O;
    frame B = N.rotate(z, theta);
    point P = O + N[x, y, 0.0];
    point G = P + a * B.x;
    body sleigh { frame: B, center: G, mass: m, inertia: inertia(B, i, i, i) }
    constraints { velocity(P).dot(B.y) == 0.0; }
    forces { at P: -c * velocity(P); on sleigh: tau * N.z; }
    dependent { y }
}

nonholo::nonholonomic! {
    /// The same sleigh by hand.
    pub struct SleighByHand;
    parameters { m = 1.3, a = 0.3, i = 0.2, c = 0.1, tau = 0.05 }
    coordinates { x, y, theta }
    let vx = dot(x) - a * sin(theta) * dot(theta);
    let vy = dot(y) + a * cos(theta) * dot(theta);
    kinetic_energy = 0.5 * m * (vx * vx + vy * vy) + 0.5 * i * dot(theta) * dot(theta);
    forces { x: -c * dot(x), y: -c * dot(y), theta: tau }
    constraints { -sin(theta) * dot(x) + cos(theta) * dot(y) == 0.0; }
    dependent { y }
}

#[test]
fn sleigh_3d_equals_the_hand_derived_sleigh() {
    let (a, b) = (Sleigh3d::new(), SleighByHand::new());
    let mut rng = SplitMix64::new(11);
    for _ in 0..20 {
        let s = rng.uniform_vec(Sleigh3d::DIM, -1.0, 1.0);
        let mut state = [0.0; Sleigh3d::DIM];
        state.copy_from_slice(&s);
        let (mut da, mut db) = ([0.0; Sleigh3d::DIM], [0.0; Sleigh3d::DIM]);
        a.rhs(0.0, &state, &mut da).unwrap();
        b.rhs(0.0, &state, &mut db).unwrap();
        for k in 0..Sleigh3d::DIM {
            assert!(
                (da[k] - db[k]).abs() <= 1e-12 * (1.0 + db[k].abs()),
                "{k}: {da:?} vs {db:?}"
            );
        }
    }
}
