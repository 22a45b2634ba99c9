//! The runtime's integration tests, one binary with a module per topic; `common/` holds the
//! hand-written test models (no macro: the runtime is tested without it).

mod common;

mod no_alloc;
mod plot;
mod rk4;
mod simulate;
