//! Small fixed-size linear algebra used by generated code (no heap).

use nalgebra::{Const, DimMin, SMatrix, SVector};

/// Solve `G x = r` for a symmetric positive-definite `G` by Cholesky (nalgebra).
///
/// Returns `None` when `G` is not positive definite.
///
/// ```
/// let x = nonholo_runtime::linalg::solve_spd(&[[4.0, 2.0], [2.0, 3.0]], &[2.0, 1.0]).unwrap();
/// assert!((4.0 * x[0] + 2.0 * x[1] - 2.0).abs() < 1e-15);
/// ```
#[inline]
pub fn solve_spd<const M: usize>(g: &[[f64; M]; M], r: &[f64; M]) -> Option<[f64; M]> {
    let g = SMatrix::<f64, M, M>::from_fn(|i, j| g[i][j]);
    let chol = g.cholesky()?;
    let x = chol.solve(&SVector::<f64, M>::from_fn(|i, _| r[i]));
    let mut out = [0.0; M];
    for (o, v) in out.iter_mut().zip(x.iter()) {
        *o = *v;
    }
    Some(out)
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
