//! fresh: never panics, and a request without conditional headers is never
//! fresh.
#![no_main]
use libfuzzer_sys::fuzz_target;
use webfw_http::fresh::is_fresh;

fuzz_target!(|data: (Option<&str>, Option<&str>, Option<&str>, Option<&str>, Option<&str>)| {
    let (none_match, modified_since, cache_control, etag, last_modified) = data;
    let fresh = is_fresh(none_match, modified_since, cache_control, etag, last_modified);
    if none_match.is_none_or(str::is_empty) && modified_since.is_none_or(str::is_empty) {
        assert!(!fresh);
    }
});
