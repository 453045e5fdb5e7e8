//! compression's `onHeaders` step: whether this response is compressed,
//! and with what, decided when its head is written, in the package's
//! order (filter, `no-transform`, `Vary`, threshold, an existing
//! encoding, HEAD, then the client's `Accept-Encoding`).

use std::borrow::Cow;
use std::sync::Arc;

use http::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE,
};
use http::{HeaderValue, Method};

use super::compressible::compressible_bytes;
use super::encoder::Coding;
use super::options::CompressionOptions;
use crate::request::Request;
use crate::response::Response;

/// What the middleware took from the request for the decision.
pub(super) struct Pending {
    pub(super) opts: Arc<CompressionOptions>,
    /// `Accept-Encoding`, absent or empty as `None` (`!req.headers[…]`).
    pub(super) accept_encoding: Option<HeaderValue>,
    /// The request as the custom filter sees it (none for the default).
    pub(super) request: Option<Request>,
}

impl Pending {
    pub(super) fn of(opts: &Arc<CompressionOptions>, req: &Request) -> Pending {
        let accept_encoding = req
            .headers()
            .get(ACCEPT_ENCODING)
            .filter(|v| !v.is_empty())
            .cloned();
        Pending {
            opts: opts.clone(),
            accept_encoding,
            request: opts.filter.is_some().then(|| req.snapshot()),
        }
    }
}

/// The codings offered to negotiator, and the ones preferred at equal q.
const OFFERED: [&str; 4] = ["br", "gzip", "deflate", "identity"];
const PREFERRED: [&str; 2] = ["br", "gzip"];

/// compression's `onResponseHeaders`.
pub(super) fn on_headers(p: Pending, res: &mut Response) {
    let passes = match (&p.opts.filter, &p.request) {
        (Some(filter), Some(req)) => filter(req, res),
        _ => compressible_type(res),
    };
    if !passes || no_transform(res) {
        return;
    }
    res.vary("Accept-Encoding");
    if below_threshold(res, p.opts.threshold) || !identity(res) {
        return;
    }
    if *res.method() == Method::HEAD {
        return;
    }
    let Some(coding) = negotiate(p.accept_encoding.as_ref(), &p.opts.enforce_encoding) else {
        return;
    };
    let encoder = coding.encoder(&p.opts);
    res.insert_header(CONTENT_ENCODING, HeaderValue::from_static(coding.token()));
    res.headers_mut().remove(CONTENT_LENGTH);
    res.set_encoder(encoder);
}

/// compression's default filter: a single `Content-Type` that
/// [`compressible`](super::compressible()) accepts.
pub(super) fn compressible_type(res: &Response) -> bool {
    let mut values = res.headers().get_all(CONTENT_TYPE).iter();
    match (values.next(), values.next()) {
        // Several values are an array in Node, which compressible refuses.
        (Some(v), None) => compressible_bytes(v.as_bytes()),
        _ => false,
    }
}

/// `Cache-Control: no-transform`, matched as
/// `/(?:^|,)\s*?no-transform\s*?(?:,|$)/i` against the header's values
/// joined with `,`.
fn no_transform(res: &Response) -> bool {
    res.headers()
        .get_all(CACHE_CONTROL)
        .iter()
        .flat_map(|v| v.as_bytes().split(|&b| b == b','))
        .any(|part| trim_space(part).eq_ignore_ascii_case(b"no-transform"))
}

/// `Number(res.getHeader('Content-Length')) < threshold || length < threshold`,
/// where `length` is the size of `res.end(chunk)`'s chunk when no
/// `Content-Length` is set (unknown for a streamed body).
fn below_threshold(res: &Response, threshold: f64) -> bool {
    let mut values = res.headers().get_all(CONTENT_LENGTH).iter();
    let (declared, set) = match (values.next(), values.next()) {
        (None, _) => (f64::NAN, false),
        (Some(v), None) => (js_number(&latin1(v.as_bytes())), !v.is_empty()),
        // An array: `Number([a, b])` is NaN, and an array is truthy.
        (Some(_), Some(_)) => (f64::NAN, true),
    };
    if declared < threshold {
        return true;
    }
    !set && res
        .committing_length()
        .is_some_and(|len| (len as f64) < threshold)
}

/// `(res.getHeader('Content-Encoding') || 'identity') === 'identity'`.
fn identity(res: &Response) -> bool {
    let mut values = res.headers().get_all(CONTENT_ENCODING).iter();
    match (values.next(), values.next()) {
        (None, _) => true,
        (Some(v), None) => v.is_empty() || v.as_bytes() == b"identity",
        _ => false,
    }
}

/// negotiator's choice among br, gzip, deflate and identity (br then gzip
/// first at equal q), or `enforce` for a request without `Accept-Encoding`
/// when it is one of them. `None`: identity.
fn negotiate(accept: Option<&HeaderValue>, enforce: &str) -> Option<Coding> {
    let chosen = match accept {
        Some(v) => {
            let text = latin1(v.as_bytes());
            let order = crate::http::negotiate::preferred_encodings_favouring(
                Some(&text),
                &OFFERED,
                &PREFERRED,
            );
            order.first().map(|&i| OFFERED[i])
        }
        None if OFFERED.contains(&enforce) => Some(enforce),
        // Without a header negotiator answers identity.
        None => None,
    };
    match chosen? {
        "br" => Some(Coding::Br),
        "gzip" => Some(Coding::Gzip),
        "deflate" => Some(Coding::Deflate),
        _ => None,
    }
}

/// Header bytes as Node reads them: Latin-1.
fn latin1(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) if s.is_ascii() => Cow::Borrowed(s),
        _ => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// JavaScript's white space among Latin-1 characters.
fn trim_space(s: &[u8]) -> &[u8] {
    let space = |b: &u8| matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ' | 0xa0);
    let start = s.iter().position(|b| !space(b)).unwrap_or(s.len());
    let end = s.iter().rposition(|b| !space(b)).map_or(start, |i| i + 1);
    &s[start..end]
}

/// JavaScript's `Number(string)`: white space trimmed, empty is 0, a
/// decimal literal (exponent allowed), `Infinity`, or a `0x`, `0o`, `0b`
/// integer; anything else NaN.
fn js_number(s: &str) -> f64 {
    let t = s.trim_matches(crate::http::is_js_whitespace);
    if t.is_empty() {
        return 0.0;
    }
    let radix = match t.get(..2) {
        Some("0x" | "0X") => 16,
        Some("0o" | "0O") => 8,
        Some("0b" | "0B") => 2,
        _ => 10,
    };
    if radix != 10 {
        let digits = &t[2..];
        if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
            return f64::NAN;
        }
        return digits.chars().fold(0.0, |n, c| {
            n * f64::from(radix) + f64::from(c.to_digit(radix).unwrap_or(0))
        });
    }
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    if unsigned == "Infinity" {
        return if t.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    // Rust's parser also takes "inf", "nan" and "infinity", which `Number`
    // does not: only digits, one point, and an exponent get that far.
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(i) => (&unsigned[..i], Some(&unsigned[i + 1..])),
        None => (unsigned, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = (!int.is_empty() || !frac.is_empty()) && digits(int) && digits(frac);
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    if !(mantissa_ok && exponent_ok) {
        return f64::NAN;
    }
    t.parse().unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_number_reads_what_javascript_reads() {
        for (s, n) in [
            ("", 0.0),
            ("  ", 0.0),
            ("1024", 1024.0),
            (" 12 ", 12.0),
            ("1e3", 1000.0),
            (".5", 0.5),
            ("5.", 5.0),
            ("+7", 7.0),
            ("-7", -7.0),
            ("0x10", 16.0),
            ("0b11", 3.0),
            ("0o17", 15.0),
            ("Infinity", f64::INFINITY),
            ("-Infinity", f64::NEG_INFINITY),
        ] {
            assert_eq!(js_number(s), n, "{s:?}");
        }
        for s in [
            "abc", "12abc", "inf", "nan", "infinity", ".", "1e", "-0x10", "0x", "1 2", "e5",
        ] {
            assert!(js_number(s).is_nan(), "{s:?}");
        }
    }

    #[test]
    fn negotiation_prefers_br_then_gzip_and_honours_enforce_only_without_a_header() {
        let h = |s: &'static str| HeaderValue::from_static(s);
        assert_eq!(
            negotiate(Some(&h("gzip, deflate, br")), "identity"),
            Some(Coding::Br)
        );
        assert_eq!(
            negotiate(Some(&h("deflate, gzip")), "identity"),
            Some(Coding::Gzip)
        );
        assert_eq!(negotiate(Some(&h("*")), "identity"), Some(Coding::Br));
        assert_eq!(
            negotiate(Some(&h("gzip;q=0, deflate")), "identity"),
            Some(Coding::Deflate)
        );
        assert_eq!(negotiate(Some(&h("identity, deflate")), "identity"), None);
        assert_eq!(negotiate(Some(&h("compress, zstd")), "gzip"), None);
        assert_eq!(negotiate(Some(&h("*;q=0")), "gzip"), None);
        assert_eq!(negotiate(None, "identity"), None);
        assert_eq!(negotiate(None, "gzip"), Some(Coding::Gzip));
        assert_eq!(negotiate(None, "br"), Some(Coding::Br));
        assert_eq!(negotiate(None, "zstd"), None);
        assert_eq!(negotiate(None, "GZIP"), None);
    }

    #[test]
    fn no_transform_is_a_whole_directive_in_any_case() {
        let req = crate::testing::request(Method::GET, "/");
        for (value, expected) in [
            ("no-transform", true),
            ("public, No-Transform", true),
            ("no-transform ,max-age=1", true),
            ("no-transformx", false),
            ("x-no-transform", false),
            ("public", false),
            ("", false),
        ] {
            let mut res = crate::testing::response(&req);
            res.set("Cache-Control", value);
            assert_eq!(no_transform(&res), expected, "{value:?}");
        }
    }
}
