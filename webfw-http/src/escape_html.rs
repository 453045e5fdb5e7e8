//! HTML escaping exactly as the `escape-html` 1.0.3 package does it.
//!
//! ```
//! use webfw_http::escape_html::escape_html;
//! assert_eq!(escape_html(r#"<a href="x">Tom & Jerry's</a>"#),
//!            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
//! assert!(matches!(escape_html("plain"), std::borrow::Cow::Borrowed("plain")));
//! ```

use std::borrow::Cow;

/// Escapes the five characters `&`, `<`, `>`, `"` and `'` for HTML text and attribute values.
///
/// Returns the input unchanged (borrowed) when none of them occurs.
///
/// ```
/// use webfw_http::escape_html::escape_html;
/// assert_eq!(escape_html(r#"<a href="x">Tom & Jerry's</a>"#),
///            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
/// assert!(matches!(escape_html("plain"), std::borrow::Cow::Borrowed("plain")));
/// ```
pub fn escape_html(s: &str) -> Cow<'_, str> {
    let Some(first) = s.bytes().position(|b| replacement(b).is_some()) else {
        return Cow::Borrowed(s);
    };
    let mut out = String::with_capacity(s.len() + 16);
    out.push_str(&s[..first]);
    let mut last = first;
    // The five characters are ASCII, so byte positions are always char boundaries.
    for (i, b) in s.bytes().enumerate().skip(first) {
        if let Some(rep) = replacement(b) {
            out.push_str(&s[last..i]);
            out.push_str(rep);
            last = i + 1;
        }
    }
    out.push_str(&s[last..]);
    Cow::Owned(out)
}

fn replacement(b: u8) -> Option<&'static str> {
    match b {
        b'&' => Some("&amp;"),
        b'<' => Some("&lt;"),
        b'>' => Some("&gt;"),
        b'"' => Some("&quot;"),
        b'\'' => Some("&#39;"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_exactly_the_five_characters() {
        assert_eq!(escape_html("&<>\"'"), "&amp;&lt;&gt;&quot;&#39;");
    }

    #[test]
    fn leaves_other_characters_alone() {
        let s = "a/b\\c`d=e{f}g ✓ \u{0} \n";
        assert!(matches!(escape_html(s), Cow::Borrowed(x) if x == s));
    }

    #[test]
    fn empty_string_is_borrowed() {
        assert!(matches!(escape_html(""), Cow::Borrowed("")));
    }

    #[test]
    fn keeps_text_between_and_around_escapes() {
        assert_eq!(escape_html("x<y>z"), "x&lt;y&gt;z");
        assert_eq!(escape_html("<<"), "&lt;&lt;");
        assert_eq!(escape_html("é&é"), "é&amp;é");
    }

    #[test]
    fn does_not_double_decode_entities() {
        assert_eq!(escape_html("&amp;"), "&amp;amp;");
    }

    #[test]
    fn redirect_body_example_from_the_reference() {
        assert_eq!(
            escape_html("/foo%20bar?x=%3Cy%3E&z=%22q%22"),
            "/foo%20bar?x=%3Cy%3E&amp;z=%22q%22"
        );
    }
}
