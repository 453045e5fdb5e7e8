//! `Content-Type` parsing as content-type 2.1 does it (what body-parser 2 and type-is 2, and so
//! Express 5, use): it never fails. The type is the text before the first `;`, trimmed of
//! spaces and tabs and lower-cased; each `;`-separated parameter with an `=` is kept (the first
//! of a repeated name wins), anything else is skipped. So `application/json;;charset=utf-8` is
//! JSON in UTF-8, where content-type 1 ([`parse`](super::parse)) throws.
//!
//! ```
//! use webfw_http::content_type::parse_lenient;
//! let ct = parse_lenient("Application/JSON;;charset=utf-8");
//! assert_eq!(ct.media_type, "application/json");
//! assert_eq!(ct.parameters["charset"], "utf-8");
//! ```

use std::borrow::Cow;

use super::ContentType;

/// content-type 2's `parse(header)`: never fails. Names are lower-cased, values kept as written
/// (a quoted value unquoted and unescaped, an unquoted one trimmed of spaces and tabs); a
/// parameter without `=` is skipped and a repeated name keeps its first value. The type is not
/// checked: `valid_media_type` says whether type-is would use it.
///
/// ```
/// use webfw_http::content_type::parse_lenient;
/// let ct = parse_lenient(r#"text/plain ; charset="ut\f-8" junk; charset=latin1; x"#);
/// assert_eq!(ct.media_type, "text/plain");
/// assert_eq!(ct.parameters["charset"], "utf-8");
/// assert_eq!(ct.parameters.len(), 1);
/// assert_eq!(parse_lenient("").media_type, "");
/// ```
pub fn parse_lenient(header: &str) -> ContentType {
    // One content-type 2 parser (`v2`); this view sorts the parameters by
    // name, as the content-type 1 type does.
    let ct = super::v2::parse(header);
    ContentType {
        media_type: ct.media_type,
        parameters: ct.parameters.into_iter().collect(),
    }
}

/// content-type 2's `parse(header, { parameters: false }).type`: the text before the first
/// `;`, trimmed of spaces and tabs, lower-cased (borrowed when it already is).
///
/// ```
/// use webfw_http::content_type::media_type_lenient;
/// assert_eq!(media_type_lenient(" application/json;;charset=utf-8"), "application/json");
/// assert_eq!(media_type_lenient("Text/Plain"), "text/plain");
/// ```
pub fn media_type_lenient(header: &str) -> Cow<'_, str> {
    let t = trim_ows(&header[..find_semi(header.as_bytes(), 0)]);
    // JavaScript's `toLowerCase` lowers non-ASCII letters too (`É` of a latin1 header).
    if t.bytes().any(|c| c.is_ascii_uppercase() || !c.is_ascii()) {
        Cow::Owned(t.to_lowercase())
    } else {
        Cow::Borrowed(t)
    }
}

/// media-typer 1.1's `test`: whether a lower-cased type is `type/subtype` with type-is 2's
/// name rules (an alphanumeric, then up to 126 of `!#$&^_-` or alphanumerics; the subtype may
/// also hold `.` and `+`), with optional spaces around. type-is 2 matches nothing otherwise.
///
/// ```
/// use webfw_http::content_type::valid_media_type;
/// assert!(valid_media_type("application/vnd.api+json"));
/// assert!(!valid_media_type("text"));
/// assert!(!valid_media_type("text/pl ain"));
/// ```
pub fn valid_media_type(media_type: &str) -> bool {
    let t = media_type.trim_matches(' ');
    let Some((ty, sub)) = t.split_once('/') else {
        return false;
    };
    name_ok(ty, b"!#$&^_-") && name_ok(sub, b"!#$&^_.+-")
}

fn name_ok(name: &str, extra: &[u8]) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && b.len() <= 127
        && b[0].is_ascii_alphanumeric()
        && b[1..]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || extra.contains(c))
}

fn find_semi(b: &[u8], from: usize) -> usize {
    b[from..]
        .iter()
        .position(|&c| c == b';')
        .map_or(b.len(), |p| from + p)
}

fn trim_ows(s: &str) -> &str {
    s.trim_matches([' ', '\t'])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(h: &str) -> Vec<(String, String)> {
        parse_lenient(h).parameters.into_iter().collect()
    }

    #[test]
    fn type_is_trimmed_and_lowercased() {
        assert_eq!(parse_lenient("\t TEXT/Html \t").media_type, "text/html");
        assert_eq!(parse_lenient("TÉXT/a; É=1").media_type, "téxt/a");
        assert_eq!(media_type_lenient("TÉXT/a"), "téxt/a");
        assert_eq!(parse_lenient("a b;c=d").media_type, "a b");
        assert_eq!(parse_lenient(";charset=x").media_type, "");
    }

    #[test]
    fn junk_parameters_are_skipped() {
        assert_eq!(
            params("application/json;;charset=utf-8"),
            [("charset".into(), "utf-8".into())]
        );
        assert_eq!(params("text/plain; charset"), []);
        assert_eq!(
            params("text/plain; junk ; Charset = Latin1 ;"),
            [("charset".into(), "Latin1".into())]
        );
        // Everything up to the next `;` is the value, `=` included.
        assert_eq!(params("a/b; x=1=2"), [("x".into(), "1=2".into())]);
        assert_eq!(params("a/b; =v"), [("".into(), "v".into())]);
    }

    #[test]
    fn quoted_values() {
        assert_eq!(
            params(r#"a/b; x="1;2\"3" trailing; y=4"#),
            [("x".into(), "1;2\"3".into()), ("y".into(), "4".into())]
        );
        // An unterminated quote ends the header and sets nothing.
        assert_eq!(params(r#"a/b; x="open; y=2"#), []);
        assert_eq!(params(r#"a/b; x="""#), [("x".into(), "".into())]);
    }

    #[test]
    fn first_value_wins() {
        assert_eq!(
            params("a/b; charset=utf-8; CHARSET=latin1"),
            [("charset".into(), "utf-8".into())]
        );
    }

    #[test]
    fn media_typer_test() {
        assert!(valid_media_type("text/plain"));
        assert!(valid_media_type(" text/plain "));
        assert!(!valid_media_type("text/"));
        assert!(!valid_media_type("/plain"));
        assert!(!valid_media_type("te+xt/plain"));
        assert!(!valid_media_type("text/plain/x"));
        assert!(!valid_media_type(&format!("a/{}", "b".repeat(128))));
        assert_eq!(media_type_lenient("x/y"), Cow::Borrowed("x/y"));
    }
}
