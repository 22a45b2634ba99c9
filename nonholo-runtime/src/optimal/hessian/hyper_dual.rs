//! The Hessian's entries by hyper-dual numbers, one evaluation per entry with `eps1`
//! seeded at one variable and `eps2` at the other: the check of the tape's sweeps
//! (`Problem::__hessian_cross_check` compares the two).

use alloc::vec;
use alloc::vec::Vec;

use num_dual::HyperDual64;

use super::{HessianPlan, Scatter, Weights};
use crate::optimal::cost::{Cost, PathConstraint};
use crate::optimal::layout::Layout;
use crate::optimal::transcription::Program;
use crate::{Error, Model};

impl HessianPlan {
    /// The same values as [`HessianPlan::values`], each entry one evaluation in hyper-dual
    /// numbers: the check of the tape's sweeps (`Problem::__hessian_cross_check`).
    pub fn values_by_hyper_duals<M: Model, C: Cost, P: PathConstraint>(
        &self,
        program: &Program<'_, M, C, P>,
        x: &[f64],
        sigma: f64,
        lambda: &[f64],
        vals: &mut [f64],
    ) -> Result<(), Error> {
        let l = &program.layout;
        let span = l.span(x);
        let mut w = vec![0.0; l.points() * l.dim];
        let mut hd = HyperDualWork::new(l);
        let mut out = Scatter::new(l);
        let mut error = None;
        Self::for_each_point(
            l,
            program.has_terminal,
            x,
            sigma,
            lambda,
            &mut w,
            |p, z, wt| {
                for &(a, b) in &self.pairs {
                    let v = match second(program, p, (z, span), (a, b), wt, &mut hd) {
                        Ok(v) => v,
                        Err(e) => {
                            error.get_or_insert(e);
                            0.0
                        }
                    };
                    out.put((a, b), v, vals);
                }
            },
        );
        out.finish(vals);
        error.map_or(Ok(()), Err)
    }
}

/// The buffers of a hyper-dual evaluation.
struct HyperDualWork {
    z: Vec<HyperDual64>,
    f: Vec<HyperDual64>,
    g: Vec<HyperDual64>,
    c: Vec<HyperDual64>,
}

impl HyperDualWork {
    fn new(l: &Layout) -> Self {
        let zero = HyperDual64::from(0.0);
        HyperDualWork {
            z: vec![zero; l.nz()],
            f: vec![zero; l.dim],
            g: vec![zero; l.np],
            c: vec![zero; l.ncc],
        }
    }
}

/// `z` (and the duration, index `z.len()`) in hyper-dual numbers with `eps1` at `a` and
/// `eps2` at `b`.
fn seed(zh: &mut [HyperDual64], z: &[f64], span: f64, a: usize, b: usize) -> HyperDual64 {
    let at = |i: usize, v: f64| {
        let e1 = if i == a { 1.0 } else { 0.0 };
        let e2 = if i == b { 1.0 } else { 0.0 };
        HyperDual64::new(v, e1, e2, 0.0)
    };
    for (i, (d, &v)) in zh.iter_mut().zip(z).enumerate() {
        *d = at(i, v);
    }
    at(z.len(), span)
}

/// `sum_i w_i v_i''`: the weighted second derivatives of values.
fn weighted(w: &[f64], v: &[HyperDual64]) -> f64 {
    w.iter().zip(v).map(|(w, v)| w * v.eps1eps2).sum()
}

/// One point's second derivative `(a, b)` of the weighted sum of its terms, by one
/// evaluation in hyper-dual numbers.
fn second<M: Model, C: Cost, P: PathConstraint>(
    program: &Program<'_, M, C, P>,
    p: usize,
    (z, span): (&[f64], f64),
    (a, b): (usize, usize),
    wt: &Weights<'_>,
    work: &mut HyperDualWork,
) -> Result<f64, Error> {
    let l = &program.layout;
    let dim = l.dim;
    let HyperDualWork { z: zh, f, g, c } = work;
    let th = seed(zh, z, span, a, b);
    let t = HyperDual64::from(l.t0) + th * l.tau(p);
    let h = th * (1.0 / l.intervals() as f64);
    let (xh, uh) = zh.split_at(dim);
    let mut total = 0.0;
    if wt.f.iter().any(|w| *w != 0.0) {
        program.model.rhs_u_scalar(t, xh, uh, f)?;
        total +=
            wt.f.iter()
                .zip(f.iter())
                .map(|(w, v)| w * (h * *v).eps1eps2)
                .sum::<f64>();
    }
    if wt.running != 0.0 {
        total += wt.running * (h * program.running(t, xh, uh)).eps1eps2;
    }
    if wt.path.iter().any(|w| *w != 0.0) {
        program.path.values(t, xh, uh, g);
        total += weighted(wt.path, g);
    }
    if wt.conf.iter().any(|w| *w != 0.0) {
        program
            .model
            .configuration_residual_scalar(t, &xh[..l.nq], c)?;
        total += weighted(wt.conf, c);
    }
    if wt.terminal != 0.0 {
        total += wt.terminal * program.cost.terminal(t, xh).eps1eps2;
    }
    Ok(total)
}
