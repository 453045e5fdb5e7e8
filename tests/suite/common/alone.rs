//! Tests that measure or change something process-wide, run in a child
//! process of this binary while the other tests go on in the parent.
//!
//! All the suite's tests share one process: a test that reads the peak RSS
//! or the open descriptors of the process, installs the global tracing
//! subscriber, redefines a logger token for every format, or holds a log
//! stream that every graceful shutdown flushes would see, or disturb, the
//! tests running beside it. Such a test begins with
//! `if !alone(module_path!(), "its_name") { return; }`.

use std::process::Command;

/// Names the test the child process runs; set only in that child.
const ALONE: &str = "WEBFW_SUITE_ALONE";

/// The name the harness knows test `name` of `module` (the caller's
/// `module_path!()`) by, for a child process's filter.
pub fn test_name(module: &str, name: &str) -> String {
    // `module_path!()` starts with the crate; the harness's names do not.
    let module = module.split_once("::").map_or("", |(_, m)| m);
    format!("{module}::{name}")
}

/// Whether this process is the child that runs test `name` of `module`
/// (the caller's `module_path!()`) alone. In the parent, runs that child
/// (this test binary, filtered to exactly that test, on one thread) and
/// fails unless the test ran there and passed; then returns false.
pub fn alone(module: &str, name: &str) -> bool {
    let test = test_name(module, name);
    if std::env::var(ALONE).is_ok_and(|v| v == test) {
        return true;
    }
    let out = Command::new(std::env::current_exe().expect("the test binary's path"))
        .args([&test, "--exact", "--test-threads=1", "--nocapture"])
        .env(ALONE, &test)
        .output()
        .expect("run the test binary as a child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // A name the filter does not match would pass with no test run.
    assert!(
        out.status.success() && stdout.contains("test result: ok. 1 passed"),
        "{test} in a child process: {}\n{stdout}\n{stderr}",
        out.status
    );
    // Captured by the harness like the test's own output.
    print!("{stdout}");
    eprint!("{stderr}");
    false
}
