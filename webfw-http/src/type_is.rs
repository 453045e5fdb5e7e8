//! type-is 1.6: does a request's `Content-Type` match a list of types?
//!
//! Used by `req.is` and by the body parsers' `type` option. A type is an
//! extension name (`json`, `html`), a MIME type (`text/plain`), a wildcard
//! (`*/*`, `text/*`, `*/*+json`), a `+suffix` (`+json`), or one of the
//! shorthands `urlencoded` and `multipart`. The `Content-Type` is normalised
//! the way media-typer 0.3 does (lower-cased, parameters dropped; a malformed
//! value matches nothing); the types given are compared as written.
//!
//! ```
//! use webfw_http::type_is::has_body;
//! assert!(has_body(None, Some("0")));
//! assert!(has_body(Some("chunked"), None));
//! assert!(!has_body(None, None));
//! assert!(!has_body(None, Some("ten")));
//! ```

use std::borrow::Cow;

/// `typeis.hasBody(req)`: a request has a body when it has a
/// `Transfer-Encoding` header or a numeric `Content-Length` (even `0`).
///
/// ```
/// use webfw_http::type_is::has_body;
/// assert!(has_body(None, Some("0")));
/// assert!(has_body(Some("chunked"), None));
/// assert!(!has_body(None, None));
/// assert!(!has_body(None, Some("ten")));
/// ```
pub fn has_body(transfer_encoding: Option<&str>, content_length: Option<&str>) -> bool {
    transfer_encoding.is_some() || content_length.is_some_and(js_number_is_finite)
}

/// `!isNaN(value)` for a header string (`Number('')` and `Number(' ')` are 0).
fn js_number_is_finite(v: &str) -> bool {
    if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
        return true;
    }
    let v = v.trim_matches(super::is_js_whitespace);
    if v.is_empty() {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix("0x") {
        return !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    if matches!(lower.as_str(), "infinity" | "+infinity" | "-infinity") {
        return v.trim_start_matches(['+', '-']).starts_with('I');
    }
    // `f64::from_str` also takes "inf" and "nan", which `Number` does not.
    lower
        .bytes()
        .all(|b| b.is_ascii_digit() || b".eE+-".contains(&b))
        && v.parse::<f64>().is_ok()
}

/// The `Content-Type` as type-is compares it: `type/subtype+suffix` in lower
/// case without parameters, or `None` when media-typer 0.3 rejects the value
/// (bad characters, a space before `;`, a malformed parameter).
///
/// ```
/// use webfw_http::type_is::normalize_content_type;
/// assert_eq!(normalize_content_type("Application/JSON; charset=utf-8").as_deref(), Some("application/json"));
/// assert_eq!(normalize_content_type("text/plain;"), None);
/// assert_eq!(normalize_content_type("nope"), None);
/// ```
pub fn normalize_content_type(value: &str) -> Option<String> {
    let mut buf = [0u8; MAX_TYPE];
    normalize_into(value, &mut buf).map(str::to_owned)
}

/// A media type is two names of at most 127 bytes and a slash.
const MAX_TYPE: usize = 255;

/// [`normalize_content_type`] into a stack buffer: the body parsers test
/// every request's type, and an allocation for it costs more than the test.
fn normalize_into<'b>(value: &str, buf: &'b mut [u8; MAX_TYPE]) -> Option<&'b str> {
    let (ty, params) = match value.find(';') {
        Some(i) => (&value[..i], &value[i..]),
        None => (value, ""),
    };
    let out = buf.get_mut(..ty.len())?;
    out.copy_from_slice(ty.as_bytes());
    out.make_ascii_lowercase();
    let lower = std::str::from_utf8(out).ok()?;
    let (t, s) = lower.split_once('/')?;
    let valid = valid_name(t, b"!#$&^_-") && valid_name(s, b"!#$&^_.+-") && params_valid(params);
    valid.then_some(lower)
}

/// media-typer's names: an alphanumeric, then up to 126 more of `extra` or
/// alphanumerics.
fn valid_name(name: &str, extra: &[u8]) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && b.len() <= 127
        && b[0].is_ascii_alphanumeric()
        && b[1..]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || extra.contains(c))
}

/// media-typer's parameter list: `; *token *= *(token|quoted) *`, repeated
/// back to back to the end of the value.
fn params_valid(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let skip_spaces = |i: &mut usize| {
        while *i < b.len() && b[*i] == b' ' {
            *i += 1;
        }
    };
    while i < b.len() {
        if b[i] != b';' {
            return false;
        }
        i += 1;
        skip_spaces(&mut i);
        let start = i;
        while i < b.len() && crate::is_tchar(b[i]) {
            i += 1;
        }
        if i == start {
            return false;
        }
        skip_spaces(&mut i);
        if i >= b.len() || b[i] != b'=' {
            return false;
        }
        i += 1;
        skip_spaces(&mut i);
        if i < b.len() && b[i] == b'"' {
            i += 1;
            loop {
                match b.get(i) {
                    None => return false,
                    Some(b'"') => break,
                    Some(b'\\') => match b.get(i + 1) {
                        Some(&c) if (0x20..=0x7e).contains(&c) => i += 2,
                        _ => return false,
                    },
                    Some(&c)
                        if c == b' ' || c == b'!' || (0x23..=0x7e).contains(&c) || c >= 0x80 =>
                    {
                        i += 1;
                    }
                    Some(_) => return false,
                }
            }
            i += 1;
        } else {
            let start = i;
            while i < b.len() && crate::is_tchar(b[i]) {
                i += 1;
            }
            if i == start {
                return false;
            }
        }
        skip_spaces(&mut i);
    }
    true
}

/// type-is `normalize(type)`: shorthands and `+suffix` expanded, an
/// extension looked up (mime-types); `None` for an unknown extension.
fn normalize_expected(t: &str) -> Option<Cow<'_, str>> {
    match t {
        "urlencoded" => return Some(Cow::Borrowed("application/x-www-form-urlencoded")),
        "multipart" => return Some(Cow::Borrowed("multipart/*")),
        _ => {}
    }
    if t.starts_with('+') {
        return Some(Cow::Owned(format!("*/*{t}")));
    }
    if t.contains('/') {
        return Some(Cow::Borrowed(t));
    }
    super::mime::lookup_db(t).map(Cow::Borrowed)
}

/// type-is `mimeMatch(expected, actual)`.
fn mime_match(expected: &str, actual: &str) -> bool {
    let (Some((et, es)), Some((at, asub))) = (expected.split_once('/'), actual.split_once('/'))
    else {
        return false;
    };
    if es.contains('/') || asub.contains('/') {
        return false;
    }
    if et != "*" && et != at {
        return false;
    }
    if let Some(suffix) = es.strip_prefix('*')
        && suffix.starts_with('+')
    {
        return es.len() <= asub.len() + 1 && asub.ends_with(suffix);
    }
    es == "*" || es == asub
}

/// `typeis(contentType, types)`: the first type that matches, as type-is
/// returns it (the type as given, or the normalised `Content-Type` when the
/// type has a wildcard or is a `+suffix`). With no types, the normalised
/// `Content-Type` itself. `None` when nothing matches or the `Content-Type`
/// is missing or malformed.
///
/// ```
/// use webfw_http::type_is::type_is;
/// let ct = Some("application/vnd.api+json; charset=utf-8");
/// assert_eq!(type_is(ct, &["json"]), None);
/// assert_eq!(type_is(ct, &["+json"]).as_deref(), Some("application/vnd.api+json"));
/// assert_eq!(type_is(Some("text/html"), &["json", "html"]).as_deref(), Some("html"));
/// assert_eq!(type_is(Some("text/html"), &["text/*"]).as_deref(), Some("text/html"));
/// assert_eq!(type_is(Some("text/html"), &[] as &[&str]).as_deref(), Some("text/html"));
/// ```
pub fn type_is<S: AsRef<str>>(content_type: Option<&str>, types: &[S]) -> Option<String> {
    let mut buf = [0u8; MAX_TYPE];
    let actual = normalize_into(content_type?, &mut buf)?;
    if types.is_empty() {
        return Some(actual.to_owned());
    }
    let t = first_match(actual, types)?;
    Some(if t.starts_with('+') || t.contains('*') {
        actual.to_owned()
    } else {
        t.to_owned()
    })
}

/// type-is 2 (Express 5's `req.is` and body parsers): as [`type_is`], but
/// the `Content-Type` is read by content-type 2's lenient parse, so broken
/// parameters no longer make it unreadable.
///
/// ```
/// use webfw_http::type_is::{type_is, type_is_lenient};
/// let ct = Some("application/json; charset");
/// assert_eq!(type_is(ct, &["json"]), None);
/// assert_eq!(type_is_lenient(ct, &["json"]).as_deref(), Some("json"));
/// assert_eq!(type_is_lenient(Some(" Text/HTML ;;x"), &[] as &[&str]).as_deref(), Some("text/html"));
/// assert_eq!(type_is_lenient(Some("nope"), &["json"]), None);
/// ```
pub fn type_is_lenient<S: AsRef<str>>(content_type: Option<&str>, types: &[S]) -> Option<String> {
    let actual = crate::content_type::media_type_lenient(content_type?);
    if !crate::content_type::valid_media_type(&actual) {
        return None;
    }
    if types.is_empty() {
        return Some(actual.into_owned());
    }
    let t = first_match(&actual, types)?;
    Some(if t.starts_with('+') || t.contains('*') {
        actual.into_owned()
    } else {
        t.to_owned()
    })
}

/// Whether [`type_is_lenient`] finds a match (a non-empty list).
///
/// ```
/// use webfw_http::type_is::matches_lenient;
/// assert!(matches_lenient(Some("application/json;;charset=utf-8"), &["json"]));
/// ```
pub fn matches_lenient<S: AsRef<str>>(content_type: Option<&str>, types: &[S]) -> bool {
    content_type
        .map(crate::content_type::media_type_lenient)
        .is_some_and(|t| {
            crate::content_type::valid_media_type(&t) && first_match(&t, types).is_some()
        })
}

/// Whether `typeis(contentType, types)` finds a match (a non-empty list).
///
/// ```
/// use webfw_http::type_is::matches;
/// assert!(matches(Some("application/json; charset=utf-8"), &["json"]));
/// assert!(!matches(Some("text/plain"), &["json"]));
/// ```
pub fn matches<S: AsRef<str>>(content_type: Option<&str>, types: &[S]) -> bool {
    let mut buf = [0u8; MAX_TYPE];
    content_type
        .and_then(|ct| normalize_into(ct, &mut buf))
        .is_some_and(|actual| first_match(actual, types).is_some())
}

fn first_match<'t, S: AsRef<str>>(actual: &str, types: &'t [S]) -> Option<&'t str> {
    types
        .iter()
        .map(AsRef::as_ref)
        .find(|t| normalize_expected(t).is_some_and(|expected| mime_match(&expected, actual)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mime_matching() {
        assert!(mime_match("*/*", "text/plain"));
        assert!(mime_match("text/*", "text/plain"));
        assert!(!mime_match("text/*", "application/json"));
        assert!(mime_match("*/*+json", "application/ld+json"));
        assert!(!mime_match("*/*+json", "application/json"));
        assert!(mime_match("text/plain", "text/plain"));
        assert!(!mime_match("Text/plain", "text/plain"));
    }

    #[test]
    fn extensions_and_shorthands() {
        let form = Some("application/x-www-form-urlencoded");
        assert_eq!(
            type_is(form, &["urlencoded"]).as_deref(),
            Some("urlencoded")
        );
        assert_eq!(
            type_is(Some("multipart/form-data"), &["multipart"]).as_deref(),
            Some("multipart")
        );
        assert_eq!(
            type_is(Some("text/plain"), &["txt"]).as_deref(),
            Some("txt")
        );
        assert_eq!(type_is(Some("text/plain"), &["nosuchext"]), None);
        assert_eq!(
            type_is(Some("application/octet-stream"), &["bin"]).as_deref(),
            Some("bin")
        );
    }

    #[test]
    fn malformed_content_types_match_nothing() {
        assert_eq!(type_is(Some("text/plain ; charset=utf-8"), &["*/*"]), None);
        assert_eq!(type_is(Some("text/plain; charset"), &["*/*"]), None);
        assert_eq!(
            type_is(Some("text/plain; a=\"b\""), &["*/*"]).as_deref(),
            Some("text/plain")
        );
        assert_eq!(type_is(Some("text"), &["*/*"]), None);
        assert_eq!(type_is(None, &["*/*"]), None);
    }

    #[test]
    fn has_body_rules() {
        assert!(has_body(None, Some("")));
        assert!(has_body(None, Some(" 12 ")));
        assert!(has_body(None, Some("1e3")));
        assert!(has_body(None, Some("0x1f")));
        assert!(!has_body(None, Some("inf")));
        assert!(!has_body(None, Some("12abc")));
    }
}
