#![allow(dead_code)]
//! Shared test support: an independent physics oracle (no macro), the papers' worked
//! examples as hand-written systems, and a deterministic RNG.

pub mod oracle;
pub mod papers;
pub mod rng;
