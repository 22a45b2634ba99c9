//! The nonlinear program of a [`Problem`](super::Problem): its variables, constraints and
//! their exact sparse first derivatives (the Hessian is `hessian.rs`'s, the solver's
//! interface `nlp.rs`'s).
//!
//! # Layout
//!
//! Variables are points' blocks `z_p = [x_p, u_p]` (`nz = DIM + NU` numbers each): the
//! nodes `p = 0 .. N` first, then (Hermite–Simpson) the midpoints `p = N + k` of each
//! interval `k`. Constraint rows: the defects of every interval (`DIM` rows per block
//! of [`Scheme::defect_blocks`]), then the configuration constraints at every point that
//! has them, then the path constraints at every point.
//!
//! # Derivatives
//!
//! A defect block is `alpha [I 0] + beta h J_p` with `J_p = [df/dx df/du]` the model's
//! exact [`Model::jacobians`] at the point: its structure is the identity (where `alpha`
//! is not zero) and the structural pattern of `J` (where `beta` is not zero): the
//! model's [`Model::JACOBIAN_PATTERN`], or found by probes when the program is built. The configuration constraints' rows come from
//! [`Model::configuration_jacobian`], the cost's and path constraints' from forward-mode
//! dual numbers. Nothing is allocated per evaluation.

use alloc::vec;
use alloc::vec::Vec;
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::cost::{Cost, PathConstraint};
use super::layout::Layout;
use super::pattern::Pattern;
use crate::__private::Dual;
use crate::{Error, Model};

/// Buffers of the evaluations, reused by every call.
struct Work {
    /// `f` at every point, `DIM` each.
    f: Vec<f64>,
    /// `J = [df/dx df/du]` at every point, row-major `DIM x nz` each.
    jac: Vec<f64>,
    /// `df/dt` at every point (free final time only).
    ft: Vec<f64>,
    /// The model's rates in dual numbers.
    fd: Vec<Dual>,
    a: Vec<f64>,
    b: Vec<f64>,
    /// The configuration constraints' Jacobian at one node.
    cjac: Vec<f64>,
    /// A point's variables in dual numbers, the path constraints' and the configuration
    /// constraints' values.
    zd: Vec<Dual>,
    gd: Vec<Dual>,
    cd: Vec<Dual>,
    /// The variables the cached `f` and `jac` belong to (`None`: none yet).
    f_at: Option<Vec<f64>>,
    jac_at: Option<Vec<f64>>,
    /// The first model error met, reported if the solve fails.
    error: Option<Error>,
    /// The largest entry of a Jacobian outside its pattern (zero unless a probe missed
    /// an entry).
    outside: f64,
}

/// The program: the model, the problem's functions and the structures, with the
/// evaluations' buffers.
pub(crate) struct Program<'p, M: Model, C: Cost, P: PathConstraint> {
    pub model: &'p M,
    pub cost: &'p C,
    pub path: &'p P,
    pub layout: Layout,
    /// `sum w_j u_j^2` weights of the input effort (empty: none).
    pub effort: &'p [f64],
    /// The weight of the duration in the objective (free final time; 0: none).
    pub time_weight: f64,
    /// Whether the running cost is not identically zero (`NoCost` is skipped).
    pub has_running: bool,
    pub has_terminal: bool,
    pub jac_pattern: Pattern,
    pub conf_pattern: Pattern,
    pub x_lower: Vec<f64>,
    pub x_upper: Vec<f64>,
    pub g_lower: Vec<f64>,
    pub g_upper: Vec<f64>,
    pub start: Vec<f64>,
    /// Behind a lock, not a `RefCell`, so that the program is `Sync` and the Hessian's
    /// points can be evaluated on several threads (uncontended: one evaluation at a time).
    work: Mutex<Work>,
}

impl<'p, M: Model, C: Cost, P: PathConstraint> Program<'p, M, C, P> {
    /// The evaluations' buffers (a panic in a user's cost left them whole: they are
    /// overwritten before being read).
    fn work(&self) -> MutexGuard<'_, Work> {
        self.work.lock().unwrap_or_else(PoisonError::into_inner)
    }

    #[allow(clippy::too_many_arguments)]
    pub fn new(
        model: &'p M,
        cost: &'p C,
        path: &'p P,
        layout: Layout,
        effort: &'p [f64],
        (has_running, has_terminal): (bool, bool),
        (jac_pattern, conf_pattern): (Pattern, Pattern),
        (x_lower, x_upper): (Vec<f64>, Vec<f64>),
        (g_lower, g_upper): (Vec<f64>, Vec<f64>),
        start: Vec<f64>,
    ) -> Self {
        let (dim, nz, points) = (layout.dim, layout.nz(), layout.points());
        let work = Work {
            f: vec![0.0; points * dim],
            jac: vec![0.0; points * dim * nz],
            ft: vec![0.0; if layout.free { points * dim } else { 0 }],
            fd: vec![Dual::default(); dim],
            a: vec![0.0; dim * dim],
            b: vec![0.0; dim * layout.nu],
            cjac: vec![0.0; layout.ncc * layout.nq],
            zd: vec![Dual::default(); nz],
            gd: vec![Dual::default(); layout.np],
            cd: vec![Dual::default(); layout.ncc],
            f_at: None,
            jac_at: None,
            error: None,
            outside: 0.0,
        };
        Program {
            model,
            cost,
            path,
            layout,
            effort,
            time_weight: 0.0,
            has_running,
            has_terminal,
            jac_pattern,
            conf_pattern,
            x_lower,
            x_upper,
            g_lower,
            g_upper,
            start,
            work: Mutex::new(work),
        }
    }

    /// The first model error met while solving.
    pub fn take_error(&self) -> Option<Error> {
        self.work().error.take()
    }

    /// The largest Jacobian entry seen outside the structural pattern.
    pub fn outside_pattern(&self) -> f64 {
        self.work().outside
    }

    fn block<'a>(&self, x: &'a [f64], p: usize) -> (&'a [f64], &'a [f64]) {
        let nz = self.layout.nz();
        let z = &x[p * nz..(p + 1) * nz];
        z.split_at(self.layout.dim)
    }

    /// `f` at every point into the work's buffer (unless cached for `x`).
    fn dynamics(&self, x: &[f64], w: &mut Work) -> bool {
        if w.f_at.as_deref() == Some(x) {
            return true;
        }
        let (l, dim) = (&self.layout, self.layout.dim);
        let span = l.span(x);
        for p in 0..l.points() {
            let (xs, us) = self.block(x, p);
            let t = l.time(p, span);
            if let Err(e) = self
                .model
                .rhs_u(t, xs, us, &mut w.f[p * dim..(p + 1) * dim])
            {
                w.error.get_or_insert(e);
                return false;
            }
        }
        cache(&mut w.f_at, x);
        true
    }

    /// `J` at every point into the work's buffer, and with a free final time `df/dt`
    /// (unless cached for `x`).
    fn jacobians(&self, x: &[f64], w: &mut Work) -> bool {
        if w.jac_at.as_deref() == Some(x) {
            return true;
        }
        let l = &self.layout;
        let (dim, nu, nz) = (l.dim, l.nu, l.nz());
        let span = l.span(x);
        for p in 0..l.points() {
            let (xs, us) = self.block(x, p);
            let t = l.time(p, span);
            let Work { a, b, jac, .. } = w;
            if let Err(e) = self.model.jacobians(t, xs, us, a, b) {
                w.error.get_or_insert(e);
                return false;
            }
            let j = &mut jac[p * dim * nz..(p + 1) * dim * nz];
            for i in 0..dim {
                j[i * nz..i * nz + dim].copy_from_slice(&a[i * dim..(i + 1) * dim]);
                j[i * nz + dim..(i + 1) * nz].copy_from_slice(&b[i * nu..(i + 1) * nu]);
            }
            let outside = self.jac_pattern.largest_outside(j);
            w.outside = w.outside.max(outside);
            if l.free {
                // df/dt: the model's equations in dual numbers, the time seeded
                for (d, &v) in w.zd.iter_mut().zip(&x[p * nz..(p + 1) * nz]) {
                    *d = Dual::new(v, 0.0);
                }
                let (xd, ud) = w.zd.split_at(dim);
                if let Err(e) = self
                    .model
                    .rhs_u_scalar(Dual::new(t, 1.0), xd, ud, &mut w.fd)
                {
                    w.error.get_or_insert(e);
                    return false;
                }
                for (o, d) in w.ft[p * dim..(p + 1) * dim].iter_mut().zip(&w.fd) {
                    *o = d.eps;
                }
            }
        }
        cache(&mut w.jac_at, x);
        true
    }

    /// The running cost at point `p` in any scalar: the input effort plus the cost's `L`.
    pub fn running<S: crate::Scalar>(&self, t: S, xs: &[S], us: &[S]) -> S {
        let mut r = t * S::from_f64(0.0);
        for (w, &u) in self.effort.iter().zip(us) {
            r += u * u * S::from_f64(*w);
        }
        if self.has_running {
            r += self.cost.running(t, xs, us);
        }
        r
    }

    /// The objective at `x`.
    pub fn objective(&self, x: &[f64]) -> f64 {
        let l = &self.layout;
        let span = l.span(x);
        let mut total = 0.0;
        for p in 0..l.points() {
            let wgt = l.weight(p, span);
            if wgt == 0.0 {
                continue;
            }
            let (xs, us) = self.block(x, p);
            total += wgt * self.running(l.time(p, span), xs, us);
        }
        if self.has_terminal {
            let last = l.nodes - 1;
            total += self
                .cost
                .terminal(l.time(last, span), self.block(x, last).0);
        }
        total + self.time_weight * span
    }

    /// The objective's gradient at `x` into `grad`.
    pub fn gradient(&self, x: &[f64], grad: &mut [f64]) {
        let l = &self.layout;
        let (dim, nz) = (l.dim, l.nz());
        let span = l.span(x);
        grad.fill(0.0);
        let mut w = self.work();
        let mut d_span = self.time_weight;
        for p in 0..l.points() {
            let wgt = l.weight(p, span);
            if wgt == 0.0 {
                continue;
            }
            let t = l.time(p, span);
            let z = &x[p * nz..(p + 1) * nz];
            let g = &mut grad[p * nz..(p + 1) * nz];
            for (j, gj) in g.iter_mut().enumerate() {
                seed(&mut w.zd, z, j);
                let (xd, ud) = w.zd.split_at(dim);
                *gj += wgt * self.running(Dual::new(t, 0.0), xd, ud).eps;
            }
            if l.free {
                // d/dT of units h(T) L(t0 + tau T, z)
                seed(&mut w.zd, z, usize::MAX);
                let (xd, ud) = w.zd.split_at(dim);
                let r = self.running(Dual::new(t, 1.0), xd, ud);
                d_span += l.units(p) * (r.re / l.intervals() as f64 + l.h(span) * l.tau(p) * r.eps);
            }
        }
        if self.has_terminal {
            let last = l.nodes - 1;
            let z = &x[last * nz..(last + 1) * nz];
            let t = l.time(last, span);
            for j in 0..dim {
                seed(&mut w.zd, z, j);
                grad[last * nz + j] += self.cost.terminal(Dual::new(t, 0.0), &w.zd[..dim]).eps;
            }
            if l.free {
                seed(&mut w.zd, z, usize::MAX);
                d_span += self.cost.terminal(Dual::new(t, 1.0), &w.zd[..dim]).eps;
            }
        }
        if l.free {
            grad[l.t_index()] = d_span;
        }
    }

    /// The constraints at `x` into `g`.
    pub fn constraints(&self, x: &[f64], g: &mut [f64]) -> bool {
        let l = &self.layout;
        let (dim, nz) = (l.dim, l.nz());
        let span = l.span(x);
        let h = l.h(span);
        let mut guard = self.work();
        let w = &mut *guard;
        if !self.dynamics(x, w) {
            return false;
        }
        let blocks = l.scheme.defect_blocks();
        let nd = l.integrated.len();
        let mut row = 0;
        for k in 0..l.intervals() {
            let pts = l.interval_points(k);
            for blk in blocks {
                let out = &mut g[row..row + nd];
                out.fill(0.0);
                for &(which, alpha, beta) in blk.iter() {
                    let p = pts[which];
                    let xs = &x[p * nz..p * nz + dim];
                    let f = &w.f[p * dim..(p + 1) * dim];
                    for (o, &i) in out.iter_mut().zip(&l.integrated) {
                        *o += alpha * xs[i] + beta * h * f[i];
                    }
                }
                row += nd;
            }
        }
        for p in 0..l.points() {
            if let Some(r) = l.conf_row(p) {
                let xs = self.block(x, p).0;
                let out = &mut g[r..r + l.ncc];
                if let Err(e) = self
                    .model
                    .configuration_residual(l.time(p, span), &xs[..l.nq], out)
                {
                    w.error.get_or_insert(e);
                    return false;
                }
            }
        }
        if l.np > 0 {
            for k in 0..l.path_points() {
                let (xs, us) = self.block(x, k);
                let r = l.path_row(k);
                self.path
                    .values(l.time(k, span), xs, us, &mut g[r..r + l.np]);
            }
        }
        g.iter().all(|v| v.is_finite())
    }

    /// The Jacobian's structure, `(rows, cols)`, in the order [`Program::jacobian_values`]
    /// fills it.
    pub fn jacobian_structure(&self) -> (Vec<usize>, Vec<usize>) {
        let mut rows = Vec::new();
        let mut cols = Vec::new();
        self.walk(|r, c| {
            rows.push(r);
            cols.push(c);
        });
        (rows, cols)
    }

    /// The Jacobian's values at `x` into `vals`.
    pub fn jacobian_values(&self, x: &[f64], vals: &mut [f64]) -> bool {
        let l = &self.layout;
        let (dim, nz) = (l.dim, l.nz());
        let span = l.span(x);
        let h = l.h(span);
        let mut guard = self.work();
        let w = &mut *guard;
        if !self.jacobians(x, w) || (l.free && !self.dynamics(x, w)) {
            return false;
        }
        // The entries in the order of `walk`: defects (each row's duration entry last),
        // then per point the configuration constraints' rows and the path constraints'
        // (dense, row-major, each row's duration entry last).
        let mut n = 0;
        let blocks = l.scheme.defect_blocks();
        for k in 0..l.intervals() {
            let pts = l.interval_points(k);
            for blk in blocks {
                for &i in &l.integrated {
                    let mut d_span = 0.0;
                    for &(which, alpha, beta) in blk.iter() {
                        let p = pts[which];
                        let jrow = &w.jac[p * dim * nz + i * nz..p * dim * nz + (i + 1) * nz];
                        for j in self.defect_columns(i, alpha, beta) {
                            let id = if j == i { alpha } else { 0.0 };
                            vals[n] = id + beta * h * jrow[j];
                            n += 1;
                        }
                        if l.free && beta != 0.0 {
                            // d/dT of beta h(T) f_i(t0 + tau T, z)
                            let (f, ft) = (w.f[p * dim + i], w.ft[p * dim + i]);
                            d_span += beta * (f / l.intervals() as f64 + h * l.tau(p) * ft);
                        }
                    }
                    if l.free {
                        vals[n] = d_span;
                        n += 1;
                    }
                }
            }
        }
        let per_row = nz + usize::from(l.free);
        for p in 0..l.points() {
            if l.conf_row(p).is_none() {
                continue;
            }
            let xs = self.block(x, p).0;
            let t = l.time(p, span);
            if let Err(e) = self
                .model
                .configuration_jacobian(t, &xs[..l.nq], &mut w.cjac)
            {
                w.error.get_or_insert(e);
                return false;
            }
            if l.free {
                // d/dT of c(t0 + tau T, q): the time seeded
                for (d, &v) in w.zd.iter_mut().zip(&x[p * nz..(p + 1) * nz]) {
                    *d = Dual::new(v, 0.0);
                }
                let td = Dual::new(t, l.tau(p));
                if let Err(e) =
                    self.model
                        .configuration_residual_scalar(td, &w.zd[..l.nq], &mut w.cd)
                {
                    w.error.get_or_insert(e);
                    return false;
                }
            }
            for c in 0..l.ncc {
                for j in self.conf_pattern.row(c) {
                    vals[n] = w.cjac[c * l.nq + j];
                    n += 1;
                }
                if l.free {
                    vals[n] = w.cd[c].eps;
                    n += 1;
                }
            }
        }
        if l.np > 0 {
            for k in 0..l.path_points() {
                let t = l.time(k, span);
                let z = &x[k * nz..(k + 1) * nz];
                let td = Dual::new(t, 0.0);
                // column j of the node's block: one dual pass; entries are row-major
                for j in 0..nz {
                    seed(&mut w.zd, z, j);
                    let (xd, ud) = w.zd.split_at(dim);
                    self.path.values(td, xd, ud, &mut w.gd);
                    for (r, v) in w.gd.iter().enumerate() {
                        vals[n + r * per_row + j] = v.eps;
                    }
                }
                if l.free {
                    seed(&mut w.zd, z, usize::MAX);
                    let (xd, ud) = w.zd.split_at(dim);
                    self.path.values(Dual::new(t, l.tau(k)), xd, ud, &mut w.gd);
                    for (r, v) in w.gd.iter().enumerate() {
                        vals[n + r * per_row + nz] = v.eps;
                    }
                }
                n += l.np * per_row;
            }
        }
        vals[..n].iter().all(|v| v.is_finite())
    }

    /// The columns of row `i` of a defect block with identity weight `alpha` and Jacobian
    /// weight `beta`, within the point's block.
    fn defect_columns(&self, i: usize, alpha: f64, beta: f64) -> impl Iterator<Item = usize> + '_ {
        let nz = self.layout.nz();
        (0..nz).filter(move |&j| {
            (alpha != 0.0 && j == i) || (beta != 0.0 && self.jac_pattern.get(i, j))
        })
    }

    /// Every structural entry `(row, col)`, in the order of the values.
    fn walk(&self, mut visit: impl FnMut(usize, usize)) {
        let l = &self.layout;
        let nz = l.nz();
        let blocks = l.scheme.defect_blocks();
        let mut row = 0;
        for k in 0..l.intervals() {
            let pts = l.interval_points(k);
            for blk in blocks {
                for &i in &l.integrated {
                    for &(which, alpha, beta) in blk.iter() {
                        let p = pts[which];
                        for j in self.defect_columns(i, alpha, beta) {
                            visit(row, p * nz + j);
                        }
                    }
                    if l.free {
                        visit(row, l.t_index());
                    }
                    row += 1;
                }
            }
        }
        for p in 0..l.points() {
            let Some(r) = l.conf_row(p) else { continue };
            for c in 0..l.ncc {
                for j in self.conf_pattern.row(c) {
                    visit(r + c, p * nz + j);
                }
                if l.free {
                    visit(r + c, l.t_index());
                }
            }
        }
        for k in 0..l.path_points() {
            let r = l.path_row(k);
            for i in 0..l.np {
                for j in 0..nz {
                    visit(r + i, k * nz + j);
                }
                if l.free {
                    visit(r + i, l.t_index());
                }
            }
        }
    }

    /// The largest violation of the constraints and bounds at `x`.
    pub fn violation(&self, x: &[f64]) -> f64 {
        let mut g = vec![0.0; self.layout.constraints()];
        if !self.constraints(x, &mut g) {
            return f64::INFINITY;
        }
        let outside = |v: f64, lo: f64, hi: f64| (lo - v).max(v - hi).max(0.0);
        let gv = g
            .iter()
            .zip(self.g_lower.iter().zip(&self.g_upper))
            .map(|(&v, (&lo, &hi))| outside(v, lo, hi));
        let xv = x
            .iter()
            .zip(self.x_lower.iter().zip(&self.x_upper))
            .map(|(&v, (&lo, &hi))| outside(v, lo, hi));
        gv.chain(xv).fold(0.0, f64::max)
    }
}

/// `w.zd = z` in dual numbers with the derivative part 1 at `j`.
fn seed(zd: &mut [Dual], z: &[f64], j: usize) {
    for (i, (d, &v)) in zd.iter_mut().zip(z).enumerate() {
        *d = Dual::new(v, if i == j { 1.0 } else { 0.0 });
    }
}

/// Remembers `x` in `at` without allocating after the first time.
fn cache(at: &mut Option<Vec<f64>>, x: &[f64]) {
    match at {
        Some(v) if v.len() == x.len() => v.copy_from_slice(x),
        _ => *at = Some(x.to_vec()),
    }
}
