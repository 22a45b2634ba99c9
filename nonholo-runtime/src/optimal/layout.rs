//! Where the program's variables and constraints are, and the times of its points.
//!
//! Constraint rows: the defects of every interval, block by block, for the *integrated*
//! state components only; then the configuration constraints at every point that has
//! them; then the path constraints at every point (every node and, for Hermite–Simpson,
//! every midpoint: a midpoint's inputs are variables of their own, which a bound on the
//! nodes alone would leave free). A coordinate the configuration
//! constraints solve for (`CONFIGURATION_COORDINATES`) has no defect rows: the
//! constraints at every point fix it, and its defects as well would over-determine it
//! (the discretized dynamics keep the constraints only to the scheme's order).

use alloc::vec::Vec;

use super::scheme::Scheme;

/// What the program needs to know of the problem, fixed when it is built.
pub(crate) struct Layout {
    pub nodes: usize,
    pub scheme: Scheme,
    pub t0: f64,
    /// The duration `T`: fixed, or (free final time) the guess of the variable.
    pub duration: f64,
    /// Whether `T` is a variable (the last one).
    pub free: bool,
    pub dim: usize,
    pub nu: usize,
    pub nq: usize,
    /// Configuration constraints per point that has them.
    pub ncc: usize,
    /// Path constraint values per point.
    pub np: usize,
    /// Whether the path constraints hold at the midpoints too (Hermite–Simpson).
    pub path_midpoints: bool,
    /// The state components with defect rows (all but the solved coordinates and the
    /// cyclic components).
    pub integrated: Vec<usize>,
    /// The cyclic components (`cyclic.rs`): fixed in the program, reconstructed after.
    pub cyclic: Vec<usize>,
    /// For each point, the index of its configuration constraints' block among those
    /// that have one (`None`: none there; the first or last node when the conditions
    /// fix every coordinate, where the rows would be constants).
    pub conf_block: Vec<Option<usize>>,
}

impl Layout {
    pub fn nz(&self) -> usize {
        self.dim + self.nu
    }
    pub fn points(&self) -> usize {
        if self.scheme.has_midpoints() {
            2 * self.nodes - 1
        } else {
            self.nodes
        }
    }
    pub fn variables(&self) -> usize {
        self.points() * self.nz() + usize::from(self.free)
    }
    /// The index of the duration's variable (free final time).
    pub fn t_index(&self) -> usize {
        self.points() * self.nz()
    }
    /// The duration at `x`.
    pub fn span(&self, x: &[f64]) -> f64 {
        if self.free {
            x[self.t_index()]
        } else {
            self.duration
        }
    }
    pub fn intervals(&self) -> usize {
        self.nodes - 1
    }
    pub fn defect_rows(&self) -> usize {
        self.intervals() * self.scheme.defect_blocks().len() * self.integrated.len()
    }
    /// How many points have configuration constraints.
    pub fn conf_points(&self) -> usize {
        self.conf_block.iter().flatten().count()
    }
    /// The first configuration constraint row of point `p`, if it has them.
    pub fn conf_row(&self, p: usize) -> Option<usize> {
        self.conf_block[p].map(|b| self.defect_rows() + b * self.ncc)
    }
    /// The first path constraint row of point `p`.
    pub fn path_row(&self, p: usize) -> usize {
        self.defect_rows() + self.conf_points() * self.ncc + p * self.np
    }
    /// How many points have path constraints: the first ones, the nodes, and (unless
    /// asked not to) the midpoints after them.
    pub fn path_points(&self) -> usize {
        if self.path_midpoints {
            self.points()
        } else {
            self.nodes
        }
    }
    pub fn constraints(&self) -> usize {
        self.path_row(self.path_points())
    }
    /// The node spacing for the duration `span`.
    pub fn h(&self, span: f64) -> f64 {
        span / self.intervals() as f64
    }
    /// The fraction of the duration at point `p`.
    pub fn tau(&self, p: usize) -> f64 {
        let k = if p < self.nodes {
            p as f64
        } else {
            (p - self.nodes) as f64 + 0.5
        };
        k / self.intervals() as f64
    }
    /// The time of point `p` for the duration `span`.
    pub fn time(&self, p: usize, span: f64) -> f64 {
        self.t0 + self.tau(p) * span
    }
    /// The points of interval `k`: start, end, midpoint (the last only with midpoints).
    pub fn interval_points(&self, k: usize) -> [usize; 3] {
        [k, k + 1, self.nodes + k]
    }
    /// The quadrature weight of the running cost at point `p`, in units of `h`.
    pub fn units(&self, p: usize) -> f64 {
        let [w0, w1, wm] = self.scheme.quadrature();
        if p >= self.nodes {
            wm
        } else {
            let first = if p == 0 { 0.0 } else { w1 };
            let last = if p + 1 == self.nodes { 0.0 } else { w0 };
            first + last
        }
    }
    /// The quadrature weight of the running cost at point `p` for the duration `span`.
    pub fn weight(&self, p: usize, span: f64) -> f64 {
        self.units(p) * self.h(span)
    }
}
