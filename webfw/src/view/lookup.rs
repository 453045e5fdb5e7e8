//! Where a view name leads, exactly as Express's `View` finds it: the
//! extension (Node's `path.extname`), the `view engine` default, and the
//! candidate files under each `views` root (`<name><ext>`, then
//! `<name>/index<ext>`). Pure path arithmetic; the caller does the `stat`s.

use std::path::{Component, Path, PathBuf};

/// Node's `path.extname` (POSIX): the last segment's extension, `""` for
/// none, for dot-files (`.profile`) and for `..`.
pub(crate) fn extname(path: &str) -> &str {
    let bytes = path.as_bytes();
    let mut start_dot: Option<usize> = None;
    let mut start_part = 0;
    let mut end: Option<usize> = None;
    let mut matched_slash = true;
    // 0: no character before the dot yet; 1: only dots; -1: a non-dot.
    let mut pre_dot_state = 0i8;
    for i in (0..bytes.len()).rev() {
        let c = bytes[i];
        if c == b'/' {
            if !matched_slash {
                start_part = i + 1;
                break;
            }
            continue;
        }
        if end.is_none() {
            matched_slash = false;
            end = Some(i + 1);
        }
        if c == b'.' {
            if start_dot.is_none() {
                start_dot = Some(i);
            } else if pre_dot_state != 1 {
                pre_dot_state = 1;
            }
        } else if start_dot.is_some() {
            pre_dot_state = -1;
        }
    }
    match (start_dot, end) {
        (Some(dot), Some(end))
            if pre_dot_state != 0
                && !(pre_dot_state == 1 && dot + 1 == end && dot == start_part + 1) =>
        {
            &path[dot..end]
        }
        _ => "",
    }
}

/// Node's `path.resolve(root, name)` against `cwd`: an absolute, normalised
/// path (`.` and `..` segments applied, no trailing slash). Lexical, as
/// Node's is: symbolic links are not followed.
pub(crate) fn resolve(cwd: &Path, root: &str, name: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for piece in [cwd, Path::new(root), Path::new(name)] {
        if piece.has_root() {
            out = PathBuf::new();
        }
        for part in piece.components() {
            match part {
                Component::CurDir => {}
                // Above the root stays at the root, as in Node.
                Component::ParentDir => {
                    out.pop();
                }
                other => out.push(other),
            }
        }
    }
    out
}

/// A view name made ready for lookup: its extension (given or from `view
/// engine`) and the file name to look for.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Target {
    /// `.ext`, the key of the engine that renders it.
    pub ext: String,
    /// The name with the default extension appended when it had none.
    pub file_name: String,
}

/// Express's `View` constructor, before the lookup.
pub(crate) fn target(name: &str, default_engine: Option<&str>) -> Result<Target, &'static str> {
    let ext = extname(name);
    if !ext.is_empty() {
        return Ok(Target {
            ext: ext.to_owned(),
            file_name: name.to_owned(),
        });
    }
    let Some(engine) = default_engine else {
        return Err("No default engine was specified and no extension was provided.");
    };
    let ext = if engine.starts_with('.') {
        engine.to_owned()
    } else {
        format!(".{engine}")
    };
    Ok(Target {
        file_name: format!("{name}{ext}"),
        ext,
    })
}

/// The files tried under one root, in order: `<root>/<file>`, then
/// `<dir>/<file without ext>/index<ext>`.
pub(crate) fn candidates(cwd: &Path, root: &str, target: &Target) -> [PathBuf; 2] {
    let loc = resolve(cwd, root, &target.file_name);
    let dir = loc
        .parent()
        .map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
    let file = loc.file_name().and_then(|f| f.to_str()).unwrap_or_default();
    // Node's `basename(file, ext)`: `.tpl` less `.tpl` is empty, so
    // `users/` (file `.tpl`) finds `users/index.tpl`.
    let stem = file.strip_suffix(target.ext.as_str()).unwrap_or(file);
    let index = dir.join(stem).join(format!("index{}", target.ext));
    [loc, index]
}

/// Express's lookup failure message.
pub(crate) fn not_found_message(name: &str, roots: &[String]) -> String {
    let dirs = match roots {
        [.., last] if roots.len() > 1 => format!(
            "directories \"{}\" or \"{last}\"",
            roots[..roots.len() - 1].join("\", \"")
        ),
        _ => format!("directory \"{}\"", roots.join(",")),
    };
    format!("Failed to lookup view \"{name}\" in views {dirs}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extname_follows_node() {
        for (input, ext) in [
            ("hello", ""),
            ("hello.tpl", ".tpl"),
            ("a/b.c/d", ""),
            ("a.b/", ".b"),
            ("..a", ".a"),
            ("a/..", ""),
            ("..", ""),
            ("...", "."),
            (".a.b", ".b"),
            ("a/.b", ""),
            ("a.", "."),
            ("v1.0/page.html", ".html"),
            ("", ""),
        ] {
            assert_eq!(extname(input), ext, "extname({input:?})");
        }
    }

    #[test]
    fn resolve_follows_node() {
        let cwd = Path::new("/srv/app");
        assert_eq!(resolve(cwd, "/a/b", "../c/./d/"), Path::new("/a/c/d"));
        assert_eq!(resolve(cwd, "/a", "/x/y"), Path::new("/x/y"));
        assert_eq!(
            resolve(cwd, "views", "x.tpl"),
            Path::new("/srv/app/views/x.tpl")
        );
        assert_eq!(resolve(cwd, "/", "../../.."), Path::new("/"));
    }

    #[test]
    fn target_uses_the_default_engine_only_without_extension() {
        let t = target("hello", Some("tpl")).unwrap();
        assert_eq!(
            (t.ext.as_str(), t.file_name.as_str()),
            (".tpl", "hello.tpl")
        );
        let t = target("hello", Some(".tpl")).unwrap();
        assert_eq!(t.file_name, "hello.tpl");
        let t = target("page.html", Some("tpl")).unwrap();
        assert_eq!(
            (t.ext.as_str(), t.file_name.as_str()),
            (".html", "page.html")
        );
        assert_eq!(
            target("hello", None).unwrap_err(),
            "No default engine was specified and no extension was provided."
        );
    }

    #[test]
    fn candidates_are_the_file_then_its_index() {
        let t = target("users", Some("tpl")).unwrap();
        let [a, b] = candidates(Path::new("/cwd"), "/v", &t);
        assert_eq!(a, Path::new("/v/users.tpl"));
        assert_eq!(b, Path::new("/v/users/index.tpl"));
        let t = target("/abs/page.tpl", None).unwrap();
        let [a, b] = candidates(Path::new("/cwd"), "/v", &t);
        assert_eq!(a, Path::new("/abs/page.tpl"));
        assert_eq!(b, Path::new("/abs/page/index.tpl"));
        let t = target("users/", Some("tpl")).unwrap();
        let [a, b] = candidates(Path::new("/cwd"), "v", &t);
        assert_eq!(a, Path::new("/cwd/v/users/.tpl"));
        assert_eq!(b, Path::new("/cwd/v/users/index.tpl"));
    }

    #[test]
    fn not_found_names_every_root() {
        assert_eq!(
            not_found_message("x", &["/v".into()]),
            "Failed to lookup view \"x\" in views directory \"/v\""
        );
        assert_eq!(
            not_found_message("x", &["/a".into(), "/b".into(), "/c".into()]),
            "Failed to lookup view \"x\" in views directories \"/a\", \"/b\" or \"/c\""
        );
    }
}
