//! URL encoding for `Location` headers and redirect bodies, as the `encodeurl` 2.0.3 package does it.
//!
//! ```
//! use webfw_http::encodeurl::encode_url;
//! assert_eq!(encode_url("/a%20b c%zz%E2%9C%93✓"), "/a%20b%20c%25zz%E2%9C%93%E2%9C%93");
//! assert!(matches!(encode_url("/ok?x=1#y"), std::borrow::Cow::Borrowed(_)));
//! ```

use std::borrow::Cow;

/// Percent-encodes the characters a URL may not carry, leaving valid `%XX` escapes intact.
///
/// Kept as is: `!`, `#`–`;`, `=`, `?`–`_`, `a`–`z`, `|`, `~`. Everything else (controls,
/// space, `"`, `<`, `>`, `` ` ``, `{`, `}`, DEL, non-ASCII) becomes `%XX` per UTF-8 byte with
/// uppercase hex; a `%` not followed by two hex digits becomes `%25`. A `&str` holds no lone
/// surrogates, so the package's U+FFFD substitution has nothing to do here.
///
/// Returns the input borrowed when nothing needs encoding.
///
/// ```
/// use webfw_http::encodeurl::encode_url;
/// assert_eq!(encode_url("/a%20b c%zz%E2%9C%93✓"), "/a%20b%20c%25zz%E2%9C%93%E2%9C%93");
/// assert!(matches!(encode_url("/ok?x=1#y"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn encode_url(s: &str) -> Cow<'_, str> {
    let bytes = s.as_bytes();
    let Some(first) = (0..bytes.len()).find(|&i| needs_encoding(bytes, i)) else {
        return Cow::Borrowed(s);
    };
    let mut out = String::with_capacity(s.len() + 16);
    out.push_str(&s[..first]);
    // Work byte-wise: every byte of a multi-byte character is outside the kept set, so
    // encoding each byte separately yields the character's UTF-8 escape sequence, and every
    // byte that is kept is ASCII.
    for i in first..bytes.len() {
        if needs_encoding(bytes, i) {
            push_percent(&mut out, bytes[i]);
        } else {
            out.push(char::from(bytes[i]));
        }
    }
    Cow::Owned(out)
}

/// Whether the byte at `i` must be replaced by its `%XX` form.
fn needs_encoding(bytes: &[u8], i: usize) -> bool {
    match bytes[i] {
        b'%' => !matches!(
            (bytes.get(i + 1), bytes.get(i + 2)),
            (Some(a), Some(b)) if a.is_ascii_hexdigit() && b.is_ascii_hexdigit()
        ),
        b => !is_kept(b),
    }
}

/// The byte set encodeurl never touches (`%` is handled separately).
fn is_kept(b: u8) -> bool {
    matches!(b, b'!' | b'#'..=b';' | b'=' | b'?'..=b'_' | b'a'..=b'z' | b'|' | b'~')
}

fn push_percent(out: &mut String, b: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push('%');
    out.push(char::from(HEX[usize::from(b >> 4)]));
    out.push(char::from(HEX[usize::from(b & 0x0f)]));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_example_mixes_valid_escapes_bad_percent_and_unicode() {
        assert_eq!(
            encode_url("/a%20b c%zz%E2%9C%93✓"),
            "/a%20b%20c%25zz%E2%9C%93%E2%9C%93"
        );
    }

    #[test]
    fn kept_characters_are_borrowed_untouched() {
        let all_kept: String = (0u8..=127)
            .filter(|&b| b != b'%' && is_kept(b))
            .map(char::from)
            .collect();
        assert_eq!(
            all_kept,
            "!#$&'()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_abcdefghijklmnopqrstuvwxyz|~"
        );
        assert!(matches!(encode_url(&all_kept), Cow::Borrowed(_)));
    }

    #[test]
    fn every_other_ascii_character_is_encoded_uppercase() {
        assert_eq!(encode_url(" \"<>`{}\x7f"), "%20%22%3C%3E%60%7B%7D%7F");
        assert_eq!(encode_url("\0\t\n\r\x1f"), "%00%09%0A%0D%1F");
    }

    #[test]
    fn non_ascii_is_encoded_as_utf8_bytes() {
        assert_eq!(encode_url("é"), "%C3%A9");
        assert_eq!(encode_url("/𝄞"), "/%F0%9D%84%9E");
        assert_eq!(encode_url("\u{FFFD}"), "%EF%BF%BD");
    }

    #[test]
    fn valid_percent_escapes_are_not_double_encoded() {
        assert!(matches!(
            encode_url("%41%2f%Ff"),
            Cow::Borrowed("%41%2f%Ff")
        ));
    }

    #[test]
    fn percent_without_two_hex_digits_becomes_percent_25() {
        assert_eq!(encode_url("%"), "%25");
        assert_eq!(encode_url("%a"), "%25a");
        assert_eq!(encode_url("%g0"), "%25g0");
        assert_eq!(encode_url("%0g"), "%250g");
        assert_eq!(encode_url("100%"), "100%25");
        assert_eq!(encode_url("%%41"), "%25%41");
        assert_eq!(encode_url("%%%"), "%25%25%25");
        assert_eq!(encode_url("%é"), "%25%C3%A9");
    }

    #[test]
    fn characters_after_a_bad_percent_follow_their_own_rule() {
        assert_eq!(encode_url("%[x]"), "%25[x]");
        assert_eq!(encode_url("%|"), "%25|");
    }

    #[test]
    fn redirect_location_example_from_the_reference() {
        assert_eq!(
            encode_url("/foo bar?x=<y>&z=\"q\""),
            "/foo%20bar?x=%3Cy%3E&z=%22q%22"
        );
    }

    #[test]
    fn empty_string_is_borrowed() {
        assert!(matches!(encode_url(""), Cow::Borrowed("")));
    }
}
