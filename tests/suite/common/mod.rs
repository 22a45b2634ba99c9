#![allow(dead_code)]
//! Shared test support: an independent physics oracle (no macro), the papers' worked
//! examples as hand-written systems (one file each under `systems/`), and the deterministic
//! RNG.

pub mod oracle;
pub mod rng;
pub mod systems;
