//! Stage 1: the DSL's tokens -> a typed [`ast::Model`] with spans.

pub mod ast;
mod entries;
pub mod expr;
pub mod parse;
mod urdf;
