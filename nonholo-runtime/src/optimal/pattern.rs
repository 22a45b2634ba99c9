//! Which entries of a model's Jacobian can be nonzero.

use alloc::vec;
use alloc::vec::Vec;

/// A dense `rows x cols` boolean pattern, row-major.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pattern {
    rows: usize,
    cols: usize,
    bits: Vec<bool>,
}

impl Pattern {
    /// Nothing set.
    pub fn empty(rows: usize, cols: usize) -> Self {
        Pattern {
            rows,
            cols,
            bits: vec![false; rows * cols],
        }
    }

    /// Whether entry `(i, j)` is in the pattern.
    pub fn get(&self, i: usize, j: usize) -> bool {
        self.bits[i * self.cols + j]
    }

    /// The columns of row `i`, in order.
    pub fn row(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let r = &self.bits[i * self.cols..(i + 1) * self.cols];
        r.iter().enumerate().filter(|(_, b)| **b).map(|(j, _)| j)
    }

    /// Sets entry `(i, j)` (out of range: nothing).
    pub fn set(&mut self, i: usize, j: usize) {
        if i < self.rows && j < self.cols {
            self.bits[i * self.cols + j] = true;
        }
    }

    /// Whether every entry of `other` (of the same shape) is in this pattern.
    pub fn contains(&self, other: &Pattern) -> bool {
        self.rows == other.rows
            && self.cols == other.cols
            && self.bits.iter().zip(&other.bits).all(|(a, b)| *a || !*b)
    }

    /// Adds the nonzero entries of a dense row-major matrix.
    pub fn add_nonzeros(&mut self, m: &[f64]) {
        for (b, v) in self.bits.iter_mut().zip(m) {
            *b |= *v != 0.0;
        }
    }

    /// The largest magnitude of an entry of `m` outside the pattern.
    pub fn largest_outside(&self, m: &[f64]) -> f64 {
        self.bits
            .iter()
            .zip(m)
            .filter(|(b, _)| !**b)
            .fold(0.0, |acc, (_, v)| acc.max(v.abs()))
    }
}

/// Pseudo-random numbers in `[-1, 1)` (a fixed linear congruential sequence, so that the
/// probes are the same on every run).
pub(crate) struct Probe(u64);

impl Probe {
    pub fn new() -> Self {
        Probe(0x9e37_79b9_7f4a_7c15)
    }
    pub fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
}
