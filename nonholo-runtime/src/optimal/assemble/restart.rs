//! A receding horizon's step (model predictive control, [`Mpc`](crate::optimal::Mpc)):
//! the [`Problem`] started later from a new state, the last plan its guess and its
//! multipliers, moved along the grid, the next solve's start; and what the controller
//! reads of the problem.

use crate::optimal::cost::{Cost, PathConstraint};
use crate::optimal::layout::Layout;
use crate::optimal::problem::Problem;
use crate::optimal::scheme::Scheme;
use crate::optimal::solution::{Duals, Solution};
use crate::{Error, Model};

impl<M: Model + Sync, C: Cost, P: PathConstraint> Problem<'_, M, C, P> {
    /// Starts the problem at `(t, state)` with the guess `guess` (model predictive
    /// control's step).
    pub(crate) fn restart(
        &mut self,
        t: f64,
        state: &[f64],
        guess: Option<&Solution>,
    ) -> Result<(), Error> {
        if state.len() != M::DIM {
            return Err(Error::Dimension {
                what: "state",
                expected: M::DIM,
                found: state.len(),
            });
        }
        // how far the horizon moved, in intervals: the last plan's multipliers are read
        // that much later along the grid, like its trajectory
        let moved = (t - self.t0) / self.duration * (self.nodes - 1) as f64;
        self.t0 = t;
        for (i, v) in self.initial.iter_mut().zip(state) {
            *i = Some(*v);
        }
        if let Some(g) = guess {
            self.guess = Some(g.trajectory().clone());
            let l = self.layout();
            self.warm = g
                .duals()
                .filter(|d| d.z_l.len() == l.variables() && d.y.len() == l.constraints())
                .map(|d| shifted(d, &l, moved));
        }
        Ok(())
    }

    /// The scheme.
    pub(crate) fn scheme_in_use(&self) -> Scheme {
        self.scheme
    }

    /// The inputs' bounds.
    pub(crate) fn input_limits(&self) -> &[(f64, f64)] {
        &self.input_bounds
    }
}

/// The multipliers of the last solve moved `by` intervals along the grid (a receding
/// horizon's next solve starts that much later): each kind of block (the nodes' and the
/// midpoints' variables and path rows, the intervals' defect rows) read by linear
/// interpolation between its neighbours, the last held past the end. The configuration
/// constraints' rows and the duration's bounds stay as they were.
fn shifted(d: &Duals, l: &Layout, by: f64) -> Duals {
    let (nz, mids) = (l.nz(), l.points() - l.nodes);
    let mut out = d.clone();
    let shift = |v: &[f64], out: &mut [f64], (start, count, size): (usize, usize, usize)| {
        if count == 0 || size == 0 {
            return;
        }
        let block = |k: usize| &v[start + k.min(count - 1) * size..][..size];
        for k in 0..count {
            let at = (k as f64 + by).max(0.0);
            let (i, a) = (at.floor() as usize, at.fract());
            let (lo, hi) = (block(i), block(i + 1));
            for (j, o) in out[start + k * size..][..size].iter_mut().enumerate() {
                *o = (1.0 - a) * lo[j] + a * hi[j];
            }
        }
    };
    for (z, o) in [(&d.z_l, &mut out.z_l), (&d.z_u, &mut out.z_u)] {
        shift(z, o, (0, l.nodes, nz));
        shift(z, o, (l.nodes * nz, mids, nz));
    }
    let defects = l.defect_rows();
    shift(
        &d.y,
        &mut out.y,
        (0, l.intervals(), defects / l.intervals()),
    );
    let path = l.path_row(0);
    let path_mids = l.path_points() - l.nodes.min(l.path_points());
    shift(&d.y, &mut out.y, (path, l.nodes.min(l.path_points()), l.np));
    shift(&d.y, &mut out.y, (path + l.nodes * l.np, path_mids, l.np));
    out
}
