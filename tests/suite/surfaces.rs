//! Rolling surfaces (`rolls .. { surface: .. }`): the torus's lean mode against its closed
//! form, the thin torus against the disk, the sphere and the ellipsoid against the same
//! systems with their contact written by hand, the rattleback's rocking frequencies, and
//! the first integrals and contact forces along runs.

use nonholo::models::{
    ChaplyginBall, DiskOverBump, Rattleback, RollingDisk3d, RouthSphere, TippeTop,
};
use nonholo::prelude::*;
use nonholo::{ContactEvent, ContactLoad, EventKind, Geometry, Linearization};
use nonholo_test_models::surfaces::{
    BallOnSlope, DiskOnFlatGround, DiskOverBumpMu, DiskOverBumpVo, RattlebackBh, RattlebackByHand,
    RattlebackMu, RattlebackVo, RollingTorus, RouthByHand, ThinTorus, TippeTopMu, TippeTopVo,
};

use crate::common::rng::SplitMix64;

/// `|a - b| / (1 + |b|)`, the worst over the entries.
fn worst(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs() / (1.0 + y.abs()))
        .fold(0.0, f64::max)
}

/// For each wanted `(re, im)` in turn, the distance to the nearest eigenvalue not yet
/// matched (nearest-neighbour matching, not sort order: real parts may tie).
fn nearest_distances(eig: &[nonholo::nalgebra::Complex<f64>], want: &[(f64, f64)]) -> Vec<f64> {
    let mut used = vec![false; eig.len()];
    want.iter()
        .map(|&(re, im)| {
            let (k, d) = eig
                .iter()
                .enumerate()
                .filter(|(k, _)| !used[*k])
                .map(|(k, e)| (k, (e.re - re).hypot(e.im - im)))
                .min_by(|x, y| x.1.total_cmp(&y.1))
                .expect("as many eigenvalues as wanted");
            used[k] = true;
            d
        })
        .collect()
}

fn rhs_of<M: Model>(m: &M, s: &[f64]) -> Vec<f64> {
    let mut d = vec![0.0; M::DIM];
    m.rhs(0.0, s, &mut d).unwrap();
    d
}

// ---------------------------------------------------------------------------------------
// The torus

/// The upright torus rolling at spin `omega`: `(lean, dot(yaw), dot(lean))` has the
/// eigenvalues `0, +-sqrt(lambda^2)` with
/// `lambda^2 = (m g R A - C (C + m (R + rc)^2) Omega^2) / (A (A + m (R + rc)^2))`.
#[test]
fn torus_lean_mode_closed_form() {
    let tyre = RollingTorus::default();
    let (m, g, r, rc, a, c) = (tyre.m, tyre.g, tyre.r_major, tyre.rc, tyre.i_a, tyre.i_c);
    let reach = m * (r + rc) * (r + rc);
    let critical = (m * g * r * a / (c * (c + reach))).sqrt();
    let keep = ["lean", "dot(yaw)", "dot(lean)"];
    let mut worst_d = 0.0f64;
    for omega in [
        0.0,
        0.5 * critical,
        0.95 * critical,
        1.05 * critical,
        3.0 * critical,
        -2.0 * critical,
    ] {
        let mut s = RollingTorus::ZERO_STATE;
        s[RollingTorus::NQ + 2] = omega; // dot(spin)
        let lin = linearize(&tyre, 0.0, &s, &Linearize::new().keep(&keep)).unwrap();
        assert!(lin.max_residual() < 1e-12, "{:?}", lin.residual);
        let lambda2 = (m * g * r * a - c * (c + reach) * omega * omega) / (a * (a + reach));
        let root = lambda2.abs().sqrt();
        let want: [(f64, f64); 3] = if lambda2 > 0.0 {
            [(-root, 0.0), (0.0, 0.0), (root, 0.0)]
        } else {
            [(0.0, -root), (0.0, 0.0), (0.0, root)]
        };
        let eig = lin.eigenvalues().unwrap();
        for d in nearest_distances(&eig, &want) {
            assert!(
                d < 1e-9 * (1.0 + root),
                "Omega {omega}: {eig:?}, want {want:?}"
            );
            worst_d = worst_d.max(d);
        }
        let max_re = eig.iter().fold(f64::MIN, |x, e| x.max(e.re));
        assert_eq!(
            max_re > 1e-6,
            omega.abs() < critical,
            "Omega {omega}: {eig:?}"
        );
    }
    println!("torus lean mode: worst |lambda - closed form| {worst_d:e}, critical spin {critical}");
}

/// A torus of crown radius 0 is the thin disk: the same rhs, energy and contact point.
#[test]
fn thin_torus_is_the_disk() {
    let (torus, disk) = (ThinTorus::default(), RollingDisk3d::default());
    assert_eq!(ThinTorus::COORDINATES, RollingDisk3d::COORDINATES);
    assert_eq!(ThinTorus::SPEEDS, RollingDisk3d::SPEEDS);
    let mut rng = SplitMix64::new(48);
    let mut w = 0.0f64;
    for _ in 0..20 {
        let s = rng.uniform_vec(RollingDisk3d::DIM, -1.2, 1.2);
        w = w.max(worst(&rhs_of(&torus, &s), &rhs_of(&disk, &s)));
        let (et, ed) = (
            torus.energy(0.0, &s).unwrap(),
            disk.energy(0.0, &s).unwrap(),
        );
        w = w.max((et - ed).abs() / (1.0 + ed.abs()));
        let mut lt = [ContactLoad::ZERO];
        let mut ld = [ContactLoad::ZERO];
        torus.contact_loads(0.0, &s, &[], &mut lt).unwrap();
        disk.contact_loads(0.0, &s, &[], &mut ld).unwrap();
        w = w.max(worst(&lt[0].force, &ld[0].force));
        w = w.max(worst(&lt[0].point, &ld[0].point));
    }
    assert!(w < 1e-12, "thin torus against the disk: {w:e}");
    // a crown moves the contact and the dynamics
    let fat = torus.with_rc(0.05);
    let s = rng.uniform_vec(RollingDisk3d::DIM, -1.0, 1.0);
    assert!(worst(&rhs_of(&fat, &s), &rhs_of(&disk, &s)) > 1e-3);
}

// ---------------------------------------------------------------------------------------
// Spheres and ellipsoids against their contacts written by hand

#[test]
fn sphere_against_rows_by_hand() {
    let (lib, hand) = (RouthSphere::default(), RouthByHand::default());
    assert_eq!(RouthSphere::SPEEDS, RouthByHand::SPEEDS);
    let mut rng = SplitMix64::new(4801);
    let mut w = 0.0f64;
    for _ in 0..20 {
        let s = rng.uniform_vec(RouthSphere::DIM, -1.0, 1.0);
        w = w.max(worst(&rhs_of(&lib, &s), &rhs_of(&hand, &s)));
        let (el, eh) = (lib.energy(0.0, &s).unwrap(), hand.energy(0.0, &s).unwrap());
        w = w.max((el - eh).abs() / (1.0 + eh.abs()));
    }
    assert!(w < 1e-10, "sphere: {w:e}");
}

/// A consistent rattleback state: random attitude and rates, the height solved.
fn rattleback_state(rng: &mut SplitMix64, spread: f64) -> [f64; Rattleback::DIM] {
    let mut s = [0.0; Rattleback::DIM];
    for (i, x) in s.iter_mut().enumerate() {
        *x = if i == 2 {
            0.02
        } else {
            rng.uniform(-spread, spread)
        };
    }
    let mut q = [0.0; Rattleback::NQ];
    q.copy_from_slice(&s[..Rattleback::NQ]);
    Rattleback::default()
        .solve_configuration(0.0, &mut q)
        .unwrap();
    s[..Rattleback::NQ].copy_from_slice(&q);
    s
}

#[test]
fn ellipsoid_against_rows_by_hand() {
    let (lib, hand) = (Rattleback::default(), RattlebackByHand::default());
    assert_eq!(Rattleback::SPEEDS, RattlebackByHand::SPEEDS);
    let mut rng = SplitMix64::new(4802);
    let mut w = 0.0f64;
    for _ in 0..20 {
        let s = rattleback_state(&mut rng, 1.0);
        let mut r = [0.0; 1];
        hand.configuration_residual(0.0, &s[..Rattleback::NQ], &mut r)
            .unwrap();
        assert!(r[0].abs() < 1e-12, "{r:?}");
        w = w.max(worst(&rhs_of(&lib, &s), &rhs_of(&hand, &s)));
        let (el, eh) = (lib.energy(0.0, &s).unwrap(), hand.energy(0.0, &s).unwrap());
        w = w.max((el - eh).abs() / (1.0 + eh.abs()));
    }
    assert!(w < 1e-10, "ellipsoid: {w:e}");
}

/// At rest on its lowest point the rattleback rocks with the squared frequencies of
/// `det(K - w^2 M) = 0`, `K = m g diag(b^2/c - (c - h), a^2/c - (c - h))`,
/// `M = [[A + m (c - h)^2, D], [D, B + m (c - h)^2]]`.
#[test]
fn rattleback_rocking_frequencies() {
    let rb = Rattleback::default();
    let mut s = Rattleback::ZERO_STATE;
    s[2] = rb.c;
    let keep = ["roll", "pitch", "dot(roll)", "dot(pitch)"];
    let lin = linearize(&rb, 0.0, &s, &Linearize::new().keep(&keep)).unwrap();
    assert!(lin.max_residual() < 1e-12, "{:?}", lin.residual);
    let d = rb.c - rb.h;
    let (k1, k2) = (
        rb.m * rb.g * (rb.b * rb.b / rb.c - d),
        rb.m * rb.g * (rb.a * rb.a / rb.c - d),
    );
    let (m11, m22, m12) = (rb.i_a + rb.m * d * d, rb.i_b + rb.m * d * d, rb.i_d);
    // det([[k1 - x m11, -x m12], [-x m12, k2 - x m22]]) = 0, x = w^2
    let qa = m11 * m22 - m12 * m12;
    let qb = -(k1 * m22 + k2 * m11);
    let qc = k1 * k2;
    let disc = (qb * qb - 4.0 * qa * qc).sqrt();
    let mut want = [(-qb - disc) / (2.0 * qa), (-qb + disc) / (2.0 * qa)];
    want.sort_by(f64::total_cmp);
    let eig = lin.eigenvalues().unwrap();
    let mut got: Vec<f64> = eig
        .iter()
        .filter(|e| e.im > 0.0)
        .map(|e| e.im * e.im)
        .collect();
    got.sort_by(f64::total_cmp);
    assert_eq!(got.len(), 2, "{eig:?}");
    for (x, y) in got.iter().zip(&want) {
        assert!((x - y).abs() < 1e-9 * y, "{got:?} against {want:?}");
    }
    assert!(eig.iter().all(|e| e.re.abs() < 1e-9), "{eig:?}");
    println!(
        "rattleback at rest: {:.4} and {:.4} rad/s",
        got[0].sqrt(),
        got[1].sqrt()
    );
}

// ---------------------------------------------------------------------------------------
// First integrals and forces along runs

/// Column `j` of frame `name`'s rotation matrix (its unit vector in root components).
fn axis_of<M: Geometry>(m: &M, name: &str, q: &[f64], j: usize) -> [f64; 3] {
    let k = M::FRAMES.iter().position(|f| *f == name).unwrap();
    let mut r = vec![[[0.0; 3]; 3]; M::FRAMES.len()];
    m.frame_orientations(0.0, q, &mut r).unwrap();
    [r[k][0][j], r[k][1][j], r[k][2][j]]
}

fn dot3(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross3(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// The angular velocity of `B = N.rotate(z, yaw).rotate(x, roll).rotate(y, pitch)` from
/// the state `[x, y, yaw, roll, pitch | dot(yaw), dot(roll), dot(pitch)]`.
fn omega_of(s: &[f64]) -> [f64; 3] {
    let (yaw, roll) = (s[2], s[3]);
    let (wy, wr, wp) = (s[5], s[6], s[7]);
    let ex = [yaw.cos(), yaw.sin(), 0.0];
    let ey = [-yaw.sin() * roll.cos(), yaw.cos() * roll.cos(), roll.sin()];
    [0, 1, 2].map(|i| wr * ex[i] + wp * ey[i] + if i == 2 { wy } else { 0.0 })
}

/// `I omega` in root components, `I = diag(moments)` along B's axes.
fn momentum<M: Geometry>(m: &M, q: &[f64], w: [f64; 3], moments: [f64; 3]) -> [f64; 3] {
    let axes = [0, 1, 2].map(|j| axis_of(m, "B", q, j));
    let mut out = [0.0; 3];
    for (e, i) in axes.iter().zip(moments) {
        let c = i * dot3(*e, w);
        for k in 0..3 {
            out[k] += c * e[k];
        }
    }
    out
}

/// Routh's sphere keeps its energy, Jellett's integral `(I_G omega) . s` and Routh's
/// `omega_3 sqrt(I_1 I_3 + m s . I_G s)` (Borisov and Mamaev's form; `s = G - P`, `omega_3`
/// the spin about the axis) along a tumbling run.
#[test]
fn routh_sphere_keeps_energy_jellett_and_routh() {
    let ball = RouthSphere::default();
    let start = [0.0, 0.0, 0.3, 0.4, -0.2, 4.0, 1.0, -0.5];
    let o = Options::default()
        .rtol(1e-11)
        .atol(1e-11)
        .sample_every(0.05);
    let tr = simulate(&ball, &start, 0.0..5.0, &o).unwrap();
    let jellett = |s: &[f64]| {
        let w = omega_of(s);
        let l = momentum(&ball, &s[..5], w, [ball.i_a, ball.i_a, ball.i_c]);
        let bz = axis_of(&ball, "B", &s[..5], 2);
        let gp = [0, 1, 2].map(|k| ball.e * bz[k] + if k == 2 { ball.r } else { 0.0 });
        dot3(l, gp)
    };
    let routh = |s: &[f64]| {
        let w = omega_of(s);
        let k = axis_of(&ball, "B", &s[..5], 2);
        let gp = [0, 1, 2].map(|i| ball.e * k[i] + if i == 2 { ball.r } else { 0.0 });
        // s . I_G s with I_G = diag(i_a, i_a, i_c) about the axis k
        let along = dot3(gp, k);
        let across = dot3(gp, gp) - along * along;
        let sis = ball.i_a * across + ball.i_c * along * along;
        dot3(w, k) * (ball.i_a * ball.i_c + ball.m * sis).sqrt()
    };
    let e = tr.energy(&ball).unwrap();
    let (j0, r0) = (jellett(tr.state(0).unwrap()), routh(tr.state(0).unwrap()));
    let (mut de, mut dj, mut dr) = (0.0f64, 0.0f64, 0.0f64);
    for i in 0..tr.len() {
        let s = tr.state(i).unwrap();
        de = de.max((e[i] - e[0]).abs() / e[0].abs());
        dj = dj.max((jellett(s) - j0).abs() / j0.abs());
        dr = dr.max((routh(s) - r0).abs() / r0.abs());
    }
    assert!(
        de < 1e-8 && dj < 1e-8 && dr < 1e-8,
        "energy {de:e}, Jellett {dj:e}, Routh {dr:e}"
    );
    assert!(tr.max_constraint_residual(&ball).unwrap() < 1e-9);
}

/// The Chaplygin ball's angular momentum about the contact point,
/// `I omega + m r^2 (omega - (omega . up) up)`, is fixed in space, and its energy too.
#[test]
fn chaplygin_ball_keeps_its_momentum_about_the_contact() {
    let ball = ChaplyginBall::default();
    let start = [0.0, 0.0, 0.1, 0.2, 0.3, 2.0, -1.0, 3.0];
    let o = Options::default()
        .rtol(1e-11)
        .atol(1e-11)
        .sample_every(0.05);
    let tr = simulate(&ball, &start, 0.0..5.0, &o).unwrap();
    let k = |s: &[f64]| {
        let w = omega_of(s);
        let l = momentum(&ball, &s[..5], w, [ball.i_1, ball.i_2, ball.i_3]);
        let mr2 = ball.m * ball.r * ball.r;
        [l[0] + mr2 * w[0], l[1] + mr2 * w[1], l[2]]
    };
    let e = tr.energy(&ball).unwrap();
    let k0 = k(tr.state(0).unwrap());
    let scale = dot3(k0, k0).sqrt();
    let (mut de, mut dk) = (0.0f64, 0.0f64);
    for i in 0..tr.len() {
        de = de.max((e[i] - e[0]).abs() / e[0].abs());
        let ki = k(tr.state(i).unwrap());
        dk = dk.max((0..3).map(|c| (ki[c] - k0[c]).abs()).fold(0.0, f64::max) / scale);
    }
    assert!(de < 1e-8 && dk < 1e-8, "energy {de:e}, momentum {dk:e}");
}

/// Newton's law on the ball along a run: the contact force plus gravity is `m a_G`, and
/// its moment about G is the rate of `I_G omega` (by differences of the samples).
#[test]
fn sphere_contact_force_is_newtons() {
    let ball = RouthSphere::default();
    let start = [0.0, 0.0, 0.3, 0.4, -0.2, 4.0, 1.0, -0.5];
    let dt = 1e-3;
    let o = Options::default().rtol(1e-12).atol(1e-12).sample_every(dt);
    let tr = simulate(&ball, &start, 0.0..0.5, &o).unwrap();
    let loads = tr.contact_loads(&ball).unwrap();
    let g_of = |s: &[f64]| {
        let bz = axis_of(&ball, "B", &s[..5], 2);
        [
            s[0] + ball.e * bz[0],
            s[1] + ball.e * bz[1],
            ball.r + ball.e * bz[2],
        ]
    };
    let l_of = |s: &[f64]| momentum(&ball, &s[..5], omega_of(s), [ball.i_a, ball.i_a, ball.i_c]);
    let mut worst_f = 0.0f64;
    let mut worst_m = 0.0f64;
    for (i, load) in loads.iter().enumerate().take(tr.len() - 1).skip(1) {
        let (a, b, c) = (
            tr.state(i - 1).unwrap(),
            tr.state(i).unwrap(),
            tr.state(i + 1).unwrap(),
        );
        let (ga, gb, gc) = (g_of(a), g_of(b), g_of(c));
        let f = load[0].force;
        for k in 0..3 {
            let acc = (ga[k] - 2.0 * gb[k] + gc[k]) / (dt * dt);
            let weight = if k == 2 { -ball.m * ball.g } else { 0.0 };
            worst_f = worst_f.max((f[k] + weight - ball.m * acc).abs());
        }
        let (la, lc) = (l_of(a), l_of(c));
        let p = load[0].point;
        let arm = [p[0] - gb[0], p[1] - gb[1], p[2] - gb[2]];
        let moment = cross3(arm, f);
        for k in 0..3 {
            worst_m = worst_m.max((moment[k] - (lc[k] - la[k]) / (2.0 * dt)).abs());
        }
        assert!(load[0].normal > 0.0);
    }
    let weight = ball.m * ball.g;
    assert!(worst_f < 1e-4 * weight, "force {worst_f:e}");
    assert!(worst_m < 1e-4 * weight * ball.r, "moment {worst_m:e}");
}

/// A uniform ball thrown sliding at `v0` without spin slides for `2 v0 / (7 mu g)` and then
/// rolls at `5 v0 / 7`, its friction `mu m g` against the slip meanwhile.
#[test]
fn a_ball_thrown_sliding_rolls_after_2_v0_over_7_mu_g() {
    let ball = ChaplyginBall::default();
    let i = 0.4 * ball.m * ball.r * ball.r;
    let ball = ball.with_i_1(i).with_i_2(i).with_i_3(i);
    let v0 = 2.0;
    let o = Options::default()
        .rtol(1e-11)
        .atol(1e-12)
        .sample_every(0.01);
    let tr = simulate_hybrid(&ball, &[0.0; 5], &[v0, 0.0, 0.0, 0.0, 0.0], 0.0..1.5, &o).unwrap();
    let ts = 2.0 * v0 / (7.0 * ball.mu * ball.g);
    let [event] = tr.events() else {
        panic!("one event: {:?}", tr.events())
    };
    assert_eq!(
        event.kind,
        EventKind::Contact {
            contact: "ball on ground",
            event: ContactEvent::Stick
        }
    );
    assert!((event.t - ts).abs() < 1e-8, "{} against {ts}", event.t);
    let loads = tr.contact_loads(&ball).unwrap();
    let (m, g, mu, r) = (ball.m, ball.g, ball.mu, ball.r);
    for (k, &t) in tr.times().iter().enumerate() {
        let x = tr.state(k).unwrap();
        let load = loads[k][0];
        assert!(
            (load.normal - m * g).abs() < 1e-8,
            "N at {t}: {}",
            load.normal
        );
        if tr.sliding(k).unwrap()[0] {
            assert!((x[5] - (v0 - mu * g * t)).abs() < 1e-8, "v at {t}");
            assert!((r * x[9] - 2.5 * mu * g * t).abs() < 1e-8, "spin at {t}");
            assert!((load.force[0] + mu * m * g).abs() < 1e-8 && load.force[1].abs() < 1e-8);
        } else {
            assert!((x[5] - 5.0 * v0 / 7.0).abs() < 1e-8, "rolling speed at {t}");
            assert!(load.tangential() < 1e-8);
        }
    }
}

/// The tippe top spun about the vertical slides, and the friction turns it over until its
/// stem touches the ground; meanwhile Jellett's integral `(I_G omega) . (G - contact)` stays,
/// the energy falls and the centre of mass rises.
#[test]
fn the_tippe_top_slides_over_onto_its_stem_keeping_jellett() {
    let top = TippeTop::default().with_mu(0.2);
    let (spin, tilt) = (180.0, 0.1);
    let q0 = [0.0, 0.0, 0.0, tilt, 0.0];
    let qd0 = [-spin * top.a * f64::sin(tilt), 0.0, spin, 0.0, 0.0];
    let o = Options::default()
        .rtol(1e-10)
        .atol(1e-12)
        .sample_every(0.01)
        .stop_when(move |_, s| top.stem_clearance(&s[..TippeTop::NQ]));
    let tr = simulate_hybrid(&top, &q0, &qd0, 0.0..5.0, &o).unwrap();
    let t_end = tr.event_time().expect("the stem touches");
    let (_, last) = tr.last().unwrap();
    assert!((last[3] - top.stem_touches()).abs() < 1e-8, "{}", last[3]);
    assert!(tr.events().is_empty(), "{:?}", tr.events());
    // omega, k = B.z and I_G omega from [q, dot(q)] (Euler angles z-x-z)
    let parts = |s: &[f64]| {
        let (psi, th) = (s[2], s[3]);
        let (dpsi, dth, dphi) = (s[7], s[8], s[9]);
        let k = [psi.sin() * th.sin(), -psi.cos() * th.sin(), th.cos()];
        let e1 = [psi.cos(), psi.sin(), 0.0];
        let w = [0, 1, 2].map(|i| dth * e1[i] + dphi * k[i] + if i == 2 { dpsi } else { 0.0 });
        let wk = dot3(w, k);
        let l = [0, 1, 2].map(|i| top.i_1 * w[i] + (top.i_3 - top.i_1) * wk * k[i]);
        (w, k, l)
    };
    let jellett = |s: &[f64]| {
        let (_, k, l) = parts(s);
        let gp = [0, 1, 2].map(|i| -top.a * k[i] + if i == 2 { top.r } else { 0.0 });
        dot3(l, gp)
    };
    let energy = |s: &[f64]| {
        let (w, k, l) = parts(s);
        let wxk = cross3(w, k);
        let v = [
            s[5] - top.a * wxk[0],
            s[6] - top.a * wxk[1],
            -top.a * wxk[2],
        ];
        0.5 * top.m * dot3(v, v) + 0.5 * dot3(w, l) + top.m * top.g * (top.r - top.a * k[2])
    };
    let j0 = jellett(tr.state(0).unwrap());
    let mut e_prev = f64::INFINITY;
    let mut worst_j = 0.0f64;
    for i in 0..tr.len() {
        let s = tr.state(i).unwrap();
        assert!(tr.sliding(i).unwrap()[0], "slides throughout");
        worst_j = worst_j.max((jellett(s) - j0).abs() / j0.abs());
        let e = energy(s);
        assert!(e <= e_prev + 1e-12, "the energy rises at {}", tr.times()[i]);
        e_prev = e;
    }
    assert!(worst_j < 1e-8, "Jellett {worst_j:e}");
    let e0 = energy(tr.state(0).unwrap());
    assert!(e_prev < 0.9 * e0, "energy {e0} -> {e_prev}");
    println!("tippe top at mu 0.2: the stem touches at {t_end:.4} s, Jellett kept to {worst_j:e}");
}

/// The default scene draws each surface as itself: the rattleback's shell about its own
/// centre (`shell.surface`, away from the centre of mass), the torus as a torus.
#[test]
fn surfaces_are_drawn_as_their_shapes() {
    use nonholo::Shape;
    let rb = Rattleback::default();
    let at = Rattleback::point_index("shell.surface").unwrap();
    let k = Rattleback::frame_index("B").unwrap();
    let want = [[rb.a, 0.0, 0.0], [0.0, rb.b, 0.0], [0.0, 0.0, rb.c]];
    assert!(
        rb.scene().iter().any(|s| matches!(s,
            Shape::Ellipsoid { center, frame, axes, .. } if *center == at && *frame == k && *axes == want)),
        "{:?}",
        rb.scene()
    );
    let mut q = [0.0, 0.0, 0.0, 0.2, -0.1, 0.0];
    rb.solve_configuration(0.0, &mut q).unwrap();
    let e = rb.position("E", 0.0, &q).unwrap();
    assert_eq!(rb.position("shell.surface", 0.0, &q).unwrap(), e);

    let tyre = RollingTorus::default();
    let at = RollingTorus::point_index("tyre.center").unwrap();
    assert!(
        tyre.scene().iter().any(|s| matches!(s,
            Shape::Torus { center, major, crown, .. } if *center == at && *major == tyre.r_major && *crown == tyre.rc)),
        "{:?}",
        tyre.scene()
    );
    // the ball centred at its centre of mass needs no point of its own
    assert!(!ChaplyginBall::POINTS.contains(&"ball.surface"));
    // uneven ground: its height for the viewers, and a patch in the scene
    let disk = DiskOverBump::default();
    assert_eq!(DiskOverBump::GROUNDS, ["road"]);
    assert!((disk.ground_height(0, disk.at, 0.3) - disk.bump).abs() < 1e-15);
    assert!(disk.ground_height(0, 0.0, 0.0).abs() < 1e-15);
    assert!(disk.ground_height(1, 0.0, 0.0).is_nan());
    assert!(disk
        .scene()
        .iter()
        .any(|s| matches!(s, Shape::Ground { ground: 0, .. })));
}

// ---------------------------------------------------------------------------------------
// Every formulation

/// `q(t)` sampled every 0.25 s from `(q0, dot(q)0)`.
fn path<M: Model>(m: &M, q0: &[f64], qd0: &[f64], t1: f64) -> Vec<f64> {
    let s0 = m.state_from_qdot(0.0, q0, qd0).unwrap();
    // the rocking asks for more than mu N at times: the rolling model regardless
    let o = Options::default()
        .rtol(1e-11)
        .atol(1e-11)
        .sample_every(0.25)
        .contact_checks(false);
    let tr = simulate(m, s0.as_ref(), 0.0..t1, &o).unwrap();
    (0..tr.len())
        .flat_map(|i| tr.q(i).unwrap().to_vec())
        .collect()
}

/// The rattleback spun the slow way rocks and reverses the same through Gibbs–Appell,
/// Boltzmann–Hamel, Voronec and the multipliers.
#[test]
fn the_rattleback_is_the_same_in_every_formulation() {
    let rb = Rattleback::default();
    let mut q0 = [0.0, 0.0, 0.0, 0.0, 0.05, -0.03];
    rb.solve_configuration(0.0, &mut q0).unwrap();
    // spinning, rocking, the centre moving as rolling requires
    let z0 = [2.0, 0.3, -0.2];
    let mut s = [0.0; Rattleback::DIM];
    s[..6].copy_from_slice(&q0);
    s[6..].copy_from_slice(&z0);
    let mut qd0 = [0.0; Rattleback::NQ];
    rb.qdot(0.0, &q0, &z0, &mut qd0).unwrap();
    let reference = path(&rb, &q0, &qd0, 3.0);
    for (name, p) in [
        (
            "Boltzmann–Hamel",
            path(&RattlebackBh::default(), &q0, &qd0, 3.0),
        ),
        ("Voronec", path(&RattlebackVo::default(), &q0, &qd0, 3.0)),
        (
            "multipliers",
            path(&RattlebackMu::default(), &q0, &qd0, 3.0),
        ),
    ] {
        let d = worst(&p, &reference);
        assert!(d < 1e-9, "{name}: {d:e}");
    }
}

/// The tippe top's slide over onto its stem, switched by `simulate_hybrid`, ends at the same
/// instant and state through Gibbs–Appell, Voronec and the multipliers.
#[test]
fn the_tippe_top_slides_the_same_in_every_formulation() {
    fn run<M: Model + nonholo::Contacts>(m: &M, mu_top: &TippeTop) -> (f64, Vec<f64>) {
        let top = *mu_top;
        let (spin, tilt) = (180.0, 0.1);
        let q0 = [0.0, 0.0, 0.0, tilt, 0.0];
        let qd0 = [-spin * top.a * f64::sin(tilt), 0.0, spin, 0.0, 0.0];
        let o = Options::default()
            .rtol(1e-10)
            .atol(1e-12)
            .stop_when(move |_, s| top.stem_clearance(&s[..TippeTop::NQ]));
        let tr = simulate_hybrid(m, &q0, &qd0, 0.0..5.0, &o).unwrap();
        let (_, last) = tr.last().unwrap();
        (tr.event_time().unwrap(), last.to_vec())
    }
    let top = TippeTop::default().with_mu(0.2);
    let (t0, s0) = run(&top, &top);
    for (name, (t, s)) in [
        ("Voronec", run(&TippeTopVo::default().with_mu(0.2), &top)),
        (
            "multipliers",
            run(&TippeTopMu::default().with_mu(0.2), &top),
        ),
    ] {
        assert!((t - t0).abs() < 1e-8, "{name}: {t} against {t0}");
        assert!(worst(&s, &s0) < 1e-6, "{name}: {:e}", worst(&s, &s0));
    }
}

// ---------------------------------------------------------------------------------------
// Uneven ground

/// A disk on ground of height 0 is the disk on the plane: the same rhs and contact loads.
#[test]
fn flat_ground_is_the_plane() {
    let (ground, plane) = (DiskOnFlatGround::default(), RollingDisk3d::default());
    let mut rng = SplitMix64::new(4803);
    let mut w = 0.0f64;
    for _ in 0..20 {
        let s = rng.uniform_vec(RollingDisk3d::DIM, -1.2, 1.2);
        w = w.max(worst(&rhs_of(&ground, &s), &rhs_of(&plane, &s)));
        let mut lg = [ContactLoad::ZERO];
        let mut lp = [ContactLoad::ZERO];
        ground.contact_loads(0.0, &s, &[], &mut lg).unwrap();
        plane.contact_loads(0.0, &s, &[], &mut lp).unwrap();
        w = w.max(worst(&lg[0].force, &lp[0].force));
    }
    assert!(w < 1e-12, "flat ground against the plane: {w:e}");
}

/// A uniform ball let go on ground sloping at `alpha` rolls down it with `5/7 g sin(alpha)`:
/// `x(t) = 5/14 g sin(alpha) cos(alpha) t^2`, the normal force `m g cos(alpha)` along the
/// ground's normal.
#[test]
fn a_ball_rolls_down_sloping_ground_at_five_sevenths_g_sin_alpha() {
    let ball = BallOnSlope::default();
    let alpha = ball.s.atan();
    let o = Options::default().rtol(1e-11).atol(1e-12).sample_every(0.1);
    let tr = simulate(&ball, &BallOnSlope::ZERO_STATE, 0.0..1.0, &o).unwrap();
    let loads = tr.contact_loads(&ball).unwrap();
    for (i, &t) in tr.times().iter().enumerate() {
        let x = tr.q(i).unwrap()[0];
        let want = 5.0 / 14.0 * ball.g * alpha.sin() * alpha.cos() * t * t;
        assert!((x - want).abs() < 1e-9, "x at {t}: {x} against {want}");
        let n = loads[i][0].normal;
        assert!(
            (n - ball.m * ball.g * alpha.cos()).abs() < 1e-9,
            "N at {t}: {n}"
        );
    }
}

/// The disk rolled over the bump at 2 m/s: it gets over, keeping its energy and its
/// constraints, the normal force falls over the crest (the road curves away) and rises in the
/// hollows, and the same ride through Voronec's equations and the multipliers.
#[test]
fn a_disk_rolls_over_a_bump() {
    let disk = DiskOverBump::default();
    let v = 2.0;
    let mut s = DiskOverBump::ZERO_STATE;
    s[DiskOverBump::NQ + 2] = v / disk.r; // dot(spin)
    let o = Options::default()
        .rtol(1e-11)
        .atol(1e-12)
        .sample_every(0.01);
    let tr = simulate(&disk, &s, 0.0..2.0, &o).unwrap();
    let (_, last) = tr.last().unwrap();
    assert!(last[0] > disk.at + 1.0, "over the bump: x = {}", last[0]);
    let e = tr.energy(&disk).unwrap();
    let drift = e.iter().fold(0.0f64, |m, x| m.max((x - e[0]).abs())) / e[0];
    assert!(drift < 1e-9, "energy drift {drift:e}");
    assert!(tr.max_constraint_residual(&disk).unwrap() < 1e-10);
    let loads = tr.contact_loads(&disk).unwrap();
    let weight = disk.m * disk.g;
    let (lo, hi) = loads.iter().fold((f64::MAX, f64::MIN), |(lo, hi), l| {
        (lo.min(l[0].normal), hi.max(l[0].normal))
    });
    assert!(
        lo < 0.8 * weight && hi > 1.1 * weight,
        "N from {lo} to {hi}"
    );
    // the lowest normal force is at the crest
    let k = (0..tr.len())
        .min_by(|a, b| loads[*a][0].normal.total_cmp(&loads[*b][0].normal))
        .unwrap();
    assert!((tr.q(k).unwrap()[0] - disk.at).abs() < 0.05);
    let qd0 = [v, 0.0, 0.0, 0.0, v / disk.r];
    let reference = path(&disk, &[0.0; 5], &qd0, 2.0);
    for (name, p) in [
        (
            "Voronec",
            path(&DiskOverBumpVo::default(), &[0.0; 5], &qd0, 2.0),
        ),
        (
            "multipliers",
            path(&DiskOverBumpMu::default(), &[0.0; 5], &qd0, 2.0),
        ),
    ] {
        assert!(
            worst(&p, &reference) < 1e-9,
            "{name}: {:e}",
            worst(&p, &reference)
        );
    }
}

/// About steady spin at 1 rad/s on its lowest point, the rattleback's rocking grows at about
/// 0.43/s spun one way and at about 0.042/s spun the other (Kane and Levinson's rattleback):
/// it reverses in both senses, ten times slower in one.
#[test]
fn rattleback_grows_ten_times_faster_one_way() {
    let rb = Rattleback::default();
    let keep = ["roll", "pitch", "dot(yaw)", "dot(roll)", "dot(pitch)"];
    let growth = |spin: f64| {
        let mut s = Rattleback::ZERO_STATE;
        s[2] = rb.c;
        s[Rattleback::NQ] = spin;
        let lin = linearize(&rb, 0.0, &s, &Linearize::new().keep(&keep)).unwrap();
        assert!(
            lin.max_residual() < 1e-12,
            "a steady motion: {:?}",
            lin.residual
        );
        lin.eigenvalues()
            .unwrap()
            .iter()
            .fold(f64::MIN, |m, e| m.max(e.re))
    };
    let (fast, slow) = (growth(1.0), growth(-1.0));
    assert!((fast - 0.43).abs() < 0.01, "{fast}");
    assert!((slow - 0.042).abs() < 0.001, "{slow}");
    println!("rattleback at 1 rad/s: growth {fast:.5}/s one way, {slow:.5}/s the other");
}

/// The Whipple bicycle on toroidal tyres of crown 2 cm (hubs held) against SymBRiM's
/// `ToroidalWheel` model of the same bicycle (`bench/python/bench_toroidal_symbrim.py`,
/// SymPy's `KanesMethod` and `Linearizer`): the upright eigenvalues at 2, 5 and 8 m/s and the
/// weave and capsize speeds.
#[test]
fn the_bicycle_on_toroidal_tyres_is_symbrims() {
    use nonholo::models::WhippleBicycle;
    let bike = WhippleBicycle::default().with_t_r(0.02).with_t_f(0.02);
    let poly = |v: f64| lin_at(&bike, v).characteristic_polynomial();
    // SymBRiM's eigenvalues (re, im) at crown 0.02 m
    let symbrim: [(f64, [(f64, f64); 4]); 3] = [
        (
            2.0,
            [
                (-8.453446093125018, 0.0),
                (-2.9875939275645518, 0.0),
                (2.530132033105983, -1.5042142708207311),
                (2.530132033105983, 1.5042142708207311),
            ],
        ),
        (
            5.0,
            [
                (-13.91750086784829, 0.0),
                (-1.1224731939086297, -4.54811834838617),
                (-1.1224731939086297, 4.54811834838617),
                (0.21050736947155277, 0.0),
            ],
        ),
        (
            8.0,
            [
                (-20.164337642391864, 0.0),
                (-2.860490510026483, -8.521007045389302),
                (-2.860490510026483, 8.521007045389302),
                (0.3622148445344138, 0.0),
            ],
        ),
    ];
    for (v, want) in symbrim {
        let eig = lin_at(&bike, v).eigenvalues().unwrap();
        for (d, (re, im)) in nearest_distances(&eig, &want).into_iter().zip(want) {
            assert!(
                d < 1e-9 * (1.0 + re.hypot(im)),
                "v {v}: {eig:?} against {want:?}"
            );
        }
    }
    let hurwitz = |v: f64| {
        let c = poly(v);
        c[3] * c[2] * c[1] - c[1] * c[1] - c[0] * c[3] * c[3]
    };
    let bisect = |mut lo: f64, mut hi: f64, f: &dyn Fn(f64) -> f64| {
        let positive = f(lo) > 0.0;
        while hi - lo > 1e-13 * hi {
            let mid = 0.5 * (lo + hi);
            if (f(mid) > 0.0) == positive {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    };
    let weave = bisect(3.5, 4.2, &hurwitz);
    let capsize = bisect(4.2, 5.0, &|v| poly(v)[0]);
    assert!((weave - 3.9261052240584857).abs() < 1e-9, "weave {weave}");
    assert!(
        (capsize - 4.497885277082608).abs() < 1e-9,
        "capsize {capsize}"
    );
}

/// The bicycle upright at `v`, its lean and steer kept.
fn lin_at(bike: &nonholo::models::WhippleBicycle, v: f64) -> Linearization {
    use nonholo::models::WhippleBicycle;
    let mut s = WhippleBicycle::ZERO_STATE;
    bike.solve_configuration(0.0, &mut s[..WhippleBicycle::NQ])
        .unwrap();
    s[WhippleBicycle::NQ + 1] = -v / bike.r_r;
    let keep = ["roll", "steer", "dot(roll)", "dot(steer)"];
    linearize(bike, 0.0, &s, &Linearize::new().keep(&keep)).unwrap()
}
