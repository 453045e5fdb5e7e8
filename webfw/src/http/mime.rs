//! Extension to MIME type lookup for `res.type` (the `mime` 1.x table Express
//! uses, through `mime_guess`).

/// The MIME type for an extension or file name (`html`, `.png`, `a/b.json`);
/// `application/octet-stream` when unknown.
///
/// ```
/// assert_eq!(webfw::http::mime::lookup("html"), "text/html");
/// assert_eq!(webfw::http::mime::lookup(".png"), "image/png");
/// assert_eq!(webfw::http::mime::lookup("nope"), "application/octet-stream");
/// ```
pub fn lookup(ext_or_path: &str) -> &'static str {
    let ext = ext_or_path
        .rsplit(['.', '/'])
        .next()
        .unwrap_or(ext_or_path);
    let ext = if ext.is_empty() { ext_or_path } else { ext };
    match ext.to_ascii_lowercase().as_str() {
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
/// `; charset=utf-8` Express appends, as a static string (no allocation).
///
/// ```
/// use webfw::http::mime::with_utf8_static;
/// assert_eq!(with_utf8_static("text/plain"), Some("text/plain; charset=utf-8"));
/// assert_eq!(with_utf8_static("image/png"), Some("image/png"));
/// assert_eq!(with_utf8_static("text/x-unusual"), None);
/// ```
pub fn with_utf8_static(value: &str) -> Option<&'static str> {
    Some(match value {
        "text/plain" | "text/plain; charset=utf-8" => "text/plain; charset=utf-8",
        "text/html" | "text/html; charset=utf-8" => "text/html; charset=utf-8",
        "application/json" | "application/json; charset=utf-8" => {
            "application/json; charset=utf-8"
        }
        "application/javascript" | "application/javascript; charset=utf-8" => {
            "application/javascript; charset=utf-8"
        }
        "text/css" => "text/css; charset=utf-8",
        "text/csv" => "text/csv; charset=utf-8",
        "text/xml" => "text/xml; charset=utf-8",
        "text/javascript" => "text/javascript; charset=utf-8",
        "application/octet-stream" => "application/octet-stream",
        "application/xml" => "application/xml",
        "image/png" => "image/png",
        "image/jpeg" => "image/jpeg",
        "image/gif" => "image/gif",
        "image/svg+xml" => "image/svg+xml",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_values_equal_the_general_rule() {
        for v in [
            "text/plain", "text/html", "application/json", "application/javascript",
            "text/css", "text/csv", "text/xml", "text/javascript", "application/octet-stream",
            "application/xml", "image/png", "image/jpeg", "image/gif", "image/svg+xml",
        ] {
            assert_eq!(
                with_utf8_static(v).unwrap(),
                crate::http::content_type::with_default_charset(v),
                "{v}"
            );
        }
    }
}
