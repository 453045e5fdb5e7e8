//! `qs.parse`: never panics, always an object whose leaves are strings,
//! and strict depth fails only where the lenient parse kept a remainder.
#![no_main]
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use webfw_http::qs::{QsOptions, parse};

fn leaves_are_strings(v: &Value) -> bool {
    match v {
        Value::String(_) => true,
        Value::Array(a) => a.iter().all(leaves_are_strings),
        Value::Object(o) => o.values().all(leaves_are_strings),
        _ => false,
    }
}

fuzz_target!(|data: (u8, u8, bool, &str)| {
    let (depth, limit, strict, input) = data;
    let opts = QsOptions {
        depth: usize::from(depth % 8),
        array_limit: usize::from(limit % 32),
        strict_depth: strict,
        ..QsOptions::default()
    };
    if let Ok(v) = parse(input, &opts) {
        assert!(v.is_object(), "{input:?} gave {v}");
        assert!(leaves_are_strings(&v), "{input:?} gave {v}");
    }
    let lenient = parse(input, &QsOptions::default());
    assert!(lenient.is_ok(), "only strict depth may fail: {input:?}");
});
