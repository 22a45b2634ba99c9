//! Compile-time diagnostics: every `tests/ui/fail/*.rs` must fail with exactly the checked-in
//! `.stderr`; every `tests/ui/pass/*.rs` must compile (with `#![deny(warnings)]`) and run.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
