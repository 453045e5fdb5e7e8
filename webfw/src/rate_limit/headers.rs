//! The headers express-rate-limit sends: the legacy `X-RateLimit-*`, the
//! IETF drafts' `RateLimit*`, and `Retry-After`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use sha2::{Digest, Sha256};

use super::RateLimitInfo;
use crate::response::Response;

/// Whole seconds until `reset` (never negative), or the window's length
/// when the store gives no reset time.
pub(crate) fn reset_seconds(window: Duration, reset: Option<SystemTime>) -> u64 {
    match reset {
        Some(at) => match at.duration_since(SystemTime::now()) {
            Ok(left) => ceil_secs(left),
            Err(_) => 0,
        },
        None => ceil_secs(window),
    }
}

fn ceil_secs(d: Duration) -> u64 {
    d.as_millis().div_ceil(1000) as u64
}

/// The draft-8 partition key: base64 of the first 12 hex digits of the
/// key's SHA-256.
pub(crate) fn partition_key(key: &str) -> String {
    let hex: String = Sha256::digest(key.as_bytes())
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect();
    base64::engine::general_purpose::STANDARD.encode(hex)
}

pub(crate) fn legacy(res: &mut Response, info: &RateLimitInfo) {
    res.set("X-RateLimit-Limit", info.limit.to_string());
    res.set("X-RateLimit-Remaining", info.remaining.to_string());
    if let Some(at) = info.reset_time {
        let ms = at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis());
        res.set("X-RateLimit-Reset", ms.div_ceil(1000).to_string());
    }
}

pub(crate) fn draft6(res: &mut Response, info: &RateLimitInfo, window: Duration) {
    res.set(
        "RateLimit-Policy",
        format!("{};w={}", info.limit, ceil_secs(window)),
    );
    res.set("RateLimit-Limit", info.limit.to_string());
    res.set("RateLimit-Remaining", info.remaining.to_string());
    res.set(
        "RateLimit-Reset",
        reset_seconds(window, info.reset_time).to_string(),
    );
}

pub(crate) fn draft7(res: &mut Response, info: &RateLimitInfo, window: Duration) {
    res.set(
        "RateLimit-Policy",
        format!("{};w={}", info.limit, ceil_secs(window)),
    );
    res.set(
        "RateLimit",
        format!(
            "limit={}, remaining={}, reset={}",
            info.limit,
            info.remaining,
            reset_seconds(window, info.reset_time)
        ),
    );
}

/// Appended, not set: several limiters on one route each add theirs.
pub(crate) fn draft8(res: &mut Response, info: &RateLimitInfo, window: Duration, name: &str) {
    res.append(
        "RateLimit",
        format!(
            "\"{name}\"; r={}; t={}",
            info.remaining,
            reset_seconds(window, info.reset_time)
        ),
    );
    res.append(
        "RateLimit-Policy",
        format!(
            "\"{name}\"; q={}; w={}; pk=:{}:",
            info.limit,
            ceil_secs(window),
            partition_key(&info.key)
        ),
    );
}

pub(crate) fn retry_after(
    res: &mut Response,
    info: &RateLimitInfo,
    window: Duration,
    fixed: Option<u64>,
) {
    let secs = fixed.unwrap_or_else(|| reset_seconds(window, info.reset_time));
    res.set("Retry-After", secs.to_string());
}

/// The default draft-8 name: `<limit>-in-<window>` (`5-in-1min`,
/// `100-in-1hr`, `10-in-2days`).
pub(crate) fn default_identifier(limit: u64, window: Duration) -> String {
    let ms = window.as_millis() as f64;
    let (seconds, minutes, hours, days) = (ms / 1e3, ms / 6e4, ms / 3.6e6, ms / 8.64e7);
    let duration = if seconds < 60.0 {
        format!("{seconds}sec")
    } else if minutes < 60.0 {
        format!("{minutes}min")
    } else if hours < 24.0 {
        format!("{hours}hr{}", if hours > 1.0 { "s" } else { "" })
    } else {
        format!("{days}day{}", if days > 1.0 { "s" } else { "" })
    };
    format!("{limit}-in-{duration}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_keys_and_names_match_the_package() {
        // express-rate-limit 8.7.5: getPartitionKey('pub-d8a').
        assert_eq!(partition_key("pub-d8a"), "YmI2MDNkNmQ0MzA4");
        assert_eq!(default_identifier(5, Duration::from_secs(60)), "5-in-1min");
        assert_eq!(default_identifier(3, Duration::from_secs(3600)), "3-in-1hr");
        assert_eq!(
            default_identifier(3, Duration::from_secs(7200)),
            "3-in-2hrs"
        );
        assert_eq!(
            default_identifier(3, Duration::from_millis(90_000)),
            "3-in-1.5min"
        );
        assert_eq!(
            default_identifier(3, Duration::from_secs(86400 * 2)),
            "3-in-2days"
        );
        assert_eq!(
            default_identifier(3, Duration::from_millis(500)),
            "3-in-0.5sec"
        );
    }
}
