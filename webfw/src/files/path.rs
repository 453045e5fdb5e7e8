//! From a request path or a file name to a file system path, as send's
//! `pipe` does it: decode, refuse NUL bytes and `..`, join with the root,
//! apply the dotfiles rule.

use std::borrow::Cow;
use std::path::PathBuf;

use super::node_path::{normalize, normalize_as};
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

/// send's `pipe` up to the file system: `path` is already decoded (send
/// decodes the URL path; `sendFile` hands it a name that decodes to itself).
pub(crate) fn resolve(path: &str, cfg: &Config) -> Result<Resolved, Error> {
    if path.contains('\0') {
        return Err(Error::from_status(400));
    }
    let full = match &cfg.root {
        Some(root) => {
            let rel = match plain_rel(path) {
                Some(rel) => Cow::Borrowed(rel),
                None if path.is_empty() => Cow::Borrowed(""),
                None => {
                    let rel = normalize_as(path, false);
                    if has_up_segment(&rel) {
                        return Err(Error::from_status(403));
                    }
                    dotfiles(&rel, cfg)?;
                    Cow::Owned(rel)
                }
            };
            // `normalize(join(root, rel))`: the root is normalised already
            // and `rel` holds no `..`.
            match &*rel {
                "" | "." => root.clone(),
                "./" => [root.as_str(), "/"].concat(),
                rel => [root.as_str(), "/", rel].concat(),
            }
        }
        None => {
            if has_up_segment(path) {
                return Err(Error::from_status(403));
            }
            let normal = normalize(path);
            dotfiles(&normal, cfg)?;
            // `path.resolve` drops a trailing slash.
            match normal.strip_suffix('/') {
                Some(s) if !s.is_empty() => s.to_owned(),
                _ => normal,
            }
        }
    };
    Ok(Resolved {
        path: PathBuf::from(full),
        trailing_slash: path.ends_with('/'),
    })
}

/// send's `containsDotFile` and the `dotfiles` rule, on the path's
/// segments.
/// The usual request path (`/css/site.css`): absolute, with no empty,
/// dot or dot-dot segment and no backslash. Normalised relative to the root
/// it is itself without the leading slash, holds no `..` and names no
/// dotfile, so none of the general steps can change or refuse it.
fn plain_rel(path: &str) -> Option<&str> {
    let rel = path.strip_prefix('/')?;
    let b = rel.as_bytes();
    let plain = !b.is_empty()
        && b[0] != b'/'
        && b[0] != b'.'
        && !b.contains(&b'\\')
        && !b
            .windows(2)
            .any(|w| w[0] == b'/' && (w[1] == b'/' || w[1] == b'.'));
    plain.then_some(rel)
}

fn dotfiles(path: &str, cfg: &Config) -> Result<(), Error> {
    if !path.split('/').any(|p| p.len() > 1 && p.starts_with('.')) {
        return Ok(());
    }
    let access = cfg.dotfiles.unwrap_or_else(|| {
        let last = path.rsplit('/').next().unwrap_or(path);
        if last.starts_with('.') {
            Dotfiles::Ignore
        } else {
            Dotfiles::Allow
        }
    });
    match access {
        Dotfiles::Allow => Ok(()),
        Dotfiles::Deny => Err(Error::from_status(403)),
        Dotfiles::Ignore => Err(Error::from_status(404)),
    }
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
    fn plain_paths_take_no_general_step() {
        // Deny refuses any dotfile segment at all.
        let mut cfg = Config::new(MaxAge::default(), false);
        cfg.dotfiles = Some(Dotfiles::Deny);
        let alphabet = ["a", "b.c", "/", ".", "..", "\\", "%", ".x"];
        let mut paths = vec![String::from("/")];
        for _ in 0..4 {
            let mut next = Vec::new();
            for p in &paths {
                for piece in alphabet {
                    next.push(format!("{p}{piece}"));
                }
            }
            paths.extend(next);
        }
        let mut plain = 0;
        for path in &paths {
            if let Some(rel) = plain_rel(path) {
                plain += 1;
                let general = normalize_as(path, false);
                assert_eq!(rel, general, "{path}");
                assert!(!has_up_segment(&general), "{path}");
                assert!(dotfiles(&general, &cfg).is_ok(), "{path}");
            }
        }
        assert!(plain > 100, "{plain}");
        assert_eq!(plain_rel("/a/b.c/"), Some("a/b.c/"));
        assert_eq!(plain_rel("/a/.x"), None);
        assert_eq!(plain_rel("//a"), None);
        assert_eq!(plain_rel("/"), None);
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
