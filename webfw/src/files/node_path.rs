//! Node's `path` functions that send and serve-static call: `normalize`
//! and `resolve`, for the paths they are given and the roots they serve.

use std::path::PathBuf;

/// Node's `path.posix.normalize`, built in one string.
pub(crate) fn normalize(path: &str) -> String {
    normalize_as(path, path.starts_with('/'))
}

/// `normalize`, with `absolute: false` giving what `normalize('./' + path)`
/// gives without building that string.
pub(crate) fn normalize_as(path: &str, absolute: bool) -> String {
    if path.is_empty() {
        return ".".to_owned();
    }
    let base = usize::from(absolute);
    let mut out = String::with_capacity(path.len() + 1);
    if absolute {
        out.push('/');
    }
    // Leading `..` segments of a relative path, which a later `..` keeps.
    let mut ups = 0;
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                let kept = if ups == 0 { 0 } else { ups * 3 - 1 };
                if out.len() > base + kept {
                    match out[base..].rfind('/') {
                        Some(i) => out.truncate(base + i),
                        None => out.truncate(base),
                    }
                } else if !absolute {
                    if out.len() > base {
                        out.push('/');
                    }
                    out.push_str("..");
                    ups += 1;
                }
            }
            s => {
                if out.len() > base {
                    out.push('/');
                }
                out.push_str(s);
            }
        }
    }
    if out.is_empty() {
        out.push('.');
    }
    if path.ends_with('/') && !out.ends_with('/') {
        out.push('/');
    }
    out
}

/// `path.resolve(p)`: relative to the working directory, normalised,
/// without a trailing slash.
pub(crate) fn absolute(p: PathBuf) -> String {
    let p = if p.is_absolute() {
        p
    } else {
        std::env::current_dir().map_or(p.clone(), |cwd| cwd.join(p))
    };
    let normal = normalize(&p.to_string_lossy());
    match normal.strip_suffix('/') {
        Some(s) if !s.is_empty() => s.to_owned(),
        _ => normal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            ("./../../a/../b", "../../b"),
            ("a/b/../../..", ".."),
            ("/a/b/../../..", "/"),
            ("//a//b//", "/a/b/"),
            ("./.", "."),
            ("../a/..", ".."),
        ] {
            assert_eq!(normalize(input), want, "{input}");
        }
    }
}
