//! Where the program's variables and constraints are, and the times of its points.

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
    /// Configuration constraints per node.
    pub ncc: usize,
    /// Path constraint values per node.
    pub np: usize,
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
        self.intervals() * self.scheme.defect_blocks().len() * self.dim
    }
    pub fn constraints(&self) -> usize {
        self.defect_rows() + self.nodes * (self.ncc + self.np)
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
