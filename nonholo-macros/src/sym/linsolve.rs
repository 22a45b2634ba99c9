//! Exact solution of small symbolic linear systems `M x = b`.
//!
//! Pivots are taken first among nonzero *numeric* entries (Markowitz order), since
//! dividing by them is safe everywhere; the block left when no numeric pivot remains is
//! solved by its adjugate over its determinant, which is valid wherever the matrix is
//! invertible (a symbolic pivot such as `cos(theta)` would fail at `theta = pi/2`).

use super::graph::{Graph, Id};
use std::collections::HashMap;

/// Solve `m x = b`; `None` when `m` is (symbolically, or numerically at random points) singular.
pub fn solve(g: &mut Graph, m: &[Vec<Id>], b: &[Id]) -> Option<Vec<Id>> {
    let n = m.len();
    let mut a: Vec<Vec<Id>> = m.to_vec();
    let mut b: Vec<Id> = b.to_vec();
    let mut row_used = vec![false; n];
    let mut col_used = vec![false; n];
    let mut pivots: Vec<(usize, usize)> = Vec::new();
    loop {
        let mut best: Option<(usize, usize, (usize, u8))> = None;
        for r in (0..n).filter(|r| !row_used[*r]) {
            let nnz_r = (0..n)
                .filter(|j| !col_used[*j] && !g.is_zero(a[r][*j]))
                .count();
            for c in (0..n).filter(|c| !col_used[*c]) {
                let Some(v) = g.as_number(a[r][c]) else {
                    continue;
                };
                if v.is_zero() {
                    continue;
                }
                let nnz_c = (0..n)
                    .filter(|i| !row_used[*i] && !g.is_zero(a[*i][c]))
                    .count();
                let key = (
                    (nnz_r - 1) * (nnz_c - 1),
                    u8::from(!(v.is_one() || v.neg().is_one())),
                );
                if best.is_none_or(|(_, _, k)| key < k) {
                    best = Some((r, c, key));
                }
            }
        }
        let Some((r, c, _)) = best else { break };
        let p = a[r][c];
        for r2 in 0..n {
            if r2 == r || g.is_zero(a[r2][c]) {
                continue;
            }
            let f = g.div(a[r2][c], p);
            for j in 0..n {
                if g.is_zero(a[r][j]) {
                    continue;
                }
                let t = g.mul(f, a[r][j]);
                a[r2][j] = g.sub(a[r2][j], t);
            }
            let t = g.mul(f, b[r]);
            b[r2] = g.sub(b[r2], t);
        }
        row_used[r] = true;
        col_used[c] = true;
        pivots.push((r, c));
    }
    let rows: Vec<usize> = (0..n).filter(|r| !row_used[*r]).collect();
    let cols: Vec<usize> = (0..n).filter(|c| !col_used[*c]).collect();
    let mut x: Vec<Option<Id>> = vec![None; n];
    if !rows.is_empty() {
        let block: Vec<Vec<Id>> = rows
            .iter()
            .map(|r| cols.iter().map(|c| a[*r][*c]).collect())
            .collect();
        let k = rows.len();
        let mut memo = HashMap::new();
        let all = (1u32 << k) - 1;
        let det_b = det(g, &block, all, all, &mut memo);
        if probably_zero(g, det_b) {
            return None;
        }
        // The determinant is shared by every unknown: an atom, computed once.
        let det_b = if g.as_number(det_b).is_some() {
            det_b
        } else {
            g.define_if_large("det", det_b, 4)
        };
        let inv_det = g.powi(det_b, -1);
        for (jj, c) in cols.iter().enumerate() {
            let mut parts = Vec::with_capacity(k);
            for (ii, r) in rows.iter().enumerate() {
                if g.is_zero(b[*r]) {
                    continue;
                }
                // adj[jj][ii] = (-1)^(ii+jj) det(minor without row ii, column jj)
                let minor = det(g, &block, all & !(1 << ii), all & !(1 << jj), &mut memo);
                let cof = if (ii + jj) % 2 == 0 {
                    minor
                } else {
                    g.neg(minor)
                };
                parts.push(g.mul(cof, b[*r]));
            }
            let num = g.add_all(&parts);
            x[*c] = Some(g.mul(num, inv_det));
        }
    }
    for (r, c) in pivots.iter().rev() {
        let mut acc = b[*r];
        for j in &cols {
            if let Some(xj) = x[*j] {
                let t = g.mul(a[*r][*j], xj);
                acc = g.sub(acc, t);
            }
        }
        x[*c] = Some(g.div(acc, a[*r][*c]));
    }
    x.into_iter().collect()
}

/// Determinant of the sub-block on the row and column bit sets (Laplace expansion along
/// the first row, memoized on the sets).
fn det(
    g: &mut Graph,
    a: &[Vec<Id>],
    rows: u32,
    cols: u32,
    memo: &mut HashMap<(u32, u32), Id>,
) -> Id {
    if rows == 0 {
        return g.one();
    }
    if let Some(d) = memo.get(&(rows, cols)) {
        return *d;
    }
    let r0 = rows.trailing_zeros() as usize;
    let mut parts = Vec::new();
    let mut sign_pos = 0;
    for c in 0..a.len() {
        if cols & (1 << c) == 0 {
            continue;
        }
        let entry = a[r0][c];
        if !g.is_zero(entry) {
            let minor = det(g, a, rows & !(1 << r0), cols & !(1 << c), memo);
            let term = g.mul(entry, minor);
            parts.push(if sign_pos % 2 == 0 { term } else { g.neg(term) });
        }
        sign_pos += 1;
    }
    let d = g.add_all(&parts);
    memo.insert((rows, cols), d);
    d
}

/// Whether `e` is zero: structurally, or (for identities the canonical forms miss) to
/// round-off at several pseudo-random points.
pub fn probably_zero(g: &Graph, e: Id) -> bool {
    if g.is_zero(e) {
        return true;
    }
    if g.as_number(e).is_some() {
        return false;
    }
    let n = g.symbol_count();
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut checked = 0;
    for _ in 0..6 {
        let env: Vec<f64> = (0..n)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                0.2 + 1.1 * ((state >> 11) as f64 / (1u64 << 53) as f64)
            })
            .collect();
        let mut memo = HashMap::new();
        let v = g.eval(e, &env, &mut memo);
        let scale = g.eval_scale(e, &env, &mut memo).max(1e-300);
        if !v.is_finite() || !scale.is_finite() {
            continue;
        }
        checked += 1;
        if v.abs() > 1e-10 * scale.max(1.0) {
            return false;
        }
    }
    checked > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sym::Func;

    #[test]
    fn skate_speed_map_inverts_cleanly() {
        // v = cos(th) xd + sin(th) yd, w = thd, 0 = sin(th) xd - cos(th) yd
        let mut g = Graph::new();
        let th = g.new_symbol("theta");
        let v = g.new_symbol("v");
        let w = g.new_symbol("w");
        let th = g.sym(th);
        let (v, w) = (g.sym(v), g.sym(w));
        let c = g.func(Func::Cos, th);
        let s = g.func(Func::Sin, th);
        let ms = g.neg(c);
        let (z, o) = (g.zero(), g.one());
        let m = vec![vec![c, s, z], vec![z, z, o], vec![s, ms, z]];
        let x = solve(&mut g, &m, &[v, w, z]).unwrap();
        assert_eq!(g.display(x[0]), "v*cos(theta)");
        assert_eq!(g.display(x[1]), "v*sin(theta)");
        assert_eq!(g.display(x[2]), "w");
    }

    #[test]
    fn singular_is_detected() {
        let mut g = Graph::new();
        let a = g.new_symbol("a");
        let a = g.sym(a);
        let two_a = g.scale(crate::sym::Number::int(2), a);
        let (one, two) = (g.one(), g.int(2));
        let m = vec![vec![a, one], vec![two_a, two]];
        assert!(solve(&mut g, &m, &[one, one]).is_none());
    }
}
