//! Compile-time diagnostics: every `tests/ui/fail/*.rs` must fail with exactly the checked-in
//! `.stderr`; every `tests/ui/pass/*.rs` must compile (with `#![deny(warnings)]`) and run.
//!
//! The cases live beside the macro and build against `nonholo` without default features
//! (the runtime without diffsol, rayon or the plots): trybuild builds them in a project of
//! its own, so a small dependency tree is what keeps this test quick.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
