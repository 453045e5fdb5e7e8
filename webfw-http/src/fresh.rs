//! Conditional-GET freshness exactly as the `fresh` 0.5.2 package decides it (`req.fresh`),
//! and as fresh 2.0 does ([`is_fresh_v2`]: Express 5's `req.fresh`, send 1).
//!
//! ```
//! use webfw_http::fresh::is_fresh;
//! let etag = Some(r#"W/"5-qvTGHdzF6KLavt4PO0gs2a6pQ00""#);
//! assert!(is_fresh(Some(r#""5-qvTGHdzF6KLavt4PO0gs2a6pQ00""#), None, None, etag, None));
//! assert!(!is_fresh(Some(r#""other""#), None, None, etag, None));
//! assert!(!is_fresh(Some("*"), None, Some("no-cache"), etag, None));
//! ```

use super::is_js_whitespace;
use std::time::SystemTime;

/// Decides whether a cached response is still fresh for a conditional request.
///
/// Arguments are the request's `If-None-Match`, `If-Modified-Since` and `Cache-Control`
/// headers and the response's `ETag` and `Last-Modified` headers; `None` and `Some("")` both
/// mean "absent", as in the JS original. The rules, in order:
///
/// 1. neither conditional header ⇒ not fresh;
/// 2. a request `Cache-Control` with a `no-cache` token ⇒ not fresh;
/// 3. `If-None-Match` other than `*` needs a response ETag equal to one of its comma-separated
///    entries, compared weakly (`W/` is ignored on either side);
/// 4. `If-Modified-Since` needs a `Last-Modified` no later than it; an unparsable date on either
///    side means not fresh. As in fresh 0.5.2 this check also runs when `If-None-Match` is
///    present, so both must pass.
///
/// Dates are parsed with `httpdate` (IMF-fixdate, RFC 850, asctime), a stricter parser than
/// V8's `Date.parse`; a date it rejects counts as unparsable.
///
/// ```
/// use webfw_http::fresh::is_fresh;
/// let etag = Some(r#"W/"5-qvTGHdzF6KLavt4PO0gs2a6pQ00""#);
/// assert!(is_fresh(Some(r#""5-qvTGHdzF6KLavt4PO0gs2a6pQ00""#), None, None, etag, None));
/// assert!(!is_fresh(Some(r#""other""#), None, None, etag, None));
/// assert!(!is_fresh(Some("*"), None, Some("no-cache"), etag, None));
/// ```
pub fn is_fresh(
    req_if_none_match: Option<&str>,
    req_if_modified_since: Option<&str>,
    req_cache_control: Option<&str>,
    res_etag: Option<&str>,
    res_last_modified: Option<&str>,
) -> bool {
    // An empty header is falsy in JS, i.e. treated as missing.
    let none_match = req_if_none_match.filter(|s| !s.is_empty());
    let modified_since = req_if_modified_since.filter(|s| !s.is_empty());

    if none_match.is_none() && modified_since.is_none() {
        return false;
    }

    // End-to-end reload requests must always see a full response.
    if req_cache_control.is_some_and(has_no_cache_token) {
        return false;
    }

    if let Some(none_match) = none_match.filter(|s| *s != "*") {
        let Some(etag) = res_etag.filter(|s| !s.is_empty()) else {
            return false;
        };
        if !token_list(none_match).any(|token| weak_equal(token, etag)) {
            return false;
        }
    }

    if let Some(modified_since) = modified_since {
        let Some(last_modified) = res_last_modified.filter(|s| !s.is_empty()) else {
            return false;
        };
        match (parse_date(last_modified), parse_date(modified_since)) {
            (Some(lm), Some(ims)) if lm <= ims => {}
            _ => return false,
        }
    }

    true
}

/// fresh 2.0's rule: as [`is_fresh`], except that `If-None-Match`, when present, decides
/// alone (`*` is fresh, else a weakly equal ETag is needed) and `If-Modified-Since` is only
/// looked at without it.
///
/// ```
/// use webfw_http::fresh::{is_fresh, is_fresh_v2};
/// let (etag, lm) = (Some(r#"W/"5-x""#), Some("Sat, 01 Jan 2000 00:00:00 GMT"));
/// let older = Some("Fri, 31 Dec 1999 00:00:00 GMT");
/// // A matching ETag wins over an older date.
/// assert!(is_fresh_v2(Some(r#"W/"5-x""#), older, None, etag, lm));
/// assert!(!is_fresh(Some(r#"W/"5-x""#), older, None, etag, lm));
/// // `*` is fresh without any ETag.
/// assert!(is_fresh_v2(Some("*"), None, None, None, None));
/// assert!(!is_fresh_v2(Some("*"), None, Some("no-cache"), None, None));
/// ```
pub fn is_fresh_v2(
    req_if_none_match: Option<&str>,
    req_if_modified_since: Option<&str>,
    req_cache_control: Option<&str>,
    res_etag: Option<&str>,
    res_last_modified: Option<&str>,
) -> bool {
    let none_match = req_if_none_match.filter(|s| !s.is_empty());
    let modified_since = req_if_modified_since.filter(|s| !s.is_empty());

    if none_match.is_none() && modified_since.is_none() {
        return false;
    }
    if req_cache_control.is_some_and(has_no_cache_token) {
        return false;
    }

    if let Some(none_match) = none_match {
        if none_match == "*" {
            return true;
        }
        let Some(etag) = res_etag.filter(|s| !s.is_empty()) else {
            return false;
        };
        return token_list(none_match).any(|token| weak_equal(token, etag));
    }

    let (Some(modified_since), Some(last_modified)) =
        (modified_since, res_last_modified.filter(|s| !s.is_empty()))
    else {
        return false;
    };
    matches!(
        (parse_date(last_modified), parse_date(modified_since)),
        (Some(lm), Some(ims)) if lm <= ims
    )
}

/// `token === etag || token === 'W/' + etag || 'W/' + token === etag`, without allocating.
fn weak_equal(token: &str, etag: &str) -> bool {
    token == etag
        || token.strip_prefix("W/") == Some(etag)
        || etag.strip_prefix("W/") == Some(token)
}

/// Same as `/(?:^|,)\s*?no-cache\s*?(?:,|$)/`: some comma-separated piece is `no-cache`
/// surrounded only by whitespace (case-sensitive).
fn has_no_cache_token(cache_control: &str) -> bool {
    cache_control
        .split(',')
        .any(|piece| piece.trim_matches(is_js_whitespace) == "no-cache")
}

/// Splits on commas, dropping spaces (U+0020 only) around each entry; empty entries are kept,
/// as fresh's own tokenizer does.
fn token_list(s: &str) -> impl Iterator<Item = &str> {
    s.split(',').map(|piece| piece.trim_matches(' '))
}

fn parse_date(s: &str) -> Option<SystemTime> {
    httpdate::parse_http_date(s).ok()
}

#[cfg(test)]
mod tests;
