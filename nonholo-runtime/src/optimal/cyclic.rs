//! Cyclic state components: those nothing in the problem reads, left out of the program
//! and reconstructed by the scheme's own quadrature after the solve.
//!
//! A component `x_j` is cyclic here when no equation of motion depends on it (column `j`
//! of the macro's structural pattern of `[df/dx df/du]` is empty), nor a configuration
//! constraint, the cost or a path constraint, and it has no bounds and no final
//! condition. A wheel's rolling angle is the usual one: the robot's `phi_l`, `phi_r`,
//! `phi_c`, the bicycle's `th_r`, `th_f`, and `x` wherever only `y` is asked for. Its
//! defect rows `x_j(k+1) - x_j(k) - h sum beta f_j` then constrain nothing else: the
//! other components' optimum is the same without them, and `x_j` follows from it by the
//! defects themselves, solved in order along the grid. The program keeps the component's
//! variables but fixes them at the guess (both solvers leave fixed variables out of the
//! KKT system), so that the layout of every point stays `[x, u]`; on the robot's MPC this
//! takes a third off every iteration's factorization.

use alloc::vec;
use alloc::vec::Vec;

use super::cost::{Cost, PathConstraint};
use super::layout::Layout;
use super::pattern::Probe;
use super::problem::Problem;
use super::solution::state_name;
use crate::__private::Dual;
use crate::{Error, Model};

impl<M: Model + Sync, C: Cost, P: PathConstraint> Problem<'_, M, C, P> {
    /// The state components that are cyclic in this problem, by name, whether or not
    /// [`cyclic_by_quadrature`](Problem::cyclic_by_quadrature) leaves them to quadrature:
    /// those no equation of motion (by the macro's structural Jacobian pattern),
    /// configuration constraint, cost or path constraint reads, without bounds or a final
    /// condition. Empty for a model without a structural pattern (a hand-written
    /// [`Model`]).
    ///
    /// ```
    /// use nonholo_runtime::optimal::Problem;
    /// # use nonholo_runtime::__private::doc_models::ForcedOscillator;
    /// let osc = ForcedOscillator { m: 1.0, k: 4.0 };
    /// assert!(Problem::new(&osc, 5).cyclic().is_empty());
    /// ```
    pub fn cyclic(&self) -> Vec<&'static str> {
        self.cyclic_indices()
            .into_iter()
            .map(state_name::<M>)
            .collect()
    }

    /// The components the program leaves to quadrature: the cyclic ones when
    /// [`Problem::cyclic_by_quadrature`] is on.
    pub(super) fn cyclic_components(&self) -> Vec<usize> {
        if self.quadrature {
            self.cyclic_indices()
        } else {
            Vec::new()
        }
    }

    /// The cyclic components (module docs), in order. The cost, the path constraints and
    /// the configuration constraints are probed with dual numbers at four points about
    /// the conditions: a derivative that is not exactly zero (or not finite) at any of
    /// them keeps the component.
    fn cyclic_indices(&self) -> Vec<usize> {
        let Some(pairs) = M::JACOBIAN_PATTERN else {
            return Vec::new();
        };
        let candidates: Vec<usize> = (0..M::DIM)
            .filter(|&j| {
                let (lo, hi) = self.state_bounds[j];
                !pairs.iter().any(|&(_, c)| usize::from(c) == j)
                    && self.terminal[j].is_none()
                    && lo == f64::NEG_INFINITY
                    && hi == f64::INFINITY
                    && (j >= M::NQ || !M::CONFIGURATION_COORDINATES.contains(&M::COORDINATES[j]))
            })
            .collect();
        if candidates.is_empty() {
            return candidates;
        }
        let (dim, nu, np, ncc) = (
            M::DIM,
            M::NU,
            self.path.len(),
            M::CONFIGURATION_CONSTRAINTS.len(),
        );
        let mut read = vec![false; dim];
        let mut probe = Probe::new();
        let mut z = vec![0.0; dim + nu];
        let mut zd = vec![Dual::default(); dim + nu];
        let mut out = vec![Dual::default(); np];
        let mut cj = vec![0.0; ncc * M::NQ];
        for _ in 0..4 {
            let t = self.t0 + self.duration * (0.5 + 0.5 * probe.next());
            for (i, zi) in z.iter_mut().enumerate() {
                let c = self.initial.get(i).copied().flatten().unwrap_or(0.0);
                *zi = c + 0.5 * (1.0 + c.abs()) * probe.next();
            }
            if ncc > 0 {
                if self
                    .model
                    .configuration_jacobian(t, &z[..M::NQ], &mut cj)
                    .is_err()
                {
                    return Vec::new();
                }
                for &j in candidates.iter().filter(|&&j| j < M::NQ) {
                    read[j] |= (0..ncc).any(|r| cj[r * M::NQ + j] != 0.0);
                }
            }
            for &j in &candidates {
                for (i, (d, v)) in zd.iter_mut().zip(&z).enumerate() {
                    *d = Dual::new(*v, if i == j { 1.0 } else { 0.0 });
                }
                let td = Dual::new(t, 0.0);
                let (xd, ud) = zd.split_at(dim);
                let touches = |d: Dual| d.eps != 0.0 || !d.eps.is_finite();
                read[j] |= touches(self.cost.running(td, xd, ud));
                read[j] |= touches(self.cost.terminal(td, xd));
                self.path.values(td, xd, ud, &mut out);
                read[j] |= out.iter().any(|d| touches(*d));
            }
        }
        candidates.into_iter().filter(|&j| !read[j]).collect()
    }
}

/// Fills in the cyclic components of the solution `x` (the program's variables) by the
/// scheme's defects, interval after interval from node 0: each defect block
/// `sum alpha x_j(p) + beta h f_j(p) = 0` with one unknown point is solved for it
/// (Hermite–Simpson's Simpson block gives the end node, then its interpolation block the
/// midpoint). `f_j` does not depend on the cyclic components, so it is evaluated once at
/// every point with whatever values they hold.
pub(super) fn reconstruct<M: Model>(model: &M, l: &Layout, x: &mut [f64]) -> Result<(), Error> {
    if l.cyclic.is_empty() {
        return Ok(());
    }
    let (dim, nz) = (l.dim, l.nz());
    let span = l.span(x);
    let h = l.h(span);
    let mut f = vec![0.0; l.points() * dim];
    for p in 0..l.points() {
        let z = &x[p * nz..(p + 1) * nz];
        model.rhs_u(
            l.time(p, span),
            &z[..dim],
            &z[dim..],
            &mut f[p * dim..(p + 1) * dim],
        )?;
    }
    let blocks = l.scheme.defect_blocks();
    for k in 0..l.intervals() {
        let pts = l.interval_points(k);
        for &j in &l.cyclic {
            let mut known = [true, false, !l.scheme.has_midpoints()];
            while known.iter().any(|k| !k) {
                let Some(blk) = blocks.iter().find(|blk| {
                    blk.iter()
                        .filter(|(w, a, _)| *a != 0.0 && !known[*w])
                        .count()
                        == 1
                }) else {
                    break;
                };
                let (mut rest, mut unknown) = (0.0, (0, 1.0));
                for &(w, alpha, beta) in blk.iter() {
                    let p = pts[w];
                    rest += beta * h * f[p * dim + j];
                    if alpha != 0.0 && !known[w] {
                        unknown = (w, alpha);
                    } else {
                        rest += alpha * x[p * nz + j];
                    }
                }
                let (w, alpha) = unknown;
                x[pts[w] * nz + j] = -rest / alpha;
                known[w] = true;
            }
        }
    }
    Ok(())
}
