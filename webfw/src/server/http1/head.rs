//! A request head, as Node's parser reads it, and the request parts made
//! of it.
//!
//! `webfw_http::h1::parse_head` finds the head at the start of the read
//! buffer and decides what Node's parser (llhttp) decides: refused (400, or
//! 431 past Node's 16 KiB count), not whole yet, or whole, with its body's
//! framing and whether the connection stays open. [`parts`] makes the
//! `http` request parts of it, the target kept as received for
//! `req.originalUrl`.

use bytes::Bytes;
use webfw_http::h1::{HeaderSpan, RequestHead};

use crate::server::requests::NODE_MAX_HEADERS;

/// The bytes of a target `http::Uri` refuses and Node takes: they are
/// percent-encoded in the `Uri`, and the target as received is kept.
fn needs_escape(b: u8) -> bool {
    matches!(
        b,
        b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}'
    )
}

/// The request's parts of `head` (the head's bytes, split off the buffer),
/// its headers in `headers` (an emptied map), and the target as received
/// when the `Uri` had to escape it (or drop its fragment); `None` for
/// Node's 400: `http` refuses the target or a header, or an HTTP/1.1
/// request has no `Host`.
#[inline]
pub(crate) fn parts(
    parsed: &RequestHead,
    head: &Bytes,
    spans: &[HeaderSpan],
    mut headers: http::HeaderMap,
) -> Option<(http::request::Parts, Option<String>)> {
    let slice = |(at, len): (u32, u32)| head.slice(at as usize..(at + len) as usize);
    let target = slice(parsed.target);
    // A fragment stays in `req.originalUrl`, as Node passes it on; the
    // `Uri` drops it.
    let (uri, raw) = if target.iter().any(|&b| needs_escape(b) || b == b'#') {
        escaped(&target)?
    } else {
        (http::Uri::from_maybe_shared(target).ok()?, None)
    };
    // Node puts the first 1,000 lines in `req.headers` and drops the rest.
    let spans = &spans[..spans.len().min(NODE_MAX_HEADERS)];
    headers.reserve(spans.len());
    let mut has_host = false;
    for span in spans {
        let name = span.name(head);
        has_host |= name.len() == 4 && name.eq_ignore_ascii_case(b"host");
        let name = http::HeaderName::from_bytes(name);
        let value = http::HeaderValue::from_maybe_shared(slice(span.value));
        headers.append(name.ok()?, value.ok()?);
    }
    let (mut parts, ()) = http::Request::new(()).into_parts();
    let method = parsed.method(head);
    if method != b"GET" {
        // One of llhttp's: the parser refused any other.
        parts.method = http::Method::from_bytes(method).ok()?;
    }
    parts.version = match (parsed.major, parsed.minor) {
        (1, 1) => http::Version::HTTP_11,
        (1, _) => http::Version::HTTP_10,
        (0, _) => http::Version::HTTP_09,
        _ => http::Version::HTTP_2,
    };
    // Node's server refuses an HTTP/1.1 request without Host.
    if parts.version == http::Version::HTTP_11 && !has_host {
        return None;
    }
    parts.uri = uri;
    parts.headers = headers;
    Some((parts, raw))
}

/// A target with bytes `http::Uri` refuses: the `Uri` of it escaped, and
/// the target as received.
#[cold]
fn escaped(target: &[u8]) -> Option<(http::Uri, Option<String>)> {
    let mut escaped = String::with_capacity(target.len() + 16);
    for &b in target {
        if needs_escape(b) {
            escaped.push_str(&format!("%{b:02X}"));
        } else {
            escaped.push(b as char);
        }
    }
    let uri = http::Uri::try_from(escaped).ok()?;
    Some((uri, Some(String::from_utf8_lossy(target).into_owned())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts_of(request: &'static [u8]) -> (http::request::Parts, Option<String>) {
        let bytes = Bytes::from_static(request);
        let mut spans = Vec::new();
        let head = webfw_http::h1::parse_head(&bytes, &mut spans)
            .unwrap()
            .unwrap();
        parts(&head, &bytes, &spans, http::HeaderMap::new()).unwrap()
    }

    #[test]
    fn a_target_http_refuses_is_escaped_and_kept_as_received() {
        let (parts, raw) = parts_of(b"GET /a|b\"c HTTP/1.1\r\nHost: a\r\n\r\n");
        assert_eq!(parts.uri, "/a%7Cb%22c");
        assert_eq!(raw.as_deref(), Some("/a|b\"c"));
        let (parts, raw) = parts_of(b"GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n");
        assert_eq!(parts.uri.path(), "/a");
        assert_eq!(raw.as_deref(), Some("/a#b"));
        let (parts, raw) = parts_of(b"GET /a?b HTTP/1.0\r\n\r\n");
        assert_eq!((parts.uri.path(), raw), ("/a", None));
        assert_eq!(parts.version, http::Version::HTTP_10);
    }

    #[test]
    fn methods_http_takes_that_node_does_not_are_refused() {
        let bytes = Bytes::from_static(b"PROPFIND / HTTP/1.1\r\nHost: a\r\n\r\n");
        let mut spans = Vec::new();
        let head = webfw_http::h1::parse_head(&bytes, &mut spans)
            .unwrap()
            .unwrap();
        let (parts, _) = parts(&head, &bytes, &spans, http::HeaderMap::new()).unwrap();
        assert_eq!(parts.method.as_str(), "PROPFIND");
    }
}
