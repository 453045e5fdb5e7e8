//! What send 1.2 (Express 5) decides differently from send 0.19 (Express 4)
//! once a file is found: its `Content-Type` (mime-types 3, lower-case
//! `charset=utf-8`), how `Range` is read (range-parser 1.3: a malformed
//! header is ignored) and freshness (fresh 2: `If-None-Match` decides
//! alone). [`respond`](super::send::respond) is generic over these rules,
//! so each Express gets its own copy and the request path has no branch.
//! The dotfiles default is the other difference; it is an option
//! ([`Config::dotfiles`](super::options::Config)) set when the flavour is
//! chosen.

use std::path::Path;

use http::HeaderValue;

use crate::http::range::ParsedRange;

/// One send's rules.
pub(crate) trait SendRules {
    /// send's `type(path)`: the `Content-Type` of a file.
    fn content_type(path: &Path) -> HeaderValue;
    /// The `Range` header (already known to start with `bytes=`) of a file
    /// of `size` bytes, ranges combined.
    fn parse_range(size: u64, header: &str) -> ParsedRange;
    /// `fresh(req.headers, {etag, 'last-modified'})`.
    fn is_fresh(
        if_none_match: Option<&str>,
        if_modified_since: Option<&str>,
        cache_control: Option<&str>,
        etag: Option<&str>,
        last_modified: Option<&str>,
    ) -> bool;
}

/// send 0.19 with mime 1.6, range-parser 1.2 and fresh 0.5 (Express 4).
pub(crate) struct Send0;

impl SendRules for Send0 {
    #[inline]
    fn content_type(path: &Path) -> HeaderValue {
        super::send::content_type_of(path)
    }

    #[inline]
    fn parse_range(size: u64, header: &str) -> ParsedRange {
        crate::http::range::parse(size, header, true)
    }

    #[inline]
    fn is_fresh(
        if_none_match: Option<&str>,
        if_modified_since: Option<&str>,
        cache_control: Option<&str>,
        etag: Option<&str>,
        last_modified: Option<&str>,
    ) -> bool {
        crate::http::fresh::is_fresh(
            if_none_match,
            if_modified_since,
            cache_control,
            etag,
            last_modified,
        )
    }
}

/// send 1.2 with mime-types 3, range-parser 1.3 and fresh 2 (Express 5).
pub(crate) struct Send1;

impl SendRules for Send1 {
    fn content_type(path: &Path) -> HeaderValue {
        // Only the base name decides (Node's `extname`): read just it.
        let b = path.as_os_str().as_encoded_bytes();
        let end = b.iter().rposition(|&c| c != b'/').map_or(0, |i| i + 1);
        let start = b[..end]
            .iter()
            .rposition(|&c| c == b'/')
            .map_or(0, |i| i + 1);
        let base = match std::str::from_utf8(&b[start..end]) {
            Ok(s) => std::borrow::Cow::Borrowed(s),
            Err(_) => String::from_utf8_lossy(&b[start..end]),
        };
        match crate::http::mime::v3::file_content_type(&base) {
            std::borrow::Cow::Borrowed(t) => HeaderValue::from_static(t),
            std::borrow::Cow::Owned(t) => HeaderValue::from_str(&t)
                .unwrap_or_else(|_| HeaderValue::from_static("application/octet-stream")),
        }
    }

    fn parse_range(size: u64, header: &str) -> ParsedRange {
        crate::http::range::parse_strict(size, header, true)
    }

    fn is_fresh(
        if_none_match: Option<&str>,
        if_modified_since: Option<&str>,
        cache_control: Option<&str>,
        etag: Option<&str>,
        last_modified: Option<&str>,
    ) -> bool {
        crate::http::fresh::is_fresh_v2(
            if_none_match,
            if_modified_since,
            cache_control,
            etag,
            last_modified,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_sends_differ_where_express_does() {
        let js = Path::new("/srv/app.js");
        assert_eq!(
            Send0::content_type(js),
            "application/javascript; charset=UTF-8"
        );
        assert_eq!(Send1::content_type(js), "text/javascript; charset=utf-8");
        let ico = Path::new("/srv/favicon.ico");
        assert_eq!(Send1::content_type(ico), "image/vnd.microsoft.icon");
        let md = Path::new("/srv/README.md");
        assert_eq!(Send1::content_type(md), "text/markdown; charset=utf-8");
        assert_eq!(
            Send0::parse_range(10, "bytes=abc"),
            ParsedRange::Unsatisfiable
        );
        assert_eq!(Send1::parse_range(10, "bytes=abc"), ParsedRange::Malformed);
        let (tag, lm) = (Some("\"a\""), Some("Sat, 01 Jan 2000 00:00:00 GMT"));
        let old = Some("Fri, 31 Dec 1999 00:00:00 GMT");
        assert!(!Send0::is_fresh(tag, old, None, tag, lm));
        assert!(Send1::is_fresh(tag, old, None, tag, lm));
    }
}
