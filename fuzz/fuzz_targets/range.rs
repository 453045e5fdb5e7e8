//! range-parser: never panics; satisfiable ranges lie inside the size, and
//! combined ranges (kept in the header's order, as range-parser keeps them)
//! neither overlap nor touch.
#![no_main]
use libfuzzer_sys::fuzz_target;
use webfw_http::range::{ParsedRange, parse};

fuzz_target!(|data: (u32, &str, bool)| {
    let (size, header, combine) = data;
    let size = u64::from(size);
    if let ParsedRange::Ranges { ranges, .. } = parse(size, header, combine) {
        assert!(!ranges.is_empty());
        for r in &ranges {
            assert!(r.start <= r.end && r.end < size, "{r:?} outside {size}");
        }
        if combine {
            let mut sorted = ranges.clone();
            sorted.sort_by_key(|r| r.start);
            for pair in sorted.windows(2) {
                assert!(pair[0].end + 1 < pair[1].start, "{pair:?} not combined");
            }
        }
    }
});
