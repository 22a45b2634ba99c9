//! Exact solution of symbolic linear systems `M x = b`.
//!
//! The matrix is first permuted to block-triangular form (a maximum transversal, then the
//! strongly connected components of the dependency graph, Tarjan; Duff & Reid 1978): the
//! unknowns of a block depend only on those of the blocks before it, and `det M` is the
//! product of the diagonal blocks' determinants. The blocks are solved in order, each
//! solved unknown named as an atom (`Graph::define`) when large, so a chain of blocks
//! (trailers, wheels on a frame) costs a sum, not a product, and never an adjugate of the
//! whole matrix.
//!
//! Inside a block, pivots are taken first among nonzero *numeric* entries (Markowitz
//! order), since dividing by them is safe everywhere; the part left when no numeric pivot
//! remains is solved by its adjugate over its determinant, valid wherever the block is
//! invertible (a symbolic pivot such as `cos(theta)` would fail at `theta = pi/2`).
//! Because the blocks' determinants multiply to `det M`, the whole solution is valid
//! wherever `M` is invertible.

use super::graph::{Graph, Id};
use super::HashMap;

/// Solved unknowns larger than this (tree size) become atoms.
const INLINE: u32 = 24;

/// Solve `m x = b`; `None` when `m` is (structurally, or numerically at random points)
/// singular. Unknowns that become atoms are named `x[k]`.
pub fn solve(g: &mut Graph, m: &[Vec<Id>], b: &[Id]) -> Option<Vec<Id>> {
    let names: Vec<String> = (0..b.len()).map(|k| format!("x[{k}]")).collect();
    solve_named(g, m, b, &names)
}

/// [`solve`] with a name per unknown for the atoms it defines.
pub fn solve_named(g: &mut Graph, m: &[Vec<Id>], b: &[Id], names: &[String]) -> Option<Vec<Id>> {
    let n = m.len();
    let nonzero: Vec<Vec<bool>> = m
        .iter()
        .map(|row| row.iter().map(|e| !g.is_zero(*e)).collect())
        .collect();
    let row_of = transversal(&nonzero)?;
    let mut x: Vec<Option<Id>> = vec![None; n];
    for block in diagonal_blocks(&nonzero, &row_of) {
        let rows: Vec<usize> = block.iter().map(|c| row_of[*c]).collect();
        // Large entries become atoms: the block's elimination and determinant then
        // multiply atoms instead of expanding products of long sums.
        let a: Vec<Vec<Id>> = rows
            .iter()
            .map(|r| {
                block
                    .iter()
                    .map(|c| g.define_if_large("m", m[*r][*c], INLINE))
                    .collect()
            })
            .collect();
        let rhs: Vec<Id> = rows
            .iter()
            .map(|r| {
                let mut parts = vec![b[*r]];
                for (j, xj) in x.iter().enumerate() {
                    if let (Some(xj), true) = (xj, nonzero[*r][j]) {
                        let t = g.mul(m[*r][j], *xj);
                        parts.push(g.neg(t));
                    }
                }
                let e = g.add_all(&parts);
                g.define_if_large("b", e, INLINE)
            })
            .collect();
        let block_names: Vec<&str> = block.iter().map(|c| names[*c].as_str()).collect();
        let xb = solve_block(g, &a, &rhs, &block_names)?;
        for (c, e) in block.iter().zip(xb) {
            x[*c] = Some(g.define_if_large(&names[*c], e, INLINE));
        }
    }
    x.into_iter().collect()
}

/// A row for every column with a structural nonzero there (a perfect matching of the
/// bipartite row/column graph, by augmenting paths); `None` when there is none, i.e. the
/// matrix is structurally singular. Returns `row_of[column]`.
fn transversal(nonzero: &[Vec<bool>]) -> Option<Vec<usize>> {
    let n = nonzero.len();
    let mut row_of: Vec<Option<usize>> = vec![None; n];
    for r in 0..n {
        let mut seen = vec![false; n];
        // iterative augmenting path: stack of (row, next column to try)
        let mut stack: Vec<(usize, usize)> = vec![(r, 0)];
        let mut path: Vec<usize> = Vec::new(); // columns taken along the stack
        let mut done = false;
        while let Some((row, start)) = stack.pop() {
            let next = (start..n).find(|c| nonzero[row][*c] && !seen[*c]);
            let Some(c) = next else {
                path.pop();
                continue;
            };
            seen[c] = true;
            stack.push((row, c + 1));
            path.push(c);
            match row_of[c] {
                None => {
                    // augment: the stack's rows take the path's columns
                    for ((row, _), col) in stack.iter().zip(&path) {
                        row_of[*col] = Some(*row);
                    }
                    done = true;
                    break;
                }
                Some(r2) => stack.push((r2, 0)),
            }
        }
        if !done {
            return None;
        }
    }
    row_of.into_iter().collect()
}

/// The columns grouped into the diagonal blocks of the block-triangular form, in solving
/// order: the strongly connected components (Tarjan, iterative) of the graph with an edge
/// `c -> j` when the row matched to `c` also involves `j`, emitted dependencies first.
fn diagonal_blocks(nonzero: &[Vec<bool>], row_of: &[usize]) -> Vec<Vec<usize>> {
    let n = nonzero.len();
    let succ: Vec<Vec<usize>> = (0..n)
        .map(|c| {
            (0..n)
                .filter(|j| *j != c && nonzero[row_of[c]][*j])
                .collect()
        })
        .collect();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut blocks = Vec::new();
    let mut counter = 0;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some((v, i)) = work.pop() {
            if let Some(&w) = succ[v].get(i) {
                work.push((v, i + 1));
                if index[w] == usize::MAX {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            if low[v] == index[v] {
                let mut block = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    block.push(w);
                    if w == v {
                        break;
                    }
                }
                block.sort_unstable();
                blocks.push(block);
            }
            if let Some((parent, _)) = work.last() {
                low[*parent] = low[*parent].min(low[v]);
            }
        }
    }
    blocks
}

/// One diagonal block: numeric pivots first, the rest by adjugate over determinant. The
/// unknowns of the adjugate part are named atoms (when large) before the pivots' unknowns
/// are substituted back, so those stay products (`dot(x) = r cos(phi) psi[phi1]` for a
/// rolling wheel, not the expanded quotient), which keeps sums that vanish along the
/// constraints visible to cancellation.
fn solve_block(g: &mut Graph, m: &[Vec<Id>], b: &[Id], names: &[&str]) -> Option<Vec<Id>> {
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
        let mut memo = HashMap::default();
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
            let xc = g.mul(num, inv_det);
            x[*c] = Some(if pivots.is_empty() {
                xc
            } else {
                g.define_if_large(names[*c], xc, INLINE)
            });
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

/// Pseudo-random points, values in [0.2, 1.3) for every symbol (a deterministic LCG).
pub struct RandomPoints(u64);

impl RandomPoints {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next point: one value per symbol of `g`.
    pub fn next_point(&mut self, g: &Graph) -> Vec<f64> {
        (0..g.symbol_count())
            .map(|_| {
                self.0 = self
                    .0
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                0.2 + 1.1 * ((self.0 >> 11) as f64 / (1u64 << 53) as f64)
            })
            .collect()
    }
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
    small_at_random_points(g, e, |scale| 1e-10 * scale.max(1.0))
}

/// `|e| <= tol` (absolute): as a number, or at the random points [`probably_zero`]
/// probes, at least one of them finite; never for `tol <= 0` (a URDF wheel's height:
/// rounded offsets and angles leave ~1e-10).
pub fn within(g: &Graph, e: Id, tol: f64) -> bool {
    if tol <= 0.0 {
        return false;
    }
    match g.as_number(e) {
        Some(v) => v.to_f64().abs() <= tol,
        None => small_at_random_points(g, e, |_| tol),
    }
}

/// `|e| <= bound(scale)` at six pseudo-random points (`scale` the size of `e`'s terms
/// there), the points where either is not finite skipped, at least one of them kept.
fn small_at_random_points(g: &Graph, e: Id, bound: impl Fn(f64) -> f64) -> bool {
    let mut points = RandomPoints::new(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    for _ in 0..6 {
        let env = points.next_point(g);
        let mut memo = HashMap::default();
        let v = g.eval(e, &env, &mut memo);
        let scale = g.eval_scale(e, &env, &mut memo).max(1e-300);
        if !v.is_finite() || !scale.is_finite() {
            continue;
        }
        checked += 1;
        if v.abs() > bound(scale) {
            return false;
        }
    }
    checked > 0
}

/// `a x = b` by Gaussian elimination with partial pivoting, in floating point (numeric
/// probes of the derivation and tests, never the emitted code); `None` when a pivot
/// vanishes or is not finite.
pub fn solve_dense(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let k = b.len();
    for c in 0..k {
        let p = (c..k).max_by(|x, y| a[*x][c].abs().total_cmp(&a[*y][c].abs()))?;
        if a[p][c].abs() < 1e-300 || !a[p][c].is_finite() {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..k {
            let f = a[r][c] / a[c][c];
            for j in c..k {
                a[r][j] -= f * a[c][j];
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = vec![0.0; k];
    for c in (0..k).rev() {
        let s: f64 = (c + 1..k).map(|j| a[c][j] * x[j]).sum();
        x[c] = (b[c] - s) / a[c][c];
    }
    Some(x)
}

/// Columns of `alpha` (rows of numbers) taken in `order` whenever they raise its rank
/// (modified Gram–Schmidt), until there are as many as rows; the first `required` of the
/// order must each raise it. Sorted; `None` when a required column does not or the rank
/// falls short. Columns with a non-finite entry are skipped.
pub fn rank_columns(
    alpha: &[Vec<f64>],
    order: impl IntoIterator<Item = usize>,
    required: usize,
) -> Option<Vec<usize>> {
    let nc = alpha.len();
    let scale = alpha
        .iter()
        .flatten()
        .fold(0.0f64, |m, x| m.max(x.abs()))
        .max(f64::MIN_POSITIVE);
    let mut basis: Vec<Vec<f64>> = Vec::new();
    let mut chosen = Vec::new();
    for (k, j) in order.into_iter().enumerate() {
        if chosen.len() == nc {
            break;
        }
        let mut v: Vec<f64> = (0..nc).map(|r| alpha[r][j]).collect();
        let finite = v.iter().all(|x| x.is_finite());
        if finite {
            for b in &basis {
                let d: f64 = v.iter().zip(b).map(|(x, y)| x * y).sum();
                for (x, y) in v.iter_mut().zip(b) {
                    *x -= d * y;
                }
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if finite && norm > 1e-9 * scale {
            basis.push(v.iter().map(|x| x / norm).collect());
            chosen.push(j);
        } else if k < required {
            return None;
        }
    }
    (chosen.len() == nc).then(|| {
        chosen.sort_unstable();
        chosen
    })
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
