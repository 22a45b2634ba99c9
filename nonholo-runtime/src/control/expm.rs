//! The matrix exponential for the exact zero-order hold.

use nalgebra::DMatrix;

use super::{one_norm, pow2};
// ---------------------------------------------------------------------------------------
// Matrix exponential

/// `e^x` by scaling and squaring with a diagonal Padé approximant (Higham 2005); `None` if
/// it overflows or the Padé denominator is singular (which needs an overflowing norm).
pub(super) fn expm(x: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let n = x.nrows();
    if x.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let identity = DMatrix::<f64>::identity(n, n);
    let norm = one_norm(x);
    const THETA: [(usize, f64); 4] = [
        (3, 1.495585217958292e-2),
        (5, 2.53939833006323e-1),
        (7, 9.504178996162932e-1),
        (9, 2.097847961257068e0),
    ];
    const THETA13: f64 = 5.371920351148152e0;
    let (u, v, s) = if let Some(&(m, _)) = THETA.iter().find(|(_, t)| norm <= *t) {
        let b = pade_coefficients(m);
        let x2 = x * x;
        // U = X Σ b_{2j+1} X^{2j}, V = Σ b_{2j} X^{2j}
        let mut power = identity.clone();
        let mut u = DMatrix::zeros(n, n);
        let mut v = DMatrix::zeros(n, n);
        for j in 0..=m / 2 {
            u += &power * b[2 * j + 1];
            v += &power * b[2 * j];
            power = &power * &x2;
        }
        (x * u, v, 0)
    } else {
        let s = libm::ceil(libm::log2(norm / THETA13)).max(0.0);
        if s > 1100.0 {
            return None;
        }
        let s = s as i32;
        let scale = pow2(-s);
        let xs = x * scale;
        let b = pade_coefficients(13);
        let a2 = &xs * &xs;
        let a4 = &a2 * &a2;
        let a6 = &a4 * &a2;
        let u = &xs
            * (&a6 * (&a6 * b[13] + &a4 * b[11] + &a2 * b[9])
                + &a6 * b[7]
                + &a4 * b[5]
                + &a2 * b[3]
                + &identity * b[1]);
        let v = &a6 * (&a6 * b[12] + &a4 * b[10] + &a2 * b[8])
            + &a6 * b[6]
            + &a4 * b[4]
            + &a2 * b[2]
            + &identity * b[0];
        (u, v, s)
    };
    // (V - U) E = V + U
    let mut e = (&v - &u).lu().solve(&(&v + &u))?;
    for _ in 0..s {
        e = &e * &e;
    }
    if e.iter().all(|v| v.is_finite()) {
        Some(e)
    } else {
        None
    }
}

/// The coefficients `b_0 ..= b_m` of the `[m/m]` Padé approximant of `e^x`.
pub(super) fn pade_coefficients(m: usize) -> &'static [f64] {
    match m {
        3 => &[120.0, 60.0, 12.0, 1.0],
        5 => &[30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0],
        7 => &[
            17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0,
        ],
        9 => &[
            17643225600.0,
            8821612800.0,
            2075673600.0,
            302702400.0,
            30270240.0,
            2162160.0,
            110880.0,
            3960.0,
            90.0,
            1.0,
        ],
        _ => &[
            64764752532480000.0,
            32382376266240000.0,
            7771770303897600.0,
            1187353796428800.0,
            129060195264000.0,
            10559470521600.0,
            670442572800.0,
            33522128640.0,
            1323241920.0,
            40840800.0,
            960960.0,
            16380.0,
            182.0,
            1.0,
        ],
    }
}
