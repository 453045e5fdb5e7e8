//! Route paths, mount paths and param names, checked at build time with the
//! parser the runtime uses (`webfw-pattern`, path-to-regexp 0.1.13).

use syn::LitStr;
use webfw_pattern::{Options, Pattern, PatternError};

/// Which Express's path syntax an attribute's paths are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// path-to-regexp 0.1 (`#[get]`)
    Express4,
    /// path-to-regexp 8 (`#[webfw::express5::get]`)
    Express5,
}

/// Where a path is used: a route (`end: true`) or a mount path (`end: false`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PathUse {
    Route,
    Mount,
}

impl PathUse {
    fn what(self) -> &'static str {
        match self {
            PathUse::Route => "route path",
            PathUse::Mount => "mount path",
        }
    }

    fn options(self) -> Options {
        match self {
            PathUse::Route => Options::route(),
            PathUse::Mount => Options::middleware(),
        }
    }
}

/// Whether the runtime compiles `paths` without the regex engine: no path
/// (middleware everywhere) or one path `Pattern::simple` takes. It is asked
/// with the route options, the narrowest: a path simple under them is
/// simple under every option (webfw-pattern's unit tests check this).
pub(crate) fn simple(paths: &[String], dialect: Dialect) -> bool {
    match (paths, dialect) {
        ([], _) => true,
        ([one], Dialect::Express4) => Pattern::simple(one, Options::route()).is_some(),
        ([one], Dialect::Express5) => Pattern::express5_simple(one, Options::route()).is_some(),
        _ => false,
    }
}

/// Compiles one path as the runtime will; errors point at the literal and
/// show the offending character (stable Rust cannot point inside a literal).
pub(crate) fn check_path(lit: &LitStr, how: PathUse, dialect: Dialect) -> syn::Result<()> {
    let path = lit.value();
    if dialect == Dialect::Express5 {
        return check_path5(lit, &path, how);
    }
    if let Some(fixed) = never_matches(&path) {
        return Err(syn::Error::new_spanned(
            lit,
            format!(
                "{} `{path}` never matches: request paths start with `/`; write `{fixed}`",
                how.what()
            ),
        ));
    }
    Pattern::new(&path, how.options())
        .map(drop)
        .map_err(|e| syn::Error::new_spanned(lit, message(how, &path, &e)))
}

/// An Express 5 path: path-to-regexp 8's refusal word for word, the
/// caret, and what to write instead.
fn check_path5(lit: &LitStr, path: &str, how: PathUse) -> syn::Result<()> {
    if let Err(e) = Pattern::express5(path, how.options()) {
        let mut text = message(how, path, &e).replacen("invalid ", "invalid Express 5 ", 1);
        if let Some(hint) = &e.hint {
            text.push_str("\n  help: ");
            text.push_str(hint);
        }
        return Err(syn::Error::new_spanned(lit, text));
    }
    // Text or a parameter first can never match a path starting with `/`
    // (a wildcard can: it takes the `/`).
    let first = path.chars().next();
    if first.is_some_and(|c| c.is_alphanumeric() || matches!(c, ':' | '_' | '-' | '.' | '~')) {
        return Err(syn::Error::new_spanned(
            lit,
            format!(
                "{} `{path}` never matches: request paths start with `/`; write `/{path}`",
                how.what()
            ),
        ));
    }
    Ok(())
}

/// Several paths of one attribute are one layer at run time
/// (`Pattern::many`); the joined list must compile too. (Express 5 tries
/// each path on its own: nothing more to check.)
pub(crate) fn check_many(lits: &[LitStr], dialect: Dialect) -> syn::Result<()> {
    if lits.len() < 2 || dialect == Dialect::Express5 {
        return Ok(());
    }
    let values: Vec<String> = lits.iter().map(LitStr::value).collect();
    let refs: Vec<&str> = values.iter().map(String::as_str).collect();
    let Err(e) = Pattern::many(&refs, PathUse::Route.options()) else {
        return Ok(());
    };
    // "path #3: …" names the element the offsets are into
    let index = e
        .message
        .strip_prefix("path #")
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|i| *i < lits.len())
        .unwrap_or(0);
    let mut e = e;
    if let Some(rest) = e.message.strip_prefix(&format!("path #{index}: ")) {
        e.message = format!("{rest} (in the list of paths)");
    }
    Err(syn::Error::new_spanned(
        &lits[index],
        message(PathUse::Route, &values[index], &e),
    ))
}

/// `invalid route path `…`: <V8's message>` and a caret line under the
/// offending part.
fn message(how: PathUse, path: &str, e: &PatternError) -> String {
    let mut out = format!("invalid {} `{path}`: {}", how.what(), e.message);
    let whole = e.offset == 0 && e.len >= path.len();
    if !whole && e.offset <= path.len() && path.is_char_boundary(e.offset) {
        let end = (e.offset + e.len.max(1)).min(path.len());
        let end = (end..=path.len())
            .find(|i| path.is_char_boundary(*i))
            .unwrap_or(path.len());
        let col = path[..e.offset].chars().count();
        let width = path[e.offset..end].chars().count().max(1);
        let part = &path[e.offset..end];
        out.push_str(&format!(
            "\n  {path}\n  {}{} `{part}` at byte {}",
            " ".repeat(col),
            "^".repeat(width),
            e.offset
        ));
    }
    out
}

/// A path that can never match because it does not start with `/` (and
/// nothing before its first character makes that character optional):
/// returns the path with a leading `/`.
fn never_matches(path: &str) -> Option<String> {
    let mut chars = path.chars();
    let first = chars.next()?;
    let second = chars.next();
    let literal_start = first.is_ascii_alphanumeric() || matches!(first, '_' | '-' | '.' | '~');
    let optional = matches!(second, Some('?' | '*' | '{')) || path.contains('|');
    let param_start = first == ':' && !path.contains(['?', '*', '|']);
    ((literal_start && !optional) || param_start).then(|| format!("/{path}"))
}

/// A `#[param]` name: what `:name` can capture (`\w+`), without the `:`.
pub(crate) fn check_param_name(lit: &LitStr) -> syn::Result<()> {
    let name = lit.value();
    if let Some(bare) = name.strip_prefix(':') {
        return Err(syn::Error::new_spanned(
            lit,
            format!(
                "parameter name `{name}` must not start with `:`; write `#[param(\"{bare}\")]`"
            ),
        ));
    }
    if name.is_empty() {
        return Err(syn::Error::new_spanned(
            lit,
            "empty parameter name: write the name used in the route path, e.g. `id` for `/users/:id`",
        ));
    }
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(syn::Error::new_spanned(
            lit,
            format!(
                "`{name}` can never be a route parameter: parameter names are made of \
                 ASCII letters, digits and `_` (as in `/users/:user_id`)"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_matching_paths() {
        assert_eq!(never_matches("users"), Some("/users".into()));
        assert_eq!(never_matches(":id"), Some("/:id".into()));
        assert_eq!(never_matches("/users"), None);
        assert_eq!(never_matches("*"), None);
        assert_eq!(never_matches(""), None);
        assert_eq!(never_matches("a?"), None);
        assert_eq!(never_matches("a|/b"), None);
        assert_eq!(never_matches(":id?"), None);
        assert_eq!(never_matches("(/a|/b)"), None);
    }

    #[test]
    fn caret_under_the_offending_part() {
        let e = Pattern::new("/a/:id(\\d+", Options::route()).unwrap_err();
        let m = message(PathUse::Route, "/a/:id(\\d+", &e);
        assert!(
            m.contains("\n  /a/:id(\\d+\n        ^ `(` at byte 6"),
            "{m}"
        );
    }
}
