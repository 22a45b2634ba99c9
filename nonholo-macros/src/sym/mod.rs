//! The symbolic engine, the ground floor: a hash-consed expression DAG with canonical
//! sums and products over exact rationals, differentiation, substitution and
//! simplification, linear solves and matrices. It knows nothing of the DSL.

pub mod calculus;
pub mod func;
pub mod graph;
pub mod linsolve;
pub mod matrix;
pub mod number;
pub mod traverse;

pub use func::{Func, Func2, Function, FUNCTION_NAMES};
pub use graph::{node_limit, Graph, Id, Node};
pub use matrix::Mat;
pub use number::Number;

/// The engine's hash maps: FxHash instead of SipHash. Keys are the engine's own nodes and
/// ids (no untrusted input to guard against), and hashing was a fifth of the expansion
/// time of large models. Iteration order never reaches the output (it was already
/// random per process with SipHash); every order that does is a `BTreeMap` or a sort.
pub type HashMap<K, V> = rustc_hash::FxHashMap<K, V>;
/// See [`HashMap`].
pub type HashSet<T> = rustc_hash::FxHashSet<T>;
#[cfg(test)]
pub(crate) mod tests;
