//! Extension to MIME type lookups, with the tables Express 4 uses: mime
//! 1.6.0 for `res.type`, `res.format` and files (send's), and mime-types
//! 2.1.35 for `req.accepts` and `req.is`.
//!
//! ```
//! assert_eq!(webfw_http::mime::lookup("html"), "text/html");
//! assert_eq!(webfw_http::mime::lookup(".png"), "image/png");
//! assert_eq!(webfw_http::mime::lookup("nope"), "application/octet-stream");
//! assert_eq!(webfw_http::mime::lookup_db("a/b.wasm"), Some("application/wasm"));
//! ```

// Generated: its layout is the generator's.
#[rustfmt::skip]
mod table;

/// mime 1.6's `lookup`, as `res.type` and send call it: the extension is
/// what follows the last `.`, `/` or `\\` (the whole text when there is
/// none); `application/octet-stream` when unknown.
///
/// ```
/// assert_eq!(webfw_http::mime::lookup("html"), "text/html");
/// assert_eq!(webfw_http::mime::lookup(".png"), "image/png");
/// assert_eq!(webfw_http::mime::lookup("a/b.MAP"), "application/json");
/// assert_eq!(webfw_http::mime::lookup("nope"), "application/octet-stream");
/// ```
pub fn lookup(ext_or_path: &str) -> &'static str {
    // `path.replace(/^.*[\.\/\\]/, '')`: `.` stops at a line terminator.
    let line = ext_or_path
        .find(['\n', '\r', '\u{2028}', '\u{2029}'])
        .map_or(ext_or_path, |end| &ext_or_path[..end]);
    let ext = match line.rfind(['.', '/', '\\']) {
        Some(at) => &ext_or_path[at + 1..],
        None => ext_or_path,
    };
    find(ext, &table::SEND).unwrap_or("application/octet-stream")
}

/// mime-types' `lookup`, as `req.accepts` and `req.is` call it: the
/// extension of `x.` + the text as Node's `path.extname` finds it (after
/// the last `/`, trailing slashes ignored); `None` when there is none or
/// it is unknown.
///
/// ```
/// use webfw_http::mime::lookup_db;
/// assert_eq!(lookup_db("json"), Some("application/json"));
/// assert_eq!(lookup_db("dir/file.Html"), Some("text/html"));
/// assert_eq!(lookup_db("dir/file"), None);
/// assert_eq!(lookup_db("nope"), None);
/// ```
pub fn lookup_db(ext_or_path: &str) -> Option<&'static str> {
    if ext_or_path.is_empty() {
        return None;
    }
    let trimmed = ext_or_path.trim_end_matches('/');
    // All slashes: `x.` + it has the extension `.`, which is empty.
    if trimmed.is_empty() {
        return None;
    }
    // The last component of `x.` + the text; a leading dot of the first
    // component is preceded by `x.`.
    let (base, first) = match trimmed.rfind('/') {
        Some(at) => (&trimmed[at + 1..], false),
        None => (trimmed, true),
    };
    let dot = base.rfind('.');
    let ext = match dot {
        // `.bashrc`: a leading dot is not an extension; `..` has none.
        Some(0) if !first => return None,
        Some(at) if !first && base == ".." && at == 1 => return None,
        Some(at) => &base[at + 1..],
        // `x.` + `html`: the dot of the prefix.
        None if first => base,
        None => return None,
    };
    find(ext, &table::DB)
}

/// The type `types` gives the extension, compared ASCII-case-insensitively.
fn find(ext: &str, types: &[u16]) -> Option<&'static str> {
    if let Some(t) = common(ext) {
        return Some(t);
    }
    // Longer than every extension: unknown.
    let mut buf = [0u8; table::LONGEST];
    let folded = buf.get_mut(..ext.len())?;
    folded.copy_from_slice(ext.as_bytes());
    folded.make_ascii_lowercase();
    let (mut lo, mut hi) = (0, table::EXT_END.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        match entry(table::EXTS, &table::EXT_END, mid)
            .as_bytes()
            .cmp(folded)
        {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => return type_at(types[mid]),
        }
    }
    None
}

/// The extensions files are mostly served with, on which both tables
/// agree, answered without the search (`res.type('json')` and every static
/// file ask; a unit test checks each against both tables).
fn common(ext: &str) -> Option<&'static str> {
    Some(match ext {
        "html" | "htm" => "text/html",
        "txt" => "text/plain",
        "css" => "text/css",
        "js" => "application/javascript",
        "json" => "application/json",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        _ => return None,
    })
}

fn type_at(index: u16) -> Option<&'static str> {
    (index != table::NONE).then(|| entry(table::TYPES, &table::TYPE_END, usize::from(index)))
}

/// Entry `i` of a generated table: `text` cut at the offsets in `ends`.
fn entry(text: &'static str, ends: &[u16], i: usize) -> &'static str {
    let start = i.checked_sub(1).map_or(0, |prev| usize::from(ends[prev]));
    &text[start..usize::from(ends[i])]
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
    fn the_common_extensions_are_what_both_tables_say() {
        for ext in [
            "html", "htm", "txt", "css", "js", "json", "png", "jpg", "jpeg", "gif", "svg",
        ] {
            let at = (0..table::EXT_END.len())
                .find(|&i| entry(table::EXTS, &table::EXT_END, i) == ext)
                .unwrap();
            let common = common(ext);
            assert!(common.is_some(), "{ext}");
            assert_eq!(common, type_at(table::SEND[at]), "{ext}");
            assert_eq!(common, type_at(table::DB[at]), "{ext}");
        }
    }

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
