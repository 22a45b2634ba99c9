//! What Talamucci's §3.1–3.4 share: the frame of the figures, the rider (P_S on the frame,
//! the pendulum P_D) with the abbreviations (29), the disk of 3.3/3.4 and its hatted
//! abbreviations, and helpers for the printed equations.

use super::vec3::*;
use crate::common::oracle::*;
use crate::common::rng::SplitMix64;
use num_dual::{Dual, Dual64, DualNum};

/// e_phi = (cos phi, sin phi, 0): direction P_B -> P_F.
pub fn e_phi<S: Scalar>(phi: S) -> [S; 3] {
    [phi.cos(), phi.sin(), k(0.0)]
}
/// e_perp = k x e_phi = (-sin phi, cos phi, 0).
pub fn e_perp<S: Scalar>(phi: S) -> [S; 3] {
    [-phi.sin(), phi.cos(), k(0.0)]
}
/// e_theta = (-sin th sin phi, sin th cos phi, cos th): P_S - C = kappa1 e_theta.
pub fn e_theta<S: Scalar>(phi: S, th: S) -> [S; 3] {
    [-th.sin() * phi.sin(), th.sin() * phi.cos(), th.cos()]
}
/// e_theta1 = (-sin th1 sin phi, sin th1 cos phi, -cos th1): P_D - O_1 = kappa e_theta1.
pub fn e_theta1<S: Scalar>(phi: S, th1: S) -> [S; 3] {
    [-th1.sin() * phi.sin(), th1.sin() * phi.cos(), -th1.cos()]
}

/// The rider part common to 3.1-3.4: P_S = C + kappa1 e_theta, P_D = C + (kappa1 + kappa2)
/// e_theta + kappa e_theta1 (O_1 = C + (kappa1 + kappa2) e_theta), given C and the angles.
pub fn rider_points<S: Scalar>(
    c: [S; 3],
    phi: S,
    th: S,
    th1: S,
    kappa: f64,
    kappa1: f64,
    kappa2: f64,
) -> ([S; 3], [S; 3]) {
    let et = e_theta(phi, th);
    let ps = v_add(c, v_scale(et, kappa1));
    let pd = v_add(
        v_add(c, v_scale(et, kappa1 + kappa2)),
        v_scale(e_theta1(phi, th1), kappa),
    );
    (ps, pd)
}

/// Kinetic energy of the disk of 3.3/3.4 from its rotation matrix. Disk centre
/// D = C + R e_theta; the disk plane contains e_phi and e_theta, its axis is
/// n = e_phi x e_theta; material axes u1 = cos(phi1) e_phi - sin(phi1) e_theta,
/// u2 = n x u1 (phi1 is the spin angle; this orientation makes the rolling condition read
/// xd_C = R phi1d cos(phi), as (31)). omega from Rdot R^T (AD), inertia I_D about n and
/// I_D/2 about diameters (uniform disk, I_D = M R^2/2).
/// Returns (translational + rotational KE, omega, centre) on the seeded duals.
pub fn disk_ke<D: Scalar>(
    big_m: f64,
    r: f64,
    c: [Dual<D>; 3],
    phi: Dual<D>,
    th: Dual<D>,
    phi1: Dual<D>,
) -> (D, [D; 3], [Dual<D>; 3]) {
    let i_d = 0.5 * big_m * r * r;
    let ep = e_phi(phi);
    let et = e_theta(phi, th);
    let n = v_cross(ep, et);
    let (s1, c1) = (phi1.sin(), phi1.cos());
    let u1 = [
        ep[0] * c1 - et[0] * s1,
        ep[1] * c1 - et[1] * s1,
        ep[2] * c1 - et[2] * s1,
    ];
    let u2 = v_cross(n, u1);
    // rotation matrix columns u1, u2, n: R[i][j] = col_j[i]
    let cols = [u1, u2, n];
    let rm = |i: usize, j: usize| cols[j][i].re;
    let rd = |i: usize, j: usize| cols[j][i].eps;
    // Omega = Rdot R^T
    let om = |i: usize, j: usize| {
        let mut s = k::<D>(0.0);
        for l in 0..3 {
            s += rd(i, l) * rm(j, l);
        }
        s
    };
    let omega = [om(2, 1), om(0, 2), om(1, 0)];
    let nn = [n[0].re, n[1].re, n[2].re];
    let wn = v_dot(omega, nn);
    let w2 = v_dot(omega, omega);
    let rot = wn * wn * (0.5 * i_d) + (w2 - wn * wn) * (0.25 * i_d);
    let centre = v_add(c, v_scale(et, r));
    (point_ke(big_m, &centre) + rot, omega, centre)
}

/// Shared rider parameters and the paper's abbreviations (29).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rider {
    pub m_s: f64,
    pub m_d: f64,
    pub kappa: f64,
    pub kappa1: f64,
    pub kappa2: f64,
}

impl Rider {
    pub fn new(rng: &mut SplitMix64) -> Self {
        Rider {
            m_s: rng.uniform(2.0, 4.0),
            m_d: rng.uniform(0.5, 1.5),
            kappa: rng.uniform(0.3, 0.6),
            kappa1: rng.uniform(0.8, 1.2),
            kappa2: rng.uniform(0.2, 0.4),
        }
    }
    pub fn v1(&self) -> f64 {
        self.m_s * self.kappa1 + self.m_d * (self.kappa1 + self.kappa2)
    }
    pub fn v2(&self) -> f64 {
        self.m_s * self.kappa1.powi(2) + self.m_d * (self.kappa1 + self.kappa2).powi(2)
    }
    pub fn v3(&self) -> f64 {
        self.m_d * self.kappa * (self.kappa1 + self.kappa2)
    }
    /// F_1 = v1 sin th + m_D kappa sin th1 (29).
    pub fn f1<S: Scalar>(&self, th: S, th1: S) -> S {
        th.sin() * self.v1() + th1.sin() * (self.m_d * self.kappa)
    }
    /// F_2 - I_C = m_D kappa^2 sin^2 th1 + v2 sin^2 th + 2 m_D kappa (kappa1 + kappa2) sin th sin th1 (29).
    pub fn f2_no_ic<S: Scalar>(&self, th: S, th1: S) -> S {
        th1.sin() * th1.sin() * (self.m_d * self.kappa * self.kappa)
            + th.sin() * th.sin() * self.v2()
            + th.sin() * th1.sin() * (2.0 * self.m_d * self.kappa * (self.kappa1 + self.kappa2))
    }
}

/// d/dtheta and d/dtheta1 of a function of (theta, theta1) by Dual64.
pub fn d_dth<F: Fn(Dual64, Dual64) -> Dual64>(f: F, th: f64, th1: f64) -> (f64, f64) {
    (
        f(Dual64::new(th, 1.0), Dual64::from_re(th1)).eps,
        f(Dual64::from_re(th), Dual64::new(th1, 1.0)).eps,
    )
}

/// Solve printed equations `m etadot + rest = 0` for etadot.
pub fn solve_printed(m: Vec<Vec<f64>>, rest: Vec<f64>) -> Vec<f64> {
    solve(m, rest.iter().map(|x| -x).collect())
}

/// The hatted abbreviations of 3.3 (used by 3.3 and 3.4).
#[derive(Debug, Clone, Copy)]
pub struct Hats {
    pub i_d: f64,
    pub v1h: f64,
    pub v2h: f64,
    pub v3: f64,
    pub mk: f64,
    pub m_t: f64,
}

pub fn hats(big_m: f64, r: f64, rider: &Rider) -> Hats {
    Hats {
        i_d: 0.5 * big_m * r * r,
        v1h: rider.v1() + big_m * r,
        v2h: rider.v2() + big_m * r * r,
        v3: rider.v3(),
        mk: rider.m_d * rider.kappa,
        m_t: big_m + rider.m_s + rider.m_d,
    }
}

/// F1hat = F1 + M R sin(theta).
pub fn f1h<S: Scalar>(big_m: f64, r: f64, rider: &Rider, th: S, th1: S) -> S {
    rider.f1(th, th1) + th.sin() * (big_m * r)
}
/// F2hat = F2 - I_C + (M R^2 + I_D/2) sin^2(theta) + I_D/2.
pub fn f2h<S: Scalar>(big_m: f64, r: f64, rider: &Rider, th: S, th1: S) -> S {
    let i_d = 0.5 * big_m * r * r;
    rider.f2_no_ic(th, th1) + th.sin() * th.sin() * (big_m * r * r + 0.5 * i_d) + k::<S>(0.5 * i_d)
}

/// The common Lagrangian of 3.3/3.4 from geometry, with phi1 and phi1d given.
#[allow(clippy::too_many_arguments)]
pub fn disk_rider_lagrangian<D: Scalar>(
    big_m: f64,
    r: f64,
    rider: &Rider,
    g: f64,
    xc: Dual<D>,
    yc: Dual<D>,
    phi: Dual<D>,
    phi1: Dual<D>,
    th: Dual<D>,
    th1: Dual<D>,
) -> D {
    let c = [xc, yc, Dual::from_re(k::<D>(0.0))];
    let (ke_disk, _w, centre) = disk_ke(big_m, r, c, phi, th, phi1);
    let (ps, pd) = rider_points(c, phi, th, th1, rider.kappa, rider.kappa1, rider.kappa2);
    let t_kin = ke_disk + point_ke(rider.m_s, &ps) + point_ke(rider.m_d, &pd);
    let v = (centre[2].re * big_m + ps[2].re * rider.m_s + pd[2].re * rider.m_d) * g;
    t_kin - v
}

/// Velocity of the material point of the disk at the contact C (zero = rolling), from geometry.
pub fn disk_contact_velocity(big_m: f64, r: f64, t: f64, q6: &[f64], qd6: &[f64]) -> [f64; 3] {
    // q6 = (x, y, phi, phi1, theta, theta1)
    let (_tt, qq) = seed_velocity(t, q6, qd6);
    let c = [qq[0], qq[1], Dual::from_re(0.0)];
    let (_ke, w, centre) = disk_ke(big_m, r, c, qq[2], qq[4], qq[3]);
    let vc = [centre[0].eps, centre[1].eps, centre[2].eps];
    let arm = [
        c[0].re - centre[0].re,
        c[1].re - centre[1].re,
        c[2].re - centre[2].re,
    ];
    v_add(vc, v_cross(w, arm))
}

/// psi from speeds that are affine in qd and affine constraints: solve [Z; alpha] qd =
/// [eta - Z0; -alpha0] where Z e_j = speeds(e_j) - speeds(0) (exact for affine maps).
pub fn psi_from_affine<D: Scalar, F: Fn(&[D]) -> Vec<D>, G: Fn(&[D]) -> Vec<D>>(
    n: usize,
    speeds: F,
    cons: G,
    z: &[D],
) -> Vec<D> {
    let zero = vec![k::<D>(0.0); n];
    let s0 = speeds(&zero);
    let c0 = cons(&zero);
    let mut cols_s = Vec::with_capacity(n);
    let mut cols_c = Vec::with_capacity(n);
    for j in 0..n {
        let mut e = zero.clone();
        e[j] = k(1.0);
        cols_s.push(speeds(&e));
        cols_c.push(cons(&e));
    }
    let mut m = Vec::with_capacity(n);
    let mut rhs = Vec::with_capacity(n);
    for a in 0..s0.len() {
        m.push((0..n).map(|j| cols_s[j][a] - s0[a]).collect::<Vec<D>>());
        rhs.push(z[a] - s0[a]);
    }
    for a in 0..c0.len() {
        m.push((0..n).map(|j| cols_c[j][a] - c0[a]).collect::<Vec<D>>());
        rhs.push(-c0[a]);
    }
    solve(m, rhs)
}
