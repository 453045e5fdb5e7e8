//! Express: `app.use(rateLimit({ windowMs: 15 * 60 * 1000, limit: 100 }))`.
//!
//! webfw: `app.use_(webfw::rate_limit(RateLimitOptions::new().window(Duration::from_secs(15 * 60)).limit(100)))`.
//!
//! Rate limiting, each client's requests counted in a window and answered
//! with a 429 past the limit: the `express-rate-limit` 8.7 package rebuilt (feature `rate-limit`):
//! the same options, headers (`X-RateLimit-*`, the IETF drafts 6, 7 and 8
//! of `RateLimit`, `Retry-After`), the default 429 `Too many requests,
//! please try again later.`, and [`req.rate_limit()`](crate::Request::rate_limit)
//! for `req.rateLimit`. Counts are kept in a [`MemoryStore`] (bounded: see
//! there) or, with the `redis` feature, in a `RedisStore` that keeps them
//! as `rate-limit-redis` does, so several processes (webfw or Express)
//! share one count per client.
//!
//! ```
//! use std::time::Duration;
//! use webfw::prelude::*;
//! use webfw::rate_limit::{Draft, RateLimitOptions};
//!
//! let mut app = webfw::app();
//! app.use_(webfw::rate_limit(
//!     RateLimitOptions::new()
//!         .window(Duration::from_secs(15 * 60))
//!         .limit(100)
//!         .standard_headers(Draft::Draft8)
//!         .legacy_headers(false),
//! ));
//! app.get("/", |_req: &mut Request, res: &mut Response| res.send("hello"));
//! ```

mod headers;
mod memory;
mod middleware;
mod options;
#[cfg(feature = "redis")]
mod redis;
mod store;

use std::net::{IpAddr, Ipv6Addr};
use std::time::SystemTime;

use serde::Serialize;

pub use memory::{DEFAULT_MAX_KEYS, MemoryStore};
pub use middleware::RateLimitMiddleware;
pub use options::{Draft, Message, RateLimitOptions};
#[cfg(feature = "redis")]
pub use redis::{RedisStore, RedisStoreOptions};
pub use store::{ClientRateLimitInfo, RateLimitStore};

/// `rateLimit(options)`: the rate limiting middleware.
///
/// ```
/// use webfw::rate_limit::RateLimitOptions;
/// let mut app = webfw::app();
/// app.use_(webfw::rate_limit(RateLimitOptions::new().limit(10)));
/// ```
pub fn rate_limit(options: RateLimitOptions) -> RateLimitMiddleware {
    RateLimitMiddleware::new(options)
}

/// `req.rateLimit`: what the limiter counted for this request. Serializes
/// as the package's object (`resetTime` as an ISO date, left out when the
/// store gives none).
///
/// ```
/// use webfw::prelude::*;
/// fn h(req: &mut Request, res: &mut Response) -> Result {
///     let left = req.rate_limit().map_or(0, |i| i.remaining);
///     res.send(format!("{left} left"))
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RateLimitInfo {
    /// The limit that applied.
    pub limit: u64,
    /// Hits counted in the window, this one included (`current` too).
    pub used: u64,
    /// Hits left (`limit - used`, never below 0).
    pub remaining: u64,
    /// When the count starts over.
    pub reset_time: Option<SystemTime>,
    /// The client's key.
    pub key: String,
}

impl Serialize for RateLimitInfo {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("limit", &self.limit)?;
        m.serialize_entry("used", &self.used)?;
        m.serialize_entry("remaining", &self.remaining)?;
        if let Some(at) = self.reset_time {
            let ms = match at.duration_since(std::time::UNIX_EPOCH) {
                Ok(d) => d.as_millis() as i64,
                Err(e) => -(e.duration().as_millis() as i64),
            };
            if let Some(t) = crate::http::date::iso_string(ms as f64) {
                m.serialize_entry("resetTime", &t)?;
            }
        }
        m.serialize_entry("key", &self.key)?;
        m.end()
    }
}

/// `ipKeyGenerator(ip, ipv6Subnet)`: the default client key. IPv4
/// addresses (also written as IPv4-mapped or IPv4-compatible IPv6) are
/// themselves; other IPv6 addresses become their network,
/// `2001:db8:1234:5600::/56`, so that one user cannot take a fresh address
/// from their block for each request. `None` keeps IPv6 addresses whole.
///
/// ```
/// use webfw::rate_limit::ip_key;
/// assert_eq!(ip_key("1.2.3.4", Some(56)), "1.2.3.4");
/// assert_eq!(ip_key("::ffff:1.2.3.4", Some(56)), "1.2.3.4");
/// assert_eq!(ip_key("2001:db8:1234:5678:9abc::1", Some(56)), "2001:db8:1234:5600::/56");
/// assert_eq!(ip_key("::1", Some(56)), "::/56");
/// ```
pub fn ip_key(ip: &str, ipv6_subnet: Option<u8>) -> String {
    let Ok(IpAddr::V6(v6)) = ip.parse::<IpAddr>() else {
        return ip.to_owned();
    };
    let segs = v6.segments();
    let mapped = segs[..5] == [0; 5] && segs[5] == 0xffff;
    // `::1` and `::1.2.3.4` are the same bits: only the notation says which
    // is an IPv4 address.
    let compatible = segs[..6] == [0; 6] && ip.contains('.');
    if mapped || compatible {
        let o = v6.octets();
        return format!("{}.{}.{}.{}", o[12], o[13], o[14], o[15]);
    }
    match ipv6_subnet {
        Some(prefix) => {
            let prefix = u32::from(prefix.min(128));
            let mask = u128::MAX.checked_shl(128 - prefix).unwrap_or(0);
            let net = Ipv6Addr::from(u128::from(v6) & mask);
            format!("{net}/{prefix}")
        }
        None => ip.to_owned(),
    }
}
