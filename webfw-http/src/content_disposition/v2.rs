//! `Content-Disposition` as content-disposition 2 writes it (Express 5's
//! `res.attachment` and `res.download`): always US-ASCII, token values
//! unquoted.

/// `contentDisposition.create(filename)`: `attachment`, then `filename`
/// alone when the name is printable ASCII without a `%XX` sequence, else an
/// ASCII fallback (each non-ASCII UTF-16 unit a `?`) plus `filename*`.
/// The name is used as given: Express 5 passes the base name.
///
/// ```
/// use webfw_http::content_disposition::v2::content_disposition;
/// assert_eq!(content_disposition(None), "attachment");
/// assert_eq!(content_disposition(Some("report.pdf")), "attachment; filename=report.pdf");
/// assert_eq!(content_disposition(Some("my file.txt")), r#"attachment; filename="my file.txt""#);
/// assert_eq!(
///     content_disposition(Some("café.txt")),
///     r#"attachment; filename="caf?.txt"; filename*=UTF-8''caf%C3%A9.txt"#
/// );
/// ```
pub fn content_disposition(filename: Option<&str>) -> String {
    let mut out = String::from("attachment");
    let Some(name) = filename else {
        return out;
    };
    let ascii = name.bytes().all(|b| (0x20..=0x7e).contains(&b));
    if ascii && !has_hex_escape(name) {
        push_param(&mut out, "filename", name);
        return out;
    }
    let fallback: String = name
        .chars()
        .flat_map(|c| {
            let units = if (' '..='~').contains(&c) {
                0
            } else {
                c.len_utf16()
            };
            // One `?` per UTF-16 unit, as JavaScript's regex replace sees them.
            std::iter::repeat_n('?', units).chain((units == 0).then_some(c))
        })
        .collect();
    push_param(&mut out, "filename", &fallback);
    out.push_str("; filename*=UTF-8''");
    for &b in name.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'!' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `; name=value`, the value bare when it is a token, else quoted with `\`
/// and `"` escaped (the value is printable ASCII here).
fn push_param(out: &mut String, name: &str, value: &str) {
    out.push_str("; ");
    out.push_str(name);
    out.push('=');
    if !value.is_empty() && value.bytes().all(is_token) {
        out.push_str(value);
        return;
    }
    out.push('"');
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
}

fn is_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+.^_`|~-".contains(&b)
}

/// A `%` followed by two hex digits: such a name would be decoded by some
/// clients, so it goes in `filename*`.
fn has_hex_escape(name: &str) -> bool {
    name.as_bytes()
        .windows(3)
        .any(|w| w[0] == b'%' && w[1].is_ascii_hexdigit() && w[2].is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::content_disposition;

    #[test]
    fn names_as_content_disposition_2_writes_them() {
        let cases = [
            ("", r#"attachment; filename="""#),
            ("a\"b.txt", r#"attachment; filename="a\"b.txt""#),
            (
                "100%25.txt",
                "attachment; filename=100%25.txt; filename*=UTF-8''100%2525.txt",
            ),
            ("100%.txt", "attachment; filename=100%.txt"),
            (
                "renamed ü file.txt",
                "attachment; filename=\"renamed ? file.txt\"; filename*=UTF-8''renamed%20%C3%BC%20file.txt",
            ),
            (
                "😀.txt",
                "attachment; filename=\"??.txt\"; filename*=UTF-8''%F0%9F%98%80.txt",
            ),
            (
                "tab\there",
                "attachment; filename=\"tab?here\"; filename*=UTF-8''tab%09here",
            ),
            ("it's (1).txt", "attachment; filename=\"it's (1).txt\""),
        ];
        for (name, want) in cases {
            assert_eq!(content_disposition(Some(name)), want, "{name:?}");
        }
    }
}
