//! type-is: never panics, and a match is one of the given types or a
//! normalised media type.
#![no_main]
use libfuzzer_sys::fuzz_target;
use webfw_http::type_is::type_is;

fuzz_target!(|data: (Option<&str>, Vec<&str>)| {
    let (content_type, types) = data;
    if let Some(found) = type_is(content_type, &types) {
        assert!(!found.is_empty());
        assert!(content_type.is_some(), "no Content-Type never matches");
    }
});
