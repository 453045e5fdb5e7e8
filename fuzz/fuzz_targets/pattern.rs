//! path-to-regexp 0.1: compiling any path never panics, and a match's
//! length and captures lie inside the path, naming real keys. The length is
//! the matched text's (JavaScript's `match[0].length`): for the unanchored
//! second of top-level alternatives (`p|!`) it need not end on a character
//! boundary, and the router checks the byte there before it cuts.
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
        assert!(m.len <= path.len());
        for (key, capture) in &m.params {
            assert!(*key < p.keys().len());
            let start = capture.as_ptr() as usize - path.as_ptr() as usize;
            assert!(start + capture.len() <= path.len());
        }
    }
});
