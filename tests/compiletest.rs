//! The `#[tool]` compile errors (tests/ui/fail: one scenario per file, its `.stderr` pinned to
//! the rustc of this repo's toolchain) and the cases that must compile and run (tests/ui/pass).
//! Regenerate with `TRYBUILD=overwrite` and read every diff before committing it.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
