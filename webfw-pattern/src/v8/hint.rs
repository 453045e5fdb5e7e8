//! What to write instead of an Express 4 habit that path-to-regexp 8
//! refuses. The same text serves the start-up panic and the macros'
//! compile errors.

use super::ErrorKind;
use super::parse::id_continue;

/// A note on how a backslash is written in Rust source.
const ESCAPE: &str = "(a backslash in the path: `\"\\\\x\"` or `r\"\\x\"` in Rust)";

/// `/ab?cd` → `/a{b}cd`; `/:id?` → `{/:id}` (the `?` at byte `at`).
fn optional_form(path: &str, at: usize) -> Option<String> {
    let before = path.get(..at)?;
    let after = path.get(at + 1..)?;
    let name_start = before
        .char_indices()
        .rev()
        .take_while(|&(_, c)| id_continue(c))
        .last()
        .map_or(before.len(), |(i, _)| i);
    let start = if name_start < before.len() && before[..name_start].ends_with(':') {
        // A parameter: the group takes its `/` too.
        let colon = name_start - 1;
        if before[..colon].ends_with('/') {
            colon - 1
        } else {
            colon
        }
    } else {
        before.char_indices().last()?.0
    };
    Some(format!(
        "{}{{{}}}{after}",
        &before[..start],
        &before[start..]
    ))
}

/// `path` with `name` inserted at byte `at`.
fn insert(path: &str, at: usize, name: &str) -> String {
    let at = at.min(path.len());
    format!("{}{name}{}", &path[..at], &path[at..])
}

/// The hint for an error of `kind` in `path` at byte `at`.
pub(crate) fn hint(kind: &ErrorKind, path: &str, at: usize) -> String {
    match kind {
        ErrorKind::Unexpected('?') => {
            let example = optional_form(path, at)
                .map(|p| format!(" (here: `{p}`)"))
                .unwrap_or_default();
            format!(
                "optional parts are `{{…}}` groups in Express 5{example}; \
                 for a literal `?` write `\\?` {ESCAPE}"
            )
        }
        ErrorKind::Unexpected('+') => format!(
            "`+` (one or more) is gone in Express 5: match several segments with a named \
             wildcard (`/*rest`, an array); for a literal `+` write `\\+` {ESCAPE}"
        ),
        ErrorKind::Unexpected('(' | ')') => format!(
            "custom parameter patterns such as `:id(\\d+)` are gone in Express 5: take `:id` \
             and check it in the handler, or use a regular expression path \
             (`PathSpec::regex`); for a literal parenthesis write `\\(` / `\\)` {ESCAPE}"
        ),
        ErrorKind::Unexpected(c @ ('[' | ']')) => format!(
            "character classes are gone in Express 5: use a regular expression path \
             (`PathSpec::regex`); for a literal `{c}` write `\\{c}` {ESCAPE}"
        ),
        ErrorKind::Unexpected('}') => format!(
            "this `}}` closes no group: open the optional group with `{{`, or write `\\}}` \
             for a literal brace {ESCAPE}"
        ),
        ErrorKind::Unexpected(c) => {
            format!("`{c}` is reserved in Express 5 paths: write `\\{c}` {ESCAPE}")
        }
        ErrorKind::MissingName('*') => {
            // A bare `*` (Express 4's match-everything) becomes the
            // wildcard that also matches `/`.
            let named = if path == "*" {
                "/{*splat}".to_owned()
            } else {
                insert(path, at + 1, "splat")
            };
            format!(
                "wildcards are named in Express 5: write `{named}` (`req.params.splat` is \
                 the array of segments; wrap it as `{{/*splat}}` to also match nothing), or \
                 `\\*` for a literal `*` {ESCAPE}"
            )
        }
        ErrorKind::MissingName(_) => format!(
            "a `:` starts a parameter: name it (`:id`, or `:\"user-id\"` for other \
             characters), or write `\\:` for a literal colon {ESCAPE}"
        ),
        ErrorKind::MissingText(name) => format!(
            "a parameter right after another one cannot be told apart from it: put literal \
             text before `{name}` (`/:from-:to`, `/:name.:ext`) or make one optional \
             (`/:name{{.:ext}}`)"
        ),
        ErrorKind::UnclosedGroup => format!(
            "close the optional group with `}}`, or write `\\{{` for a literal brace {ESCAPE}"
        ),
        ErrorKind::UnterminatedQuote => {
            "close the quoted parameter name with `\"` (`:\"user-id\"`)".to_owned()
        }
        ErrorKind::TrailingBackslash => format!(
            "a backslash escapes the character after it: remove the last one, or write \
             `\\\\` for a literal backslash {ESCAPE}"
        ),
        ErrorKind::TooManyCombinations => "each `{…}` group doubles the alternatives and at most \
             256 are allowed (8 groups in a row): split the route in several, or match the \
             rest with a wildcard (`{/*rest}`)"
            .to_owned(),
    }
}
