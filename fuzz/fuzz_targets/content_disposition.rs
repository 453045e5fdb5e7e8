//! content-disposition: never panics, and the header is always a valid
//! header value: Latin-1 at most (sent as single bytes), no control
//! characters.
#![no_main]
use libfuzzer_sys::fuzz_target;
use webfw_http::content_disposition::content_disposition;

fuzz_target!(|name: Option<&str>| {
    let header = content_disposition(name);
    assert!(header.starts_with("attachment"));
    assert!(
        header
            .chars()
            .all(|c| c == '\t' || (' '..='\u{ff}').contains(&c) && c != '\u{7f}'),
        "{header:?}"
    );
});
