//! path-to-regexp 0.1: compiling any path never panics, and a match's
//! length and captures lie inside the path, naming real keys.
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
    let Ok(p) = Pattern::new(pattern, opts) else {
        return;
    };
    if let Some(m) = p.matches(path) {
        assert!(m.len <= path.len() && path.is_char_boundary(m.len));
        for (key, capture) in &m.params {
            assert!(*key < p.keys().len());
            let start = capture.as_ptr() as usize - path.as_ptr() as usize;
            assert!(start + capture.len() <= path.len());
        }
    }
});
