//! Stage 3: the symbolic engine — a hash-consed expression DAG with canonical sums and
//! products over exact rationals, differentiation, substitution and simplification —
//! and the lowering of the checked model into it.

pub mod calculus;
pub mod graph;
pub mod linsolve;
pub mod lower;
pub mod number;

pub use graph::{Func, Func2, Graph, Id, Node};
pub use number::Number;
#[cfg(test)]
mod tests;
