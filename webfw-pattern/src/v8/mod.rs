//! Express 5 route paths: path-to-regexp 8.4 as router 2.3 uses it.
//!
//! A path is text plus `:name` parameters (a JavaScript identifier, or
//! `:"any text"`), `*name` wildcards (one or more characters including `/`;
//! the value is an array, see [`Key::Wildcard`]), `{…}` optional groups
//! (nested as deep as wanted, at most 256 combinations) and `\x` escapes.
//! `( ) [ ] ? + !` and a stray `}` are errors, with path-to-regexp's
//! message word for word ([`PatternError::message`]) and what to write
//! instead ([`PatternError::hint`]).
//!
//! As router 2 does, a non-strict path loses its trailing slashes and the
//! match takes one optional `/` at the end of the request path; `end:
//! false` (mount paths) stops at a `/` or the end. Paths of literal text
//! and whole-segment parameters run on the same regex-free matchers as
//! Express 4 paths.
//!
//! ```
//! use webfw_pattern::{Options, Pattern};
//!
//! let p = Pattern::express5("/file/:name{.:ext}", Options::route()).unwrap();
//! assert_eq!(p.matches("/file/a.b.c").unwrap().params, vec![(0, "a.b"), (1, "c")]);
//! assert_eq!(p.matches("/file/abc").unwrap().params, vec![(2, "abc")]);
//!
//! let e = Pattern::express5("/ab?cd", Options::route()).unwrap_err();
//! assert_eq!(
//!     e.message,
//!     "Unexpected ? at index 3: /ab?cd; visit https://git.new/pathToRegexpError for info"
//! );
//! assert!(e.hint.unwrap().contains("/a{b}cd"));
//! ```

mod compile;
mod hint;
pub(crate) mod parse;

use crate::backtrack::Program;
use crate::{Engine, Key, Options, Pattern, PatternError, fast, jsre};

/// A token of a parsed path (path-to-regexp's `TokenData.tokens`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Token {
    Text(String),
    Param(String),
    Wildcard(String),
    Group(Vec<Token>),
}

/// Why a path was refused, for the hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ErrorKind {
    Unexpected(char),
    /// after `:` or `*`
    MissingName(char),
    /// the parameter that follows another one
    MissingText(String),
    UnclosedGroup,
    UnterminatedQuote,
    TrailingBackslash,
    TooManyCombinations,
}

pub(crate) fn error(
    kind: ErrorKind,
    message: String,
    offset: usize,
    len: usize,
    path: &str,
) -> PatternError {
    PatternError {
        offset,
        len,
        hint: Some(hint::hint(&kind, path, offset)),
        message,
    }
}

/// What a path compiles to before an engine is picked.
struct Plan {
    source: String,
    keys: Vec<Key>,
    /// A regex-free engine and its literal prefix, when one fits.
    fast: Option<(Engine, String)>,
}

/// The path router 2 hands to path-to-regexp: non-strict paths lose their
/// trailing slashes (all of them, escaped or not), except `/` itself.
fn loosen(path: &str, opts: Options) -> &str {
    if opts.strict || path == "/" {
        path
    } else {
        path.trim_end_matches('/')
    }
}

/// The anchors path-to-regexp adds after the alternatives.
fn suffix(opts: Options) -> &'static str {
    match (opts.strict, opts.end) {
        (false, true) => "(?:\\/$)?$",
        (false, false) => "(?:\\/$)?(?=\\/|$)",
        (true, true) => "$",
        (true, false) => "(?=\\/|$)",
    }
}

/// The regex source without the fast engine (also for list elements).
fn plan(path: &str, opts: Options) -> Result<Plan, PatternError> {
    let loose = loosen(path, opts);
    let tokens = parse::tokens(loose)?;
    let mut keys = Vec::new();
    let mut alts: Vec<String> = Vec::new();
    let mut only: Option<Vec<compile::Flat<'_>>> = None;
    let count = compile::for_each_combination(&tokens, loose, |seq| {
        alts.push(compile::source(seq, &mut keys, loose)?);
        if only.is_none() {
            only = Some(seq.to_vec());
        }
        Ok(())
    })?;
    let raw: Vec<char> = format!("^(?:{}){}", alts.join("|"), suffix(opts))
        .chars()
        .collect();
    // As `RegExp.prototype.source` shows it (line terminators escaped).
    let source = crate::compile::v8_source(&raw);
    let fast = match (count, only) {
        (1, Some(seq)) => fast_engine(path, &seq, opts),
        _ => None,
    };
    Ok(Plan { source, keys, fast })
}

/// A literal path, or literal text and whole-segment parameters.
fn fast_engine(path: &str, seq: &[compile::Flat<'_>], opts: Options) -> Option<(Engine, String)> {
    if path == "/" && !opts.end {
        // router 2's `layer.slash`: every path, nothing stripped
        return Some((Engine::Slash, String::new()));
    }
    let mut chunks = vec![String::new()];
    for token in seq {
        match token {
            compile::Flat::Text(t) => chunks.last_mut()?.push_str(t),
            compile::Flat::Param(_) => chunks.push(String::new()),
            compile::Flat::Wildcard(_) => return None,
        }
    }
    let tail = fast::tail_v8(opts);
    if let [text] = chunks.as_slice() {
        let lit = fast::Literal::from_text(text, tail, opts)?;
        let prefix = lit.prefix();
        return Some((Engine::Literal(lit), prefix));
    }
    let refs: Vec<&str> = chunks.iter().map(String::as_str).collect();
    let mut seg = fast::Segments::from_chunks(&refs, tail, opts)?;
    let prefix = seg.prefix();
    seg.set_prefix(&prefix);
    Some((Engine::Segments(seg), prefix))
}

/// The backtracking program of a generated source (always valid regex).
fn program(source: &str, opts: Options) -> Result<(Engine, String), PatternError> {
    let chars: Vec<char> = source.chars().collect();
    let insensitive = !opts.sensitive;
    let ast = jsre::parse(&chars).map_err(|e| PatternError {
        offset: 0,
        len: 0,
        message: format!(
            "internal error: path-to-regexp 8 source /{source}/: {}",
            e.msg
        ),
        hint: None,
    })?;
    let prefix = crate::prefix::literal_prefix(&ast.alts, insensitive);
    Ok((
        Engine::Backtrack(Box::new(Program::new(ast, insensitive))),
        prefix,
    ))
}

impl Pattern {
    /// Compile an Express 5 string path (path-to-regexp 8.4, as router 2.3
    /// calls it with `opts`: trailing slashes dropped unless `strict`).
    ///
    /// Keys are in capture order over every combination of the optional
    /// groups (all groups first), so a name may appear more than once; the
    /// match reports the alternative that matched.
    ///
    /// # Errors
    /// Exactly where path-to-regexp 8 throws, with its message and a hint.
    ///
    /// ```
    /// use webfw_pattern::{Key, Options, Pattern};
    ///
    /// let p = Pattern::express5("/star/*rest", Options::route()).unwrap();
    /// assert_eq!(p.source(), r"^(?:\/star\/([^]+))(?:\/$)?$");
    /// assert_eq!(p.matches("/star/a/b/").unwrap().params, vec![(0, "a/b/")]);
    /// assert!(p.matches("/star/").is_none());
    ///
    /// let e = Pattern::express5("/:a:b", Options::route()).unwrap_err();
    /// assert!(e.message.starts_with("Missing text before \"b\" param: /:a:b;"));
    /// ```
    pub fn express5(path: &str, opts: Options) -> Result<Pattern, PatternError> {
        let plan = plan(path, opts)?;
        let (engine, prefix) = match plan.fast {
            Some(fast) => fast,
            None => program(&plan.source, opts)?,
        };
        Ok(Pattern {
            source: plan.source,
            keys: plan.keys,
            prefix,
            opts,
            engine,
        })
    }

    /// [`Pattern::express5`] for a path the regex-free engines run (literal
    /// text and whole-segment `:name` parameters, no groups or wildcards);
    /// `None` otherwise, including for invalid paths. It does not link the
    /// regex engine (webfw's Express 5 macros use it for simple paths).
    ///
    /// ```
    /// use webfw_pattern::{Options, Pattern};
    /// let p = Pattern::express5_simple("/users/:id", Options::route()).unwrap();
    /// assert_eq!(p.matches("/users/7/").unwrap().params, vec![(0, "7")]);
    /// assert!(Pattern::express5_simple("/users{/:id}", Options::route()).is_none());
    /// ```
    pub fn express5_simple(path: &str, opts: Options) -> Option<Pattern> {
        let plan = plan(path, opts).ok()?;
        let (engine, prefix) = plan.fast?;
        Some(Pattern {
            source: plan.source,
            keys: plan.keys,
            prefix,
            opts,
            engine,
        })
    }

    /// Several Express 5 paths in one layer: router 2 tries each in turn,
    /// the first that matches wins. Keys are every path's, in order.
    ///
    /// # Errors
    /// The first path's error, as [`Pattern::express5`] gives it.
    ///
    /// ```
    /// use webfw_pattern::{Options, Pattern};
    /// let p = Pattern::express5_many(&["/arr/one", "/arr/two/:x"], Options::route()).unwrap();
    /// assert_eq!(p.matches("/arr/two/7").unwrap().params, vec![(0, "7")]);
    /// assert!(p.matches("/arr/one/").is_some());
    /// ```
    pub fn express5_many(paths: &[&str], opts: Options) -> Result<Pattern, PatternError> {
        let mut keys = Vec::new();
        let mut sources = Vec::new();
        for path in paths {
            let plan = plan(path, opts)?;
            keys.extend(plan.keys);
            sources.push(plan.source);
        }
        // An empty list matches nothing, as no matcher does.
        let source = if sources.is_empty() {
            "(?!)".to_owned()
        } else {
            sources.join("|")
        };
        let (engine, prefix) = program(&source, opts)?;
        Ok(Pattern {
            source,
            keys,
            prefix,
            opts,
            engine,
        })
    }
}

#[cfg(test)]
mod tests;
