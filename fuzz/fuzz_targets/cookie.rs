//! cookie and cookie-signature: parsing never panics, and a signed value
//! always verifies with its secret and never with another.
#![no_main]
use libfuzzer_sys::fuzz_target;
use webfw_http::{cookie, cookie_signature};

fuzz_target!(|data: (&str, &str, &str)| {
    let (header, value, secret) = data;
    let _ = cookie::parse(header);
    let signed = cookie_signature::sign(value, secret);
    assert_eq!(cookie_signature::unsign(&signed, secret), Some(value));
    let other = format!("{secret}x");
    assert_eq!(cookie_signature::unsign(&signed, &other), None);
});
