//! Matrices of (q, t) with their partial derivatives (`Field`), assembled by the product
//! rule, and the operators of Talamucci's eqs. (21)–(22) built on them; large entries
//! become named atoms so that the products of (15)–(22) never expand.

use crate::sym::HashMap;
use crate::sym::{Graph, Id, Mat};
use std::cell::RefCell;

/// Entries larger than this (in tree nodes) become named auxiliary atoms
/// (`Graph::define`): products of the matrices of (15)–(22) then stay small instead of
/// expanding long sums, and the generated code computes each piece once. Small entries
/// stay inline so that simplification (sin^2 + cos^2 = 1, cancellations) still sees them.
pub const INLINE: u32 = 24;

/// Atoms already made, by the expression they stand for (one atom per expression, e.g.
/// for the two halves of a symmetric matrix).
pub type AtomMemo = RefCell<HashMap<Id, Id>>;

/// Row and column names for atom labels (`cols` empty for a column vector).
pub struct Names<'a> {
    rows: &'a [String],
    cols: &'a [String],
    memo: &'a AtomMemo,
}

impl<'a> Names<'a> {
    pub fn new(rows: &'a [String], cols: &'a [String], memo: &'a AtomMemo) -> Self {
        Names { rows, cols, memo }
    }
}

/// The entries of `m` that are large become atoms named `name[row,col]`.
pub fn atoms(g: &mut Graph, m: &Mat, name: &str, nm: &Names) -> Mat {
    let mut e = Vec::with_capacity(m.e.len());
    for i in 0..m.r {
        for j in 0..m.c {
            let x = m.at(i, j);
            if let Some(a) = nm.memo.borrow().get(&x) {
                e.push(*a);
                continue;
            }
            let label = if nm.cols.is_empty() {
                format!("{name}[{}]", nm.rows[i])
            } else {
                format!("{name}[{},{}]", nm.rows[i], nm.cols[j])
            };
            let a = g.define_if_large(&label, x, INLINE);
            nm.memo.borrow_mut().insert(x, a);
            e.push(a);
        }
    }
    Mat { r: m.r, c: m.c, e }
}

/// A matrix of (q, t) with its partial derivatives, each entry inline or an atom: the
/// derivatives of products are assembled by the product rule from the factors', so
/// they stay as compact as the products themselves.
pub struct Field {
    pub v: Mat,
    /// `dM/dq_k`, k = 1..l.
    pub dq: Vec<Mat>,
    /// `dM/dt` (partial).
    pub dt: Mat,
}

impl Field {
    pub fn t(&self) -> Field {
        Field {
            v: self.v.t(),
            dq: self.dq.iter().map(Mat::t).collect(),
            dt: self.dt.t(),
        }
    }
}

/// The coordinates and time, and their names for atom labels.
pub struct Space<'a> {
    pub q: &'a [u32],
    pub t: u32,
    pub qn: &'a [String],
}

impl Space<'_> {
    /// A field from explicit expressions (differentiated directly).
    pub fn raw(&self, g: &mut Graph, m: &Mat, name: &str, nm: &Names) -> Field {
        let v = atoms(g, m, name, nm);
        let dq = (0..self.q.len())
            .map(|k| {
                let d = Mat::partial(g, m, self.q[k]);
                atoms(g, &d, &format!("d{name}/d{}", self.qn[k]), nm)
            })
            .collect();
        let d = Mat::partial(g, m, self.t);
        let dt = atoms(g, &d, &format!("d{name}/dt"), nm);
        Field { v, dq, dt }
    }

    /// The product of two fields, derivatives by the product rule.
    pub fn prod(&self, g: &mut Graph, a: &Field, b: &Field, name: &str, nm: &Names) -> Field {
        let v = Mat::mul(g, &a.v, &b.v);
        let v = atoms(g, &v, name, nm);
        let d = |g: &mut Graph, da: &Mat, db: &Mat, label: String| {
            let x = Mat::mul(g, da, &b.v);
            let y = Mat::mul(g, &a.v, db);
            let s = Mat::plus(g, &x, &y);
            atoms(g, &s, &label, nm)
        };
        let dq = (0..self.q.len())
            .map(|k| d(g, &a.dq[k], &b.dq[k], format!("d{name}/d{}", self.qn[k])))
            .collect();
        let dt = d(g, &a.dt, &b.dt, format!("d{name}/dt"));
        Field { v, dq, dt }
    }

    /// Talamucci's operator (21): `D_k(M) = [M (dZ/dq_k - J_q Z^(k)) Gamma + dM/dq_k]^T`
    /// (M is N x sigma, the result sigma x N), for k = 1..l; `s_gamma[k]` is
    /// `(dZ/dq_k - J_q Z^(k)) Gamma`.
    pub fn d_ops(
        &self,
        g: &mut Graph,
        m: &Field,
        s_gamma: &[Mat],
        name: &str,
        nm: &Names,
    ) -> Vec<Mat> {
        (0..self.q.len())
            .map(|k| {
                let ms = Mat::mul(g, &m.v, &s_gamma[k]);
                let s = Mat::plus(g, &ms, &m.dq[k]);
                atoms(g, &s.t(), &format!("D_{}({name})", self.qn[k]), nm)
            })
            .collect()
    }

    /// `((J_q M^(r)) Gamma)^T` (sigma x N) for every column r of M (the summands of
    /// `sum_r x_r ((J_q M^(r)) Gamma)^T` in Q, Lambda, N).
    pub fn p_ops(
        &self,
        g: &mut Graph,
        m: &Field,
        gamma: &Mat,
        name: &str,
        col_names: &[String],
        nm: &Names,
    ) -> Vec<Mat> {
        let l = self.q.len();
        (0..m.v.c)
            .map(|r| {
                let mut jc = Mat::zeros(g, m.v.r, l);
                for i in 0..m.v.r {
                    for j in 0..l {
                        jc.e[i * l + j] = m.dq[j].at(i, r);
                    }
                }
                let p = Mat::mul(g, &jc, gamma);
                atoms(g, &p.t(), &format!("P_{}({name})", col_names[r]), nm)
            })
            .collect()
    }
}
