//! The `compressible` 2.0 package: whether a media type is worth
//! compressing, by mime-db's flag for it, else by its shape.

use super::compressible_table::{COMPRESSIBLE, INCOMPRESSIBLE};

/// `compressible(type)`: whether responses of this `Content-Type` are
/// worth compressing. mime-db's `compressible` flag decides for the types
/// it has one for (`application/json`, `image/svg+xml` yes; `image/png`,
/// `application/zip` no); any other type is compressible when it is
/// `text/*` or ends in `+json`, `+text` or `+xml`. Parameters and case are
/// ignored.
///
/// ```
/// use webfw::compression::compressible;
/// assert!(compressible("text/html; charset=utf-8"));
/// assert!(compressible("application/json"));
/// assert!(compressible("application/vnd.api+json"));
/// assert!(!compressible("image/png"));
/// assert!(!compressible("application/octet-stream"));
/// ```
pub fn compressible(content_type: &str) -> bool {
    compressible_bytes(content_type.as_bytes())
}

/// [`compressible`] of a header value, whose bytes Node reads as Latin-1.
pub(crate) fn compressible_bytes(value: &[u8]) -> bool {
    // /^\s*([^;\s]*)(?:;|\s|$)/: the type up to a `;` or white space.
    let start = value
        .iter()
        .position(|&b| !is_space(b))
        .unwrap_or(value.len());
    let rest = &value[start..];
    let len = rest
        .iter()
        .position(|&b| b == b';' || is_space(b))
        .unwrap_or(rest.len());
    let mut buf = [0u8; 256];
    let Some(lower) = buf.get_mut(..len) else {
        // Longer than any type mime-db lists: the shape alone decides.
        return by_shape(&rest[..len].to_ascii_lowercase());
    };
    lower.copy_from_slice(&rest[..len]);
    lower.make_ascii_lowercase();
    let lower = &*lower;
    let listed = |table: &[&str]| table.binary_search_by(|t| t.as_bytes().cmp(lower)).is_ok();
    if listed(&COMPRESSIBLE) {
        return true;
    }
    if listed(&INCOMPRESSIBLE) {
        return false;
    }
    by_shape(lower)
}

/// `/^text\/|\+(?:json|text|xml)$/i` (the type is lower-cased already).
fn by_shape(t: &[u8]) -> bool {
    t.starts_with(b"text/")
        || t.ends_with(b"+json")
        || t.ends_with(b"+text")
        || t.ends_with(b"+xml")
}

/// JavaScript's `\s` among the Latin-1 characters a header holds.
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ' | 0xa0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_are_sorted_for_the_binary_search() {
        assert!(COMPRESSIBLE.is_sorted());
        assert!(INCOMPRESSIBLE.is_sorted());
    }

    #[test]
    fn mime_db_flags_then_the_shape_decide() {
        for t in [
            "text/plain",
            "TEXT/CSV",
            "  application/json;charset=utf-8",
            "application/javascript",
            "application/x-javascript",
            "image/svg+xml",
            "image/bmp",
            "font/ttf",
            "application/x-custom+json",
            "application/x-custom+TEXT",
            "application/wasm ; q=1",
        ] {
            assert!(compressible(t), "{t}");
        }
        for t in [
            "",
            " ",
            "image/png",
            "application/zip",
            "application/gzip",
            "application/octet-stream",
            "application/pdf",
            "application/x-custom",
            "textual/plain",
            "application/json-seq",
            "x/+jsonx",
            "text",
        ] {
            assert!(!compressible(t), "{t}");
        }
        let long = format!("text/{}", "a".repeat(300));
        assert!(compressible(&long));
    }
}
