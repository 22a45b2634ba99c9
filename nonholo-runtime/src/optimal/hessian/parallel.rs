//! The points' blocks of the Hessian shared among rayon's threads (feature `parallel`):
//! contiguous runs of points, each with its own buffers and its thread's own tape.

use super::{HessianPlan, HessianWork};
use crate::optimal::cost::{Cost, PathConstraint};
use crate::optimal::layout::Layout;
use crate::optimal::transcription::Program;
use crate::Model;

impl HessianPlan {
    /// [`Self::values`] with the points shared among rayon's threads in contiguous runs,
    /// each run with its own buffers (and its thread's own tape), writing its own entries:
    /// the same numbers as one after the other, but the duration's diagonal, a sum over
    /// the points, added in another order.
    pub(super) fn values_in_parallel<M: Model + Sync, C: Cost, P: PathConstraint>(
        &self,
        program: &Program<'_, M, C, P>,
        x: &[f64],
        sigma: f64,
        lambda: &[f64],
        vals: &mut [f64],
    ) -> bool {
        use rayon::prelude::*;
        let l = &program.layout;
        let (nz, points) = (l.nz(), l.points());
        let span = l.span(x);
        // a panic in a user's cost left the buffers whole: each is overwritten first
        fn lock(m: &std::sync::Mutex<HessianWork>) -> std::sync::MutexGuard<'_, HessianWork> {
            m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
        }
        let mut w = core::mem::take(&mut lock(&self.workers[0]).w);
        Self::f_weights(l, lambda, &mut w);
        // entries per point: every pair but the duration's diagonal, which is summed
        let per = self.pairs.len() - usize::from(self.pairs.contains(&(nz, nz)));
        let run = points.div_ceil(self.workers.len());
        let (blocks, rest) = vals.split_at_mut(points * per);
        let reader = self.reader();
        let (ok, span_span) = blocks
            .par_chunks_mut(run * per)
            .zip(self.workers.par_iter())
            .enumerate()
            .map(|(r, (out, worker))| {
                let mut guard = lock(worker);
                let work = &mut *guard;
                let (mut ok, mut span_span) = (true, 0.0);
                for (i, p) in (r * run..((r + 1) * run).min(points)).enumerate() {
                    let wt = Self::point_weights(l, program.has_terminal, (sigma, lambda), &w, p);
                    let z = &x[p * nz..(p + 1) * nz];
                    let mut k = i * per;
                    ok &= reader.block(program, p, (z, span), &wt, work, |pair, v| {
                        if pair == (nz, nz) {
                            span_span += v;
                        } else {
                            out[k] = v;
                            k += 1;
                        }
                    });
                }
                (ok, span_span)
            })
            .reduce(|| (true, 0.0), |a, b| (a.0 && b.0, a.1 + b.1));
        if l.free {
            rest[0] = span_span;
        }
        lock(&self.workers[0]).w = w;
        let n = points * per + usize::from(l.free);
        ok && vals[..n].iter().all(|v| v.is_finite())
    }

    /// Evaluates the points in `runs` runs on rayon's threads from now on, whatever the
    /// work (the cross-check's way to test the parallel path on small problems).
    pub fn in_runs(&mut self, l: &Layout, runs: usize) {
        self.workers = (0..runs.max(1))
            .map(|r| std::sync::Mutex::new(HessianWork::new(l, r == 0)))
            .collect();
    }
}
