//! morgan's format strings: tokenizing and parsing never panic, and an
//! error's range lies inside the format.
#![no_main]
use libfuzzer_sys::fuzz_target;
use webfw_pattern::logfmt;

fuzz_target!(|format: &str| {
    let _ = logfmt::tokenize(format);
    if let Err(e) = logfmt::parse(format) {
        let r = e.range();
        assert!(r.start <= r.end && r.end <= format.len(), "{format:?}: {r:?}");
        assert!(!e.message().is_empty());
    }
    let _ = logfmt::is_header_name(format);
    let _ = logfmt::morgan_arg(format);
});
