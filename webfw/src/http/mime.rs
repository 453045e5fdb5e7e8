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
