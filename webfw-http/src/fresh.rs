//! Conditional-GET freshness exactly as the `fresh` 0.5.2 package decides it (`req.fresh`).
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
mod tests {
    use super::*;

    const ETAG: &str = "\"foo\"";
    const LM: &str = "Sat, 01 Jan 2000 00:00:00 GMT";
    const EARLIER: &str = "Fri, 31 Dec 1999 23:59:59 GMT";
    const LATER: &str = "Sat, 01 Jan 2000 01:00:00 GMT";

    fn inm(v: &str, etag: Option<&str>) -> bool {
        is_fresh(Some(v), None, None, etag, None)
    }

    fn ims(v: &str, last_modified: Option<&str>) -> bool {
        is_fresh(None, Some(v), None, None, last_modified)
    }

    #[test]
    fn unconditional_request_is_never_fresh() {
        assert!(!is_fresh(None, None, None, Some(ETAG), Some(LM)));
        assert!(!is_fresh(Some(""), Some(""), None, Some(ETAG), Some(LM)));
    }

    #[test]
    fn no_cache_token_forces_stale() {
        assert!(!is_fresh(
            Some(ETAG),
            None,
            Some("no-cache"),
            Some(ETAG),
            None
        ));
        assert!(!is_fresh(
            Some(ETAG),
            None,
            Some("max-age=0, no-cache"),
            Some(ETAG),
            None
        ));
        assert!(!is_fresh(
            Some(ETAG),
            None,
            Some("no-cache ,max-age=0"),
            Some(ETAG),
            None
        ));
        assert!(!is_fresh(
            Some("*"),
            None,
            Some(" \tno-cache\u{a0}"),
            Some(ETAG),
            None
        ));
        assert!(!is_fresh(
            None,
            Some(LATER),
            Some("no-cache"),
            None,
            Some(LM)
        ));
    }

    #[test]
    fn other_cache_control_values_do_not_force_stale() {
        assert!(is_fresh(
            Some(ETAG),
            None,
            Some("max-age=0"),
            Some(ETAG),
            None
        ));
        assert!(is_fresh(
            Some(ETAG),
            None,
            Some("no-cache=\"x\""),
            Some(ETAG),
            None
        ));
        assert!(is_fresh(
            Some(ETAG),
            None,
            Some("no-cachex"),
            Some(ETAG),
            None
        ));
        assert!(is_fresh(
            Some(ETAG),
            None,
            Some("NO-CACHE"),
            Some(ETAG),
            None
        ));
        assert!(is_fresh(
            Some(ETAG),
            None,
            Some("no-store"),
            Some(ETAG),
            None
        ));
        assert!(is_fresh(Some(ETAG), None, Some(""), Some(ETAG), None));
    }

    #[test]
    fn star_matches_without_an_etag() {
        assert!(inm("*", None));
        assert!(inm("*", Some(ETAG)));
        // Only the exact value `*` is special.
        assert!(!inm(" *", None));
        assert!(!inm("*, \"foo\"", None));
    }

    #[test]
    fn if_none_match_needs_a_response_etag() {
        assert!(!inm(ETAG, None));
        assert!(!inm(ETAG, Some("")));
    }

    #[test]
    fn if_none_match_exact_match_is_fresh() {
        assert!(inm(ETAG, Some(ETAG)));
        assert!(!inm("\"bar\"", Some(ETAG)));
    }

    #[test]
    fn weak_comparison_ignores_w_prefix_on_either_side() {
        assert!(inm("W/\"foo\"", Some("\"foo\"")));
        assert!(inm("\"foo\"", Some("W/\"foo\"")));
        assert!(inm("W/\"foo\"", Some("W/\"foo\"")));
        assert!(!inm("w/\"foo\"", Some("\"foo\"")));
    }

    #[test]
    fn comma_list_matches_any_entry_with_spaces_trimmed() {
        assert!(inm("\"bar\", \"foo\"", Some(ETAG)));
        assert!(inm("\"bar\",\"foo\"", Some(ETAG)));
        assert!(inm("  \"foo\"  ,\"bar\"", Some(ETAG)));
        assert!(inm("\"bar\",, W/\"foo\" ", Some(ETAG)));
        assert!(!inm("\"bar\", \"baz\"", Some(ETAG)));
        // Only U+0020 is trimmed: a tab stays part of the entry.
        assert!(!inm("\t\"foo\"", Some(ETAG)));
    }

    #[test]
    fn empty_entry_matches_a_bare_w_slash_etag() {
        // `'W/' + '' === 'W/'` in the JS original.
        assert!(inm("x, ", Some("W/")));
    }

    #[test]
    fn if_modified_since_compares_dates() {
        assert!(ims(LM, Some(LM)));
        assert!(ims(LATER, Some(LM)));
        assert!(!ims(EARLIER, Some(LM)));
    }

    #[test]
    fn if_modified_since_needs_last_modified() {
        assert!(!ims(LATER, None));
        assert!(!ims(LATER, Some("")));
    }

    #[test]
    fn unparsable_dates_are_stale() {
        assert!(!ims("garbage", Some(LM)));
        assert!(!ims(LATER, Some("garbage")));
    }

    #[test]
    fn obsolete_date_formats_are_understood() {
        assert!(ims("Saturday, 01-Jan-00 01:00:00 GMT", Some(LM)));
        assert!(ims("Sat Jan  1 01:00:00 2000", Some(LM)));
    }

    #[test]
    fn both_validators_must_pass_when_both_are_sent() {
        assert!(is_fresh(
            Some(ETAG),
            Some(LATER),
            None,
            Some(ETAG),
            Some(LM)
        ));
        assert!(!is_fresh(
            Some(ETAG),
            Some(EARLIER),
            None,
            Some(ETAG),
            Some(LM)
        ));
        assert!(!is_fresh(
            Some("\"bar\""),
            Some(LATER),
            None,
            Some(ETAG),
            Some(LM)
        ));
        assert!(!is_fresh(Some(ETAG), Some(LATER), None, Some(ETAG), None));
        assert!(is_fresh(Some("*"), Some(LATER), None, None, Some(LM)));
    }

    #[test]
    fn express_send_etag_round_trip() {
        let etag = "W/\"5-qvTGHdzF6KLavt4PO0gs2a6pQ00\"";
        assert!(inm(etag, Some(etag)));
        assert!(inm("\"5-qvTGHdzF6KLavt4PO0gs2a6pQ00\"", Some(etag)));
    }
}
