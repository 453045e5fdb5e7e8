//! proxy-addr: trust settings parse or fail cleanly, and the address chain
//! starts at the socket and holds one entry per X-Forwarded-For hop at most.
#![no_main]
use std::net::{IpAddr, Ipv4Addr};

use libfuzzer_sys::fuzz_target;
use webfw_http::proxy_addr::{Trust, all_addrs, proxy_chain};

fuzz_target!(|data: (&str, &str, u8)| {
    let (trust, xff, hop) = data;
    let socket = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
    let all = all_addrs(socket, Some(xff));
    assert_eq!(all[0], "10.0.0.1");
    let trust = Trust::parse(trust).unwrap_or_else(|_| Trust::hops(u32::from(hop % 4)));
    let _ = trust.trusts_text(xff, usize::from(hop));
    let (addr, chain) = proxy_chain(&trust, socket, Some(xff));
    assert!(chain.len() <= all.len(), "{xff:?}: {chain:?} vs {all:?}");
    assert!(all.contains(&addr), "{xff:?}: {addr:?} not in {all:?}");
});
