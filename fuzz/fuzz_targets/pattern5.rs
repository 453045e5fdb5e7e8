//! path-to-regexp 8 (Express 5 paths): parsing and compiling any path never
//! panics, a refusal carries Express's message shape, and a match's length
//! and captures lie inside the path, naming real keys.
#![no_main]
use libfuzzer_sys::fuzz_target;
use webfw_pattern::{Options, Pattern};

fuzz_target!(|data: (bool, bool, bool, &str, &str)| {
    let (sensitive, strict, end, pattern, path) = data;
    let opts = Options {
        sensitive,
        strict,
        end,
    };
    let p = match Pattern::express5(pattern, opts) {
        Ok(p) => p,
        Err(e) => {
            assert!(
                e.message
                    .ends_with("; visit https://git.new/pathToRegexpError for info"),
                "{}",
                e.message
            );
            return;
        }
    };
    if let Some(m) = p.matches(path) {
        assert!(m.len <= path.len());
        for (key, capture) in &m.params {
            assert!(*key < p.keys().len());
            let start = capture.as_ptr() as usize - path.as_ptr() as usize;
            assert!(start + capture.len() <= path.len());
        }
    }
});
