//! The request-target read shim: reads cut anywhere give the same bytes as
//! one read, and input without a byte to escape passes through unchanged.
#![no_main]
use libfuzzer_sys::fuzz_target;

const ESCAPED: &[u8] = b"\"<>\\^`{|}";

fuzz_target!(|data: (Vec<u16>, &[u8])| {
    let (cuts, input) = data;
    let mut cuts: Vec<usize> = cuts
        .into_iter()
        .map(|c| usize::from(c) % (input.len() + 1))
        .collect();
    cuts.sort_unstable();
    let whole = webfw::__fuzz_sanitize(input, &[]);
    let pieces = webfw::__fuzz_sanitize(input, &cuts);
    assert_eq!(whole, pieces, "cuts {cuts:?}");
    if !input.iter().any(|b| ESCAPED.contains(b)) {
        assert_eq!(whole, input);
    }
});
