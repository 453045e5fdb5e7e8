//! Compile-fail and compile-pass cases of every webfw macro and of the
//! runtime registration API (`ui/fail/runtime_*`: the messages a wrong
//! handler shape gets), with the compiler output of the stable toolchain
//! pinned in `ui/fail/*.stderr`.
//!
//! Regenerate the pinned output after an intended change with
//! `TRYBUILD=overwrite cargo test -p webfw-ui-tests`, then review the diff.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
