//! negotiator / accepts: preferences index the offered types once each, and
//! `accepts` picks among them.
#![no_main]
use libfuzzer_sys::fuzz_target;
use webfw_http::negotiate::{accepts, preferred};

fuzz_target!(|data: (&str, Vec<&str>)| {
    let (accept, offered) = data;
    let offered: Vec<&str> = offered.into_iter().take(8).collect();
    let order = preferred(Some(accept), &offered);
    let mut seen = vec![false; offered.len()];
    for &i in &order {
        assert!(i < offered.len(), "{accept:?} {offered:?} → {order:?}");
        assert!(!seen[i], "{accept:?} {offered:?} → {order:?}");
        seen[i] = true;
    }
    if let Some(i) = accepts(Some(accept), &offered) {
        assert!(i < offered.len());
    }
});
