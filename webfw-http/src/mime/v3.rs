//! mime-types 3.0.2 over mime-db 1.54.0: the table Express 5 uses
//! everywhere (`res.type`, `res.set('Content-Type')`, send 1's files). Its
//! types differ from Express 4's mime 1.6 (`js` → `text/javascript`, `ico`
//! → `image/vnd.microsoft.icon`) and [`content_type`] appends a lower-case
//! `charset=utf-8` to every `text/*` type and every type mime-db marks.
//!
//! ```
//! use webfw_http::mime::v3;
//! assert_eq!(v3::lookup("js"), Some("text/javascript"));
//! assert_eq!(v3::content_type("js").as_deref(), Some("text/javascript; charset=utf-8"));
//! assert_eq!(v3::content_type("image/png").as_deref(), Some("image/png"));
//! assert_eq!(v3::content_type("nope"), None);
//! ```

use std::borrow::Cow;

use super::table3 as table;
use crate::is_js_whitespace;

/// mime-types 3's `lookup`: the type of the extension Node's `path.extname`
/// finds in `x.` + the text (so `"html"`, `".html"` and `"dir/a.HTML"` all
/// name `html`); `None` (`false`) when there is none or it is unknown.
///
/// ```
/// use webfw_http::mime::v3::lookup;
/// assert_eq!(lookup("ico"), Some("image/vnd.microsoft.icon"));
/// assert_eq!(lookup("dir/file.MJS"), Some("text/javascript"));
/// assert_eq!(lookup("dir/file"), None);
/// ```
pub fn lookup(ext_or_path: &str) -> Option<&'static str> {
    let ext = super::mime_types_extension(ext_or_path)?;
    by_extension(ext).map(|e| e.ty)
}

/// mime-types 3's `charset`: mime-db's charset mark of the type (the text
/// before any `;` or white space, case-insensitively), else `UTF-8` for
/// `text/*`, else `None` (`false`). As mime-db writes it (`UTF-8`).
///
/// ```
/// use webfw_http::mime::v3::charset;
/// assert_eq!(charset("text/x-anything"), Some("UTF-8"));
/// assert_eq!(charset("Application/JSON; x=y"), Some("UTF-8"));
/// assert_eq!(charset("application/manifest+json"), Some("UTF-8"));
/// assert_eq!(charset("image/png"), None);
/// ```
pub fn charset(media_type: &str) -> Option<&'static str> {
    // `/^\s*([^;\s]*)(?:;|\s|$)/`: the greedy class always stops where the
    // group after it matches, so the type is the text up to `;` or space.
    let s = media_type.trim_start_matches(is_js_whitespace);
    let end = s
        .find(|c| c == ';' || is_js_whitespace(c))
        .unwrap_or(s.len());
    let t = &s[..end];
    if let Some(mark) = marked(t) {
        return Some(mark);
    }
    // `/^text\//i` without the `u` flag folds ASCII letters only.
    let text = t.len() >= 5 && t.as_bytes()[..5].eq_ignore_ascii_case(b"text/");
    text.then_some("UTF-8")
}

/// mime-types 3's `contentType`: a value without `/` is looked up as an
/// extension (`None` when unknown); then `; charset=<charset>` (lower case)
/// is appended when [`charset`] has one and the value does not contain the
/// substring `charset` (lower case) anywhere. `None` for an empty value too. Express 5's
/// `res.set('Content-Type', v)` sends this (Node writes a `None` as
/// `false`); `res.type` and send use [`content_type_or_octet_stream`].
///
/// ```
/// use webfw_http::mime::v3::content_type;
/// assert_eq!(content_type("html").as_deref(), Some("text/html; charset=utf-8"));
/// assert_eq!(content_type(".webmanifest").as_deref(), Some("application/manifest+json; charset=utf-8"));
/// assert_eq!(content_type("text/plain; format=flowed").as_deref(), Some("text/plain; format=flowed; charset=utf-8"));
/// // `charset` anywhere, even in the type's name, suppresses it.
/// assert_eq!(content_type("text/x-charset-info").as_deref(), Some("text/x-charset-info"));
/// assert_eq!(content_type("text/html; charset=latin1").as_deref(), Some("text/html; charset=latin1"));
/// // The substring is looked for case-sensitively, as `indexOf` does.
/// assert_eq!(
///     content_type("text/html; Charset=latin1").as_deref(),
///     Some("text/html; Charset=latin1; charset=utf-8")
/// );
/// assert_eq!(content_type("unknown-ext"), None);
/// ```
pub fn content_type(value: &str) -> Option<Cow<'_, str>> {
    if value.is_empty() {
        return None;
    }
    if !value.contains('/') {
        let ext = super::mime_types_extension(value)?;
        return by_extension(ext).map(with_table_charset);
    }
    if let Some(full) = common_with_charset(value) {
        return Some(Cow::Borrowed(full));
    }
    if value.contains("charset") {
        return Some(Cow::Borrowed(value));
    }
    Some(match charset(value) {
        Some(cs) => Cow::Owned(format!("{value}; charset={}", cs.to_ascii_lowercase())),
        None => Cow::Borrowed(value),
    })
}

/// `mime.contentType(v) || 'application/octet-stream'`: what Express 5's
/// `res.type(ext)` sets for a value without `/`.
///
/// ```
/// use webfw_http::mime::v3::content_type_or_octet_stream;
/// assert_eq!(content_type_or_octet_stream("ico"), "image/vnd.microsoft.icon");
/// assert_eq!(content_type_or_octet_stream("nope"), "application/octet-stream");
/// ```
pub fn content_type_or_octet_stream(value: &str) -> Cow<'_, str> {
    content_type(value).unwrap_or(Cow::Borrowed(OCTET_STREAM))
}

/// send 1's `type(path)`: `mime.contentType(path.extname(path)) ||
/// 'application/octet-stream'`, the `Content-Type` of a served file.
/// Borrowed (static) for the common types, so their header value is made
/// without copying.
///
/// ```
/// use webfw_http::mime::v3::file_content_type;
/// assert_eq!(file_content_type("/srv/app.js"), "text/javascript; charset=utf-8");
/// assert_eq!(file_content_type("/srv/favicon.ico"), "image/vnd.microsoft.icon");
/// assert_eq!(file_content_type("/srv/README"), "application/octet-stream");
/// assert_eq!(file_content_type("/srv/.hidden"), "application/octet-stream");
/// ```
pub fn file_content_type(path: &str) -> Cow<'static, str> {
    let ext = node_extname(path);
    // `.ext` names `ext`, which holds no `.` or `/`: the lookup is direct.
    match ext.strip_prefix('.').and_then(by_extension) {
        Some(found) => with_table_charset(found),
        None => Cow::Borrowed(OCTET_STREAM),
    }
}

const OCTET_STREAM: &str = "application/octet-stream";

/// Node's `path.extname` (POSIX): from the last `.` of the base name,
/// trailing slashes ignored; empty for a name that starts with its only
/// leading dot (`.bashrc`) and for `..`.
fn node_extname(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    let base = &trimmed[trimmed.rfind('/').map_or(0, |i| i + 1)..];
    match base.rfind('.') {
        Some(0) | None => "",
        Some(_) if base == ".." => "",
        Some(at) => &base[at..],
    }
}

/// One extension's answer: its type, the charset `contentType` appends
/// (`""` for none) and, for the common ones, the whole answer made already.
#[derive(Clone, Copy)]
struct Entry {
    ty: &'static str,
    charset: &'static str,
    full: Option<&'static str>,
}

/// A table type with the charset `contentType` appends to it.
fn with_table_charset(e: Entry) -> Cow<'static, str> {
    if let Some(full) = e.full {
        return Cow::Borrowed(full);
    }
    if e.charset.is_empty() || e.ty.contains("charset") {
        Cow::Borrowed(e.ty)
    } else {
        Cow::Owned(format!("{}; charset={}", e.ty, e.charset))
    }
}

/// The type of an extension (JavaScript's `toLowerCase` first).
fn by_extension(ext: &str) -> Option<Entry> {
    if let Some(found) = common(ext) {
        return Some(found);
    }
    if !ext.is_ascii() {
        // `toLowerCase` can make ASCII of other letters (the Kelvin sign).
        let lower = ext.to_lowercase();
        return lower.is_ascii().then(|| find(&lower)).flatten();
    }
    let mut buf = [0u8; table::LONGEST];
    let folded = buf.get_mut(..ext.len())?;
    folded.copy_from_slice(ext.as_bytes());
    folded.make_ascii_lowercase();
    // ASCII stays UTF-8 when folded.
    find(std::str::from_utf8(folded).ok()?)
}

/// The table's entry of a lower-case extension.
fn find(ext: &str) -> Option<Entry> {
    let at = search(table::EXTS, &table::EXT_END, ext)?;
    let index = usize::from(table::TYPE[at]);
    Some(Entry {
        ty: entry(table::TYPES, &table::TYPE_END, index),
        charset: table::CHARSET_NAMES[usize::from(table::TYPE_CHARSET[index])],
        full: None,
    })
}

/// The extensions files are mostly served with, answered without the
/// search (a unit test checks each against the table).
fn common(ext: &str) -> Option<Entry> {
    let (ty, full) = match ext {
        "html" | "htm" => ("text/html", "text/html; charset=utf-8"),
        "txt" => ("text/plain", "text/plain; charset=utf-8"),
        "css" => ("text/css", "text/css; charset=utf-8"),
        "js" | "mjs" => ("text/javascript", "text/javascript; charset=utf-8"),
        "json" => ("application/json", "application/json; charset=utf-8"),
        "png" => ("image/png", "image/png"),
        "jpg" | "jpeg" => ("image/jpeg", "image/jpeg"),
        "gif" => ("image/gif", "image/gif"),
        "svg" => ("image/svg+xml", "image/svg+xml"),
        "ico" => ("image/vnd.microsoft.icon", "image/vnd.microsoft.icon"),
        _ => return None,
    };
    let charset = if ty == full { "" } else { "utf-8" };
    Some(Entry {
        ty,
        charset,
        full: Some(full),
    })
}

/// `contentType` of the bare types responses mostly set, made at compile
/// time (a unit test checks each against the general rule).
fn common_with_charset(value: &str) -> Option<&'static str> {
    Some(match value {
        "text/plain" => "text/plain; charset=utf-8",
        "text/html" => "text/html; charset=utf-8",
        "application/json" => "application/json; charset=utf-8",
        "text/javascript" => "text/javascript; charset=utf-8",
        "text/css" => "text/css; charset=utf-8",
        "application/octet-stream" => OCTET_STREAM,
        _ => return None,
    })
}

/// mime-db's charset mark of a type, compared after JavaScript's
/// `toLowerCase` (mime-db's names are lower-case ASCII).
fn marked(t: &str) -> Option<&'static str> {
    let lower: Cow<'_, str> = if t.bytes().any(|b| !b.is_ascii_lowercase()) {
        Cow::Owned(t.to_lowercase())
    } else {
        Cow::Borrowed(t)
    };
    table::MARKED
        .binary_search_by(|(name, _)| name.as_bytes().cmp(lower.as_bytes()))
        .ok()
        .map(|i| table::MARKED[i].1)
}

/// Binary search of a sorted generated table for `key`.
fn search(text: &'static str, ends: &[u16], key: &str) -> Option<usize> {
    let (mut lo, mut hi) = (0, ends.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        match entry(text, ends, mid).as_bytes().cmp(key.as_bytes()) {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => return Some(mid),
        }
    }
    None
}

/// Entry `i` of a generated table: `text` cut at the offsets in `ends`.
fn entry(text: &'static str, ends: &[u16], i: usize) -> &'static str {
    let start = i.checked_sub(1).map_or(0, |prev| usize::from(ends[prev]));
    &text[start..usize::from(ends[i])]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_common_answers_are_the_tables() {
        for ext in [
            "html", "htm", "txt", "css", "js", "mjs", "json", "png", "jpg", "jpeg", "gif", "svg",
            "ico",
        ] {
            let common = common(ext).unwrap();
            let table = find(ext).unwrap();
            assert_eq!(
                (common.ty, common.charset),
                (table.ty, table.charset),
                "{ext}"
            );
            assert_eq!(common.full.unwrap(), with_table_charset(table), "{ext}");
        }
        for v in [
            "text/plain",
            "text/html",
            "application/json",
            "text/javascript",
            "text/css",
            "application/octet-stream",
        ] {
            let general = match charset(v) {
                Some(cs) => format!("{v}; charset={}", cs.to_ascii_lowercase()),
                None => v.to_owned(),
            };
            assert_eq!(common_with_charset(v).unwrap(), general, "{v}");
        }
    }

    #[test]
    fn extension_case_and_shapes() {
        assert_eq!(lookup("JS"), Some("text/javascript"));
        assert_eq!(lookup("a.b/C.Ico"), Some("image/vnd.microsoft.icon"));
        assert_eq!(lookup("\u{212a}ml"), lookup("kml"));
        assert!(lookup("kml").is_some());
        assert_eq!(lookup(&"x".repeat(40)), None);
        assert_eq!(lookup(""), None);
        assert_eq!(content_type("rar").as_deref(), Some("application/vnd.rar"));
        assert_eq!(content_type("toml").as_deref(), Some("application/toml"));
        assert_eq!(content_type("sql").as_deref(), Some("application/sql"));
    }

    #[test]
    fn charsets_of_given_types() {
        assert_eq!(charset(""), None);
        assert_eq!(charset("  text/plain;x"), Some("UTF-8"));
        assert_eq!(charset("TEXT/PLAIN"), Some("UTF-8"));
        assert_eq!(charset("application/news-groupinfo"), Some("US-ASCII"));
        assert_eq!(
            content_type("application/news-groupinfo").as_deref(),
            Some("application/news-groupinfo; charset=us-ascii")
        );
        assert_eq!(charset("textual/plain"), None);
        assert_eq!(charset("te\u{212a}t/plain"), None);
    }

    #[test]
    fn file_extensions_as_node_finds_them() {
        assert_eq!(node_extname("/a/b.txt"), ".txt");
        assert_eq!(node_extname("/a/.hidden"), "");
        assert_eq!(node_extname("/a/.."), "");
        assert_eq!(node_extname("/a/..a"), ".a");
        assert_eq!(node_extname("/a/b."), ".");
        assert_eq!(node_extname("/a.d/README"), "");
        assert_eq!(node_extname("/a/b.tar.gz"), ".gz");
        assert_eq!(file_content_type("/a/b."), OCTET_STREAM);
        assert_eq!(file_content_type("/a/B.CSV"), "text/csv; charset=utf-8");
        assert_eq!(
            file_content_type("/a/m.webmanifest"),
            "application/manifest+json; charset=utf-8"
        );
    }

    /// webfw's Express 5 `res.type`/`res.set` answer these values from the
    /// Express 4 static table: it must be what mime-types 3 gives.
    #[test]
    fn static_types_agree_with_mime_types_3() {
        for t in crate::mime::STATIC_TYPES {
            for value in [t.to_owned(), format!("{t}; charset=utf-8")] {
                let Some(fast) = crate::mime::with_utf8_static(&value) else {
                    continue;
                };
                assert_eq!(
                    content_type(&value).as_deref(),
                    fast.to_str().ok(),
                    "{value}"
                );
            }
        }
    }
}
