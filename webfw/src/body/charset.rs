//! Decoding a body in the charset the request names, as iconv-lite 0.4.24
//! does for body-parser 1.20: labels are compared in iconv-lite's canonical
//! form (lower case, punctuation dropped), exactly the charsets it knows are
//! known, the Unicode ones drop a leading byte-order mark, and bytes a
//! charset cannot map become U+FFFD. The single-byte and double-byte
//! charsets, and every name of theirs, are generated from iconv-lite's own
//! tables (`charset_tables.rs`, `dbcs_tables.rs`, decoded by `dbcs.rs`);
//! UTF-8, UTF-16 and UTF-7 are done by hand. A JavaScript string may hold a
//! lone surrogate, a Rust one may not: where iconv-lite writes one, here is
//! U+FFFD. `iconv_oracle.rs` compares the double-byte and UTF-16 decoders
//! with iconv-lite's answers (`webfw/tests/oracle/iconv.js`).

use base64::Engine;

use super::charset_tables::{NAMES, TABLES};
use super::dbcs_tables::NAMES as DBCS_NAMES;

/// iconv-lite's canonical name: lower case, a trailing `:1234` dropped,
/// only letters and digits kept (`UTF_8` → `utf8`).
pub(crate) fn canonical_charset(label: &str) -> String {
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

/// The Unicode charsets: all that `express.json` (`utf-*` labels) and
/// `express.urlencoded` (UTF-8) decode. Kept apart from [`Codec`] so that
/// those two parsers link none of the single- and double-byte tables.
#[derive(Clone, Copy)]
enum Unicode {
    Utf8,
    Utf16Le,
    Utf16Be,
    /// UTF-16 of either order: a BOM decides, else which half of the first
    /// code units holds the zero bytes of ASCII text, else little-endian.
    Utf16Detect,
    Utf7,
    /// RFC 3501's variant: `&` opens base64, `,` stands for `/`.
    Utf7Imap,
}

impl Unicode {
    /// The codec of a canonical name, if it is a Unicode one.
    fn of(canonical: &str) -> Option<Unicode> {
        Some(match canonical {
            "utf8" | "unicode11utf8" | "cesu8" => Unicode::Utf8,
            "utf16le" | "ucs2" => Unicode::Utf16Le,
            "utf16be" => Unicode::Utf16Be,
            "utf16" => Unicode::Utf16Detect,
            "utf7" | "unicode11utf7" => Unicode::Utf7,
            "utf7imap" => Unicode::Utf7Imap,
            _ => return None,
        })
    }

    /// The text, without the leading U+FEFF that iconv-lite's `bomAware`
    /// codecs (these, and no others) drop.
    fn decode(self, bytes: &[u8]) -> String {
        let text = match self {
            Unicode::Utf8 => String::from_utf8_lossy(bytes).into_owned(),
            Unicode::Utf16Le => utf16(bytes, u16::from_le_bytes),
            Unicode::Utf16Be => utf16(bytes, u16::from_be_bytes),
            Unicode::Utf16Detect => utf16(bytes, detect_utf16(bytes)),
            Unicode::Utf7 => super::utf7::decode(bytes, b'+', false),
            Unicode::Utf7Imap => super::utf7::decode(bytes, b'&', true),
        };
        match text.strip_prefix('\u{feff}') {
            Some(rest) => rest.to_owned(),
            None => text,
        }
    }
}

enum Codec {
    Unicode(Unicode),
    /// `binary`: each byte is the code point of the same number.
    Binary,
    /// Node's `buf.toString('base64')` and `('hex')`: the bytes written out.
    Base64,
    Hex,
    /// A single-byte table: its index in [`TABLES`].
    Single(usize),
    /// A double-byte charset: its index in `dbcs_tables::CODECS`.
    Double(usize),
}

fn codec(label: &str) -> Option<Codec> {
    let c = canonical_charset(label);
    if let Some(unicode) = Unicode::of(&c) {
        return Some(Codec::Unicode(unicode));
    }
    Some(match c.as_str() {
        "binary" => Codec::Binary,
        "base64" => Codec::Base64,
        "hex" => Codec::Hex,
        name => match NAMES.binary_search_by_key(&name, |&(n, _)| n) {
            Ok(i) => Codec::Single(usize::from(NAMES[i].1)),
            Err(_) => {
                let i = DBCS_NAMES.binary_search_by_key(&name, |&(n, _)| n).ok()?;
                Codec::Double(usize::from(DBCS_NAMES[i].1))
            }
        },
    })
}

/// `iconv.encodingExists(label)`.
pub(crate) fn charset_supported(label: &str) -> bool {
    codec(label).is_some()
}

/// `iconv.decode(bytes, label)`: the text, or `None` for a charset
/// iconv-lite does not know (body-parser's 415 `charset.unsupported`).
pub(crate) fn decode_charset(bytes: &[u8], label: &str) -> Option<String> {
    Some(match codec(label)? {
        Codec::Unicode(unicode) => unicode.decode(bytes),
        Codec::Binary => bytes.iter().map(|&b| char::from(b)).collect(),
        Codec::Base64 => base64::engine::general_purpose::STANDARD.encode(bytes),
        Codec::Hex => {
            const DIGITS: &[u8; 16] = b"0123456789abcdef";
            bytes
                .iter()
                .flat_map(|&b| [DIGITS[usize::from(b >> 4)], DIGITS[usize::from(b & 15)]])
                .map(char::from)
                .collect()
        }
        Codec::Single(table) => single_byte(bytes, TABLES[table]),
        Codec::Double(codec) => super::dbcs::decode(bytes, codec),
    })
}

/// [`decode_charset`] for a label of a Unicode charset, `None` for any
/// other: what `express.json` decodes, whose labels start with `utf-`
/// (none of iconv-lite's other charsets has such a name).
pub(crate) fn decode_unicode(bytes: &[u8], label: &str) -> Option<String> {
    Some(Unicode::of(&canonical_charset(label))?.decode(bytes))
}

/// UTF-8 as iconv-lite decodes it: U+FFFD for each invalid sequence, a
/// leading byte-order mark dropped.
pub(crate) fn decode_utf8(bytes: &[u8]) -> String {
    Unicode::Utf8.decode(bytes)
}

/// A table of 128 characters maps the high half (the low half is ASCII);
/// one of 256 maps every byte.
fn single_byte(bytes: &[u8], table: &str) -> String {
    let chars: Vec<char> = table.chars().collect();
    let offset = 256 - chars.len();
    bytes
        .iter()
        .map(|&b| match usize::from(b).checked_sub(offset) {
            Some(i) => chars[i],
            None => char::from(b),
        })
        .collect()
}

/// Node's UTF-16 (iconv-lite's own for big-endian): each pair of bytes is a
/// code unit, an odd trailing byte is dropped rather than replaced.
fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> String {
    let units = bytes.chunks_exact(2).map(|pair| unit([pair[0], pair[1]]));
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// iconv-lite's `utf16` decoder: a BOM decides, else which half of the
/// first 32 code units holds more zero bytes of ASCII text, else
/// little-endian.
fn detect_utf16(b: &[u8]) -> fn([u8; 2]) -> u16 {
    match b {
        [0xfe, 0xff, ..] => return u16::from_be_bytes,
        [0xff, 0xfe, ..] => return u16::from_le_bytes,
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
        u16::from_be_bytes
    } else {
        u16::from_le_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_charset_as_documented() {
        assert_eq!(canonical_charset("ISO-8859-1"), "iso88591");
    }

    #[test]
    fn charset_supported_as_documented() {
        assert!(charset_supported("windows-1251"));
        assert!(charset_supported("UTF_16"));
        assert!(charset_supported("utf-7"));
        assert!(!charset_supported("utf-32"));
    }

    #[test]
    fn decode_charset_as_documented() {
        assert_eq!(
            decode_charset(b"caf\xe9", "latin1").as_deref(),
            Some("café")
        );
        assert_eq!(
            decode_charset(b"\xef\xbb\xbfhi", "utf-8").as_deref(),
            Some("hi")
        );
        assert_eq!(
            decode_charset(b"\xff\xfeh\0i\0", "utf-16").as_deref(),
            Some("hi")
        );
        assert_eq!(
            decode_charset(b"\xc0", "windows-1251").as_deref(),
            Some("А")
        );
        assert_eq!(
            decode_charset(b"+AOk-t+AOk-", "utf-7").as_deref(),
            Some("été")
        );
        assert_eq!(decode_charset(b"hi", "hex").as_deref(), Some("6869"));
        assert_eq!(decode_charset(b"x", "utf-32"), None);
    }

    #[test]
    fn decode_unicode_is_decode_charset_for_the_unicode_labels() {
        let inputs: [&[u8]; 6] = [
            b"",
            b"\xef\xbb\xbf{}",
            b"\xff\xfe{\0}\0",
            b"\0{\0}",
            b"+AOk-\xff",
            b"&AOk-,x",
        ];
        for label in [
            "utf-8",
            "UTF8",
            "cesu8",
            "utf-16",
            "utf-16le",
            "ucs-2",
            "utf-16be",
            "utf-7",
            "utf-7-imap",
            "unicode-1-1-utf-8",
        ] {
            for bytes in inputs {
                assert_eq!(decode_unicode(bytes, label), decode_charset(bytes, label));
                assert!(decode_unicode(bytes, label).is_some(), "{label}");
            }
        }
        for label in ["utf-32", "utf-9", "latin1", "hex", "gbk"] {
            assert_eq!(decode_unicode(b"x", label), None, "{label}");
        }
        assert_eq!(decode_utf8(b"\xef\xbb\xbfA\xff"), "A\u{fffd}");
    }

    #[test]
    fn iconv_outputs() {
        // Each expectation is what iconv-lite 0.4.24 prints for the same bytes.
        assert_eq!(decode_charset(b"{}", "utf-16").unwrap(), "\u{7d7b}");
        assert_eq!(decode_charset(b"\0{\0}", "utf-16").unwrap(), "{}");
        assert_eq!(decode_charset(b"\xfe\xff\0{\0}", "utf-16").unwrap(), "{}");
        assert_eq!(decode_charset(b"A", "utf-16le").unwrap(), "");
        assert_eq!(decode_charset(b"\x80\xe9", "latin1").unwrap(), "\u{80}é");
        assert_eq!(decode_charset(b"\x80\xe9", "binary").unwrap(), "\u{80}é");
        assert_eq!(
            decode_charset(b"\x80\xe9\x81", "windows-1252").unwrap(),
            "€é\u{fffd}"
        );
        assert_eq!(decode_charset(b"A\xff", "utf-8").unwrap(), "A\u{fffd}");
        assert_eq!(
            decode_charset(b"A\xe9\x7f", "ascii").unwrap(),
            "A\u{fffd}\u{7f}"
        );
        assert_eq!(decode_charset(b"\xc1", "koi8-r").unwrap(), "а");
        assert_eq!(decode_charset(b"\x82\xa0", "shift_jis").unwrap(), "あ");
        assert_eq!(decode_charset(b"\xa1", "ISO_8859-2").unwrap(), "Ą");
        assert_eq!(decode_charset(b"A", "UTF_8").unwrap(), "A");
        assert_eq!(decode_charset(b"\xc4\xe3", "gbk").unwrap(), "你");
        assert_eq!(decode_charset(b"\xb0\xa1", "euc-kr").unwrap(), "가");
        assert_eq!(decode_charset(b"\xc0", "windows1251").unwrap(), "А");
        assert_eq!(decode_charset(b"\x80\xfe", "cp437").unwrap(), "Ç■");
        assert_eq!(decode_charset(b"\x80", "ibm866").unwrap(), "А");
        assert_eq!(decode_charset(b"\x5c\x7e", "iso646jp").unwrap(), "¥‾");
        assert_eq!(decode_charset(b"\x8e", "macintosh").unwrap(), "é");
        // Only the Unicode charsets drop a byte-order mark.
        assert_eq!(decode_charset(b"\xef\xbb\xbfA", "latin1").unwrap(), "ï»¿A");
        assert_eq!(decode_charset(b"\xef\xbb\xbfA", "cesu8").unwrap(), "A");
        assert_eq!(
            decode_charset(b"\xef\xbb\xbfA", "base64").unwrap(),
            "77u/QQ=="
        );
        assert_eq!(decode_charset(b"\xef\xbb\xbfA", "hex").unwrap(), "efbbbf41");
        assert_eq!(decode_charset(b"+/v8AQQ-", "utf-7").unwrap(), "A");
    }

    #[test]
    fn unknown_charsets() {
        for label in [
            "utf-9",
            "utf-32",
            "utf32le",
            "x-user-defined",
            "iso-2022-kr",
            "iso-2022-jp",
            "cp720",
            "x-mac-roman",
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
