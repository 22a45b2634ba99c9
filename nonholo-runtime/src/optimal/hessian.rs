//! The exact Hessian of the program's Lagrangian, by reverse mode over a tape.
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
//! the quadrature weight. With a free final time the duration `T` is one more variable of
//! every point's function (through `h = T / intervals` and the point's time
//! `t0 + tau_p T`): each point's block gains a row for `T`, and `T`'s diagonal is the sum
//! over the points. Each point's block is one recording of that weighted sum on the tape
//! ([`super::tape`]) and one forward-over-reverse pair of sweeps along a few directions,
//! each the sum of the variables of one colour of a star colouring of the block's graph
//! ([`star_colouring`]): every entry is then read alone from one of its two rows. The
//! structure (found once, at a few probe points with random weights, by the same sweeps
//! along every variable) keeps only the pairs that can be nonzero; on the Whipple
//! bicycle 10 variables in 38 pairs take 7 directions.
//!
//! Hyper-dual numbers (one evaluation per entry, `eps1` seeded at `a` and `eps2` at `b`:
//! [`hyper_dual`]) give the same entries; `Problem::__hessian_cross_check` compares the
//! two. With feature `parallel` a large program's points are shared among threads
//! (`parallel`).

use alloc::vec;
use alloc::vec::Vec;
use core::cell::RefCell;

use super::colouring::star_colouring;
use super::cost::{Cost, PathConstraint};
use super::layout::Layout;
use super::pattern::Probe;
use super::tape::{self, Sweeps, Var};
use super::transcription::Program;
use crate::{Error, Model, Scalar};

mod hyper_dual;
#[cfg(feature = "parallel")]
mod parallel;

/// The pairs `(a, b)`, `a >= b`, of one point's variables whose second derivative can be
/// nonzero, the directions the sweeps follow, and the buffers of an evaluation.
pub(crate) struct HessianPlan {
    pub pairs: Vec<(usize, usize)>,
    /// Each variable's direction, its colour (`u32::MAX`: in no pair), the duration's last.
    slot: Vec<u32>,
    /// The number of directions.
    directions: usize,
    /// Where each pair's entry is read: the row of `d2/dz dz_row` and the direction whose
    /// sum holds the pair's other variable alone.
    reads: Vec<(usize, u32)>,
    work: RefCell<HessianWork>,
    /// One set of buffers per thread where the points' blocks are evaluated in parallel
    /// (empty: one after the other, in `work`).
    #[cfg(feature = "parallel")]
    workers: Vec<std::sync::Mutex<HessianWork>>,
}

/// The least work, in tape operations summed over the points, that the points' blocks are
/// shared among threads for: a thread's start and join cost some microseconds, a point of
/// the robot's MPC (20 nodes, 400 operations each) a few. The Whipple bicycle's lane change
/// (81 points of 3 841) is above it, the robot's MPC and parking are below.
#[cfg(feature = "parallel")]
const PARALLEL_WORK: usize = 100_000;

struct HessianWork {
    /// The point's variables and the duration on the tape.
    leaves: Vec<Var>,
    f: Vec<Var>,
    g: Vec<Var>,
    /// The configuration constraints' residual.
    c: Vec<Var>,
    /// The recorded outputs and their weights.
    outputs: Vec<(u32, f64)>,
    sweeps: Sweeps,
    /// The weights of `f` at every point (empty in the threads' buffers but the first:
    /// they are found once per evaluation, before the points are shared).
    w: Vec<f64>,
    error: Option<Error>,
}

impl HessianWork {
    /// The buffers of one thread, with room for `f`'s weights if `weights`.
    fn new(l: &Layout, weights: bool) -> Self {
        HessianWork {
            leaves: Vec::with_capacity(l.nz() + 1),
            f: vec![Var::from_f64(0.0); l.dim],
            g: vec![Var::from_f64(0.0); l.np],
            c: vec![Var::from_f64(0.0); l.ncc],
            outputs: Vec::with_capacity(l.dim + l.np + l.ncc + 2),
            sweeps: Sweeps::default(),
            w: vec![0.0; if weights { l.points() * l.dim } else { 0 }],
            error: None,
        }
    }
}

/// The parts of a [`HessianPlan`] that read a point's block off its tape: the pairs, each
/// variable's colour, where each pair is read, the directions (`Sync`, for the threads).
#[derive(Clone, Copy)]
struct Reader<'a> {
    pairs: &'a [(usize, usize)],
    slot: &'a [u32],
    reads: &'a [(usize, u32)],
    directions: usize,
}

impl Reader<'_> {
    /// Point `p`'s block: its weighted terms recorded on this thread's tape and swept,
    /// each pair's entry handed to `put` in the plan's order (zeros after a model error,
    /// which is kept in `work.error`). Whether the point evaluated.
    fn block<M: Model, C: Cost, P: PathConstraint>(
        self,
        program: &Program<'_, M, C, P>,
        p: usize,
        at: (&[f64], f64),
        wt: &Weights<'_>,
        work: &mut HessianWork,
        mut put: impl FnMut((usize, usize), f64),
    ) -> bool {
        let ok = match record(program, p, at, wt, work) {
            Ok(()) => {
                work.sweeps
                    .hessian(&work.outputs, self.slot, self.directions);
                true
            }
            Err(e) => {
                work.error.get_or_insert(e);
                false
            }
        };
        for (&pair, &(row, dir)) in self.pairs.iter().zip(self.reads) {
            let v = if ok {
                work.sweeps.entry(row, dir, self.directions)
            } else {
                0.0
            };
            put(pair, v);
        }
        ok
    }
}

/// What one point contributes, given its weights: `f`'s (the defects' multipliers times
/// the blocks' `beta`, without `h`), the running cost's (`sigma` times the quadrature's
/// units), the path constraints' and the terminal cost's.
pub(crate) struct Weights<'a> {
    pub f: &'a [f64],
    pub running: f64,
    pub path: &'a [f64],
    pub terminal: f64,
    /// The configuration constraints' multipliers (nodes only).
    pub conf: &'a [f64],
}

/// Records point `p`'s weighted sum of its terms on this thread's tape: its variables `z`
/// and (leaf `nz`) the duration `T`, on which `h = T / intervals` and the point's time
/// `t0 + tau T` depend. The outputs and their weights go to `work.outputs`.
fn record<M: Model, C: Cost, P: PathConstraint>(
    program: &Program<'_, M, C, P>,
    p: usize,
    (z, span): (&[f64], f64),
    wt: &Weights<'_>,
    work: &mut HessianWork,
) -> Result<(), Error> {
    let l = &program.layout;
    let dim = l.dim;
    let HessianWork {
        leaves,
        f,
        g,
        c,
        outputs,
        ..
    } = work;
    outputs.clear();
    tape::start(z.iter().copied().chain([span]), leaves);
    let th = leaves[z.len()];
    let t = Var::from_f64(l.t0) + th * Var::from_f64(l.tau(p));
    let h = th * Var::from_f64(1.0 / l.intervals() as f64);
    let (xh, uh) = leaves[..z.len()].split_at(dim);
    let mut out = |v: Var, w: f64| {
        if let (Some(i), true) = (v.index(), w != 0.0) {
            outputs.push((i, w));
        }
    };
    if wt.f.iter().any(|w| *w != 0.0) {
        program.model.rhs_u_scalar(t, xh, uh, f)?;
        for (w, v) in wt.f.iter().zip(f.iter()) {
            out(h * *v, *w);
        }
    }
    if wt.running != 0.0 {
        out(h * program.running(t, xh, uh), wt.running);
    }
    if wt.path.iter().any(|w| *w != 0.0) {
        program.path.values(t, xh, uh, g);
        for (w, v) in wt.path.iter().zip(g.iter()) {
            out(*v, *w);
        }
    }
    if wt.conf.iter().any(|w| *w != 0.0) {
        program
            .model
            .configuration_residual_scalar(t, &xh[..l.nq], c)?;
        for (w, v) in wt.conf.iter().zip(c.iter()) {
            out(*v, *w);
        }
    }
    if wt.terminal != 0.0 {
        out(program.cost.terminal(t, xh), wt.terminal);
    }
    Ok(())
}

impl HessianPlan {
    /// The structure of a point's block: every pair whose entry is nonzero at one of a few
    /// probe points with random weights (the duration, index `nz`, among the variables
    /// when it is free). `None` when the model has no equations in another scalar
    /// ([`Model::rhs_u_scalar`]).
    pub fn probe<M: Model, C: Cost, P: PathConstraint>(
        program: &Program<'_, M, C, P>,
        start: &[f64],
    ) -> Option<Self> {
        let l = &program.layout;
        let (dim, nz) = (l.dim, l.nz());
        let nv = nz + usize::from(l.free);
        let mut work = HessianWork::new(l, true);
        let mut probe = Probe::new();
        let mut z = vec![0.0; nz];
        let mut set = vec![false; nv * nv];
        // every variable a direction (the duration's only when it is free)
        let every: Vec<u32> = (0..=nz)
            .map(|a| if a < nv { a as u32 } else { u32::MAX })
            .collect();
        let mut good = 0;
        let span0 = l.span(start);
        for n in 0..12 {
            if good >= 3 {
                break;
            }
            let p = (n * 5) % l.points();
            for (zi, &s) in z.iter_mut().zip(&start[p * nz..(p + 1) * nz]) {
                *zi = s + 0.5 * (1.0 + s.abs()) * probe.next();
            }
            let span = span0 * (1.0 + 0.2 * probe.next());
            let wf: Vec<f64> = (0..dim).map(|_| probe.next() + 2.0).collect();
            let wp: Vec<f64> = (0..l.np).map(|_| probe.next() + 2.0).collect();
            let wc: Vec<f64> = (0..l.ncc).map(|_| probe.next() + 2.0).collect();
            let wt = Weights {
                f: &wf,
                running: 1.0,
                path: &wp,
                conf: &wc,
                terminal: if program.has_terminal { 1.0 } else { 0.0 },
            };
            match record(program, p, (&z, span), &wt, &mut work) {
                Ok(()) => {}
                Err(Error::NotAvailable { .. }) => return None,
                Err(_) => continue,
            }
            work.sweeps.hessian(&work.outputs, &every, nv);
            for a in 0..nv {
                for b in 0..=a {
                    // a NaN counts as nonzero
                    set[a * nv + b] |= work.sweeps.entry(a, b as u32, nv) != 0.0;
                }
            }
            good += 1;
        }
        if good == 0 {
            return None;
        }
        let pairs: Vec<(usize, usize)> = (0..nv)
            .flat_map(|a| (0..=a).map(move |b| (a, b)))
            .filter(|&(a, b)| set[a * nv + b])
            .collect();
        let (mut slot, directions, reads) = star_colouring(nv, &pairs);
        slot.resize(nz + 1, u32::MAX);
        #[cfg(feature = "parallel")]
        let workers = {
            let threads = rayon::current_num_threads();
            if threads > 1 && tape::recorded() * l.points() >= PARALLEL_WORK {
                // runs of points for four per thread: a thread woken late still finds
                // work left (with one run each, the first awake often took both)
                (0..4 * threads)
                    .map(|r| std::sync::Mutex::new(HessianWork::new(l, r == 0)))
                    .collect()
            } else {
                Vec::new()
            }
        };
        Some(HessianPlan {
            pairs,
            slot,
            directions,
            reads,
            work: RefCell::new(work),
            #[cfg(feature = "parallel")]
            workers,
        })
    }

    /// The structure, lower triangle, point by point; with a free duration its pairs with
    /// the points' variables in each point's list and its diagonal, summed over the
    /// points, last.
    pub fn structure(&self, l: &Layout) -> (Vec<usize>, Vec<usize>) {
        let nz = l.nz();
        let global = |p: usize, a: usize| if a == nz { l.t_index() } else { p * nz + a };
        let mut rows = Vec::with_capacity(l.points() * self.pairs.len() + 1);
        let mut cols = Vec::with_capacity(l.points() * self.pairs.len() + 1);
        for p in 0..l.points() {
            for &(a, b) in &self.pairs {
                if a == nz && b == nz {
                    continue;
                }
                rows.push(global(p, a));
                cols.push(global(p, b));
            }
        }
        if l.free {
            rows.push(l.t_index());
            cols.push(l.t_index());
        }
        (rows, cols)
    }

    /// The weights of `h f` at every point (`w[p * dim + i]`) from the defect rows'
    /// multipliers `lambda`.
    fn f_weights(l: &Layout, lambda: &[f64], w: &mut [f64]) {
        let dim = l.dim;
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
                    for (r, &i) in l.integrated.iter().enumerate() {
                        w[p * dim + i] += lambda[row + r] * beta;
                    }
                }
                row += l.integrated.len();
            }
        }
    }

    /// Point `p`'s weights, given every point's `f` weights `w` ([`Self::f_weights`]).
    fn point_weights<'a>(
        l: &Layout,
        has_terminal: bool,
        (sigma, lambda): (f64, &'a [f64]),
        w: &'a [f64],
        p: usize,
    ) -> Weights<'a> {
        let dim = l.dim;
        let none: &[f64] = &[];
        Weights {
            f: &w[p * dim..(p + 1) * dim],
            running: sigma * l.units(p),
            path: if l.np > 0 && p < l.path_points() {
                let start = l.path_row(p);
                &lambda[start..start + l.np]
            } else {
                none
            },
            conf: l
                .conf_row(p)
                .map_or(none, |start| &lambda[start..start + l.ncc]),
            terminal: if has_terminal && p + 1 == l.nodes {
                sigma
            } else {
                0.0
            },
        }
    }

    /// Every point's weights at the multipliers `lambda` and objective factor `sigma`,
    /// handed with the point's variables to `each(p, z, weights)`.
    fn for_each_point(
        l: &Layout,
        has_terminal: bool,
        x: &[f64],
        sigma: f64,
        lambda: &[f64],
        w: &mut [f64],
        mut each: impl FnMut(usize, &[f64], &Weights<'_>),
    ) {
        let nz = l.nz();
        Self::f_weights(l, lambda, w);
        for p in 0..l.points() {
            let wt = Self::point_weights(l, has_terminal, (sigma, lambda), w, p);
            each(p, &x[p * nz..(p + 1) * nz], &wt);
        }
    }

    fn reader(&self) -> Reader<'_> {
        Reader {
            pairs: &self.pairs,
            slot: &self.slot,
            reads: &self.reads,
            directions: self.directions,
        }
    }

    /// The values at `x` with the objective's factor `sigma` and the constraints'
    /// multipliers `lambda`, in the order of [`HessianPlan::structure`].
    pub fn values<M: Model + Sync, C: Cost, P: PathConstraint>(
        &self,
        program: &Program<'_, M, C, P>,
        x: &[f64],
        sigma: f64,
        lambda: &[f64],
        vals: &mut [f64],
    ) -> bool {
        #[cfg(feature = "parallel")]
        if !self.workers.is_empty() {
            return self.values_in_parallel(program, x, sigma, lambda, vals);
        }
        let l = &program.layout;
        let span = l.span(x);
        let mut guard = self.work.borrow_mut();
        let work = &mut *guard;
        let mut w = core::mem::take(&mut work.w);
        let mut ok = true;
        let mut out = Scatter::new(l);
        let reader = self.reader();
        Self::for_each_point(
            l,
            program.has_terminal,
            x,
            sigma,
            lambda,
            &mut w,
            |p, z, wt| {
                ok &= reader.block(program, p, (z, span), wt, work, |pair, v| {
                    out.put(pair, v, vals)
                });
            },
        );
        let n = out.finish(vals);
        work.w = w;
        ok && vals[..n].iter().all(|v| v.is_finite())
    }

    /// The first model error met.
    pub fn take_error(&self) -> Option<Error> {
        #[cfg(feature = "parallel")]
        for worker in &self.workers {
            let e = worker
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .error
                .take();
            if e.is_some() {
                return e;
            }
        }
        self.work.borrow_mut().error.take()
    }
}

/// Where the entries go, in the order of [`HessianPlan::structure`]: each point's pairs in
/// turn, but the duration's diagonal summed over the points and written last.
struct Scatter {
    nz: usize,
    free: bool,
    n: usize,
    span_span: f64,
}

impl Scatter {
    fn new(l: &Layout) -> Self {
        Scatter {
            nz: l.nz(),
            free: l.free,
            n: 0,
            span_span: 0.0,
        }
    }

    fn put(&mut self, (a, b): (usize, usize), v: f64, vals: &mut [f64]) {
        if a == self.nz && b == self.nz {
            self.span_span += v;
        } else {
            vals[self.n] = v;
            self.n += 1;
        }
    }

    /// Writes the duration's diagonal; the number of entries written.
    fn finish(self, vals: &mut [f64]) -> usize {
        if self.free {
            vals[self.n] = self.span_span;
            self.n + 1
        } else {
            self.n
        }
    }
}
