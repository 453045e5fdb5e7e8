//! Decoding a body in the charset the request names, as iconv-lite 0.4
//! does for body-parser: labels are compared in iconv-lite's canonical form
//! (lower case, punctuation dropped), a leading byte-order mark is removed,
//! and bytes a charset cannot map become U+FFFD. The single-byte, CJK and
//! UTF-16 charsets come from `encoding_rs`; `latin1`/`binary` and `ascii`
//! are done here because the WHATWG tables `encoding_rs` follows map them
//! to windows-1252.

use encoding_rs::Encoding;

/// iconv-lite's canonical name: lower case, a trailing `:1234` dropped,
/// only letters and digits kept (`UTF_8` → `utf8`).
///
/// ```
/// assert_eq!(webfw::body::canonical_charset("ISO-8859-1"), "iso88591");
/// ```
pub fn canonical_charset(label: &str) -> String {
    let lower = label.to_ascii_lowercase();
    let trimmed = match lower.rsplit_once(':') {
        Some((head, tail)) if tail.len() == 4 && tail.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => &lower,
    };
    trimmed
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect()
}

enum Codec {
    Utf8,
    Utf16Le,
    Utf16Be,
    /// UTF-16 of either order: a BOM decides, else which half of the first
    /// code units holds the zero bytes of ASCII text, else little-endian.
    Utf16Detect,
    Latin1,
    Ascii,
    Table(&'static Encoding),
}

fn codec(label: &str) -> Option<Codec> {
    let c = canonical_charset(label);
    Some(match c.as_str() {
        "utf8" | "unicode11utf8" | "cesu8" => Codec::Utf8,
        "utf16le" | "ucs2" => Codec::Utf16Le,
        "utf16be" => Codec::Utf16Be,
        "utf16" => Codec::Utf16Detect,
        "latin1" | "binary" | "iso88591" | "l1" | "cp819" | "ibm819" | "isoir100"
        | "csisolatin1" => Codec::Latin1,
        "ascii" | "usascii" | "ascii8bit" | "ansix341968" | "iso646irv" => Codec::Ascii,
        _ => Codec::Table(table(label, &c)?),
    })
}

/// An `encoding_rs` encoding for a label iconv-lite knows: the label as
/// given, or its canonical form re-punctuated the WHATWG way
/// (`windows1251` → `windows-1251`, `iso88592` → `iso-8859-2`).
fn table(label: &str, canonical: &str) -> Option<&'static Encoding> {
    let dashed = [
        ("windows", "windows-"),
        ("iso8859", "iso-8859-"),
        ("koi8", "koi8-"),
    ]
    .iter()
    .find_map(|(p, with)| {
        canonical
            .strip_prefix(p)
            .map(|rest| format!("{with}{rest}"))
    });
    let found = Encoding::for_label(label.trim().as_bytes())
        .or_else(|| Encoding::for_label(canonical.as_bytes()))
        .or_else(|| dashed.and_then(|d| Encoding::for_label(d.as_bytes())))?;
    // WHATWG-only encodings iconv-lite does not have.
    let whatwg_only = found == encoding_rs::REPLACEMENT
        || found == encoding_rs::X_USER_DEFINED
        || found == encoding_rs::UTF_16LE && !canonical.starts_with("utf16");
    (!whatwg_only).then_some(found)
}

/// `iconv.encodingExists(label)` for the charsets webfw decodes.
///
/// ```
/// assert!(webfw::body::charset_supported("windows-1251"));
/// assert!(webfw::body::charset_supported("UTF_16"));
/// assert!(!webfw::body::charset_supported("utf-9"));
/// ```
pub fn charset_supported(label: &str) -> bool {
    codec(label).is_some()
}

/// `iconv.decode(bytes, label)`: the text, or `None` for a charset webfw
/// does not know (body-parser's 415 `charset.unsupported`).
///
/// ```
/// use webfw::body::decode_charset;
/// assert_eq!(decode_charset(b"caf\xe9", "latin1").as_deref(), Some("café"));
/// assert_eq!(decode_charset(b"\xef\xbb\xbfhi", "utf-8").as_deref(), Some("hi"));
/// assert_eq!(decode_charset(b"\xff\xfeh\0i\0", "utf-16").as_deref(), Some("hi"));
/// assert_eq!(decode_charset(b"\xc0", "windows-1251").as_deref(), Some("А"));
/// assert_eq!(decode_charset(b"x", "utf-9"), None);
/// ```
pub fn decode_charset(bytes: &[u8], label: &str) -> Option<String> {
    let text = match codec(label)? {
        Codec::Utf8 => String::from_utf8_lossy(bytes).into_owned(),
        Codec::Latin1 => bytes.iter().map(|&b| char::from(b)).collect(),
        Codec::Ascii => bytes
            .iter()
            .map(|&b| if b < 0x80 { char::from(b) } else { '\u{fffd}' })
            .collect(),
        Codec::Utf16Le => utf16(bytes, encoding_rs::UTF_16LE),
        Codec::Utf16Be => utf16(bytes, encoding_rs::UTF_16BE),
        Codec::Utf16Detect => utf16(bytes, detect_utf16(bytes)),
        Codec::Table(enc) => enc.decode_without_bom_handling(bytes).0.into_owned(),
    };
    Some(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}

/// iconv-lite drops an odd trailing byte of UTF-16 rather than replacing it.
fn utf16(bytes: &[u8], enc: &'static Encoding) -> String {
    let even = &bytes[..bytes.len() & !1];
    enc.decode_without_bom_handling(even).0.into_owned()
}

fn detect_utf16(b: &[u8]) -> &'static Encoding {
    match b {
        [0xfe, 0xff, ..] => return encoding_rs::UTF_16BE,
        [0xff, 0xfe, ..] => return encoding_rs::UTF_16LE,
        _ => {}
    }
    let n = (b.len() & !1).min(64);
    let (mut be, mut le) = (0, 0);
    for pair in b[..n].chunks_exact(2) {
        if pair[0] == 0 && pair[1] != 0 {
            be += 1;
        }
        if pair[0] != 0 && pair[1] == 0 {
            le += 1;
        }
    }
    if be > le {
        encoding_rs::UTF_16BE
    } else {
        encoding_rs::UTF_16LE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iconv_outputs() {
        // Each expectation is what iconv-lite 0.4.24 prints for the same bytes.
        assert_eq!(decode_charset(b"{}", "utf-16").unwrap(), "\u{7d7b}");
        assert_eq!(decode_charset(b"\0{\0}", "utf-16").unwrap(), "{}");
        assert_eq!(decode_charset(b"\xfe\xff\0{\0}", "utf-16").unwrap(), "{}");
        assert_eq!(decode_charset(b"A", "utf-16le").unwrap(), "");
        assert_eq!(decode_charset(b"\x80\xe9", "latin1").unwrap(), "\u{80}é");
        assert_eq!(decode_charset(b"\x80\xe9", "windows-1252").unwrap(), "€é");
        assert_eq!(decode_charset(b"A\xff", "utf-8").unwrap(), "A\u{fffd}");
        assert_eq!(decode_charset(b"A\xe9", "ascii").unwrap(), "A\u{fffd}");
        assert_eq!(decode_charset(b"\xc1", "koi8-r").unwrap(), "а");
        assert_eq!(decode_charset(b"\x82\xa0", "shift_jis").unwrap(), "あ");
        assert_eq!(decode_charset(b"\xa1", "ISO_8859-2").unwrap(), "Ą");
        assert_eq!(decode_charset(b"A", "UTF_8").unwrap(), "A");
        assert_eq!(decode_charset(b"\xc4\xe3", "gbk").unwrap(), "你");
        assert_eq!(decode_charset(b"\xb0\xa1", "euc-kr").unwrap(), "가");
        assert_eq!(decode_charset(b"\xc0", "windows1251").unwrap(), "А");
    }

    #[test]
    fn unknown_charsets() {
        for label in [
            "utf-9",
            "utf-32",
            "x-user-defined",
            "iso-2022-kr",
            "",
            "koi8-x",
        ] {
            assert!(decode_charset(b"a", label).is_none(), "{label}");
        }
    }

    #[test]
    fn canonical_names() {
        assert_eq!(canonical_charset("UTF-8"), "utf8");
        assert_eq!(canonical_charset("windows-1252:2000"), "windows1252");
        assert_eq!(canonical_charset("Shift_JIS"), "shiftjis");
    }
}
