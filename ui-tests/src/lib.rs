//! trybuild cases of the webfw macros and runtime registration API; the suite is `tests/ui.rs`, the
//! cases are in `tests/ui/fail` (with pinned `.stderr`) and `tests/ui/pass`.
