//! Dense linear algebra (no nalgebra): LU / Gaussian elimination with partial pivoting,
//! generic over scalars (pivot chosen on the real part), and the tests' error measures.

use super::{k, Scalar};

/// Solve `a x = b` (a square, row-major) by Gaussian elimination with partial pivoting.
/// Panics on an exactly singular pivot.
#[allow(clippy::needless_range_loop)]
pub fn solve<D: Scalar>(mut a: Vec<Vec<D>>, mut b: Vec<D>) -> Vec<D> {
    let n = b.len();
    assert_eq!(a.len(), n);
    for col in 0..n {
        let mut piv = col;
        let mut best = a[col][col].re().abs();
        for r in (col + 1)..n {
            let v = a[r][col].re().abs();
            if v > best {
                best = v;
                piv = r;
            }
        }
        assert!(best > 0.0, "singular matrix in solve (column {col})");
        a.swap(col, piv);
        b.swap(col, piv);
        let p = a[col][col];
        for r in (col + 1)..n {
            let f = a[r][col] / p;
            for c in col..n {
                let v = a[col][c];
                a[r][c] -= f * v;
            }
            let v = b[col];
            b[r] -= f * v;
        }
    }
    let mut x = vec![k::<D>(0.0); n];
    for r in (0..n).rev() {
        let mut s = b[r];
        for c in (r + 1)..n {
            s -= a[r][c] * x[c];
        }
        x[r] = s / a[r][r];
    }
    x
}

/// Determinant by the same elimination (f64 only; used for diagnostics).
#[allow(clippy::needless_range_loop)]
pub fn det(mut a: Vec<Vec<f64>>) -> f64 {
    let n = a.len();
    let mut d = 1.0;
    for col in 0..n {
        let mut piv = col;
        for r in (col + 1)..n {
            if a[r][col].abs() > a[piv][col].abs() {
                piv = r;
            }
        }
        if a[piv][col] == 0.0 {
            return 0.0;
        }
        if piv != col {
            a.swap(col, piv);
            d = -d;
        }
        d *= a[col][col];
        for r in (col + 1)..n {
            let f = a[r][col] / a[col][col];
            for c in col..n {
                a[r][c] -= f * a[col][c];
            }
        }
    }
    d
}

pub fn matvec(a: &[Vec<f64>], x: &[f64]) -> Vec<f64> {
    a.iter()
        .map(|row| row.iter().zip(x).map(|(p, q)| p * q).sum())
        .collect()
}

pub fn transpose(a: &[Vec<f64>]) -> Vec<Vec<f64>> {
    if a.is_empty() {
        return vec![];
    }
    (0..a[0].len())
        .map(|j| a.iter().map(|r| r[j]).collect())
        .collect()
}

pub fn matmul(a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let m = b[0].len();
    a.iter()
        .map(|row| {
            (0..m)
                .map(|j| row.iter().zip(b).map(|(x, br)| x * br[j]).sum())
                .collect()
        })
        .collect()
}

/// max_i |v_i| (0 for an empty slice).
pub fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |m, x| m.max(x.abs()))
}

/// max_i |a_i - b_i| / max(1, max_i |b_i|): the "relative" error used by the tests.
pub fn rel_err(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    let scale = b.iter().fold(1.0f64, |m, x| m.max(x.abs()));
    a.iter()
        .zip(b)
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
        / scale
}

pub fn rel_err_mat(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    let fa: Vec<f64> = a.iter().flatten().copied().collect();
    let fb: Vec<f64> = b.iter().flatten().copied().collect();
    rel_err(&fa, &fb)
}
