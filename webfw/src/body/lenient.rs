//! How the Express 5 parsers read `Content-Type` (body-parser 2 with type-is 2 and
//! content-type 2): leniently, so `application/json;;charset=utf-8` is JSON in UTF-8 where
//! body-parser 1 would not parse the request at all.

use std::borrow::Cow;

use http::HeaderValue;

use crate::http::content_type::parse_lenient;

/// The header as Node sees it: each byte one character (latin1), so that a non-ASCII byte in
/// a parameter does not hide the type.
fn latin1(v: &HeaderValue) -> Cow<'_, str> {
    match v.to_str() {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(v.as_bytes().iter().map(|&b| char::from(b)).collect()),
    }
}

/// type-is 2's `typeis(req, types)` on the `Content-Type`: its lenient type, when
/// media-typer 1 accepts it, against the types (compared as type-is 1 compares them).
pub(crate) fn type_matches(ct: Option<&HeaderValue>, types: &[String]) -> bool {
    let Some(ct) = ct else {
        return false;
    };
    crate::http::type_is::matches_lenient(Some(&latin1(ct)), types)
}

/// body-parser 2's `getCharset`: the lower-cased `charset` parameter (`None` when absent or
/// empty, which falls back to the parser's default).
pub(crate) fn charset(ct: &HeaderValue) -> Option<String> {
    let header = latin1(ct);
    parse_lenient(&header)
        .parameters
        .remove("charset")
        .filter(|c| !c.is_empty())
        .map(|c| c.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_types_and_charsets() {
        let v = HeaderValue::from_static("Application/JSON;;charset=UTF-8");
        assert!(type_matches(Some(&v), &["json".to_owned()]));
        assert_eq!(charset(&v).as_deref(), Some("utf-8"));
        let junk = HeaderValue::from_static("text/plain; charset");
        assert!(type_matches(Some(&junk), &["text/plain".to_owned()]));
        assert_eq!(charset(&junk), None);
        let bad = HeaderValue::from_static("text /plain");
        assert!(!type_matches(Some(&bad), &["*/*".to_owned()]));
        assert!(!type_matches(None, &["*/*".to_owned()]));
        let latin = HeaderValue::from_bytes(b"text/plain; x=\xe9; charset=latin1").unwrap();
        assert!(type_matches(Some(&latin), &["text/*".to_owned()]));
        assert_eq!(charset(&latin).as_deref(), Some("latin1"));
    }
}
