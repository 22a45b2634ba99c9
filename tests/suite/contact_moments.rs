//! The contact forces against Euler's law for the whole system: along a run, the moment
//! about the origin of the contact forces and the weights equals the rate of the bodies'
//! angular momentum about the origin, `sum_b (r_b x m_b v_b + I_b omega_b)`, computed here
//! from `Geometry` alone (positions, velocities, frame orientations) and the bodies'
//! inertias, by central differences: nothing of the derivation behind `contact_loads`.

use super::contact_forces::{along, run_with_loads};
use nonholo::prelude::*;
use nonholo::Geometry;

/// A body: its centre, mass, frame, the frame its inertia is written in and the inertia's
/// diagonal there.
struct Body {
    center: &'static str,
    mass: f64,
    frame: &'static str,
    inertia_frame: &'static str,
    inertia: [f64; 3],
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn orientations<M: Geometry>(m: &M, t: f64, q: &[f64]) -> Vec<[[f64; 3]; 3]> {
    let mut r = vec![[[0.0; 3]; 3]; M::FRAMES.len()];
    m.frame_orientations(t, q, &mut r).unwrap();
    r
}

/// `L_O` at `(t, state)`: the angular velocities from `dR/dt R^T`, `dR/dt` a central
/// difference along `dot(q)` (the state's own derivative at the inputs `u`).
fn angular_momentum<M: Model + Geometry>(
    m: &M,
    bodies: &[Body],
    t: f64,
    s: &[f64],
    u: &[f64],
) -> [f64; 3] {
    let mut ds = vec![0.0; M::DIM];
    m.rhs_u(t, s, u, &mut ds).unwrap();
    let q = &s[..M::NQ];
    let mut p = vec![[0.0; 3]; M::POINTS.len()];
    let mut v = vec![[0.0; 3]; M::POINTS.len()];
    m.point_positions(t, q, &mut p).unwrap();
    m.point_velocities(t, s, &mut v).unwrap();
    let eps = 1e-5;
    let shifted = |h: f64| -> Vec<f64> { q.iter().zip(&ds).map(|(x, d)| x + h * d).collect() };
    let (ra, r0, rb) = (
        orientations(m, t + eps, &shifted(eps)),
        orientations(m, t, q),
        orientations(m, t - eps, &shifted(-eps)),
    );
    let mut l = [0.0; 3];
    for b in bodies {
        let (i, f, j) = (
            M::point_index(b.center).unwrap(),
            M::frame_index(b.frame).unwrap(),
            M::frame_index(b.inertia_frame).unwrap(),
        );
        // omega^ = dR/dt R^T
        let w = |a: usize, c: usize| -> f64 {
            (0..3)
                .map(|k| (ra[f][a][k] - rb[f][a][k]) / (2.0 * eps) * r0[f][c][k])
                .sum()
        };
        let omega = [w(2, 1), w(0, 2), w(1, 0)];
        // I in root components: R_j diag(I) R_j^T
        let rj = &r0[j];
        let mut spin = [0.0; 3];
        for (a, s) in spin.iter_mut().enumerate() {
            for c in 0..3 {
                let iac: f64 = (0..3).map(|k| rj[a][k] * b.inertia[k] * rj[c][k]).sum();
                *s += iac * omega[c];
            }
        }
        let orbit = cross(p[i], v[i]);
        for k in 0..3 {
            l[k] += b.mass * orbit[k] + spin[k];
        }
    }
    l
}

fn moment_balance_holds<M: Contacts + Geometry>(
    m: &M,
    x0: &[f64],
    u: &[f64],
    bodies: &[Body],
    g: [f64; 3],
    t1: f64,
) -> f64 {
    let (tr, series) = run_with_loads(m, x0, u, t1);
    let weight: f64 = bodies.iter().map(|b| b.mass).sum::<f64>() * g[2].abs();
    // the outer difference's error goes as eta^2 (measured: 3.7e-8 at 1e-4 near the
    // manipulator's slip, 2.7e-9 here), the inner one's rounding as 1 / (eps eta)
    let eta = 1.5e-5;
    let mut worst = 0.0f64;
    for (i, loads) in series.iter().enumerate() {
        let (t, s, ds) = (
            tr.times()[i],
            tr.state(i).unwrap(),
            tr.derivative(i).unwrap(),
        );
        let [ahead, behind] = along(s, ds, eta);
        let (la, lb) = (
            angular_momentum(m, bodies, t + eta, &ahead, u),
            angular_momentum(m, bodies, t - eta, &behind, u),
        );
        let mut p = vec![[0.0; 3]; M::POINTS.len()];
        m.point_positions(t, &s[..M::NQ], &mut p).unwrap();
        let mut moment = [0.0; 3];
        for c in loads {
            let mc = cross(c.point, c.force);
            (0..3).for_each(|k| moment[k] += mc[k]);
        }
        for b in bodies {
            let w = [b.mass * g[0], b.mass * g[1], b.mass * g[2]];
            let mw = cross(p[M::point_index(b.center).unwrap()], w);
            (0..3).for_each(|k| moment[k] += mw[k]);
        }
        for k in 0..3 {
            let rate = (la[k] - lb[k]) / (2.0 * eta);
            let e = (rate - moment[k]).abs() / weight;
            worst = worst.max(e);
            assert!(
                e < 1e-8,
                "t = {t}, component {k}: dL_O/dt {rate} vs moment {}",
                moment[k]
            );
        }
    }
    println!("worst |dL_O/dt - M_O| / (weight x 1 m) {worst:.1e}");
    worst
}

fn body(
    center: &'static str,
    mass: f64,
    frame: &'static str,
    inertia_frame: &'static str,
    inertia: [f64; 3],
) -> Body {
    Body {
        center,
        mass,
        frame,
        inertia_frame,
        inertia,
    }
}

#[test]
fn contact_forces_and_weights_give_the_angular_momentum_rate() {
    use nonholo::models::{DiffDriveRobot, MobileManipulator};
    let r = DiffDriveRobot::default();
    let mut x = DiffDriveRobot::ZERO_STATE;
    x[0] = 0.4;
    x[1] = -0.3;
    x[5] = 0.2;
    x[DiffDriveRobot::NQ] = 4.0;
    x[DiffDriveRobot::NQ + 1] = 6.0;
    let wheel = [r.i_wd, r.i_wa, r.i_wd];
    let bodies = [
        body("G", r.m_c, "C", "C", [r.i_cx, r.i_cy, r.i_cz]),
        body("L_o", r.m_w, "WL", "C", wheel),
        body("R_o", r.m_w, "WR", "C", wheel),
        body("K_o", r.m_k, "WC", "K", [r.i_kd, r.i_ka, r.i_kd]),
    ];
    moment_balance_holds(&r, &x, &[0.3, 0.1], &bodies, [0.0, 0.0, -r.g], 1.0);

    let a = MobileManipulator::default();
    let mut x = MobileManipulator::ZERO_STATE;
    x[0] = -0.2;
    x[MobileManipulator::NQ] = 3.0;
    x[MobileManipulator::NQ + 1] = 4.0;
    let link = |m: f64, l: f64, axial: f64| [m * l * l / 12.0, m * l * l / 12.0, axial];
    let wheel = [a.i_wd, a.i_wa, a.i_wd];
    let bodies = [
        body("G", a.m_c, "C", "C", [a.i_cx, a.i_cy, a.i_cz]),
        body("L_o", a.m_w, "WL", "C", wheel),
        body("R_o", a.m_w, "WR", "C", wheel),
        body("K_o", a.m_k, "WC", "K", [a.i_kd, a.i_ka, a.i_kd]),
        body("G1", a.m1, "A1", "A1", link(a.m1, a.l1, 0.002)),
        body("G2", a.m2, "A2", "A2", link(a.m2, a.l2, 0.002)),
        body("G3", a.m3, "A3", "A3", link(a.m3, a.l3, 0.001)),
        body("G4", a.m4, "A4", "A4", link(a.m4, a.l4, 0.0005)),
        body("G5", a.m5, "A5", "A5", link(a.m5, a.l5, 0.0004)),
        body("G6", a.m6, "A6", "A6", link(a.m6, a.l6, 0.00015)),
    ];
    // the arm turning about its base and wrist while the base turns and the arm starts
    // to fall from upright
    let u = [0.2, 0.1, 0.05, 0.0, 0.0, 0.02, 0.0, 0.0];
    moment_balance_holds(&a, &x, &u, &bodies, [0.0, 0.0, -a.g], 0.7);
}
