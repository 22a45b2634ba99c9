//! Dense symbolic matrices over the [`Graph`]: the linear algebra every formulation is
//! written in (products, linear combinations, transposes, Jacobians, directional
//! derivatives). Vectors are columns (`c == 1`).

use super::graph::{Graph, Id};
use super::number::Number;
use super::HashMap;

/// A dense symbolic matrix, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Mat {
    pub r: usize,
    pub c: usize,
    pub e: Vec<Id>,
}

impl Mat {
    pub fn zeros(g: &mut Graph, r: usize, c: usize) -> Mat {
        let z = g.zero();
        Mat {
            r,
            c,
            e: vec![z; r * c],
        }
    }

    /// From rows of length `c` (`c` is given so that zero rows have a shape).
    pub fn from_rows(rows: &[Vec<Id>], c: usize) -> Mat {
        let mut e = Vec::with_capacity(rows.len() * c);
        for row in rows {
            debug_assert_eq!(row.len(), c);
            e.extend(row.iter().copied());
        }
        Mat {
            r: rows.len(),
            c,
            e,
        }
    }

    /// `r x c` with entry `(i, j) = f(g, i, j)`.
    pub fn build(
        g: &mut Graph,
        r: usize,
        c: usize,
        mut f: impl FnMut(&mut Graph, usize, usize) -> Id,
    ) -> Mat {
        let mut e = Vec::with_capacity(r * c);
        for i in 0..r {
            for j in 0..c {
                e.push(f(g, i, j));
            }
        }
        Mat { r, c, e }
    }

    /// A column vector.
    pub fn col(v: &[Id]) -> Mat {
        Mat {
            r: v.len(),
            c: 1,
            e: v.to_vec(),
        }
    }

    pub fn at(&self, i: usize, j: usize) -> Id {
        self.e[i * self.c + j]
    }

    pub fn set(&mut self, i: usize, j: usize, x: Id) {
        self.e[i * self.c + j] = x;
    }

    pub fn t(&self) -> Mat {
        let mut e = Vec::with_capacity(self.e.len());
        for j in 0..self.c {
            for i in 0..self.r {
                e.push(self.at(i, j));
            }
        }
        Mat {
            r: self.c,
            c: self.r,
            e,
        }
    }

    pub fn rows(&self) -> Vec<Vec<Id>> {
        (0..self.r).map(|i| self.row(i).to_vec()).collect()
    }

    pub fn row(&self, i: usize) -> &[Id] {
        &self.e[i * self.c..(i + 1) * self.c]
    }

    pub fn map(&self, g: &mut Graph, mut f: impl FnMut(&mut Graph, Id) -> Id) -> Mat {
        Mat {
            r: self.r,
            c: self.c,
            e: self.e.iter().map(|x| f(g, *x)).collect(),
        }
    }

    /// Whether every entry off the diagonal is (structurally) zero.
    pub fn is_diagonal(&self, g: &Graph) -> bool {
        (0..self.r).all(|i| (0..self.c).all(|j| i == j || g.is_zero(self.at(i, j))))
    }

    /// `A B`, skipping structural zeros.
    pub fn mul(g: &mut Graph, a: &Mat, b: &Mat) -> Mat {
        assert_eq!(a.c, b.r, "matrix product dimensions");
        Mat::build(g, a.r, b.c, |g, i, j| {
            let mut parts = Vec::with_capacity(a.c);
            for k in 0..a.c {
                let (x, y) = (a.at(i, k), b.at(k, j));
                if !g.is_zero(x) && !g.is_zero(y) {
                    parts.push(g.mul(x, y));
                }
            }
            g.add_all(&parts)
        })
    }

    /// `A^T B` without forming the transpose.
    pub fn tmul(g: &mut Graph, a: &Mat, b: &Mat) -> Mat {
        Mat::mul(g, &a.t(), b)
    }

    /// `sum_i k_i M_i` (all of shape r x c; `k_i` scalar expressions).
    pub fn lincomb(g: &mut Graph, r: usize, c: usize, terms: &[(Id, &Mat)]) -> Mat {
        let mut e = Vec::with_capacity(r * c);
        for idx in 0..r * c {
            let mut parts = Vec::with_capacity(terms.len());
            for (k, m) in terms {
                assert!(m.r == r && m.c == c, "lincomb dimensions");
                let x = m.e[idx];
                if !g.is_zero(*k) && !g.is_zero(x) {
                    parts.push(g.mul(*k, x));
                }
            }
            e.push(g.add_all(&parts));
        }
        Mat { r, c, e }
    }

    /// `sum_i s_i M_i` with numeric weights `s_i`.
    pub fn sum(g: &mut Graph, terms: &[(Number, &Mat)]) -> Mat {
        let (r, c) = (terms[0].1.r, terms[0].1.c);
        let mut e = Vec::with_capacity(r * c);
        for idx in 0..r * c {
            let parts: Vec<Id> = terms
                .iter()
                .map(|(k, m)| {
                    assert!(m.r == r && m.c == c, "sum dimensions");
                    g.scale(*k, m.e[idx])
                })
                .collect();
            e.push(g.add_all(&parts));
        }
        Mat { r, c, e }
    }

    pub fn plus(g: &mut Graph, a: &Mat, b: &Mat) -> Mat {
        Mat::sum(g, &[(Number::ONE, a), (Number::ONE, b)])
    }

    pub fn minus(g: &mut Graph, a: &Mat, b: &Mat) -> Mat {
        Mat::sum(g, &[(Number::ONE, a), (Number::MINUS_ONE, b)])
    }

    /// Partial derivative of every entry by the symbol `s`.
    pub fn partial(g: &mut Graph, m: &Mat, s: u32) -> Mat {
        m.map(g, |g, x| g.diff(x, s))
    }

    /// Jacobian `d v / d x` (len(v) x len(x)) of a column vector.
    pub fn jac(g: &mut Graph, v: &Mat, x: &[u32]) -> Mat {
        Mat::build(g, v.r, x.len(), |g, i, j| g.diff(v.e[i], x[j]))
    }

    /// `sum_k u_k X_k` for a column vector u and one r x c matrix per component.
    pub fn along(g: &mut Graph, u: &Mat, xs: &[Mat], r: usize, c: usize) -> Mat {
        let terms: Vec<(Id, &Mat)> = u.e.iter().copied().zip(xs.iter()).collect();
        Mat::lincomb(g, r, c, terms.as_slice())
    }
}

impl Graph {
    /// Whether `e` is affine in the symbols `x` (all second derivatives vanish, tested
    /// numerically at random points).
    pub fn affine_in(&mut self, e: Id, x: &[u32]) -> bool {
        for (i, a) in x.iter().enumerate() {
            let d = self.diff(e, *a);
            for b in &x[i..] {
                let dd = self.diff(d, *b);
                if !super::linsolve::probably_zero(self, dd) {
                    return false;
                }
            }
        }
        true
    }

    /// `(dE/dx, E at x = 0)` of an expression affine in `x`.
    pub fn affine_parts(&mut self, e: Id, x: &[u32]) -> (Vec<Id>, Id) {
        let coeffs = x.iter().map(|v| self.diff(e, *v)).collect();
        let zero = self.zero();
        let map: HashMap<u32, Id> = x.iter().map(|v| (*v, zero)).collect();
        (coeffs, self.subst(e, &map))
    }
}
