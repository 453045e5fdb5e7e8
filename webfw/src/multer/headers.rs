//! What busboy makes of header text: `Content-Type` and
//! `Content-Disposition` parsing (RFC 2231/5987 `name*=charset''value`
//! included), the charset decoders and the file name's basename.
//!
//! Header text arrives as Node gives it, one character per byte (latin1),
//! so these functions work on bytes and return text only where busboy
//! decodes.

use base64::Engine as _;

/// A character allowed unescaped inside a quoted string.
fn is_qdtext(b: u8) -> bool {
    matches!(b, b'\t' | b' ' | b'!' | 0x23..=0x5b | 0x5d..=0x7e | 0x80..=0xff)
}

/// A character of an RFC 5987 charset name.
fn is_charset(b: u8) -> bool {
    matches!(b,
        b'!' | b'#' | b'$' | b'%' | b'&' | b'+' | b'-' | b'^' | b'_' | b'`' | b'{' | b'}' | b'~'
        | b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z')
}

/// An RFC 5987 `attr-char`.
fn is_attr_char(b: u8) -> bool {
    matches!(b,
        b'!' | b'#' | b'$' | b'&' | b'+' | b'-' | b'.' | b'^' | b'_' | b'`' | b'|' | b'~'
        | b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z')
}

fn is_ws(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Bytes as the latin1 string Node makes of them.
pub(crate) fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// A parsed `Content-Type`: lower-cased type and subtype, parameters with
/// lower-cased names (the first of a repeated name wins), raw values.
#[derive(Debug, PartialEq)]
pub(crate) struct ContentType {
    pub type_: String,
    pub subtype: String,
    pub params: Vec<(String, Vec<u8>)>,
}

impl ContentType {
    pub(crate) fn param(&self, name: &str) -> Option<&[u8]> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_slice())
    }
}

/// busboy's `parseContentType`; `None` where busboy finds it malformed.
pub(crate) fn parse_content_type(s: &[u8]) -> Option<ContentType> {
    if s.is_empty() {
        return None;
    }
    let mut i = 0;
    while i < s.len() {
        if !crate::http::is_tchar(s[i]) {
            if s[i] != b'/' || i == 0 {
                return None;
            }
            break;
        }
        i += 1;
    }
    if i == s.len() {
        return None;
    }
    let type_ = latin1(&s[..i]).to_lowercase();
    i += 1;
    let sub_start = i;
    let mut params = Vec::new();
    while i < s.len() {
        if !crate::http::is_tchar(s[i]) {
            if i == sub_start {
                return None;
            }
            parse_params(s, i, &mut params, None)?;
            break;
        }
        i += 1;
    }
    if i == sub_start {
        return None;
    }
    let subtype = latin1(&s[sub_start..i]).to_lowercase();
    Some(ContentType {
        type_,
        subtype,
        params: params
            .into_iter()
            .map(|(n, v)| match v {
                Param::Raw(v) => (n, v),
                Param::Text(t) => (n, t.into_bytes()),
            })
            .collect(),
    })
}

/// A parsed `Content-Disposition`: its type and decoded parameters.
#[derive(Debug, PartialEq)]
pub(crate) struct Disposition {
    pub type_: String,
    pub params: Vec<(String, String)>,
}

impl Disposition {
    pub(crate) fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// busboy's `parseDisposition`: plain values decoded with `def` (the
/// `defParamCharset`), `name*=charset'lang'value` with its own charset;
/// `None` where busboy finds it malformed (an unknown charset included).
pub(crate) fn parse_disposition(s: &[u8], def: Decoder) -> Option<Disposition> {
    if s.is_empty() {
        return None;
    }
    let mut params = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if !crate::http::is_tchar(s[i]) {
            parse_params(s, i, &mut params, Some(def))?;
            break;
        }
        i += 1;
    }
    let type_ = latin1(&s[..i]).to_lowercase();
    Some(Disposition {
        type_,
        params: params
            .into_iter()
            .map(|(n, v)| match v {
                Param::Text(t) => (n, t),
                Param::Raw(v) => (n, latin1(&v)),
            })
            .collect(),
    })
}

enum Param {
    Raw(Vec<u8>),
    Text(String),
}

/// The parameter list from `i`; with a decoder (disposition), values are
/// decoded and `name*` values are extended. `None`: malformed.
fn parse_params(
    s: &[u8],
    mut i: usize,
    params: &mut Vec<(String, Param)>,
    def: Option<Decoder>,
) -> Option<()> {
    let len = s.len();
    while i < len {
        while i < len && is_ws(s[i]) {
            i += 1;
        }
        if i == len {
            break;
        }
        if s[i] != b';' {
            return None;
        }
        i += 1;
        while i < len && is_ws(s[i]) {
            i += 1;
        }
        if i == len {
            return None;
        }
        let name_start = i;
        while i < len && crate::http::is_tchar(s[i]) {
            i += 1;
        }
        if i == len || s[i] != b'=' {
            return None;
        }
        let name = &s[name_start..i];
        let value = if def.is_some() && name.last() == Some(&b'*') {
            let (v, next) = extended_value(s, i + 1)?;
            i = next;
            Param::Text(v)
        } else {
            i += 1;
            if i == len {
                return None;
            }
            let raw = if s[i] == b'"' {
                let (v, next) = quoted(s, i + 1)?;
                i = next;
                v
            } else {
                let start = i;
                while i < len && crate::http::is_tchar(s[i]) {
                    i += 1;
                }
                if i == start {
                    return None;
                }
                s[start..i].to_vec()
            };
            match def {
                Some(d) => Param::Text(d.decode(&raw)?),
                None => Param::Raw(raw),
            }
        };
        let name = latin1(name).to_lowercase();
        if !params.iter().any(|(n, _)| *n == name) {
            params.push((name, value));
        }
    }
    Some(())
}

/// A quoted string from just after its opening quote: its value and the
/// index after the closing quote.
fn quoted(s: &[u8], mut i: usize) -> Option<(Vec<u8>, usize)> {
    let mut value = Vec::new();
    let mut escaping = false;
    while i < s.len() {
        let c = s[i];
        if escaping {
            escaping = false;
            // Only `\\` and `\"` are escapes to busboy; before any other
            // character the backslash stays.
            if c != b'\\' && c != b'"' {
                if !is_qdtext(c) {
                    return None;
                }
                value.push(b'\\');
            }
            value.push(c);
        } else if c == b'\\' {
            escaping = true;
        } else if c == b'"' {
            return Some((value, i + 1));
        } else if !is_qdtext(c) {
            return None;
        } else {
            value.push(c);
        }
        i += 1;
    }
    None
}

/// `charset'lang'value` from just after the `=`.
fn extended_value(s: &[u8], mut i: usize) -> Option<(String, usize)> {
    let len = s.len();
    let cs_start = i;
    while i < len && is_charset(s[i]) {
        i += 1;
    }
    if i == len || s[i] != b'\'' {
        return None;
    }
    let charset = latin1(&s[cs_start..i]);
    i += 1;
    while i < len && s[i] != b'\'' {
        i += 1;
    }
    if i == len {
        return None;
    }
    i += 1;
    if i == len {
        return None;
    }
    let mut bytes = Vec::new();
    while i < len {
        let c = s[i];
        if is_attr_char(c) {
            bytes.push(c);
            i += 1;
        } else if c == b'%' {
            let hex = |b: u8| (b as char).to_digit(16);
            let (Some(h), Some(l)) = (
                s.get(i + 1).and_then(|&b| hex(b)),
                s.get(i + 2).and_then(|&b| hex(b)),
            ) else {
                return None;
            };
            let b = (h << 4 | l) as u8;
            bytes.push(b);
            i += 3;
        } else {
            break;
        }
    }
    let value = Decoder::for_charset(&charset).decode(&bytes)?;
    Some((value, i))
}

/// busboy's decoders: what a charset label turns bytes into.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Decoder {
    /// UTF-8, invalid sequences replaced.
    Utf8,
    /// One character per byte.
    Latin1,
    /// UTF-16 little-endian.
    Utf16Le,
    /// The bytes as base64 text.
    Base64,
    /// Any other label: busboy 1.6 hands it to `TextDecoder` in a way that
    /// always fails, so the value is `undefined`.
    Other,
}

impl Decoder {
    /// busboy's `getDecoder`: exact labels first, then lower-cased.
    pub(crate) fn for_charset(label: &str) -> Decoder {
        let pick = |l: &str| match l {
            "utf-8" | "utf8" => Some(Decoder::Utf8),
            "latin1" | "ascii" | "us-ascii" | "iso-8859-1" | "iso8859-1" | "iso88591"
            | "iso_8859-1" | "windows-1252" | "iso_8859-1:1987" | "cp1252" | "x-cp1252" => {
                Some(Decoder::Latin1)
            }
            "utf16le" | "utf-16le" | "ucs2" | "ucs-2" => Some(Decoder::Utf16Le),
            "base64" => Some(Decoder::Base64),
            _ => None,
        };
        pick(label)
            .or_else(|| pick(&label.to_lowercase()))
            .unwrap_or(Decoder::Other)
    }

    /// Decodes `bytes`; `None` is busboy's `undefined`.
    pub(crate) fn decode(self, bytes: &[u8]) -> Option<String> {
        if bytes.is_empty() {
            return Some(String::new());
        }
        Some(match self {
            Decoder::Utf8 => String::from_utf8_lossy(bytes).into_owned(),
            Decoder::Latin1 => latin1(bytes),
            Decoder::Utf16Le => {
                let units: Vec<u16> = bytes
                    .chunks_exact(2)
                    .map(|p| u16::from_le_bytes([p[0], p[1]]))
                    .collect();
                String::from_utf16_lossy(&units)
            }
            Decoder::Base64 => base64::engine::general_purpose::STANDARD.encode(bytes),
            Decoder::Other => return None,
        })
    }
}

/// busboy's `basename`: what follows the last `/` or `\`; `.` and `..`
/// become empty.
pub(crate) fn basename(path: &str) -> &str {
    let base = match path.rfind(['/', '\\']) {
        Some(i) => &path[i + 1..],
        None => path,
    };
    if base == "." || base == ".." {
        ""
    } else {
        base
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_type_as_busboy_parses_it() {
        let ct =
            parse_content_type(b"Multipart/Form-Data; boundary=\"a b\\\"c\"; BOUNDARY=x").unwrap();
        assert_eq!(
            (ct.type_.as_str(), ct.subtype.as_str()),
            ("multipart", "form-data")
        );
        assert_eq!(ct.param("boundary"), Some(&b"a b\"c"[..]));
        assert_eq!(ct.params.len(), 1);
        for bad in [
            &b""[..],
            b"text",
            b"/x",
            b"text/",
            b"a/b;",
            b"a/b; c",
            b"a/b; c=",
            b"a/b; c=\"x",
        ] {
            assert!(parse_content_type(bad).is_none(), "{bad:?}");
        }
        assert!(parse_content_type(b"a/b ").is_some());
    }

    #[test]
    fn disposition_with_extended_and_default_charset() {
        let d = parse_disposition(
            b"form-data; name=\"f\"; filename*=UTF-8''caf%C3%A9.txt; filename=\"x\"",
            Decoder::Latin1,
        )
        .unwrap();
        assert_eq!(d.type_, "form-data");
        assert_eq!(d.param("filename*"), Some("café.txt"));
        assert_eq!(d.param("filename"), Some("x"));
        let raw = b"form-data; name=\"caf\xc3\xa9\"";
        assert_eq!(
            parse_disposition(raw, Decoder::Latin1)
                .unwrap()
                .param("name"),
            Some("caf\u{c3}\u{a9}")
        );
        assert_eq!(
            parse_disposition(raw, Decoder::Utf8).unwrap().param("name"),
            Some("café")
        );
        assert!(parse_disposition(b"form-data; filename*=koi8-r''x", Decoder::Latin1).is_none());
        assert!(parse_disposition(b"form-data; filename*=utf-8''%zz", Decoder::Latin1).is_none());
        assert_eq!(
            parse_disposition(b"attachment", Decoder::Latin1)
                .unwrap()
                .type_,
            "attachment"
        );
    }

    #[test]
    fn basename_drops_directories() {
        assert_eq!(basename("a/b\\c.txt"), "c.txt");
        assert_eq!(basename("../.."), "");
        assert_eq!(basename("."), "");
        assert_eq!(basename("x"), "x");
    }
}
