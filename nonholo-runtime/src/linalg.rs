//! Small fixed-size linear algebra used by generated code (no heap).

use crate::Scalar;
use nalgebra::{Const, DimMin, SMatrix, SVector};

/// The factorization `G = L D L^T` of a symmetric positive-definite `G` (`L` unit lower
/// triangular, `D` diagonal and positive), over any [`Scalar`].
///
/// No square roots (so dual numbers carry derivatives through it unchanged) and no heap.
/// For the small constant sizes generated code sees (2–6) the loops over the const `M`
/// unroll into straight-line code, measured about 1.5x faster than nalgebra's `Cholesky`
/// on 4x4 (the Talamucci 3.1 right-hand side went from 154 to 101 ns).
///
/// ```
/// use nonholo_runtime::linalg::Ldlt;
///
/// // Factor once, solve for two right-hand sides (as Benenti's second method does).
/// let g = [[4.0, 2.0, 0.0], [2.0, 5.0, 1.0], [0.0, 1.0, 3.0]];
/// let f = Ldlt::new(&g).unwrap();
/// for r in [[1.0, 0.0, 0.0], [6.0, 8.0, 4.0]] {
///     let x = f.solve(&r);
///     for i in 0..3 {
///         let gx: f64 = (0..3).map(|j| g[i][j] * x[j]).sum();
///         assert!((gx - r[i]).abs() < 1e-14);
///     }
/// }
/// // [6, 8, 4] = G [1, 1, 1]
/// assert!(f.solve(&[6.0, 8.0, 4.0]).iter().all(|v| (v - 1.0).abs() < 1e-15));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Ldlt<S, const M: usize> {
    /// `L` below the diagonal (the rest is unused).
    l: [[S; M]; M],
    /// The diagonal of `D`.
    d: [S; M],
}

impl<S: Scalar, const M: usize> Ldlt<S, M> {
    /// Factor `g`; `None` unless every pivot is positive (so also for NaN), i.e. unless
    /// `g` is positive definite (decided on the values, [`Scalar::re`]).
    ///
    /// ```
    /// use nonholo_runtime::linalg::Ldlt;
    /// assert!(Ldlt::new(&[[2.0, 1.0], [1.0, 2.0]]).is_some());
    /// // indefinite (eigenvalues 3 and -1), singular, NaN: no factorization
    /// assert!(Ldlt::new(&[[1.0, 2.0], [2.0, 1.0]]).is_none());
    /// assert!(Ldlt::new(&[[1.0, 1.0], [1.0, 1.0]]).is_none());
    /// assert!(Ldlt::new(&[[f64::NAN, 0.0], [0.0, 1.0]]).is_none());
    /// ```
    #[inline]
    pub fn new(g: &[[S; M]; M]) -> Option<Self> {
        let zero = S::from_f64(0.0);
        let mut l = [[zero; M]; M];
        let mut d = [zero; M];
        for j in 0..M {
            let mut dj = g[j][j];
            for p in 0..j {
                dj -= l[j][p] * l[j][p] * d[p];
            }
            // also rejects NaN
            if dj.re().partial_cmp(&0.0) != Some(core::cmp::Ordering::Greater) {
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
        Some(Ldlt { l, d })
    }

    /// The pivots, the diagonal of `D` (all positive): their spread tells how near `G` is to
    /// singular.
    ///
    /// ```
    /// use nonholo_runtime::linalg::Ldlt;
    /// assert_eq!(Ldlt::new(&[[4.0, 2.0], [2.0, 2.0]]).unwrap().pivots(), &[4.0, 1.0]);
    /// ```
    #[inline]
    pub fn pivots(&self) -> &[S; M] {
        &self.d
    }

    /// `G^-1 r`: forward substitution with `L`, scaling by `D^-1`, back substitution with
    /// `L^T`.
    ///
    /// ```
    /// use nonholo_runtime::linalg::Ldlt;
    /// // G = diag(2, 4): x = r / diag
    /// let x = Ldlt::new(&[[2.0, 0.0], [0.0, 4.0]]).unwrap().solve(&[1.0, 1.0]);
    /// assert_eq!(x, [0.5, 0.25]);
    /// ```
    #[inline]
    pub fn solve(&self, r: &[S; M]) -> [S; M] {
        let (l, d) = (&self.l, &self.d);
        let mut x = *r;
        for i in 0..M {
            for p in 0..i {
                let lx = l[i][p] * x[p];
                x[i] -= lx;
            }
        }
        for i in 0..M {
            x[i] /= d[i];
        }
        for i in (0..M).rev() {
            for p in i + 1..M {
                let lx = l[p][i] * x[p];
                x[i] -= lx;
            }
        }
        x
    }
}

/// Solve `G x = r` for a symmetric positive-definite `G` ([`Ldlt`]).
///
/// Returns `None` when `G` is not positive definite. This is the hot path of every
/// generated right-hand side with coupled speeds.
///
/// ```
/// let x = nonholo_runtime::linalg::solve_spd(&[[4.0f64, 2.0], [2.0, 3.0]], &[2.0, 1.0]).unwrap();
/// assert!((4.0 * x[0] + 2.0 * x[1] - 2.0).abs() < 1e-15);
/// // The same in single precision.
/// let y = nonholo_runtime::linalg::solve_spd(&[[4.0f32, 2.0], [2.0, 3.0]], &[2.0, 1.0]).unwrap();
/// assert!((y[0] - x[0] as f32).abs() < 1e-6);
/// ```
#[inline]
pub fn solve_spd<S: Scalar, const M: usize>(g: &[[S; M]; M], r: &[S; M]) -> Option<[S; M]> {
    Some(Ldlt::new(g)?.solve(r))
}

/// Solve the square system `M x = r` by LU with partial pivoting (nalgebra).
///
/// Returns `None` when `M` is singular.
///
/// ```
/// use nonholo_runtime::linalg::solve_lu;
/// // not symmetric, needs a row exchange (zero first pivot)
/// let x = solve_lu(&[[0.0, 1.0], [2.0, 3.0]], &[1.0, 8.0]).unwrap();
/// assert_eq!(x, [2.5, 1.0]);
/// assert!(solve_lu(&[[1.0, 2.0], [2.0, 4.0]], &[1.0, 1.0]).is_none());
/// ```
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
