//! The rattleback (`nonholo::models::Rattleback`) by Newton–Euler about the contact point,
//! written the way an expert writes it by hand: every vector in the body frame B, where
//! the contact point depends on the downward normal alone.

use super::{solve_ldlt, Trig};
use nonholo::models::Rattleback;

#[inline(always)]
fn cross(u: [f64; 3], v: [f64; 3]) -> [f64; 3] {
    [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ]
}

#[inline(always)]
fn dot(u: [f64; 3], v: [f64; 3]) -> f64 {
    u[0] * v[0] + u[1] * v[1] + u[2] * v[2]
}

/// The rattleback's state derivative, state `[x, y, z, yaw, roll, pitch, yaw', roll',
/// pitch']` (the shell's centre E, then the Euler angles of `B = N.rotate(z,
/// yaw).rotate(x, roll).rotate(y, pitch)`, then their rates, the speeds).
///
/// All vectors are in B's components; `(s_, c_)` are the sines and cosines of yaw `ψ`,
/// roll `φ`, pitch `θ` and `u = (ψ', φ', θ')`.
///
/// - Angular velocity `ω = (c_θ φ' - s_θ c_φ ψ', θ' + s_φ ψ', s_θ φ' + c_θ c_φ ψ')`.
/// - Downward normal `n = -N.z = (s_θ c_φ, -s_φ, -c_θ c_φ)`, turning as `n' = n × ω`
///   (it is fixed in N).
/// - Contact point `P = E + ρ`, `ρ = A n / σ`, `A = diag(a², b², c²)`, `σ = sqrt(n·A n)`
///   (the ellipsoid's support point; `σ` is also the height `z`); it moves over the body
///   at `ρ' = (A n' - ρ (ρ·n')) / σ` (B-components' rate).
/// - `G = E + h K.z = E - h B.z`, `r = G - P = (0, 0, -h) - ρ`; the inertia about G in B
///   is K's with the xy product's sign turned: `I = [[i_a, -i_d, 0], [-i_d, i_b, 0],
///   [0, 0, i_c]]`.
/// - Rolling: the material point at P is at rest, so `v_E = -ω × ρ` (the dependent
///   `x', y', z'` after turning to N) and `v_G = ω × r`; its rate is
///   `a_G = ω' × r + ω × (ω × r - ρ')`, `r` changing in N as `ω × r - ρ'` because P
///   slides over the body.
/// - Newton–Euler about G with the contact force `F = m (a_G - g n)` at P:
///   `I ω' + ω × I ω = -r × F`, i.e.
///   `(I + m (|r|² 1 - r rᵀ)) ω' = -ω × I ω - m r × (ω × (ω × r - ρ')) + m g r × n`,
///   a 3x3 symmetric positive-definite system (LDLᵀ).
/// - The Euler angles' accelerations from `ω'` (inverting `ω(u)` and differentiating):
///   `φ'' = c_θ ω'_x + s_θ ω'_z + c_φ ψ' θ'`,
///   `ψ'' = (c_θ ω'_z - s_θ ω'_x - φ' θ' + s_φ φ' ψ') / c_φ`,
///   `θ'' = ω'_y - c_φ φ' ψ' - s_φ ψ''`.
#[inline(never)]
pub fn rattleback<T: Trig>(p: &Rattleback, _t: f64, s: &[f64; 9], d: &mut [f64; 9]) {
    let [_, _, _, yaw, roll, pitch, dyaw, droll, dpitch] = *s;
    let (m, g, h) = (p.m, p.g, p.h);
    let (a2, b2, c2) = (p.a * p.a, p.b * p.b, p.c * p.c);
    let (sy, cy) = T::sin_cos(yaw);
    let (sr, cr) = T::sin_cos(roll);
    let (sp, cp) = T::sin_cos(pitch);

    let crs = cr * sp;
    let crc = cr * cp;
    let w = [
        cp * droll - crs * dyaw,
        dpitch + sr * dyaw,
        sp * droll + crc * dyaw,
    ];
    let n = [crs, -sr, -crc];
    let an = [a2 * n[0], b2 * n[1], c2 * n[2]];
    let inv_sigma = 1.0 / dot(n, an).sqrt();
    let rho = [an[0] * inv_sigma, an[1] * inv_sigma, an[2] * inv_sigma];

    // dq/dt: v_E = -ω × ρ = ρ × ω, turned to N by Rz(yaw) Rx(roll) Ry(pitch).
    let v = cross(rho, w);
    let v1 = [cp * v[0] + sp * v[2], v[1], cp * v[2] - sp * v[0]];
    let v2 = [v1[0], cr * v1[1] - sr * v1[2], sr * v1[1] + cr * v1[2]];
    d[0] = cy * v2[0] - sy * v2[1];
    d[1] = sy * v2[0] + cy * v2[1];
    d[2] = v2[2];
    d[3] = dyaw;
    d[4] = droll;
    d[5] = dpitch;

    // The contact point's motion over the body.
    let nd = cross(n, w);
    let rho_nd = dot(rho, nd);
    let rho_d = [
        (a2 * nd[0] - rho[0] * rho_nd) * inv_sigma,
        (b2 * nd[1] - rho[1] * rho_nd) * inv_sigma,
        (c2 * nd[2] - rho[2] * rho_nd) * inv_sigma,
    ];
    let r = [-rho[0], -rho[1], -h - rho[2]];

    // The inertia about G in B.
    let (ia, ib, ic, id) = (p.i_a, p.i_b, p.i_c, -p.i_d);
    let iw = [ia * w[0] + id * w[1], id * w[0] + ib * w[1], ic * w[2]];

    // ω × r - ρ' (r's rate in N), then a_G's part without ω'.
    let wr = cross(w, r);
    let rd = [wr[0] - rho_d[0], wr[1] - rho_d[1], wr[2] - rho_d[2]];
    let acc = cross(w, rd);
    // -ω × I ω - m r × (acc - g n)
    let gyro = cross(iw, w);
    let fg = [acc[0] - g * n[0], acc[1] - g * n[1], acc[2] - g * n[2]];
    let mom = cross(r, fg);
    let rhs = [
        gyro[0] - m * mom[0],
        gyro[1] - m * mom[1],
        gyro[2] - m * mom[2],
    ];

    // I + m (|r|² 1 - r rᵀ), lower triangle.
    let (mx, my, mz) = (m * r[0], m * r[1], m * r[2]);
    let (mxx, myy, mzz) = (mx * r[0], my * r[1], mz * r[2]);
    let mass = [
        [ia + myy + mzz, 0.0, 0.0],
        [id - mx * r[1], ib + mxx + mzz, 0.0],
        [-mx * r[2], -my * r[2], ic + mxx + myy],
    ];
    let wd = solve_ldlt(mass, rhs);

    let ddroll = cp * wd[0] + sp * wd[2] + cr * dyaw * dpitch;
    let ddyaw = (cp * wd[2] - sp * wd[0] - droll * dpitch + sr * droll * dyaw) / cr;
    d[6] = ddyaw;
    d[7] = ddroll;
    d[8] = wd[1] - cr * droll * dyaw - sr * ddyaw;
}
