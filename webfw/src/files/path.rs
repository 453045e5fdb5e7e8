//! From a request path or a file name to a file system path, as send's
//! `pipe` does it: decode, refuse NUL bytes and `..`, join with the root,
//! apply the dotfiles rule.

use std::borrow::Cow;
use std::path::PathBuf;

use super::options::{Config, Dotfiles};
use crate::error::Error;

/// A path send may look at.
pub(crate) struct Resolved {
    pub(crate) path: PathBuf,
    /// The path as given ended with `/` (send's `hasTrailingSlash`).
    pub(crate) trailing_slash: bool,
}

/// send's `UP_PATH_REGEXP`: a `..` segment, with `/` or `\` around it.
fn has_up_segment(path: &str) -> bool {
    let b = path.as_bytes();
    let sep = |i: usize| matches!(b.get(i), Some(b'/' | b'\\'));
    (0..b.len().saturating_sub(1)).any(|i| {
        b[i] == b'.'
            && b[i + 1] == b'.'
            && (i == 0 || sep(i - 1))
            && (i + 2 == b.len() || sep(i + 2))
    })
}

/// `decodeURIComponent`: `None` for a `%` without two hex digits or bytes
/// that are not UTF-8 (URIError in JavaScript).
pub(crate) fn decode_component(s: &str) -> Option<Cow<'_, str>> {
    if !s.contains('%') {
        return Some(Cow::Borrowed(s));
    }
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(off) = b[i..].iter().position(|&c| c == b'%') {
        let at = i + off;
        let hex = b.get(at + 1..at + 3)?;
        if !hex.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        i = at + 3;
    }
    percent_encoding::percent_decode_str(s).decode_utf8().ok()
}

/// Node's `path.posix.normalize`.
pub(crate) fn normalize(path: &str) -> String {
    if path.is_empty() {
        return ".".to_owned();
    }
    let absolute = path.starts_with('/');
    let trailing = path.ends_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            s => parts.push(s),
        }
    }
    let mut out = String::with_capacity(path.len() + 1);
    if absolute {
        out.push('/');
    }
    out.push_str(&parts.join("/"));
    if out.is_empty() {
        out.push('.');
    }
    if trailing && !out.ends_with('/') {
        out.push('/');
    }
    out
}

/// send's `pipe` up to the file system: `path` is already decoded (send
/// decodes the URL path; `sendFile` hands it a name that decodes to itself).
pub(crate) fn resolve(path: &str, cfg: &Config) -> Result<Resolved, Error> {
    if path.contains('\0') {
        return Err(Error::from_status(400));
    }
    let (full, parts): (String, Vec<String>);
    match &cfg.root {
        Some(root) => {
            let rel = if path.is_empty() {
                String::new()
            } else {
                normalize(&format!("./{path}"))
            };
            if has_up_segment(&rel) {
                return Err(Error::from_status(403));
            }
            parts = rel.split('/').map(str::to_owned).collect();
            let root = root.to_string_lossy();
            // `path.join` leaves out an empty part.
            full = if rel.is_empty() {
                normalize(&root)
            } else {
                normalize(&format!("{root}/{rel}"))
            };
        }
        None => {
            if has_up_segment(path) {
                return Err(Error::from_status(403));
            }
            let normal = normalize(path);
            parts = normal.split('/').map(str::to_owned).collect();
            // `path.resolve` drops a trailing slash.
            full = match normal.strip_suffix('/') {
                Some(s) if !s.is_empty() => s.to_owned(),
                _ => normal,
            };
        }
    }
    if parts.iter().any(|p| p.len() > 1 && p.starts_with('.')) {
        let access = cfg.dotfiles.unwrap_or_else(|| {
            if parts.last().is_some_and(|p| p.starts_with('.')) {
                Dotfiles::Ignore
            } else {
                Dotfiles::Allow
            }
        });
        match access {
            Dotfiles::Allow => {}
            Dotfiles::Deny => return Err(Error::from_status(403)),
            Dotfiles::Ignore => return Err(Error::from_status(404)),
        }
    }
    Ok(Resolved {
        path: PathBuf::from(full),
        trailing_slash: path.ends_with('/'),
    })
}

/// Node's `path.extname` is empty (no extension to try others after).
pub(crate) fn has_no_extension(path: &str) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path);
    match base.rfind('.') {
        None => true,
        // A leading dot starts a name, not an extension (".hidden").
        Some(i) => base[..i].bytes().all(|b| b == b'.'),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::MaxAge;

    #[test]
    fn normalize_like_node() {
        for (input, want) in [
            ("", "."),
            ("./", "./"),
            ("./hello.txt", "hello.txt"),
            ("./../x", "../x"),
            ("./a/../../x", "../x"),
            ("./a//b/./c/", "a/b/c/"),
            ("/a/../b", "/b"),
            ("/..", "/"),
            ("./..", ".."),
            ("./a/..", "."),
        ] {
            assert_eq!(normalize(input), want, "{input}");
        }
    }

    #[test]
    fn up_segments() {
        assert!(has_up_segment(".."));
        assert!(has_up_segment("../x"));
        assert!(has_up_segment("a/.."));
        assert!(has_up_segment("..\\x"));
        assert!(has_up_segment("a\\..\\b"));
        assert!(!has_up_segment("a..b"));
        assert!(!has_up_segment("...x"));
        assert!(!has_up_segment("x../"));
    }

    #[test]
    fn resolving_under_a_root() {
        let mut cfg = Config::new(MaxAge::default(), false);
        cfg.root = Some("/srv/root".into());
        let ok = |p: &str| resolve(p, &cfg).map(|r| r.path).map_err(|e| e.status());
        assert_eq!(ok("/a/b.txt"), Ok("/srv/root/a/b.txt".into()));
        assert_eq!(ok("/a/../b.txt"), Ok("/srv/root/b.txt".into()));
        assert_eq!(ok("/../b.txt"), Err(403));
        assert_eq!(ok("..\\b.txt"), Err(403));
        assert_eq!(ok("/a\0b"), Err(400));
        assert_eq!(ok("/.hidden"), Err(404));
        assert_eq!(ok("/.dir/file"), Ok("/srv/root/.dir/file".into()));
        assert_eq!(ok(""), Ok("/srv/root".into()));
        cfg.dotfiles = Some(Dotfiles::Deny);
        assert_eq!(
            resolve("/.dir/file", &cfg).map_err(|e| e.status()).err(),
            Some(403)
        );
    }

    #[test]
    fn decoding() {
        assert_eq!(decode_component("a%20b").as_deref(), Some("a b"));
        assert_eq!(decode_component("%E2%9C%93").as_deref(), Some("✓"));
        assert!(decode_component("%zz").is_none());
        assert!(decode_component("%").is_none());
        assert!(decode_component("%ff").is_none());
    }

    #[test]
    fn extensions() {
        assert!(has_no_extension("/a/README"));
        assert!(has_no_extension("/a/.hidden"));
        assert!(!has_no_extension("/a/b.txt"));
        assert!(!has_no_extension("/a/b."));
        assert!(has_no_extension("/a.d/b"));
    }
}
