//! Extension to MIME type lookup for `res.type` (the `mime` 1.x table Express
//! uses, through `mime_guess`).
//!
//! ```
//! assert_eq!(webfw_http::mime::lookup("html"), "text/html");
//! assert_eq!(webfw_http::mime::lookup(".png"), "image/png");
//! assert_eq!(webfw_http::mime::lookup("nope"), "application/octet-stream");
//! ```

/// The MIME type for an extension or file name (`html`, `.png`, `a/b.json`);
/// `application/octet-stream` when unknown.
///
/// ```
/// assert_eq!(webfw_http::mime::lookup("html"), "text/html");
/// assert_eq!(webfw_http::mime::lookup(".png"), "image/png");
/// assert_eq!(webfw_http::mime::lookup("nope"), "application/octet-stream");
/// ```
pub fn lookup(ext_or_path: &str) -> &'static str {
    let ext = ext_or_path.rsplit(['.', '/']).next().unwrap_or(ext_or_path);
    let ext = if ext.is_empty() { ext_or_path } else { ext };
    // Lower-cased on the stack: `res.type('json')` runs per request.
    let mut buf = [0u8; 16];
    let owned;
    let lower = match buf.get_mut(..ext.len()) {
        Some(b) => {
            b.copy_from_slice(ext.as_bytes());
            b.make_ascii_lowercase();
            // ASCII lower-casing keeps the text valid UTF-8.
            std::str::from_utf8(b).unwrap_or(ext)
        }
        None => {
            owned = ext.to_ascii_lowercase();
            owned.as_str()
        }
    };
    match lower {
        // Entries where mime 1.6 differs from mime_guess's table.
        "js" | "mjs" => "application/javascript",
        "txt" | "text" => "text/plain",
        "json" => "application/json",
        "htm" | "html" => "text/html",
        "xml" => "application/xml",
        "rtf" => "application/rtf",
        other => mime_guess::from_ext(other)
            .first_raw()
            .unwrap_or("application/octet-stream"),
    }
}

/// The `res.set('Content-Type', …)` value of the most common types, with the
/// `; charset=utf-8` Express appends, as a header value built at compile time
/// (no allocation, no validation per request).
///
/// ```
/// use webfw_http::mime::with_utf8_static;
/// assert_eq!(with_utf8_static("text/plain").unwrap(), "text/plain; charset=utf-8");
/// assert_eq!(with_utf8_static("image/png").unwrap(), "image/png");
/// assert!(with_utf8_static("text/x-unusual").is_none());
/// ```
pub fn with_utf8_static(value: &str) -> Option<http::HeaderValue> {
    use http::HeaderValue as V;
    const TEXT_PLAIN: V = V::from_static("text/plain; charset=utf-8");
    const TEXT_HTML: V = V::from_static("text/html; charset=utf-8");
    const JSON: V = V::from_static("application/json; charset=utf-8");
    const JS: V = V::from_static("application/javascript; charset=utf-8");
    Some(match value {
        "text/plain" | "text/plain; charset=utf-8" => TEXT_PLAIN,
        "text/html" | "text/html; charset=utf-8" => TEXT_HTML,
        "application/json" | "application/json; charset=utf-8" => JSON,
        "application/javascript" | "application/javascript; charset=utf-8" => JS,
        "text/css" => V::from_static("text/css; charset=utf-8"),
        "text/csv" => V::from_static("text/csv; charset=utf-8"),
        "text/xml" => V::from_static("text/xml; charset=utf-8"),
        "text/javascript" => V::from_static("text/javascript; charset=utf-8"),
        "application/octet-stream" => V::from_static("application/octet-stream"),
        "application/xml" => V::from_static("application/xml"),
        "image/png" => V::from_static("image/png"),
        "image/jpeg" => V::from_static("image/jpeg"),
        "image/gif" => V::from_static("image/gif"),
        "image/svg+xml" => V::from_static("image/svg+xml"),
        _ => return None,
    })
}

/// The bare types [`with_utf8_static`] knows, for tests that check each.
#[doc(hidden)]
pub const STATIC_TYPES: [&str; 14] = [
    "text/plain",
    "text/html",
    "application/json",
    "application/javascript",
    "text/css",
    "text/csv",
    "text/xml",
    "text/javascript",
    "application/octet-stream",
    "application/xml",
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/svg+xml",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_ignores_case_at_any_length() {
        assert_eq!(lookup("JSON"), "application/json");
        assert_eq!(lookup("a/B.Html"), "text/html");
        assert_eq!(lookup("PNG"), "image/png");
        let long = format!("{}.TXT", "x".repeat(40));
        assert_eq!(lookup(&long), "text/plain");
        assert_eq!(
            lookup("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
            "application/octet-stream"
        );
    }

    #[test]
    fn static_values_equal_the_general_rule() {
        for v in STATIC_TYPES {
            assert_eq!(
                with_utf8_static(v).unwrap().to_str().unwrap(),
                crate::content_type::with_default_charset(v),
                "{v}"
            );
        }
    }
}
