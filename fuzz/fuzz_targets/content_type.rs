//! content-type: what parses formats, and the formatted text parses back
//! to the same value.
#![no_main]
use libfuzzer_sys::fuzz_target;
use webfw_http::content_type::{parse, with_default_charset};

fuzz_target!(|value: &str| {
    let _ = with_default_charset(value);
    let Ok(ct) = parse(value) else {
        return;
    };
    let Ok(text) = ct.format() else {
        return;
    };
    let again = parse(&text).unwrap_or_else(|e| panic!("{value:?} → {text:?}: {e:?}"));
    assert_eq!(again, ct, "{value:?} → {text:?}");
});
