//! The `Content-Disposition` header as the `content-disposition` 0.5.4
//! package writes it (`res.attachment`, `res.download`).
//!
//! ```
//! use webfw_http::content_disposition::content_disposition;
//! assert_eq!(content_disposition(None), "attachment");
//! assert_eq!(content_disposition(Some("/tmp/report.pdf")), r#"attachment; filename="report.pdf""#);
//! assert_eq!(
//!     content_disposition(Some("✓ done.txt")),
//!     r#"attachment; filename="? done.txt"; filename*=UTF-8''%E2%9C%93%20done.txt"#
//! );
//! ```

pub mod v2;

/// `contentDisposition(filename)`: `attachment`, with the file's base name
/// as a quoted `filename` when it is printable Latin-1, else a Latin-1
/// fallback (each other UTF-16 unit becomes `?`) plus `filename*=UTF-8''`
/// with the name percent-encoded.
///
/// The result may hold Latin-1 characters (`ü`); [`latin1_bytes`] gives
/// the bytes Node writes for them.
///
/// ```
/// use webfw_http::content_disposition::content_disposition;
/// assert_eq!(content_disposition(None), "attachment");
/// assert_eq!(content_disposition(Some("/tmp/report.pdf")), r#"attachment; filename="report.pdf""#);
/// assert_eq!(
///     content_disposition(Some("✓ done.txt")),
///     r#"attachment; filename="? done.txt"; filename*=UTF-8''%E2%9C%93%20done.txt"#
/// );
/// ```
pub fn content_disposition(filename: Option<&str>) -> String {
    content_disposition_with("attachment", filename)
}

/// [`content_disposition`] with another disposition type (`inline`); the
/// type is written in lower case.
///
/// ```
/// use webfw_http::content_disposition::content_disposition_with;
/// assert_eq!(content_disposition_with("Inline", Some("a.txt")), r#"inline; filename="a.txt""#);
/// ```
pub fn content_disposition_with(kind: &str, filename: Option<&str>) -> String {
    let mut out = kind.to_ascii_lowercase();
    let Some(filename) = filename else {
        return out;
    };
    let name = basename(filename);
    let quotable = !name.is_empty() && name.chars().all(is_text);
    let fallback = latin1_fallback(name);
    let has_fallback = fallback != name;
    // Parameters in sorted order: `filename` before `filename*`.
    if quotable || has_fallback {
        out.push_str("; filename=\"");
        let value = if has_fallback { &fallback } else { name };
        for c in value.chars() {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
        out.push('"');
    }
    if has_fallback || !quotable || has_hex_escape(name) {
        out.push_str("; filename*=UTF-8''");
        for &b in name.as_bytes() {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'!' | b'~') {
                out.push(char::from(b));
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

/// The bytes Node writes for a header string whose characters are all
/// Latin-1: one byte each. `None` when a character lies above U+00FF.
///
/// ```
/// use webfw_http::content_disposition::latin1_bytes;
/// assert_eq!(latin1_bytes("ü").unwrap(), [0xfc]);
/// assert!(latin1_bytes("✓").is_none());
/// ```
pub fn latin1_bytes(s: &str) -> Option<Vec<u8>> {
    s.chars().map(|c| u8::try_from(u32::from(c)).ok()).collect()
}

/// Node's `path.basename` (POSIX): the part after the last `/`, trailing
/// slashes ignored.
fn basename(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return "";
    }
    trimmed.rsplit('/').next().unwrap_or(trimmed)
}

/// `TEXT_REGEXP`'s class: printable ASCII and U+0080–U+00FF.
fn is_text(c: char) -> bool {
    matches!(c, '\u{20}'..='\u{7e}' | '\u{80}'..='\u{ff}')
}

/// `getlatin1`: characters outside printable Latin-1 become `?`, one per
/// UTF-16 unit (a character beyond the BMP gives two).
fn latin1_fallback(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if matches!(c, '\u{20}'..='\u{7e}' | '\u{a0}'..='\u{ff}') {
            out.push(c);
        } else {
            for _ in 0..c.len_utf16() {
                out.push('?');
            }
        }
    }
    out
}

/// `%` followed by two hex digits somewhere in `name`.
fn has_hex_escape(name: &str) -> bool {
    name.as_bytes()
        .windows(3)
        .any(|w| w[0] == b'%' && w[1].is_ascii_hexdigit() && w[2].is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values printed by content-disposition 0.5.4 itself.
    #[test]
    fn matches_the_package() {
        for (name, want) in [
            ("note.txt", r#"attachment; filename="note.txt""#),
            (
                "renamed ü file.txt",
                "attachment; filename=\"renamed ü file.txt\"",
            ),
            (
                "naïve résumé ✓.txt",
                "attachment; filename=\"naïve résumé ?.txt\"; filename*=UTF-8''na%C3%AFve%20r%C3%A9sum%C3%A9%20%E2%9C%93.txt",
            ),
            (r#"a"b\c.txt"#, r#"attachment; filename="a\"b\\c.txt""#),
            ("100%.txt", r#"attachment; filename="100%.txt""#),
            (
                "%41.txt",
                r#"attachment; filename="%41.txt"; filename*=UTF-8''%2541.txt"#,
            ),
            ("", "attachment; filename*=UTF-8''"),
            ("dir/x y.pdf", r#"attachment; filename="x y.pdf""#),
            (
                "😀.txt",
                r#"attachment; filename="??.txt"; filename*=UTF-8''%F0%9F%98%80.txt"#,
            ),
            ("it's (1).txt", r#"attachment; filename="it's (1).txt""#),
            (
                "tab\there.txt",
                "attachment; filename=\"tab?here.txt\"; filename*=UTF-8''tab%09here.txt",
            ),
        ] {
            assert_eq!(content_disposition(Some(name)), want, "{name}");
        }
    }
}
