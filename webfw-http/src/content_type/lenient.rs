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
use std::collections::BTreeMap;

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
    let b = header.as_bytes();
    let type_end = find_semi(b, 0);
    let media_type = trim_ows(&header[..type_end]).to_ascii_lowercase();
    let mut parameters = BTreeMap::new();
    let mut i = type_end;
    // `i` is at a `;` (or the end) at the top of each turn.
    'param: while i < b.len() {
        i = skip_ows(b, i + 1);
        let key_start = i;
        while i < b.len() {
            match b[i] {
                b';' => continue 'param,
                b'=' => {
                    let key = trim_ows(&header[key_start..i]).to_ascii_lowercase();
                    i = skip_ows(b, i + 1);
                    if b.get(i) == Some(&b'"') {
                        let (value, end) = quoted(header, i + 1);
                        i = end;
                        if let Some(value) = value {
                            parameters.entry(key).or_insert(value);
                        }
                    } else {
                        let end = find_semi(b, i);
                        parameters
                            .entry(key)
                            .or_insert_with(|| trim_ows(&header[i..end]).to_owned());
                        i = end;
                    }
                    continue 'param;
                }
                _ => i += 1,
            }
        }
    }
    ContentType {
        media_type,
        parameters,
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
    if t.bytes().any(|c| c.is_ascii_uppercase()) {
        Cow::Owned(t.to_ascii_lowercase())
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

/// A quoted value starting after its `"`: the value (`None` when the quote never closes, which
/// content-type 2 then drops) and the index of the next `;` or the end.
fn quoted(header: &str, start: usize) -> (Option<String>, usize) {
    let mut value = String::new();
    let mut chars = header[start..].char_indices();
    while let Some((off, c)) = chars.next() {
        match c {
            '"' => {
                let after = start + off + 1;
                return (Some(value), find_semi(header.as_bytes(), after));
            }
            // A backslash takes the next character as it is; one at the very end is kept.
            '\\' => match chars.next() {
                Some((_, next)) => value.push(next),
                None => value.push('\\'),
            },
            c => value.push(c),
        }
    }
    (None, header.len())
}

fn find_semi(b: &[u8], from: usize) -> usize {
    b[from..]
        .iter()
        .position(|&c| c == b';')
        .map_or(b.len(), |p| from + p)
}

fn skip_ows(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t') {
        i += 1;
    }
    i
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
