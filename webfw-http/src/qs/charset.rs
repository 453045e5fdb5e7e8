//! qs's charset options (`charset`, `charsetSentinel`, `interpretNumericEntities`), which
//! body-parser 2's urlencoded parser passes: how percent-escapes are decoded, the `utf8=✓`
//! field a form adds to say which charset it was sent in, and the `&#NNNN;` entities a browser
//! writes for characters an ISO-8859-1 form cannot hold.

use std::borrow::Cow;

use super::{decode_uri_component, hex_value};

/// The charset qs decodes percent-escapes with (`charset` option).
///
/// ```
/// use webfw_http::qs::{parse, Charset, QsOptions};
/// let latin1 = QsOptions { charset: Charset::Iso88591, ..QsOptions::default() };
/// assert_eq!(parse("name=caf%E9", &latin1).unwrap()["name"], "café");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Charset {
    /// `utf-8` (the default): escapes are UTF-8 bytes, decoded by `decodeURIComponent`; a
    /// string it would refuse is kept as written.
    #[default]
    Utf8,
    /// `iso-8859-1`: each `%XX` is the character U+00XX (JavaScript's `unescape`).
    Iso88591,
}

/// `utf8=%E2%9C%93`, what a form sent in UTF-8 carries (`encodeURIComponent('✓')`).
const UTF8_SENTINEL: &str = "utf8=%E2%9C%93";
/// `utf8=%26%2310003%3B`, what the same form sends in ISO-8859-1 (`✓` as an entity).
const ISO_SENTINEL: &str = "utf8=%26%2310003%3B";

/// `charsetSentinel`: the first part starting with `utf8=` decides the charset when it is one
/// of the two sentinels, and is skipped whatever its value. Returns the charset and the index
/// of the part to skip.
pub(super) fn sentinel<'a>(
    parts: impl Iterator<Item = &'a str>,
    charset: Charset,
) -> (Charset, Option<usize>) {
    for (i, part) in parts.enumerate() {
        if part.starts_with("utf8=") {
            let found = match part {
                UTF8_SENTINEL => Charset::Utf8,
                ISO_SENTINEL => Charset::Iso88591,
                _ => charset,
            };
            return (found, Some(i));
        }
    }
    (charset, None)
}

/// qs `utils.decode`: `+` is a space, then the escapes are decoded in `charset`.
pub(super) fn decode(s: &str, charset: Charset) -> String {
    let spaced = s.replace('+', " ");
    if !spaced.contains('%') {
        return spaced;
    }
    match charset {
        Charset::Utf8 => decode_uri_component(&spaced).unwrap_or(spaced),
        Charset::Iso88591 => unescape_latin1(&spaced),
    }
}

/// `str.replace(/%[0-9a-f]{2}/gi, unescape)`: every valid `%XX` becomes U+00XX; a `%` not
/// followed by two hex digits stays.
fn unescape_latin1(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let (Some(hi), Some(lo)) = (
                b.get(i + 1).copied().and_then(hex_value),
                b.get(i + 2).copied().and_then(hex_value),
            )
        {
            out.push_str(&s[last..i]);
            out.push(char::from(hi << 4 | lo));
            i += 3;
            last = i;
        } else {
            i += 1;
        }
    }
    out.push_str(&s[last..]);
    out
}

/// qs `interpretNumericEntities`: each `&#NNNN;` becomes the character it numbers, as
/// `String.fromCharCode` makes it (UTF-16 code units, so two entities can form a surrogate
/// pair; a lone surrogate becomes U+FFFD here, as Rust strings hold no lone surrogates).
pub(super) fn numeric_entities(s: &str) -> Cow<'_, str> {
    if !s.contains("&#") {
        return Cow::Borrowed(s);
    }
    let b = s.as_bytes();
    let mut units: Vec<u16> = Vec::with_capacity(s.len());
    let mut last = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'&' && b.get(i + 1) == Some(&b'#') {
            let digits = b[i + 2..].iter().take_while(|c| c.is_ascii_digit()).count();
            let end = i + 2 + digits;
            if digits > 0 && b.get(end) == Some(&b';') {
                units.extend(s[last..i].encode_utf16());
                push_char_code(&mut units, &s[i + 2..end]);
                i = end + 1;
                last = i;
                continue;
            }
        }
        i += 1;
    }
    units.extend(s[last..].encode_utf16());
    Cow::Owned(String::from_utf16_lossy(&units))
}

/// qs's replacement for one entity: a code point above U+FFFF becomes its surrogate pair,
/// anything else `String.fromCharCode(parseInt(digits, 10))` (the number modulo 2^16).
fn push_char_code(units: &mut Vec<u16>, digits: &str) {
    // `parseInt` of a long run of digits is a double (Infinity past ~309 digits).
    let n: f64 = digits.parse().unwrap_or(f64::INFINITY);
    if n > 65535.0 && n <= 1_114_111.0 {
        let c = char::from_u32(n as u32).unwrap_or('\u{fffd}');
        let mut buf = [0u16; 2];
        units.extend_from_slice(c.encode_utf16(&mut buf));
        return;
    }
    // ToUint16: NaN and infinities are 0, others taken modulo 2^16.
    let unit = if n.is_finite() {
        (n % 65536.0) as u16
    } else {
        0
    };
    units.push(unit);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_unescape() {
        assert_eq!(decode("caf%E9+%zz%4", Charset::Iso88591), "café %zz%4");
        assert_eq!(decode("%E2%9C%93", Charset::Iso88591), "â\u{9c}\u{93}");
        assert_eq!(decode("%E2%9C%93", Charset::Utf8), "✓");
        assert_eq!(decode("%E9", Charset::Utf8), "%E9");
    }

    #[test]
    fn entities() {
        assert_eq!(numeric_entities("a&#10003;b"), "a✓b");
        assert_eq!(numeric_entities("&#128512;"), "😀");
        assert_eq!(numeric_entities("&#55357;&#56832;"), "😀");
        assert_eq!(numeric_entities("&#65601;"), "\u{10041}");
        assert_eq!(numeric_entities("&#1114177;"), "A");
        assert_eq!(numeric_entities("&#x41; &#; &#12"), "&#x41; &#; &#12");
        assert_eq!(numeric_entities("&#55357;"), "\u{fffd}");
    }

    #[test]
    fn sentinels() {
        let parts = ["a=1", "utf8=%26%2310003%3B", "utf8=%E2%9C%93"];
        assert_eq!(
            sentinel(parts.into_iter(), Charset::Utf8),
            (Charset::Iso88591, Some(1))
        );
        assert_eq!(
            sentinel(["utf8=x", "b"].into_iter(), Charset::Iso88591),
            (Charset::Iso88591, Some(0))
        );
        assert_eq!(
            sentinel(["a"].into_iter(), Charset::Utf8),
            (Charset::Utf8, None)
        );
    }
}
