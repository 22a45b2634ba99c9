//! The exact Hessian of the program's Lagrangian, by hyper-dual numbers.
//!
//! Every constraint and cost term of the program is a function of one point's variables
//! `z_p` (the defects are sums of such terms), so the Hessian of the Lagrangian
//! `sigma J + lambda^T g` is block diagonal, one `nz x nz` block per point:
//!
//! ```text
//! H_p = d2/dz_p2 [ w_p^T f(z_p) + sigma c_p L(z_p) + mu_p^T g(z_p) (+ sigma Phi at the last node) ]
//! ```
//!
//! with `w_p = sum over the defect rows that hold f at p of lambda_row beta h` and `c_p`
//! the quadrature weight. Entry `(a, b)` of each term is one evaluation in
//! `HyperDual64` with `eps1` seeded at `a` and `eps2` at `b`: the `eps1eps2` part is the
//! exact second derivative. Only the pairs in the structure (found once, by the same
//! probes as the Jacobian's, with random weights) are evaluated.

use alloc::vec;
use alloc::vec::Vec;
use core::cell::RefCell;

use num_dual::HyperDual64;

use super::cost::{Cost, PathConstraint};
use super::pattern::Probe;
use super::transcription::Layout;
use crate::{Error, Model};

/// The pairs `(a, b)`, `a >= b`, of one point's variables whose second derivative can be
/// nonzero, and the buffers of an evaluation.
pub(crate) struct HessianPlan {
    pub pairs: Vec<(usize, usize)>,
    work: RefCell<HessianWork>,
}

struct HessianWork {
    z: Vec<HyperDual64>,
    f: Vec<HyperDual64>,
    g: Vec<HyperDual64>,
    /// The weights of `f` at every point.
    w: Vec<f64>,
    error: Option<Error>,
}

/// `z` in hyper-dual numbers with `eps1` at `a` and `eps2` at `b`.
fn seed(zh: &mut [HyperDual64], z: &[f64], a: usize, b: usize) {
    for (i, (d, &v)) in zh.iter_mut().zip(z).enumerate() {
        let e1 = if i == a { 1.0 } else { 0.0 };
        let e2 = if i == b { 1.0 } else { 0.0 };
        *d = HyperDual64::new(v, e1, e2, 0.0);
    }
}

/// What one point contributes, given its weights.
pub(crate) struct Weights<'a> {
    pub f: &'a [f64],
    pub running: f64,
    pub path: &'a [f64],
    pub terminal: f64,
}

/// One point's second derivative `(a, b)` of the weighted sum of its terms.
#[allow(clippy::too_many_arguments)]
fn second<M: Model, C: Cost, P: PathConstraint>(
    model: &M,
    cost: &C,
    path: &P,
    (t, z, dim): (f64, &[f64], usize),
    (a, b): (usize, usize),
    wt: &Weights<'_>,
    work: &mut HessianWork,
) -> Result<f64, Error> {
    let HessianWork { z: zh, f, g, .. } = work;
    seed(zh, z, a, b);
    let th = HyperDual64::from(t);
    let (xh, uh) = zh.split_at(dim);
    let mut total = 0.0;
    if wt.f.iter().any(|w| *w != 0.0) {
        model.rhs_u_scalar(th, xh, uh, f)?;
        total +=
            wt.f.iter()
                .zip(f.iter())
                .map(|(w, v)| w * v.eps1eps2)
                .sum::<f64>();
    }
    if wt.running != 0.0 {
        total += wt.running * cost.running(th, xh, uh).eps1eps2;
    }
    if wt.path.iter().any(|w| *w != 0.0) {
        path.values(th, xh, uh, g);
        total += wt
            .path
            .iter()
            .zip(g.iter())
            .map(|(w, v)| w * v.eps1eps2)
            .sum::<f64>();
    }
    if wt.terminal != 0.0 && a < dim && b < dim {
        total += wt.terminal * cost.terminal(th, xh).eps1eps2;
    }
    Ok(total)
}

impl HessianPlan {
    /// The structure of a point's block: every pair whose entry is nonzero at one of a few
    /// probe points with random weights. `None` when the model has no equations in
    /// another scalar ([`Model::rhs_u_scalar`]).
    #[allow(clippy::too_many_arguments)]
    pub fn probe<M: Model, C: Cost, P: PathConstraint>(
        model: &M,
        cost: &C,
        path: &P,
        l: &Layout,
        start: &[f64],
        (has_running, has_terminal): (bool, bool),
        effort: &[f64],
    ) -> Option<Self> {
        let (dim, nz) = (l.dim, l.nz());
        let mut work = HessianWork {
            z: vec![HyperDual64::from(0.0); nz],
            f: vec![HyperDual64::from(0.0); dim],
            g: vec![HyperDual64::from(0.0); l.np],
            w: vec![0.0; l.points() * dim],
            error: None,
        };
        let mut probe = Probe::new();
        let mut z = vec![0.0; nz];
        let mut set = vec![false; nz * nz];
        let mut good = 0;
        for n in 0..12 {
            if good >= 3 {
                break;
            }
            let p = (n * 5) % l.points();
            for (zi, &s) in z.iter_mut().zip(&start[p * nz..(p + 1) * nz]) {
                *zi = s + 0.5 * (1.0 + s.abs()) * probe.next();
            }
            let wf: Vec<f64> = (0..dim).map(|_| probe.next() + 2.0).collect();
            let wp: Vec<f64> = (0..l.np).map(|_| probe.next() + 2.0).collect();
            let wt = Weights {
                f: &wf,
                running: if has_running { 1.0 } else { 0.0 },
                path: &wp,
                terminal: if has_terminal { 1.0 } else { 0.0 },
            };
            let mut failed = false;
            for a in 0..nz {
                for b in 0..=a {
                    match second(
                        model,
                        cost,
                        path,
                        (l.time(p), &z, dim),
                        (a, b),
                        &wt,
                        &mut work,
                    ) {
                        Ok(v) => set[a * nz + b] |= v != 0.0,
                        Err(Error::NotAvailable { .. }) => return None,
                        Err(_) => failed = true,
                    }
                }
            }
            if !failed {
                good += 1;
            }
        }
        if good == 0 {
            return None;
        }
        for (j, e) in effort.iter().enumerate() {
            if *e != 0.0 {
                set[(dim + j) * nz + dim + j] = true;
            }
        }
        let pairs = (0..nz)
            .flat_map(|a| (0..=a).map(move |b| (a, b)))
            .filter(|&(a, b)| set[a * nz + b])
            .collect();
        Some(HessianPlan {
            pairs,
            work: RefCell::new(work),
        })
    }

    /// The structure, lower triangle, point by point.
    pub fn structure(&self, l: &Layout) -> (Vec<usize>, Vec<usize>) {
        let nz = l.nz();
        let mut rows = Vec::with_capacity(l.points() * self.pairs.len());
        let mut cols = Vec::with_capacity(l.points() * self.pairs.len());
        for p in 0..l.points() {
            for &(a, b) in &self.pairs {
                rows.push(p * nz + a);
                cols.push(p * nz + b);
            }
        }
        (rows, cols)
    }

    /// The values at `x` with the objective's factor `sigma` and the constraints'
    /// multipliers `lambda`, in the order of [`HessianPlan::structure`].
    #[allow(clippy::too_many_arguments)]
    pub fn values<M: Model, C: Cost, P: PathConstraint>(
        &self,
        model: &M,
        cost: &C,
        path: &P,
        l: &Layout,
        (has_running, has_terminal): (bool, bool),
        effort: &[f64],
        x: &[f64],
        sigma: f64,
        lambda: &[f64],
        vals: &mut [f64],
    ) -> bool {
        let (dim, nz) = (l.dim, l.nz());
        let mut guard = self.work.borrow_mut();
        let work = &mut *guard;
        // the weights of f at every point from the defect rows' multipliers
        let mut w = core::mem::take(&mut work.w);
        w.fill(0.0);
        let blocks = l.scheme.defect_blocks();
        let mut row = 0;
        for k in 0..l.intervals() {
            let pts = l.interval_points(k);
            for blk in blocks {
                for &(which, _, beta) in blk.iter() {
                    if beta == 0.0 {
                        continue;
                    }
                    let p = pts[which];
                    for i in 0..dim {
                        w[p * dim + i] += lambda[row + i] * beta * l.h;
                    }
                }
                row += dim;
            }
        }
        let path_at = |k: usize| {
            let start = l.defect_rows() + k * (l.ncc + l.np) + l.ncc;
            &lambda[start..start + l.np]
        };
        let none: &[f64] = &[];
        let mut n = 0;
        let mut ok = true;
        for p in 0..l.points() {
            let z = &x[p * nz..(p + 1) * nz];
            let c = sigma * l.weight(p);
            let wt = Weights {
                f: &w[p * dim..(p + 1) * dim],
                running: if has_running { c } else { 0.0 },
                path: if p < l.nodes && l.np > 0 {
                    path_at(p)
                } else {
                    none
                },
                terminal: if has_terminal && p + 1 == l.nodes {
                    sigma
                } else {
                    0.0
                },
            };
            for &(a, b) in &self.pairs {
                let mut v = match second(model, cost, path, (l.time(p), z, dim), (a, b), &wt, work)
                {
                    Ok(v) => v,
                    Err(e) => {
                        work.error.get_or_insert(e);
                        ok = false;
                        0.0
                    }
                };
                // the input effort's sum w_j u_j^2, in closed form
                if a == b
                    && a >= dim
                    && let Some(e) = effort.get(a - dim)
                {
                    v += c * 2.0 * e;
                }
                vals[n] = v;
                n += 1;
            }
        }
        work.w = w;
        ok && vals.iter().all(|v| v.is_finite())
    }

    /// The first model error met.
    pub fn take_error(&self) -> Option<Error> {
        self.work.borrow_mut().error.take()
    }
}
