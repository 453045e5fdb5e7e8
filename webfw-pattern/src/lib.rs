//! Express 4 route paths: a byte-exact port of
//! [path-to-regexp 0.1.13](https://github.com/pillarjs/path-to-regexp/tree/v0.1.13)
//! (the route-path compiler of Express 4) plus a fast matcher.
//!
//! A [`Pattern`] is compiled once from a string path ([`Pattern::new`]), an
//! array of paths ([`Pattern::many`]) or a JavaScript regex route
//! ([`Pattern::regex`]); [`Pattern::matches`] then behaves like JavaScript's
//! `RegExp.prototype.exec` on the regex path-to-regexp would build, plus the
//! two fast paths of Express' `Layer` (`"/"` for middleware, `"*"`).
//!
//! ```
//! use webfw_pattern::{Key, Options, Pattern};
//!
//! let p = Pattern::new("/user/:id", Options::route()).unwrap();
//! assert_eq!(p.source(), r"^\/user(?:\/([^/]+?))\/?$");
//! assert_eq!(p.keys(), &[Key::Name("id".into())]);
//! let m = p.matches("/USER/42/").unwrap();
//! assert_eq!(m.len, 9);
//! assert_eq!(m.params, vec![(0, "42")]);
//! assert!(p.matches("/user/42/x").is_none());
//! ```
//!
//! # Matching engines
//!
//! Each pattern picks the cheapest engine that gives JavaScript's result
//! (the unit tests pin which one each kind of pattern gets):
//!
//! 1. **fast paths**: `"/"` with `end: false` (matches everything, no params,
//!    length 0) and `"*"` (matches everything, param `0` = whole path), as in
//!    Express' `Layer`;
//! 2. **literal**: a string path without parameters or regex syntax (e.g.
//!    `/plaintext`, `use("/mw")`): a byte comparison (ASCII case-insensitive
//!    unless `sensitive`) plus the trailing-slash / `end` / `strict` rules; no
//!    regex runs and nothing is allocated;
//! 3. **segments**: literal text and whole-segment parameters `/:name` or
//!    `/:name?` (`/users/:id/books/:bookId`): a parameter always spans up to
//!    the next `/`, so a scan does it; only the returned `Vec` is allocated;
//! 4. **backtracking**: everything else (`/:id(\d+)`, `/:from-:to`,
//!    `/ab?cd`, regex routes, look-arounds, backreferences) runs on a
//!    backtracking interpreter of the parsed JavaScript regex that follows
//!    ECMA-262's matching rules step for step, as V8 does: the same match,
//!    the same captures (a quantifier resets the captures inside it at every
//!    iteration; an empty iteration past its minimum is rejected). A
//!    quantified single character (`[^/]+?`, `(.*)`, `\d+`) is scanned in a
//!    loop. A match gives up, and reports no match, after a million steps
//!    (a pattern that backtracks catastrophically, such as `(a+)+b`, costs a
//!    bounded time where V8 would run for ever) or a thousand nested steps
//!    (so no path overflows the stack).
//!
//! The JavaScript source is parsed, not handed to another engine: character
//! classes are resolved (`\d`, `\w` and `\b` are ASCII as in JavaScript, `.`
//! excludes line terminators) and case-insensitivity applies JavaScript's
//! non-Unicode rules (`k` never matches the Kelvin sign `K`). The engines are
//! checked against golden data recorded from path-to-regexp 0.1.13 on
//! Node.js 20 (`tests/oracle`), and the backtracking rules against
//! `RegExp.prototype.exec` (`tests/backtrack.rs`). No regex crate is linked.
//!
//! # Known differences from JavaScript
//!
//! Only for inputs or patterns a web router never sees in practice:
//!
//! * characters outside the Basic Multilingual Plane are one character here
//!   and two UTF-16 code units in JavaScript;
//! * a look-behind is matched forwards, trying the longest stretch first:
//!   whether it holds is JavaScript's answer, but when several stretches
//!   hold, the captures inside it may differ from V8's backward matching;
//! * a quantified group iterates at most ~250 times in one match
//!   (`/:p+` against a path of more segments does not match), and a match
//!   that needs more than a million steps is reported as no match.

#![forbid(unsafe_code)]

mod backtrack;
mod charset;
mod compile;
mod fast;
mod jsre;
pub mod logfmt;
pub mod v8;

use std::borrow::Cow;
use std::fmt;

use backtrack::Program;
use compile::{Flags, KeyRec, Source};

/// Options of path-to-regexp 0.1.13 as Express passes them.
///
/// | Caller | `end` | `strict` | `sensitive` |
/// |---|---|---|---|
/// | `app.use` / `router.use` | false | false | router `caseSensitive` |
/// | routes (`app.get`, …) | true | router `strict` | router `caseSensitive` |
///
/// ```
/// use webfw_pattern::Options;
///
/// let route = Options::route().with_strict(true);
/// assert!(route.end && route.strict && !route.sensitive);
/// assert!(!Options::middleware().end);
/// assert_eq!(Options::default(), Options::route());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// Anchor at the end of the path (`$`); otherwise match a prefix that
    /// ends at a `/` or at the end of the path.
    pub end: bool,
    /// Do not allow an optional trailing slash.
    pub strict: bool,
    /// Case-sensitive matching.
    pub sensitive: bool,
}

impl Default for Options {
    /// path-to-regexp's defaults: `end: true`, not strict, case-insensitive.
    fn default() -> Self {
        Options::route()
    }
}

impl Options {
    /// Options with every field given.
    ///
    /// ```
    /// let o = webfw_pattern::Options::new(false, true, true);
    /// assert!(!o.end && o.strict && o.sensitive);
    /// ```
    pub const fn new(end: bool, strict: bool, sensitive: bool) -> Self {
        Options {
            end,
            strict,
            sensitive,
        }
    }

    /// A route (`app.get(path)`): `end: true`, not strict, case-insensitive.
    ///
    /// ```
    /// assert!(webfw_pattern::Options::route().end);
    /// ```
    pub const fn route() -> Self {
        Options::new(true, false, false)
    }

    /// A middleware mount path (`app.use(path)`): `end: false`, not strict,
    /// case-insensitive.
    ///
    /// ```
    /// assert!(!webfw_pattern::Options::middleware().end);
    /// ```
    pub const fn middleware() -> Self {
        Options::new(false, false, false)
    }

    /// These options with `end` replaced.
    ///
    /// ```
    /// assert!(!webfw_pattern::Options::route().with_end(false).end);
    /// ```
    pub const fn with_end(mut self, end: bool) -> Self {
        self.end = end;
        self
    }

    /// These options with `strict` replaced.
    ///
    /// ```
    /// assert!(webfw_pattern::Options::route().with_strict(true).strict);
    /// ```
    pub const fn with_strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// These options with `sensitive` replaced.
    ///
    /// ```
    /// assert!(webfw_pattern::Options::route().with_sensitive(true).sensitive);
    /// ```
    pub const fn with_sensitive(mut self, sensitive: bool) -> Self {
        self.sensitive = sensitive;
        self
    }
}

/// The name of a captured parameter (an entry of `req.params`).
///
/// ```
/// use webfw_pattern::{Key, Options, Pattern};
///
/// let p = Pattern::new("/:name/*", Options::route()).unwrap();
/// assert_eq!(p.keys(), &[Key::Name("name".into()), Key::Index(0)]);
/// assert_eq!(p.keys()[1].to_string(), "0");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// `:name` parameters and named regex groups `(?<name>…)` of regex routes.
    Name(String),
    /// Unnamed capture groups (`*`, `(…)`, a param's trailing `*`), numbered
    /// from 0 in source order (per array element for [`Pattern::many`]).
    Index(usize),
    /// A path-to-regexp 8 wildcard `*name` ([`Pattern::express5`]): its
    /// value in `req.params` is an array, the capture split on `/`.
    ///
    /// ```
    /// use webfw_pattern::{Key, Options, Pattern};
    /// let p = Pattern::express5("/files/*rest", Options::route()).unwrap();
    /// assert_eq!(p.keys(), &[Key::Wildcard("rest".into())]);
    /// assert!(p.keys()[0].is_wildcard());
    /// ```
    Wildcard(String),
}

impl Key {
    /// The property name in `req.params` (`"id"`, `"0"`).
    ///
    /// ```
    /// use webfw_pattern::Key;
    /// assert_eq!(Key::Index(3).property(), "3");
    /// assert_eq!(Key::Name("id".into()).property(), "id");
    /// ```
    pub fn property(&self) -> Cow<'_, str> {
        match self {
            Key::Name(n) | Key::Wildcard(n) => Cow::Borrowed(n),
            Key::Index(i) => Cow::Owned(i.to_string()),
        }
    }

    /// Whether both keys name the same JavaScript property (`Name("0")` and
    /// `Index(0)` do; `Name("00")` and `Index(0)` don't).
    pub(crate) fn same_property(&self, other: &Key) -> bool {
        match (self, other) {
            (Key::Name(a) | Key::Wildcard(a), Key::Name(b) | Key::Wildcard(b)) => a == b,
            (Key::Index(a), Key::Index(b)) => a == b,
            (Key::Name(n) | Key::Wildcard(n), Key::Index(i))
            | (Key::Index(i), Key::Name(n) | Key::Wildcard(n)) => {
                (n == "0" || !n.starts_with('0')) && n.parse::<usize>().ok() == Some(*i)
            }
        }
    }
}

impl Key {
    /// Whether the value is an array (a path-to-regexp 8 `*name`).
    ///
    /// ```
    /// assert!(!webfw_pattern::Key::Name("id".into()).is_wildcard());
    /// ```
    pub fn is_wildcard(&self) -> bool {
        matches!(self, Key::Wildcard(_))
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Name(n) | Key::Wildcard(n) => f.write_str(n),
            Key::Index(i) => write!(f, "{i}"),
        }
    }
}

/// A path that path-to-regexp 0.1.13 would turn into an invalid `RegExp`
/// (so Express would throw when the route is registered).
///
/// `offset` and `len` are a byte range of the original path (or regex source)
/// pointing at the offending part: the unbalanced parenthesis, the custom
/// parameter group, the stray quantifier, …; `(0, path.len())` when no better
/// place is known.
///
/// ```
/// use webfw_pattern::{Options, Pattern};
///
/// let e = Pattern::new("/a/:id(\\d+", Options::route()).unwrap_err();
/// assert_eq!((e.offset, e.len), (6, 1)); // the unclosed `(`
/// assert!(e.message.contains("Unterminated group"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    /// Byte offset into the original path.
    pub offset: usize,
    /// Length in bytes of the offending part.
    pub len: usize,
    /// What is wrong, worded like V8's `SyntaxError` (Express 4) or
    /// path-to-regexp 8's `PathError` (Express 5, word for word).
    pub message: String,
    /// For an Express 5 path: what to write instead (`None` for Express 4
    /// paths, whose message is the regex engine's).
    pub hint: Option<String>,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (at byte {}, length {})",
            self.message, self.offset, self.len
        )
    }
}

impl std::error::Error for PatternError {}

/// A successful match.
///
/// ```
/// use webfw_pattern::{Options, Pattern};
///
/// let p = Pattern::new("/mount/:m", Options::middleware()).unwrap();
/// let m = p.matches("/mount/7/x/9").unwrap();
/// assert_eq!(m.len, 8); // "/mount/7", the prefix to strip
/// assert_eq!(m.params, vec![(0, "7")]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match<'p> {
    /// Length in bytes of the matched text (JavaScript's `match[0]`); for
    /// `end: false` patterns that is the prefix to strip from the URL.
    pub len: usize,
    /// `(index into Pattern::keys(), raw capture)` in capture order; the
    /// captures are still percent-encoded (see [`decode_param`]). Groups that
    /// did not participate are absent. When several keys name the same
    /// property (array alternatives, `:0` and `*`), only one entry is kept,
    /// at the first position, holding the last defined value: exactly what
    /// Express' `req.params` ends up with.
    pub params: Vec<(usize, &'p str)>,
}

/// The end of a literal pattern's match, for paths known to start with its
/// literal prefix (see [`Pattern::literal_end`]).
#[derive(Clone, Copy, Debug)]
pub struct LiteralEnd {
    len: usize,
    tail: fast::Tail,
}

impl LiteralEnd {
    /// The length of the match of `path`, which must start with the
    /// pattern's literal prefix (else the answer means nothing).
    ///
    /// ```
    /// use webfw_pattern::{Options, Pattern};
    /// let end = Pattern::new("/mw", Options::middleware()).unwrap().literal_end().unwrap();
    /// assert_eq!(end.matches("/mw/plaintext"), Some(3));
    /// assert_eq!(end.matches("/mwx"), None);
    /// ```
    #[inline]
    pub fn matches(&self, path: &str) -> Option<usize> {
        let p = path.as_bytes();
        if p.len() < self.len {
            return None;
        }
        self.tail.end(p, self.len)
    }
}

/// A compiled route path.
///
/// ```
/// use webfw_pattern::{Options, Pattern};
///
/// let p = Pattern::new("/routing/range/:from-:to", Options::route()).unwrap();
/// let m = p.matches("/routing/range/1-5").unwrap();
/// assert_eq!(m.params, vec![(0, "1"), (1, "5")]);
/// ```
#[derive(Clone, Debug)]
pub struct Pattern {
    source: String,
    keys: Vec<Key>,
    prefix: String,
    opts: Options,
    engine: Engine,
}

/// `repr(u8)`: a tag byte, where a niche in a variant's fields took
/// several instructions to decode on every match.
#[derive(Clone, Debug)]
#[repr(u8)]
enum Engine {
    /// `"/"` with `end: false`
    Slash,
    /// `"*"`
    Star,
    Literal(fast::Literal),
    Segments(fast::Segments),
    /// Behind a trait object that only the compilers of non-simple paths
    /// make: a program whose paths are all simple links no backtracking.
    Backtrack(Box<dyn backtrack::Matcher>),
}

fn flags_str(insensitive: bool) -> &'static str {
    if insensitive { "i" } else { "" }
}

fn syntax_error(
    e: &jsre::SyntaxError,
    src: &Source,
    total: usize,
    shown: &str,
    insensitive: bool,
) -> PatternError {
    let (offset, len) = src.map(e.pos, e.len, total);
    PatternError {
        offset,
        len,
        message: format!(
            "Invalid regular expression: /{shown}/{}: {}",
            flags_str(insensitive),
            e.msg
        ),
        hint: None,
    }
}

impl Pattern {
    /// Compile a string path with path-to-regexp 0.1.13 semantics.
    ///
    /// `:name` parameters (optionally with a custom group `:id(\d+)`, a
    /// trailing `*` and `?`), bare `*`, and everything else passed through as
    /// regex syntax (`/ab?cd`, `/a(bc)?d`), exactly as path-to-regexp does.
    /// A `:` not followed by a word character is a literal colon.
    ///
    /// # Errors
    /// When the generated regex is invalid JavaScript (unbalanced
    /// parentheses, a quantifier with nothing to repeat, an invalid custom
    /// group, …), or, rarely, valid JavaScript the matcher cannot run (a
    /// look-behind of unbounded length).
    ///
    /// ```
    /// use webfw_pattern::{Key, Options, Pattern};
    ///
    /// let p = Pattern::new("/file/:name.:ext?", Options::route()).unwrap();
    /// assert_eq!(p.source(), r"^\/file(?:\/([^/]+?))(?:\.([^/\.]+?))?\/?$");
    /// assert_eq!(p.matches("/file/a.b.c").unwrap().params, vec![(0, "a.b"), (1, "c")]);
    /// assert_eq!(p.matches("/file/abc").unwrap().params, vec![(0, "abc")]);
    /// assert!(Pattern::new("/a)", Options::route()).is_err());
    /// ```
    pub fn new(path: &str, opts: Options) -> Result<Pattern, PatternError> {
        if let Some(simple) = Pattern::simple(path, opts) {
            return Ok(simple);
        }
        let flags = Flags::from(opts);
        let insensitive = !opts.sensitive;
        let mut keys = Vec::new();
        let src = compile::compile_path(path, flags, &mut keys);
        let source = compile::v8_source(&src.chars);
        let raw: String = src.chars.iter().collect();
        let ast = jsre::parse(&src.chars)
            .map_err(|e| syntax_error(&e, &src, path.len(), &raw, insensitive))?;
        Ok(Pattern {
            source,
            keys: keys.into_iter().map(|k| k.key).collect(),
            prefix: prefix::literal_prefix(&ast.alts, insensitive),
            opts,
            engine: Engine::Backtrack(Box::new(Program::new(ast, insensitive))),
        })
    }

    /// [`Pattern::new`] for a path one of the regex-free engines runs: `"/"`
    /// as middleware, `"*"`, literal text, and literal text with
    /// whole-segment parameters (`/users/:id`, `/:a/:b?`); `None` for any
    /// other path (`:id(\d+)`, `/ab?cd`, `/:from-:to`, non-ASCII text when
    /// case-insensitive).
    ///
    /// It neither parses the regex nor builds the backtracking engine, so a
    /// program that only compiles simple paths does not link them (webfw's
    /// `routes![…]` uses this for the paths its attributes found simple).
    /// Whenever it answers, the pattern is the one [`Pattern::new`] gives.
    ///
    /// ```
    /// use webfw_pattern::{Options, Pattern};
    ///
    /// let p = Pattern::simple("/users/:id", Options::route()).unwrap();
    /// assert_eq!(p.source(), r"^\/users(?:\/([^/]+?))\/?$");
    /// assert_eq!(p.matches("/users/7").unwrap().params, vec![(0, "7")]);
    /// assert!(Pattern::simple(r"/users/:id(\d+)", Options::route()).is_none());
    /// ```
    pub fn simple(path: &str, opts: Options) -> Option<Pattern> {
        // The literal prefix each engine's text gives is the one the parsed
        // regex would (a unit test compares the two on every shape).
        let (engine, prefix) = if path == "/" && !opts.end {
            // `^\/?(?=\/|$)`, or `^\/(?=\/|$)` when strict
            let prefix = if opts.strict { "/" } else { "" };
            (Engine::Slash, prefix.to_owned())
        } else if path == "*" {
            (Engine::Star, String::new())
        } else if let Some(lit) = fast::Literal::new(path, opts) {
            let prefix = lit.prefix();
            (Engine::Literal(lit), prefix)
        } else if let Some(mut seg) = fast::Segments::new(path, opts) {
            let prefix = seg.prefix();
            seg.set_prefix(&prefix);
            (Engine::Segments(seg), prefix)
        } else {
            return None;
        };
        let flags = Flags::from(opts);
        let mut keys = Vec::new();
        let src = compile::compile_path(path, flags, &mut keys);
        Some(Pattern {
            source: compile::v8_source(&src.chars),
            keys: keys.into_iter().map(|k| k.key).collect(),
            prefix,
            opts,
            engine,
        })
    }

    /// Compile an array of string paths: each element is compiled with the
    /// same options and a shared key list (unnamed groups are numbered from 0
    /// in every element), and the sources are joined with `|`.
    ///
    /// # Errors
    /// As [`Pattern::new`], for the first invalid element (offsets are into
    /// that element, the message names its index), or when the joined regex
    /// is invalid (a named group repeated across elements).
    ///
    /// ```
    /// use webfw_pattern::{Key, Options, Pattern};
    ///
    /// let p = Pattern::many(&["/routing/arr/one", "/routing/arr/two/:x"], Options::route()).unwrap();
    /// assert_eq!(p.keys(), &[Key::Name("x".into())]);
    /// assert_eq!(p.matches("/routing/arr/two/7").unwrap().params, vec![(0, "7")]);
    /// assert_eq!(p.matches("/routing/arr/one").unwrap().params, vec![]);
    /// ```
    pub fn many(paths: &[&str], opts: Options) -> Result<Pattern, PatternError> {
        let flags = Flags::from(opts);
        let insensitive = !opts.sensitive;
        let mut keys = Vec::new();
        let mut joined = Source::default();
        // element index of every joined char
        let mut owner: Vec<usize> = Vec::new();
        // what V8 shows in errors: the elements' escaped sources joined
        let mut shown = String::new();
        for (i, path) in paths.iter().enumerate() {
            let src = compile::compile_path(path, flags, &mut keys);
            let source = compile::v8_source(&src.chars);
            if let Err(e) = jsre::parse(&src.chars) {
                let raw: String = src.chars.iter().collect();
                let mut err = syntax_error(&e, &src, path.len(), &raw, insensitive);
                err.message = format!("path #{i}: {}", err.message);
                return Err(err);
            }
            if i > 0 {
                joined.chars.push('|');
                joined.spans.push((0, 0));
                owner.push(i);
            }
            owner.extend(std::iter::repeat_n(i, src.chars.len()));
            if i > 0 {
                shown.push('|');
            }
            shown.push_str(&source);
            joined.chars.extend(src.chars);
            joined.spans.extend(src.spans);
        }
        let source = compile::v8_source(&joined.chars);
        let ast = jsre::parse(&joined.chars).map_err(|e| {
            let i = owner.get(e.pos).copied().unwrap_or(0);
            let total = paths.get(i).map_or(0, |p| p.len());
            let mut err = syntax_error(&e, &joined, total, &shown, insensitive);
            err.message = format!("path #{i}: {}", err.message);
            err
        })?;
        let prefix = prefix::literal_prefix(&ast.alts, insensitive);
        let engine = Engine::Backtrack(Box::new(Program::new(ast, insensitive)));
        Ok(Pattern {
            source,
            keys: keys.into_iter().map(|k: KeyRec| k.key).collect(),
            prefix,
            opts,
            engine,
        })
    }

    /// A regex route (`app.get(/^\/a\/(\w+)$/, …)`), given as the JavaScript
    /// regex source (`^\/a\/(\w+)$`; `/` may be escaped or not).
    ///
    /// As in Express the regex is used as is: no anchors are added, it is
    /// searched anywhere in the path ([`Match::len`] is the length of the
    /// matched text wherever it starts) and it is **case-sensitive** (a
    /// JavaScript regex literal without the `i` flag); `opts.end` and
    /// `opts.strict` are ignored and `opts.sensitive` only decides whether
    /// [`Pattern::literal_prefix`] is lower-cased. Keys are its capture
    /// groups: named groups `(?<n>…)` by name, the others numbered from 0.
    ///
    /// # Errors
    /// When the source is not a valid JavaScript regex; offsets are into
    /// `source`.
    ///
    /// ```
    /// use webfw_pattern::{Key, Options, Pattern};
    ///
    /// let p = Pattern::regex(r"^\/routing\/named\/(?<year>\d{4})\/(?<month>\d{2})$", Options::route()).unwrap();
    /// assert_eq!(p.keys(), &[Key::Name("year".into()), Key::Name("month".into())]);
    /// let m = p.matches("/routing/named/2024/05").unwrap();
    /// assert_eq!(m.params, vec![(0, "2024"), (1, "05")]);
    /// assert!(p.matches("/ROUTING/named/2024/05").is_none());
    /// ```
    pub fn regex(source: &str, opts: Options) -> Result<Pattern, PatternError> {
        let src = Source::verbatim(source);
        let shown = compile::v8_source(&src.chars);
        let keys = compile::regex_keys(&src.chars);
        let ast = jsre::parse(&src.chars)
            .map_err(|e| syntax_error(&e, &src, source.len(), source, false))?;
        let prefix = prefix::literal_prefix_folded(&ast.alts, false, !opts.sensitive);
        let engine = Engine::Backtrack(Box::new(Program::new(ast, false)));
        Ok(Pattern {
            source: shown,
            keys,
            prefix,
            opts,
            engine,
        })
    }

    /// The parameter names, indexed by [`Match::params`]' first element.
    ///
    /// ```
    /// use webfw_pattern::{Key, Options, Pattern};
    /// let p = Pattern::new("/user/:id*", Options::route()).unwrap();
    /// assert_eq!(p.keys(), &[Key::Name("id".into()), Key::Index(0)]);
    /// ```
    pub fn keys(&self) -> &[Key] {
        &self.keys
    }

    /// The options this pattern was compiled with.
    ///
    /// ```
    /// use webfw_pattern::{Options, Pattern};
    /// let p = Pattern::new("/a", Options::middleware()).unwrap();
    /// assert_eq!(p.options(), Options::middleware());
    /// ```
    pub fn options(&self) -> Options {
        self.opts
    }

    /// The JavaScript regex source, as `RegExp.prototype.source` shows the
    /// regex path-to-regexp 0.1.13 builds (or the regex route's source).
    ///
    /// ```
    /// use webfw_pattern::{Options, Pattern};
    /// let p = Pattern::new("/foo", Options::middleware()).unwrap();
    /// assert_eq!(p.source(), r"^\/foo\/?(?=\/|$)");
    /// ```
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The longest literal text every match starts with, for prefiltering.
    ///
    /// When the pattern was compiled case-insensitively (`!opts.sensitive`)
    /// it is ASCII-lower-cased and stops before the first non-ASCII
    /// character: compare it with `eq_ignore_ascii_case` (or against the
    /// lower-cased path). It is `""` when a match can start anywhere or with
    /// anything (`*`, unanchored regex routes, the `"/"` middleware path).
    /// Every path the pattern matches starts with it.
    ///
    /// ```
    /// use webfw_pattern::{Options, Pattern};
    /// assert_eq!(Pattern::new("/User/:id", Options::route()).unwrap().literal_prefix(), "/user/");
    /// assert_eq!(Pattern::new("/ab?cd", Options::route()).unwrap().literal_prefix(), "/a");
    /// assert_eq!(Pattern::new("*", Options::route()).unwrap().literal_prefix(), "");
    /// ```
    pub fn literal_prefix(&self) -> &str {
        &self.prefix
    }

    /// For a literal pattern (no parameters, no regex syntax), how to match
    /// a path already known to start with [`Pattern::literal_prefix`]
    /// (compared as its documentation says): a prefilter that compared the
    /// prefix need not compare it again.
    ///
    /// ```
    /// use webfw_pattern::{Options, Pattern};
    /// let p = Pattern::new("/Plain", Options::route()).unwrap();
    /// let end = p.literal_end().unwrap();
    /// assert_eq!(end.matches("/plain/"), Some(7));
    /// assert_eq!(end.matches("/plain/x"), None);
    /// assert!(Pattern::new("/users/:id", Options::route()).unwrap().literal_end().is_none());
    /// ```
    pub fn literal_end(&self) -> Option<LiteralEnd> {
        match &self.engine {
            Engine::Literal(lit) => lit
                .end_after(&self.prefix)
                .map(|(len, tail)| LiteralEnd { len, tail }),
            _ => None,
        }
    }

    /// Whether this is Express' `"/"` middleware fast path (`end: false`):
    /// every path matches, with no params and a match length of 0, so the
    /// caller may skip [`Pattern::matches`].
    ///
    /// The other fast path, `"*"`, also matches every path but reports the
    /// whole path as param `0` (with `len` = the path's length); it is handled
    /// inside [`Pattern::matches`] and is not reported here.
    ///
    /// ```
    /// use webfw_pattern::{Options, Pattern};
    /// assert!(Pattern::new("/", Options::middleware()).unwrap().is_match_all());
    /// assert!(!Pattern::new("/", Options::route()).unwrap().is_match_all());
    /// assert!(!Pattern::new("*", Options::route()).unwrap().is_match_all());
    /// ```
    pub fn is_match_all(&self) -> bool {
        matches!(self.engine, Engine::Slash)
    }

    /// Match `path` (a URL pathname, still percent-encoded), like Express'
    /// `Layer.match` before it decodes the params.
    ///
    /// ```
    /// use webfw_pattern::{Options, Pattern};
    /// let p = Pattern::new("/foo", Options::middleware()).unwrap();
    /// assert_eq!(p.matches("/foo/bar").unwrap().len, 4);
    /// assert!(p.matches("/foobar").is_none());
    /// let star = Pattern::new("*", Options::route()).unwrap();
    /// assert_eq!(star.matches("/any/thing").unwrap().params, vec![(0, "/any/thing")]);
    /// ```
    pub fn matches<'p>(&self, path: &'p str) -> Option<Match<'p>> {
        match &self.engine {
            Engine::Slash => Some(Match {
                len: 0,
                params: Vec::new(),
            }),
            Engine::Star => Some(Match {
                len: path.len(),
                params: if self.keys.is_empty() {
                    Vec::new()
                } else {
                    vec![(0, path)]
                },
            }),
            Engine::Literal(lit) => lit.matches(path).map(|len| Match {
                len,
                params: Vec::new(),
            }),
            Engine::Segments(_) => {
                let mut params = Vec::with_capacity(self.keys.len());
                let len =
                    self.matches_each_from(path, false, |k, v| self.push_param(&mut params, k, v))?;
                Some(Match { len, params })
            }
            Engine::Backtrack(program) => {
                let found = program.exec(path)?;
                let mut params: Vec<(usize, &'p str)> = Vec::with_capacity(self.keys.len());
                // JavaScript group j + 1 is key j; Express would throw on a
                // group without a key, so there is nothing to report for it
                for (j, cap) in found.caps.iter().enumerate().take(self.keys.len()) {
                    if let Some((a, b)) = *cap {
                        self.push_param(&mut params, j, &path[a..b]);
                    }
                }
                Some(Match {
                    len: found.end - found.start,
                    params,
                })
            }
        }
    }

    /// [`Pattern::matches`] without building the list of params: `each` is
    /// called with every capture (key index, raw text) in capture order and
    /// the match length is returned. Unlike `matches` it does not fold keys
    /// that name the same property: a caller storing by property name
    /// (replacing a value in place) ends up with what `matches` reports.
    /// `prefixed` tells whether `path` is known to start
    /// with [`Pattern::literal_prefix`] (compared as its documentation
    /// says): a prefilter that compared the prefix spares the pattern
    /// comparing its leading text again. With `prefixed` true and a path
    /// that does not start with the prefix, the answer means nothing.
    ///
    /// ```
    /// use webfw_pattern::{Options, Pattern};
    /// let p = Pattern::new("/Users/:id", Options::route()).unwrap();
    /// assert_eq!(p.literal_prefix(), "/users/");
    /// let mut seen = Vec::new();
    /// assert_eq!(p.matches_each_from("/users/7", true, |k, v| seen.push((k, v))), Some(8));
    /// assert_eq!(seen, vec![(0, "7")]);
    /// ```
    #[inline]
    pub fn matches_each_from<'p>(
        &self,
        path: &'p str,
        prefixed: bool,
        mut each: impl FnMut(usize, &'p str),
    ) -> Option<usize> {
        match &self.engine {
            Engine::Slash => Some(0),
            Engine::Literal(lit) => lit.matches(path),
            Engine::Segments(seg) => {
                let mut spans = [(0, 0); fast::MAX_PARAMS];
                let len = seg.matches(path, prefixed, &mut spans)?;
                for (k, &(a, b)) in spans.iter().enumerate().take(self.keys.len()) {
                    if b > a {
                        each(k, &path[a as usize..b as usize]);
                    }
                }
                Some(len)
            }
            _ => {
                let m = self.matches(path)?;
                for (k, v) in m.params {
                    each(k, v);
                }
                Some(m.len)
            }
        }
    }

    /// Record `value` for key `j`: a key naming a property that already has
    /// a value replaces it (Express assigns `params[name]` in capture order).
    #[inline]
    fn push_param<'p>(&self, params: &mut Vec<(usize, &'p str)>, j: usize, value: &'p str) {
        let key = &self.keys[j];
        match params
            .iter_mut()
            .find(|(k, _)| *k == j || self.keys[*k].same_property(key))
        {
            Some(slot) => slot.1 = value,
            None => params.push((j, value)),
        }
    }

    /// Which matcher runs this pattern (the unit tests check the choice).
    #[cfg(test)]
    fn engine(&self) -> &'static str {
        match self.engine {
            Engine::Slash => "slash",
            Engine::Star => "star",
            Engine::Literal(_) => "literal",
            Engine::Segments(_) => "segments",
            Engine::Backtrack(_) => "backtrack",
        }
    }
}

mod prefix {
    //! The literal prefix of a parsed pattern.
    use crate::jsre::{GroupKind, Node};

    /// For a pattern compiled with the given case sensitivity.
    pub(crate) fn literal_prefix(alts: &[Vec<Node>], insensitive: bool) -> String {
        literal_prefix_folded(alts, insensitive, insensitive)
    }

    /// `insensitive`: how the regex matches; `fold`: lower-case the result
    /// (and stop at non-ASCII).
    pub(crate) fn literal_prefix_folded(
        alts: &[Vec<Node>],
        insensitive: bool,
        fold: bool,
    ) -> String {
        let fold = fold || insensitive;
        let mut result: Option<String> = None;
        for alt in alts {
            let mut s = String::new();
            let anchored = matches!(alt.first(), Some(Node::Start));
            if anchored {
                walk(alt, fold, &mut s);
            }
            result = Some(match result {
                None => s,
                Some(r) => common_prefix(&r, &s),
            });
        }
        result.unwrap_or_default()
    }

    fn common_prefix(a: &str, b: &str) -> String {
        a.chars()
            .zip(b.chars())
            .take_while(|(x, y)| x == y)
            .map(|(x, _)| x)
            .collect()
    }

    fn literal(c: u32, fold: bool) -> Option<char> {
        let ch = char::from_u32(c)?;
        if fold {
            ch.is_ascii().then(|| ch.to_ascii_lowercase())
        } else {
            Some(ch)
        }
    }

    /// Append the literal prefix of `seq`; true if all of `seq` was literal.
    fn walk(seq: &[Node], fold: bool, out: &mut String) -> bool {
        for node in seq {
            match node {
                Node::Start | Node::End | Node::WordBoundary { .. } => {}
                Node::Group {
                    kind: GroupKind::Look { .. },
                    ..
                } => {}
                Node::Char(c) => match literal(*c, fold) {
                    Some(ch) => out.push(ch),
                    None => return false,
                },
                Node::Set {
                    set,
                    negated: false,
                } if set.as_single().is_some() => {
                    match set.as_single().and_then(|c| literal(c, fold)) {
                        Some(ch) => out.push(ch),
                        None => return false,
                    }
                }
                Node::Group { alts, .. } => {
                    if alts.len() == 1 {
                        if !walk(&alts[0], fold, out) {
                            return false;
                        }
                    } else {
                        let mut common: Option<String> = None;
                        for alt in alts {
                            let mut s = String::new();
                            walk(alt, fold, &mut s);
                            common = Some(match common {
                                None => s,
                                Some(c) => common_prefix(&c, &s),
                            });
                        }
                        out.push_str(&common.unwrap_or_default());
                        return false;
                    }
                }
                Node::Repeat { node, min, .. } => {
                    if *min >= 1 {
                        walk(std::slice::from_ref(node), fold, out);
                    }
                    return false;
                }
                _ => return false,
            }
        }
        true
    }
}

/// Error of [`decode_param`]: the raw value is not valid percent-encoded
/// UTF-8. Express answers 400 with this message.
///
/// ```
/// let e = webfw_pattern::decode_param("%E0%A4%A").unwrap_err();
/// assert_eq!(e.to_string(), "Failed to decode param '%E0%A4%A'");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// The undecodable raw value.
    pub raw: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Failed to decode param '{}'", self.raw)
    }
}

impl std::error::Error for DecodeError {}

/// JavaScript's `decodeURIComponent`, as Express applies it to every
/// captured param: `%XX` sequences must form valid UTF-8; `+` stays `+`;
/// `%2F` becomes `/`; a string without `%` is returned borrowed.
///
/// # Errors
/// A `%` not followed by two hex digits, or escapes that do not form valid
/// UTF-8 (including overlong forms and surrogates).
///
/// ```
/// use webfw_pattern::decode_param;
/// assert_eq!(decode_param("a%20b").unwrap(), "a b");
/// assert_eq!(decode_param("a+b").unwrap(), "a+b");
/// assert_eq!(decode_param("%C3%A9%2F").unwrap(), "é/");
/// assert!(decode_param("%E0%A4%A").is_err());
/// ```
#[inline]
pub fn decode_param(raw: &str) -> Result<Cow<'_, str>, DecodeError> {
    // Byte by byte: values are short, and a `char` search sets up more.
    if !raw.bytes().any(|b| b == b'%') {
        return Ok(Cow::Borrowed(raw));
    }
    let fail = || DecodeError {
        raw: raw.to_string(),
    };
    let b = raw.as_bytes();
    let hex = |i: usize| -> Option<u8> {
        let h = |c: u8| (c as char).to_digit(16);
        Some((h(*b.get(i + 1)?)? * 16 + h(*b.get(i + 2)?)?) as u8)
    };
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let first = hex(i).ok_or_else(fail)?;
        i += 3;
        let n = match first {
            0x00..=0x7F => {
                out.push(first);
                continue;
            }
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => return Err(fail()),
        };
        let mut seq = [first, 0, 0, 0];
        for slot in seq.iter_mut().take(n).skip(1) {
            if b.get(i) != Some(&b'%') {
                return Err(fail());
            }
            let c = hex(i).ok_or_else(fail)?;
            if c & 0xC0 != 0x80 {
                return Err(fail());
            }
            *slot = c;
            i += 3;
        }
        std::str::from_utf8(&seq[..n]).map_err(|_| fail())?;
        out.extend_from_slice(&seq[..n]);
    }
    String::from_utf8(out).map(Cow::Owned).map_err(|_| fail())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_pattern_gets_the_cheapest_engine_that_matches_it() {
        let route = |p: &str| Pattern::new(p, Options::route()).unwrap();
        let mw = |p: &str| Pattern::new(p, Options::middleware()).unwrap();
        assert_eq!(route("/plaintext").engine(), "literal");
        assert_eq!(mw("/mw").engine(), "literal");
        assert_eq!(mw("/").engine(), "slash");
        assert_eq!(route("*").engine(), "star");
        assert_eq!(route("/r/route99/:id").engine(), "segments");
        assert_eq!(route("/routing/opt/:a/:b?").engine(), "segments");
        assert_eq!(route("/routing/range/:from-:to").engine(), "backtrack");
        assert_eq!(route(r"/routing/num/:id(\d+)").engine(), "backtrack");
        assert_eq!(mw("/user/:id/x").engine(), "segments");
        assert_eq!(route("/x(?!y)").engine(), "backtrack");
    }

    /// What `new` gave every path before simple ones skipped the regex
    /// parser: the source, the keys and the parsed regex's literal prefix.
    fn parsed(path: &str, opts: Options) -> (String, Vec<Key>, String) {
        let flags = Flags::from(opts);
        let mut keys = Vec::new();
        let src = compile::compile_path(path, flags, &mut keys);
        let ast = jsre::parse(&src.chars).unwrap();
        (
            compile::v8_source(&src.chars),
            keys.into_iter().map(|k| k.key).collect(),
            prefix::literal_prefix(&ast.alts, !opts.sensitive),
        )
    }

    /// The oracle's string paths, and every path of up to four segments
    /// drawn from literal, parameter and non-ASCII pieces.
    fn shapes() -> Vec<String> {
        let data: serde_json::Value =
            serde_json::from_str(include_str!("../tests/oracle/cases.json")).unwrap();
        let mut paths: Vec<String> = data["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["kind"] == "path")
            .map(|c| c["input"][0].as_str().unwrap().to_owned())
            .collect();
        let pieces = ["", "Ab", "a.b", ":id", ":x_1?", "caf\u{e9}", "-~", ":p?"];
        let mut level = vec![String::new()];
        for _ in 0..4 {
            level = level
                .iter()
                .flat_map(|p| pieces.iter().map(move |s| format!("{p}/{s}")))
                .collect();
            paths.extend(level.iter().cloned());
            paths.extend(level.iter().map(|p| format!("{p}/")));
        }
        paths.extend(["", "/", "*", "//"].map(String::from));
        paths
    }

    #[test]
    fn a_simple_pattern_is_the_one_the_parsed_regex_gives() {
        let mut simple = 0;
        for path in shapes() {
            let checked_by_macros = Pattern::simple(&path, Options::route()).is_some();
            for bits in 0..8u8 {
                let opts = Options::new(bits & 1 != 0, bits & 2 != 0, bits & 4 != 0);
                let Some(p) = Pattern::simple(&path, opts) else {
                    // webfw's macros check with the route options: a path
                    // simple there is simple under every option.
                    assert!(!checked_by_macros, "{path:?} {opts:?}");
                    continue;
                };
                simple += 1;
                let (source, keys, prefix) = parsed(&path, opts);
                assert_eq!(p.source(), source, "{path:?} {opts:?}");
                assert_eq!(p.keys(), keys, "{path:?} {opts:?}");
                assert_eq!(p.literal_prefix(), prefix, "{path:?} {opts:?}");
                assert_ne!(p.engine(), "backtrack");
            }
        }
        assert!(simple > 20_000, "only {simple} simple shapes");
    }

    #[test]
    fn keys_that_name_the_same_property() {
        assert!(Key::Name("0".into()).same_property(&Key::Index(0)));
        assert!(Key::Name("7".into()).same_property(&Key::Index(7)));
        assert!(!Key::Name("00".into()).same_property(&Key::Index(0)));
        assert!(!Key::Name("07".into()).same_property(&Key::Index(7)));
        assert!(!Key::Name("id".into()).same_property(&Key::Index(0)));
    }
}
