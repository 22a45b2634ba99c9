//! The hand-written right-hand sides `benches/rhs.rs` times against the generated ones:
//! each transcribes a paper's printed first-order system (misprints corrected as in
//! `tests/suite/common/systems/*.rs` and `../shared/papers/ERRATA.md`) the way an expert writes an
//! rhs by hand — plain `f64`, fixed-size arrays, no allocation, every sine and cosine once,
//! the obvious cancellations done, the small linear systems solved by Cramer's rule or an
//! unrolled LDL^T — and reads the parameters from the model struct on every call, as the
//! generated code does. The rattleback ([`rattleback`]) has no printed system to
//! transcribe: it is derived by Newton–Euler about the contact point, as a user of the
//! general-purpose tools would write it.

pub mod rattleback;

use nonholo::models::{
    AssignedFront, AssignedSpin, CoaxialDisks, ParallelPoints, PendulumSkate, RollingDiskPendulum,
    Skate, VerticalDisk,
};
// ==================================================================================
// Sines and cosines
// ==================================================================================

/// Where a hand-written rhs takes its sines and cosines from. [`Std`] is what an expert
/// writes (`f64::sin_cos`, the platform's libm); [`Libm`] is what the generated code calls
/// (`nonholo::Scalar`, libm's), so that pair compares the emitted arithmetic alone.
pub trait Trig {
    fn sin_cos(x: f64) -> (f64, f64);
    fn sin(x: f64) -> f64;
    fn cos(x: f64) -> f64;
}

/// std's `f64::sin_cos`, `f64::sin`, `f64::cos`.
pub struct Std;

impl Trig for Std {
    #[inline(always)]
    fn sin_cos(x: f64) -> (f64, f64) {
        x.sin_cos()
    }
    #[inline(always)]
    fn sin(x: f64) -> f64 {
        x.sin()
    }
    #[inline(always)]
    fn cos(x: f64) -> f64 {
        x.cos()
    }
}

/// The sines and cosines `nonholo::Scalar` gives `f64`, the ones the generated code
/// calls (libm's, with or without `std`).
pub struct Libm;

impl Trig for Libm {
    #[inline(always)]
    fn sin_cos(x: f64) -> (f64, f64) {
        nonholo::Scalar::sin_cos(x)
    }
    #[inline(always)]
    fn sin(x: f64) -> f64 {
        nonholo::Scalar::sin(x)
    }
    #[inline(always)]
    fn cos(x: f64) -> f64 {
        nonholo::Scalar::cos(x)
    }
}

// ==================================================================================
// Small helpers
// ==================================================================================

/// Solve `[[a, b], [b, c]] x = r` (symmetric 2x2) by Cramer's rule.
#[inline(always)]
fn solve2(a: f64, b: f64, c: f64, r0: f64, r1: f64) -> (f64, f64) {
    let inv = 1.0 / (a * c - b * b);
    ((c * r0 - b * r1) * inv, (a * r1 - b * r0) * inv)
}

/// Solve `g x = r` for a symmetric positive-definite `g` by LDL^T (lower triangle used).
#[inline(always)]
#[allow(clippy::needless_range_loop)]
fn solve_ldlt<const N: usize>(mut g: [[f64; N]; N], mut r: [f64; N]) -> [f64; N] {
    for j in 0..N {
        let mut dj = g[j][j];
        for k in 0..j {
            dj -= g[j][k] * g[j][k] * g[k][k];
        }
        g[j][j] = dj;
        for i in j + 1..N {
            let mut l = g[i][j];
            for k in 0..j {
                l -= g[i][k] * g[j][k] * g[k][k];
            }
            g[i][j] = l / dj;
        }
    }
    for i in 0..N {
        for k in 0..i {
            r[i] -= g[i][k] * r[k];
        }
    }
    for i in 0..N {
        r[i] /= g[i][i];
    }
    for i in (0..N).rev() {
        for k in i + 1..N {
            r[i] -= g[k][i] * r[k];
        }
    }
    r
}

/// The rider's constants of Talamucci (29): (v1, v2, v3, m_D kappa, m_D kappa^2).
#[inline(always)]
fn rider(m_s: f64, m_d: f64, kappa: f64, kappa1: f64, kappa2: f64) -> (f64, f64, f64, f64, f64) {
    let k12 = kappa1 + kappa2;
    let mk = m_d * kappa;
    (
        m_s * kappa1 + m_d * k12,
        m_s * kappa1 * kappa1 + m_d * k12 * k12,
        mk * k12,
        mk,
        mk * kappa,
    )
}

// ==================================================================================
// Benenti 2007, section 9
// ==================================================================================

/// Benenti 9.1, the skate, first method: state (x, y, theta, z1, z2),
/// dz1/dt = (A1 cos theta + A2 sin theta)/m, dz2/dt = A3/I with
/// A = (m g sin(alpha), 0, -c thetad) (the model's incline potential and damping).
#[inline(never)]
pub fn skate<T: Trig>(p: &Skate, _t: f64, s: &[f64; 5], d: &mut [f64; 5]) {
    let [_, _, th, z1, z2] = *s;
    let (st, ct) = T::sin_cos(th);
    d[0] = z1 * ct;
    d[1] = z1 * st;
    d[2] = z2;
    d[3] = p.g * T::sin(p.alpha) * ct;
    d[4] = -p.c * z2 / p.inertia;
}

/// Benenti 9.2, (9.4)-(9.5): state (x, y, theta, psi, z1, z2),
/// dz1/dt = (A1 R cos psi + A2 R sin psi + A3)/(m R^2 + A), dz2/dt = A4/B,
/// A = (m g sin(alpha), 0, 0, 0).
#[inline(never)]
pub fn vertical_disk<T: Trig>(p: &VerticalDisk, _t: f64, s: &[f64; 6], d: &mut [f64; 6]) {
    let [_, _, _, psi, z1, z2] = *s;
    let (sp, cp) = T::sin_cos(psi);
    let r = p.r;
    let rz1 = r * z1;
    d[0] = rz1 * cp;
    d[1] = rz1 * sp;
    d[2] = z1;
    d[3] = z2;
    d[4] = p.m * p.g * T::sin(p.alpha) * r * cp / (p.m * r * r + p.a_inertia);
    d[5] = 0.0;
}

/// Benenti 9.3, (9.12) and dz/dt = G^{-1} Z (ERRATA: the print omits G^{-1}): state
/// (x, y, theta1, theta2, psi, z1, z2). The model has no forces, so Z = 0: constant spins.
#[inline(never)]
pub fn coaxial_disks<T: Trig>(p: &CoaxialDisks, _t: f64, s: &[f64; 7], d: &mut [f64; 7]) {
    let [_, _, _, _, psi, z1, z2] = *s;
    let (sp, cp) = T::sin_cos(psi);
    let r = p.r;
    let rz1 = r * z1;
    d[0] = rz1 * cp;
    d[1] = rz1 * sp;
    d[2] = z1;
    d[3] = z2;
    d[4] = r / p.a * (z2 - z1);
    d[5] = 0.0;
    d[6] = 0.0;
}

/// Benenti 9.4, (9.17)/(9.18) with A = (m1 g, 0, m2 g, 0): state (x1, y1, x2, y2, rho,
/// sigma, theta).
#[inline(never)]
pub fn parallel_points<T: Trig>(p: &ParallelPoints, _t: f64, s: &[f64; 7], d: &mut [f64; 7]) {
    let [_, _, _, _, rho, sig, th] = *s;
    let (st, ct) = T::sin_cos(th);
    let (m1, m2, g) = (p.m1, p.m2, p.g);
    d[0] = rho * ct;
    d[1] = rho * st;
    d[2] = sig * ct;
    d[3] = sig * st;
    let gc = g * ct;
    d[4] = gc;
    d[5] = gc;
    d[6] = -g * st * (m1 * rho + m2 * sig) / (m1 * rho * rho + m2 * sig * sig);
}

// ==================================================================================
// Talamucci 2015, section 3
// ==================================================================================

/// Talamucci 3.1, the pendulum on a skate: state (x_C, y_C, phi, theta, theta1, eta1..eta4),
/// qd = Gamma eta, A_Gamma etadot = -(printed rest) with the ERRATA of pendulum_skate.rs
/// (the constraint's R/2 read rho, signs and spurious terms of eqs. 2-4, the coefficient
/// v3 cos(theta + theta1) of eq. 4) and the term p_phi (eta2, -eta1, 0, 0) that (16)-(17)
/// drop, which cancels the F2 and rho F1 parts of eqs. 1-2. Forces -Gamma^T F with
/// F_phi = -c_phi phid, F_theta1 = -c_th1 theta1d.
#[inline(never)]
pub fn pendulum_skate<T: Trig>(p: &PendulumSkate, _t: f64, s: &[f64; 9], d: &mut [f64; 9]) {
    let [_, _, phi, th, th1, e1, e2, e3, e4] = *s;
    let (v1, v2, v3, mk, mkk) = rider(p.m_s, p.m_d, p.kappa, p.kappa1, p.kappa2);
    let rho = p.rho;
    let m_t = p.big_m + p.m_s + p.m_d;
    let (sp, cp) = T::sin_cos(phi);
    let (st, ct) = T::sin_cos(th);
    let (st1, ct1) = T::sin_cos(th1);
    let spp = st * ct1 + ct * st1; // sin(theta + theta1)
    let cpp = ct * ct1 - st * st1; // cos(theta + theta1)

    // F1, F2 (29) and their theta-derivatives.
    let f1 = v1 * st + mk * st1;
    let f2 = p.i_c + mkk * st1 * st1 + v2 * st * st + 2.0 * v3 * st * st1;
    let f2_th = 2.0 * ct * (v2 * st + v3 * st1);
    let f2_th1 = 2.0 * ct1 * (mkk * st1 + v3 * st);

    // qd = Gamma eta.
    d[0] = rho * (e1 * cp - e2 * sp);
    d[1] = rho * (e1 * sp + e2 * cp);
    d[2] = e2;
    d[3] = e3;
    d[4] = e4;

    let rr_mt = rho * rho * m_t;
    let rv1c = rho * v1 * ct;
    let rmkc1 = rho * mk * ct1;
    // A_Gamma (printed, with its (4,3) entry v3 cos(theta + theta1)).
    let g = [
        [rr_mt, -rho * f1, 0.0, 0.0],
        [-rho * f1, f2 + rr_mt, rv1c, rmkc1],
        [0.0, rv1c, v2, v3 * cpp],
        [0.0, rmkc1, v3 * cpp, mkk],
    ];
    // minus the corrected rests (dF1/dtheta = v1 cos theta, dF1/dtheta1 = m_D kappa cos theta1).
    let r = [
        e2 * (rr_mt * e2 + 2.0 * (rv1c * e3 + rmkc1 * e4)),
        -rr_mt * e1 * e2 + rho * (v1 * st * e3 * e3 + mk * st1 * e4 * e4)
            - e2 * (f2_th * e3 + f2_th1 * e4)
            - p.c_phi * e2,
        0.5 * f2_th * e2 * e2 + v3 * spp * e4 * e4 - rv1c * e1 * e2 + v1 * p.g * st,
        0.5 * f2_th1 * e2 * e2 + v3 * spp * e3 * e3
            - rmkc1 * e1 * e2
            - mk * p.g * st1
            - p.c_th1 * e4,
    ];
    let ed = solve_ldlt(g, r);
    d[5..].copy_from_slice(&ed);
}

/// Talamucci 3.2, assigned front motion x_F = v0 t, y_F = a_f sin(omega t): state
/// (phi, theta, theta1, eta1, eta2), phid = -beta/(2 rho), beta = xFd sin phi - yFd cos phi.
/// The two printed equations with the ERRATA of assigned_front.rs (the factor 1/(8 rho^2) of
/// eq. 2 and the dropped -A_{Gamma,Theta} dbeta/dt terms), forces F_theta = -c_th thetad,
/// F_theta1 = -c_th1 theta1d.
#[inline(never)]
pub fn assigned_front<T: Trig>(p: &AssignedFront, t: f64, s: &[f64; 5], d: &mut [f64; 5]) {
    let [phi, th, th1, e1, e2] = *s;
    let (v1, v2, v3, mk, mkk) = rider(p.m_s, p.m_d, p.kappa, p.kappa1, p.kappa2);
    let (rho, g, w) = (p.rho, p.g, p.omega);
    let (sp, cp) = T::sin_cos(phi);
    let (st, ct) = T::sin_cos(th);
    let (st1, ct1) = T::sin_cos(th1);
    let spp = st * ct1 + ct * st1;
    let cpp = ct * ct1 - st * st1;
    let (swt, cwt) = T::sin_cos(w * t);

    // Front point velocity and acceleration (xFdd = 0).
    let xfd = p.v0;
    let yfd = p.a_f * w * cwt;
    let yfdd = -p.a_f * w * w * swt;
    let beta = xfd * sp - yfd * cp;
    let beta_phi = xfd * cp + yfd * sp;
    let beta_t = -yfdd * cp;

    d[0] = -beta / (2.0 * rho);
    d[1] = e1;
    d[2] = e2;

    let f2_th = 2.0 * ct * (v2 * st + v3 * st1);
    let f2_th1 = 2.0 * ct1 * (mkk * st1 + v3 * st);
    let bb = beta * beta / (8.0 * rho * rho);
    let bbp = beta * beta_phi / (4.0 * rho) + 0.5 * beta_t;
    let r1 = v3 * spp * e2 * e2 + bb * f2_th + bbp * v1 * ct + v1 * g * st - p.c_th * e1;
    let r2 = v3 * spp * e1 * e1 + bb * f2_th1 + bbp * mk * ct1 - mk * g * st1 - p.c_th1 * e2;
    let (a, b) = solve2(v2, v3 * cpp, mkk, r1, r2);
    d[3] = a;
    d[4] = b;
}

/// Talamucci 3.3, the rolling disk with pendulum: state (x_C, y_C, phi, phi1, theta,
/// theta1, eta1..eta4), eta1, eta2 the momenta of phi and phi1. The printed system in its
/// b_ij, G1..G6, delta form with the ERRATA of rolling_disk_pendulum.rs (signs of the
/// eta1 eta4 and eta1 eta2 terms, G3 for G4 in eq. 2, b12 G5 in eq. 3, the (4,4) entry
/// m_D kappa^2, g in the last potential term), the term (R/delta) W (eta2, -eta1, 0, 0)
/// that (16)-(17) drop, hand-derived d b_ij / d theta, d b_ij / d theta1, and forces
/// -Gamma^T F with F_phi = -c_phi phid, F_phi1 = tau, F_theta1 = -c_th1 theta1d.
#[inline(never)]
pub fn rolling_disk_pendulum<T: Trig>(
    p: &RollingDiskPendulum,
    _t: f64,
    s: &[f64; 10],
    d: &mut [f64; 10],
) {
    let [_, _, phi, _, th, th1, e1, e2, e3, e4] = *s;
    let (v1, v2, v3, mk, mkk) = rider(p.m_s, p.m_d, p.kappa, p.kappa1, p.kappa2);
    let (big_m, r, g) = (p.big_m, p.r, p.g);
    let i_d = 0.5 * big_m * r * r;
    let m_t = big_m + p.m_s + p.m_d;
    let v1h = v1 + big_m * r;
    let a_h = v2 + big_m * r * r + 0.5 * i_d; // v2hat + I_D/2
    let (sp, cp) = T::sin_cos(phi);
    let (st, ct) = T::sin_cos(th);
    let (st1, ct1) = T::sin_cos(th1);
    let spp = st * ct1 + ct * st1;
    let cpp = ct * ct1 - st * st1;

    // F1hat, F2hat and derivatives.
    let f1 = v1h * st + mk * st1;
    let f1_th = v1h * ct;
    let f1_th1 = mk * ct1;
    let f2 = a_h * st * st + mkk * st1 * st1 + 2.0 * v3 * st * st1 + 0.5 * i_d;
    let f2_th = 2.0 * ct * (a_h * st + v3 * st1);
    let f2_th1 = 2.0 * ct1 * (mkk * st1 + v3 * st);
    // P = I_D sin(theta) + R F1hat; delta = I_D F2hat - I_D sin(theta) P.
    let pp = i_d * st + r * f1;
    let ir_v1h = i_d + r * v1h;
    let pp_th = ir_v1h * ct;
    let pp_th1 = r * f1_th1;
    let delta = i_d * (f2 - st * pp);
    let delta_th = i_d * (f2_th - ct * pp - st * pp_th);
    let delta_th1 = i_d * (f2_th1 - st * pp_th1);
    let id = 1.0 / delta;
    let id2 = id * id;

    // b11 = I_D/delta + I_D^2 Q/delta^2, Q = R sin(theta) (M_T R sin(theta) - F1hat).
    let mrs = m_t * r * st - f1;
    let q = r * st * mrs;
    let q_th = r * (ct * mrs + st * (m_t * r * ct - f1_th));
    let q_th1 = -r * st * f1_th1;
    let i_d2 = i_d * i_d;
    let b11 = i_d * id + i_d2 * q * id2;
    let b11_th = -i_d * delta_th * id2 + i_d2 * (q_th - 2.0 * q * delta_th * id) * id2;
    let b11_th1 = -i_d * delta_th1 * id2 + i_d2 * (q_th1 - 2.0 * q * delta_th1 * id) * id2;
    // K = 1 + N/delta, N = R (F2hat M_T R - P F1hat); b12 = I_D sin(theta) K/delta,
    // b22 = F2hat K/delta.
    let n = r * (m_t * r * f2 - pp * f1);
    let n_th = r * (m_t * r * f2_th - pp_th * f1 - pp * f1_th);
    let n_th1 = r * (m_t * r * f2_th1 - pp_th1 * f1 - pp * f1_th1);
    let kk = 1.0 + n * id;
    let kk_th = (n_th - n * delta_th * id) * id;
    let kk_th1 = (n_th1 - n * delta_th1 * id) * id;
    let u = i_d * st * id;
    let u_th = i_d * (ct - st * delta_th * id) * id;
    let u_th1 = -u * delta_th1 * id;
    let b12 = u * kk;
    let b12_th = u_th * kk + u * kk_th;
    let b12_th1 = u_th1 * kk + u * kk_th1;
    let w2 = f2 * id;
    let w2_th = (f2_th - f2 * delta_th * id) * id;
    let w2_th1 = (f2_th1 - f2 * delta_th1 * id) * id;
    let b22 = w2 * kk;
    let b22_th = w2_th * kk + w2 * kk_th;
    let b22_th1 = w2_th1 * kk + w2 * kk_th1;

    // G1 .. G6 as printed.
    let g1 = i_d * id * (f2_th - ir_v1h * ct * st);
    let g2 = i_d * id * (f2_th1 - mk * r * ct1 * st);
    let g3 = id * (ir_v1h * f2 * ct - pp * f2_th);
    let g4 = id * (mk * r * f2 * ct1 - pp * f2_th1);
    let g5 = i_d2 * id * ct;
    let g6 = i_d * id * pp * ct;

    // qd = Gamma eta.
    let phid = (i_d * e1 + pp * e2) * id;
    let phi1d = (i_d * st * e1 + f2 * e2) * id;
    d[0] = r * cp * phi1d;
    d[1] = r * sp * phi1d;
    d[2] = phid;
    d[3] = phi1d;
    d[4] = e3;
    d[5] = e4;

    // Forces: Gamma^T F.
    let f_phi = -p.c_phi * phid;
    let tau = p.tau;
    let gtf0 = (i_d * f_phi + i_d * st * tau) * id;
    let gtf1 = (pp * f_phi + f2 * tau) * id;
    let f_th1 = -p.c_th1 * e4;

    // The term (16)-(17) drop: (R/delta) W (eta2, -eta1), W = dF1hat/dt.
    let rw = r * id * (v1h * ct * e3 + mk * ct1 * e4);

    let c11 = b11 * g1 - b12 * g5;
    let c21 = b12 * g1 - b22 * g5;
    let r1 = e1 * e3 * (c11 + b11_th)
        + e1 * e4 * (b11 * g2 + b11_th1)
        + e2 * e3 * (c21 + b12_th)
        + e2 * e4 * (b12 * g2 + b12_th1)
        + rw * e2
        - gtf0;
    let c23 = b12 * g3 + b22 * g6;
    let r2 = -e1 * e3 * (b11 * g3 + b12 * g6 - b12_th) - e1 * e4 * (b11 * g4 - b12_th1)
        + e2 * e3 * (b22_th - c23)
        + e2 * e4 * (b22_th1 - b12 * g4)
        - rw * e1
        - gtf1;
    let r3 = -e1 * e1 * (c11 + 0.5 * b11_th) + e2 * e2 * (c23 - 0.5 * b22_th)
        - e1 * e2 * (c21 - b11 * g3 - b12 * g6 + b12_th)
        - v3 * e4 * e4 * spp
        - v1h * g * st;
    let r4 = -e1 * e1 * (b11 * g2 + 0.5 * b11_th1) + e2 * e2 * (b12 * g4 - 0.5 * b22_th1)
        - e1 * e2 * (b12 * g2 - b11 * g4 + b12_th1)
        - v3 * e3 * e3 * spp
        + mk * g * st1
        - f_th1;

    let (a1, a2) = solve2(b11, b12, b22, -r1, -r2);
    let (a3, a4) = solve2(a_h, v3 * cpp, mkk, -r3, -r4);
    d[6] = a1;
    d[7] = a2;
    d[8] = a3;
    d[9] = a4;
}

/// Talamucci 3.4, the spin assigned, phi1 = w0 t + a_s sin(omega t): state (x_C, y_C, phi,
/// theta, theta1, eta1, eta2, eta3), eta1 the momentum of phi. The printed equations are
/// replaced by their derivation in assigned_spin.rs (ERRATA there): with
/// phid = (eta1 + (R F1hat + I_D sin theta) phi1d(t))/F2hat, W = v1hat cos theta eta2 +
/// m_D kappa cos theta1 eta3: etadot1 = F_phi - R phi1d W and the (theta, theta1) block.
/// Forces F_phi = -c_phi phid, F_theta1 = -c_th1 theta1d.
#[inline(never)]
pub fn assigned_spin<T: Trig>(p: &AssignedSpin, t: f64, s: &[f64; 8], d: &mut [f64; 8]) {
    let [_, _, phi, th, th1, e1, e2, e3] = *s;
    let (v1, v2, v3, mk, mkk) = rider(p.m_s, p.m_d, p.kappa, p.kappa1, p.kappa2);
    let (big_m, r, g) = (p.big_m, p.r, p.g);
    let i_d = 0.5 * big_m * r * r;
    let v1h = v1 + big_m * r;
    let a_h = v2 + big_m * r * r + 0.5 * i_d;
    let (sp, cp) = T::sin_cos(phi);
    let (st, ct) = T::sin_cos(th);
    let (st1, ct1) = T::sin_cos(th1);
    let spp = st * ct1 + ct * st1;
    let cpp = ct * ct1 - st * st1;
    let phi1d = p.w0 + p.a_s * p.omega * T::cos(p.omega * t);

    let f1 = v1h * st + mk * st1;
    let f2 = a_h * st * st + mkk * st1 * st1 + 2.0 * v3 * st * st1 + 0.5 * i_d;
    let f2_th = 2.0 * ct * (a_h * st + v3 * st1);
    let f2_th1 = 2.0 * ct1 * (mkk * st1 + v3 * st);

    let phid = (e1 + (r * f1 + i_d * st) * phi1d) / f2;
    let rp = r * phi1d;
    d[0] = rp * cp;
    d[1] = rp * sp;
    d[2] = phid;
    d[3] = e2;
    d[4] = e3;

    let w = v1h * ct * e2 + mk * ct1 * e3;
    d[5] = -p.c_phi * phid - rp * w;
    let hp2 = 0.5 * phid * phid;
    let r2 = v3 * spp * e3 * e3 + hp2 * f2_th - (i_d + r * v1h) * ct * phid * phi1d + v1h * g * st;
    let r3 = v3 * spp * e2 * e2 + hp2 * f2_th1 - mk * ct1 * phid * rp - mk * g * st1 - p.c_th1 * e3;
    let (a, b) = solve2(a_h, v3 * cpp, mkk, r2, r3);
    d[6] = a;
    d[7] = b;
}
