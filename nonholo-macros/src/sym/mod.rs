//! The symbolic engine, the ground floor: a hash-consed expression DAG with canonical
//! sums and products over exact rationals, differentiation, substitution and
//! simplification, linear solves and matrices. It knows nothing of the DSL.

pub mod calculus;
pub mod func;
pub mod graph;
pub mod linsolve;
pub mod matrix;
pub mod number;

pub use func::{Func, Func2, Function, FUNCTION_NAMES};
pub use graph::{node_limit, Graph, Id, Node};
pub use matrix::Mat;
pub use number::Number;
#[cfg(test)]
mod tests;
