//! Log format strings of morgan 1.12 (Express's request logger): the
//! tokenizer and the table of built-in tokens and predefined formats, shared
//! by webfw's run-time `logger::compile` and its compile-time `logger!` macro
//! so that both read a format the same way. No dependencies.
//!
//! A format is literal text with `:name` or `:name[arg]` token references.
//! [`tokenize`] splits it exactly as morgan's
//! `/:([-\w]{2,})(?:\[([^\]]+)\])?/g` does; [`parse`] does the same and also
//! rejects a token directly followed by an unterminated or empty `[`, which
//! morgan would print literally but is nearly always a typo.
//!
//! ```
//! use webfw_pattern::logfmt::{Piece, tokenize};
//!
//! let pieces = tokenize(":method :url [:date[clf]]");
//! assert_eq!(pieces.len(), 6);
//! match &pieces[4] {
//!     Piece::Token(t) => assert_eq!((t.name, t.arg), ("date", Some("clf"))),
//!     _ => unreachable!(),
//! }
//! ```

use std::borrow::Cow;
use std::fmt;

/// One token reference in a format string.
///
/// ```
/// use webfw_pattern::logfmt::{Piece, tokenize};
/// let Piece::Token(t) = &tokenize(":res[content-length]")[0] else { unreachable!() };
/// assert_eq!((t.name, t.arg, t.start, t.end), ("res", Some("content-length"), 0, 20));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// The name after `:` (two or more of `A-Z a-z 0-9 _ -`).
    pub name: &'a str,
    /// The text between `[` and `]`, when given.
    pub arg: Option<&'a str>,
    /// Byte offset of the `:`.
    pub start: usize,
    /// Byte offset just past the name, or past the `]`.
    pub end: usize,
}

impl Token<'_> {
    /// The reference as written, `:name` or `:name[arg]`.
    ///
    /// ```
    /// use webfw_pattern::logfmt::{Piece, tokenize};
    /// let Piece::Token(t) = &tokenize("x :date[iso] y")[1] else { unreachable!() };
    /// assert_eq!(t.to_string(), ":date[iso]");
    /// ```
    pub fn source(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.arg {
            Some(a) => write!(f, ":{}[{a}]", self.name),
            None => write!(f, ":{}", self.name),
        }
    }
}

/// A piece of a format: literal text or a token reference.
///
/// ```
/// use webfw_pattern::logfmt::{Piece, tokenize};
/// assert_eq!(tokenize("a:b")[0], Piece::Literal("a:b"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Text copied to the line as is.
    Literal(&'a str),
    /// A token whose value replaces the reference.
    Token(Token<'a>),
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// Splits a format into literal text and tokens exactly as morgan does:
/// `:` followed by two or more of `[-A-Za-z0-9_]` (greedy) is a token, and a
/// directly following `[…]` with at least one character other than `]` is
/// its argument. Everything else is literal (`:a`, a lone `:`, `:tk[]`'s
/// `[]`, an unterminated `[`). Adjacent literal text is one piece.
///
/// ```
/// use webfw_pattern::logfmt::{Piece, tokenize};
/// let p = tokenize("::method-x[a]b]");
/// assert_eq!(p[0], Piece::Literal(":"));
/// let Piece::Token(t) = p[1] else { unreachable!() };
/// assert_eq!((t.name, t.arg), ("method-x", Some("a")));
/// assert_eq!(p[2], Piece::Literal("b]"));
/// ```
pub fn tokenize(format: &str) -> Vec<Piece<'_>> {
    let bytes = format.as_bytes();
    let mut pieces = Vec::new();
    let mut lit_start = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b':' {
            i += 1;
            continue;
        }
        let name_start = i + 1;
        let mut j = name_start;
        while j < bytes.len() && is_name_byte(bytes[j]) {
            j += 1;
        }
        if j - name_start < 2 {
            i += 1;
            continue;
        }
        let name = &format[name_start..j];
        let mut end = j;
        let mut arg = None;
        if bytes.get(j) == Some(&b'[')
            && let Some(close) = format[j + 1..].find(']')
            && close > 0
        {
            arg = Some(&format[j + 1..j + 1 + close]);
            end = j + 1 + close + 1;
        }
        if lit_start < i {
            pieces.push(Piece::Literal(&format[lit_start..i]));
        }
        pieces.push(Piece::Token(Token {
            name,
            arg,
            start: i,
            end,
        }));
        i = end;
        lit_start = end;
    }
    if lit_start < bytes.len() {
        pieces.push(Piece::Literal(&format[lit_start..]));
    }
    pieces
}

/// A format webfw refuses, with the byte range of the offending text.
///
/// ```
/// let e = webfw_pattern::logfmt::parse(":date[clf").unwrap_err();
/// assert_eq!(e.to_string(), "unterminated `[` after `:date`: the argument needs a closing `]`");
/// assert_eq!(e.range(), 0..9);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    message: String,
    start: usize,
    end: usize,
}

impl FormatError {
    /// An error about the text at `start..end` of the format.
    ///
    /// ```
    /// let e = webfw_pattern::logfmt::FormatError::new("bad", 1, 3);
    /// assert_eq!(e.range(), 1..3);
    /// ```
    pub fn new(message: impl Into<String>, start: usize, end: usize) -> FormatError {
        FormatError {
            message: message.into(),
            start,
            end,
        }
    }

    /// The message, without position.
    ///
    /// ```
    /// let e = webfw_pattern::logfmt::FormatError::new("bad", 0, 1);
    /// assert_eq!(e.message(), "bad");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Byte range of the offending text in the format.
    ///
    /// ```
    /// let e = webfw_pattern::logfmt::FormatError::new("bad", 2, 4);
    /// assert_eq!(e.range(), 2..4);
    /// ```
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FormatError {}

/// [`tokenize`], then rejects a token directly followed by `[` that does not
/// form an argument: `:date[clf` (unterminated) and `:date[]` (empty). morgan
/// would print such brackets literally; webfw treats them as mistakes, the
/// same way in `logger!` and at run time.
///
/// ```
/// use webfw_pattern::logfmt::parse;
/// assert!(parse(":method [:date[clf]]").is_ok());
/// assert_eq!(
///     parse(":date[]").unwrap_err().to_string(),
///     "empty `[]` after `:date`: write an argument between the brackets or remove them"
/// );
/// ```
pub fn parse(format: &str) -> Result<Vec<Piece<'_>>, FormatError> {
    let pieces = tokenize(format);
    for (k, piece) in pieces.iter().enumerate() {
        let Piece::Token(t) = piece else { continue };
        if t.arg.is_some() {
            continue;
        }
        let Some(Piece::Literal(next)) = pieces.get(k + 1) else {
            continue;
        };
        if next.starts_with("[]") {
            return Err(FormatError::new(
                format!(
                    "empty `[]` after `:{}`: write an argument between the brackets or remove them",
                    t.name
                ),
                t.start,
                t.end + 2,
            ));
        }
        if next.starts_with('[') {
            return Err(FormatError::new(
                format!(
                    "unterminated `[` after `:{}`: the argument needs a closing `]`",
                    t.name
                ),
                t.start,
                format.len(),
            ));
        }
    }
    Ok(pieces)
}

/// A token morgan defines itself.
///
/// ```
/// use webfw_pattern::logfmt::Builtin;
/// assert_eq!(Builtin::from_name("response-time"), Some(Builtin::ResponseTime));
/// assert_eq!(Builtin::ResponseTime.name(), "response-time");
/// assert_eq!(Builtin::from_name("Method"), None); // names are case-sensitive
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `:date[clf|iso|web]`, default `web`.
    Date,
    /// `:http-version`.
    HttpVersion,
    /// `:method`.
    Method,
    /// `:pid` (morgan 1.11+).
    Pid,
    /// `:referrer`.
    Referrer,
    /// `:remote-addr`.
    RemoteAddr,
    /// `:remote-user` (Basic auth).
    RemoteUser,
    /// `:req[header]`.
    Req,
    /// `:res[header]`.
    Res,
    /// `:response-time[digits]`.
    ResponseTime,
    /// `:status`.
    Status,
    /// `:total-time[digits]`.
    TotalTime,
    /// `:url`.
    Url,
    /// `:user-agent`.
    UserAgent,
}

impl Builtin {
    /// Every built-in token, in alphabetical order of name.
    ///
    /// ```
    /// assert_eq!(webfw_pattern::logfmt::Builtin::ALL.len(), 14);
    /// ```
    pub const ALL: [Builtin; 14] = [
        Builtin::Date,
        Builtin::HttpVersion,
        Builtin::Method,
        Builtin::Pid,
        Builtin::Referrer,
        Builtin::RemoteAddr,
        Builtin::RemoteUser,
        Builtin::Req,
        Builtin::Res,
        Builtin::ResponseTime,
        Builtin::Status,
        Builtin::TotalTime,
        Builtin::Url,
        Builtin::UserAgent,
    ];

    /// The token's name in a format.
    ///
    /// ```
    /// assert_eq!(webfw_pattern::logfmt::Builtin::UserAgent.name(), "user-agent");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Builtin::Date => "date",
            Builtin::HttpVersion => "http-version",
            Builtin::Method => "method",
            Builtin::Pid => "pid",
            Builtin::Referrer => "referrer",
            Builtin::RemoteAddr => "remote-addr",
            Builtin::RemoteUser => "remote-user",
            Builtin::Req => "req",
            Builtin::Res => "res",
            Builtin::ResponseTime => "response-time",
            Builtin::Status => "status",
            Builtin::TotalTime => "total-time",
            Builtin::Url => "url",
            Builtin::UserAgent => "user-agent",
        }
    }

    /// The built-in token of that name (case-sensitive).
    ///
    /// ```
    /// assert!(webfw_pattern::logfmt::Builtin::from_name("url").is_some());
    /// ```
    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.name() == name)
    }

    /// How the token is written with its argument, for messages.
    ///
    /// ```
    /// assert_eq!(webfw_pattern::logfmt::Builtin::Date.usage(), ":date[clf|iso|web]");
    /// ```
    pub const fn usage(self) -> &'static str {
        match self {
            Builtin::Date => ":date[clf|iso|web]",
            Builtin::Req => ":req[header]",
            Builtin::Res => ":res[header]",
            Builtin::ResponseTime => ":response-time[digits]",
            Builtin::TotalTime => ":total-time[digits]",
            Builtin::HttpVersion => ":http-version",
            Builtin::Method => ":method",
            Builtin::Pid => ":pid",
            Builtin::Referrer => ":referrer",
            Builtin::RemoteAddr => ":remote-addr",
            Builtin::RemoteUser => ":remote-user",
            Builtin::Status => ":status",
            Builtin::Url => ":url",
            Builtin::UserAgent => ":user-agent",
        }
    }

    /// Checks the argument of this token and returns it in typed form.
    ///
    /// * `:date`: none (= `web`), `clf`, `iso` or `web`;
    /// * `:req`, `:res`: required, an HTTP header name (returned lowercased);
    /// * `:response-time`, `:total-time`: none (= 3) or a whole number of
    ///   digits from 0 to 100 (JavaScript's `toFixed` range);
    /// * every other token: no argument.
    ///
    /// ```
    /// use webfw_pattern::logfmt::{Builtin, BuiltinArg, DateFormat};
    /// assert_eq!(Builtin::Date.check_arg(None), Ok(BuiltinArg::Date(DateFormat::Web)));
    /// assert_eq!(Builtin::Res.check_arg(Some("Content-Length")),
    ///            Ok(BuiltinArg::Header("content-length".into())));
    /// assert_eq!(Builtin::ResponseTime.check_arg(Some("1")), Ok(BuiltinArg::Digits(1)));
    /// assert!(Builtin::ResponseTime.check_arg(Some("x")).is_err());
    /// ```
    pub fn check_arg(self, arg: Option<&str>) -> Result<BuiltinArg, String> {
        match self {
            Builtin::Date => match arg {
                None | Some("web") => Ok(BuiltinArg::Date(DateFormat::Web)),
                Some("clf") => Ok(BuiltinArg::Date(DateFormat::Clf)),
                Some("iso") => Ok(BuiltinArg::Date(DateFormat::Iso)),
                Some(other) => Err(format!(
                    "`:date[{other}]`: the date format must be `clf`, `iso` or `web` (e.g. `:date[clf]`)"
                )),
            },
            Builtin::Req | Builtin::Res => match arg {
                None => Err(format!(
                    "`:{0}` needs a header name, e.g. `:{0}[content-length]`",
                    self.name()
                )),
                Some(h) if is_header_name(h) => Ok(BuiltinArg::Header(h.to_ascii_lowercase())),
                Some(h) => Err(format!(
                    "`:{}[{h}]`: `{h}` is not a valid HTTP header name",
                    self.name()
                )),
            },
            Builtin::ResponseTime | Builtin::TotalTime => match arg {
                None => Ok(BuiltinArg::Digits(3)),
                Some(d) => match parse_digits(d) {
                    Some(n) => Ok(BuiltinArg::Digits(n)),
                    None => Err(format!(
                        "`:{}[{d}]`: the argument is the number of decimals, a whole number from 0 to 100 (e.g. `:{0}[3]`)",
                        self.name()
                    )),
                },
            },
            _ => match arg {
                None => Ok(BuiltinArg::None),
                Some(a) => Err(format!(
                    "`:{}` takes no argument (found `[{a}]`)",
                    self.name()
                )),
            },
        }
    }
}

/// The checked argument of a built-in token.
///
/// ```
/// use webfw_pattern::logfmt::{Builtin, BuiltinArg};
/// assert_eq!(Builtin::Url.check_arg(None), Ok(BuiltinArg::None));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuiltinArg {
    /// The token takes no argument.
    None,
    /// `:date`'s format.
    Date(DateFormat),
    /// `:req` / `:res`: a header name, lowercased.
    Header(String),
    /// `:response-time` / `:total-time`: decimals.
    Digits(u8),
}

/// The formats of `:date`.
///
/// ```
/// use webfw_pattern::logfmt::DateFormat;
/// assert_eq!(DateFormat::Clf.name(), "clf");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DateFormat {
    /// `22/Nov/2026:09:02:14 +0000`.
    Clf,
    /// `2026-11-22T09:02:14.123Z`.
    Iso,
    /// `Sun, 22 Nov 2026 09:02:14 GMT`.
    Web,
}

impl DateFormat {
    /// The argument naming this format.
    ///
    /// ```
    /// assert_eq!(webfw_pattern::logfmt::DateFormat::Web.name(), "web");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            DateFormat::Clf => "clf",
            DateFormat::Iso => "iso",
            DateFormat::Web => "web",
        }
    }
}

fn parse_digits(d: &str) -> Option<u8> {
    if d.is_empty() || d.len() > 3 || !d.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u16 = d.parse().ok()?;
    if n <= 100 { Some(n as u8) } else { None }
}

/// Whether `s` is an HTTP header name (one or more `tchar`s, RFC 9110).
///
/// ```
/// assert!(webfw_pattern::logfmt::is_header_name("X-Trace"));
/// assert!(!webfw_pattern::logfmt::is_header_name("a b"));
/// ```
pub fn is_header_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'!' | b'#'
                        | b'$'
                        | b'%'
                        | b'&'
                        | b'\''
                        | b'*'
                        | b'+'
                        | b'-'
                        | b'.'
                        | b'^'
                        | b'_'
                        | b'`'
                        | b'|'
                        | b'~'
                )
        })
}

/// Whether `s` can name a token: two or more of `A-Z a-z 0-9 _ -`.
///
/// ```
/// assert!(webfw_pattern::logfmt::is_token_name("trace-id"));
/// assert!(!webfw_pattern::logfmt::is_token_name("a"));
/// ```
pub fn is_token_name(s: &str) -> bool {
    s.len() >= 2 && s.bytes().all(is_name_byte)
}

/// `combined`: the Apache combined log format.
///
/// ```
/// assert!(webfw_pattern::logfmt::COMBINED.starts_with(":remote-addr - :remote-user [:date[clf]]"));
/// ```
pub const COMBINED: &str = ":remote-addr - :remote-user [:date[clf]] \":method :url HTTP/:http-version\" :status :res[content-length] \":referrer\" \":user-agent\"";
/// `common`: the Apache common log format.
///
/// ```
/// assert!(webfw_pattern::logfmt::COMMON.ends_with(":status :res[content-length]"));
/// ```
pub const COMMON: &str = ":remote-addr - :remote-user [:date[clf]] \":method :url HTTP/:http-version\" :status :res[content-length]";
/// `default` (deprecated by morgan in favour of `combined`): `combined`
/// with the `web` date.
///
/// ```
/// assert!(webfw_pattern::logfmt::DEFAULT.contains("[:date]"));
/// ```
pub const DEFAULT: &str = ":remote-addr - :remote-user [:date] \":method :url HTTP/:http-version\" :status :res[content-length] \":referrer\" \":user-agent\"";
/// `short`.
///
/// ```
/// assert!(webfw_pattern::logfmt::SHORT.ends_with(" - :response-time ms"));
/// ```
pub const SHORT: &str = ":remote-addr :remote-user :method :url HTTP/:http-version :status :res[content-length] - :response-time ms";
/// `tiny`.
///
/// ```
/// assert_eq!(webfw_pattern::logfmt::TINY, ":method :url :status :res[content-length] - :response-time ms");
/// ```
pub const TINY: &str = ":method :url :status :res[content-length] - :response-time ms";
/// `dev` without colours (what morgan 1.12 uses when `NO_COLOR` is set).
///
/// ```
/// assert!(!webfw_pattern::logfmt::DEV_PLAIN.contains('\x1b'));
/// ```
pub const DEV_PLAIN: &str = ":method :url :status :response-time ms - :res[content-length]";

/// The names of the predefined formats, alphabetically.
///
/// ```
/// assert!(webfw_pattern::logfmt::PREDEFINED_NAMES.contains(&"tiny"));
/// ```
pub const PREDEFINED_NAMES: [&str; 6] = ["combined", "common", "default", "dev", "short", "tiny"];

/// A predefined format.
///
/// ```
/// use webfw_pattern::logfmt::{predefined, Predefined, TINY};
/// assert_eq!(predefined("tiny"), Some(Predefined::String(TINY)));
/// assert_eq!(predefined("dev"), Some(Predefined::Dev));
/// assert_eq!(predefined("combind"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Predefined {
    /// A format string.
    String(&'static str),
    /// `dev`: [`dev_format`] of [`dev_color`] of the status, or
    /// [`DEV_PLAIN`] when `NO_COLOR` is set.
    Dev,
}

/// The predefined format of that name.
///
/// ```
/// assert!(webfw_pattern::logfmt::predefined("combined").is_some());
/// ```
pub fn predefined(name: &str) -> Option<Predefined> {
    Some(match name {
        "combined" => Predefined::String(COMBINED),
        "common" => Predefined::String(COMMON),
        "default" => Predefined::String(DEFAULT),
        "short" => Predefined::String(SHORT),
        "tiny" => Predefined::String(TINY),
        "dev" => Predefined::Dev,
        _ => return None,
    })
}

/// `dev`'s colour for a response: 31 (red) for ≥ 500, 33 (yellow) ≥ 400,
/// 36 (cyan) ≥ 300, 32 (green) ≥ 200, else 0, and 0 when no head was sent.
///
/// ```
/// use webfw_pattern::logfmt::dev_color;
/// assert_eq!(dev_color(Some(404)), 33);
/// assert_eq!(dev_color(None), 0);
/// ```
pub fn dev_color(status: Option<u16>) -> u8 {
    match status {
        Some(s) if s >= 500 => 31,
        Some(s) if s >= 400 => 33,
        Some(s) if s >= 300 => 36,
        Some(s) if s >= 200 => 32,
        _ => 0,
    }
}

/// The colours `dev` uses, each with its format.
///
/// ```
/// use webfw_pattern::logfmt::{dev_color, DEV_COLORS};
/// assert!(DEV_COLORS.contains(&dev_color(Some(201))));
/// ```
pub const DEV_COLORS: [u8; 5] = [0, 31, 32, 33, 36];

/// `dev`'s format for a colour, as morgan compiles it.
///
/// ```
/// assert_eq!(
///     webfw_pattern::logfmt::dev_format(32),
///     "\x1b[0m:method :url \x1b[32m:status\x1b[0m :response-time ms - :res[content-length]\x1b[0m"
/// );
/// ```
pub fn dev_format(color: u8) -> String {
    format!(
        "\x1b[0m:method :url \x1b[{color}m:status\x1b[0m :response-time ms - :res[content-length]\x1b[0m"
    )
}

/// Whether a format argument is a single name-like word (no token), such as
/// `combined` or a misspelt `combind`. `logger!` rejects such words unless
/// they are predefined; at run time they may name a registered format.
///
/// ```
/// use webfw_pattern::logfmt::is_format_name;
/// assert!(is_format_name("combind"));
/// assert!(!is_format_name(":method"));
/// assert!(!is_format_name("GET ok"));
/// ```
pub fn is_format_name(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(is_name_byte)
}

/// The argument text as morgan hands it to a token function: morgan finds
/// arguments in the `JSON.stringify`'d format, so `"`, `\` and control
/// characters arrive escaped (`a"b` → `a\"b`).
///
/// ```
/// use webfw_pattern::logfmt::morgan_arg;
/// assert_eq!(morgan_arg("x-id"), "x-id");
/// assert_eq!(morgan_arg("a\"b\n"), "a\\\"b\\n");
/// ```
pub fn morgan_arg(arg: &str) -> Cow<'_, str> {
    if !arg.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        return Cow::Borrowed(arg);
    }
    let mut out = String::with_capacity(arg.len() + 8);
    for c in arg.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The candidate closest to `name` by edit distance, if close enough to be a
/// plausible typo (for "did you mean" hints).
///
/// ```
/// use webfw_pattern::logfmt::closest;
/// assert_eq!(closest("metod", ["method", "url"]), Some("method"));
/// assert_eq!(closest("zzzzzz", ["method", "url"]), None);
/// ```
pub fn closest<'c>(name: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    // Optimal string alignment: insertions, deletions, substitutions and
    // transpositions of neighbours each cost 1.
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// The message for a token that is neither built in nor among `custom`.
///
/// ```
/// let m = webfw_pattern::logfmt::unknown_token_message("metod", &[]);
/// assert!(m.starts_with("unknown token `:metod` (did you mean `:method`?);"));
/// ```
pub fn unknown_token_message(name: &str, custom: &[&str]) -> String {
    let names = Builtin::ALL
        .iter()
        .map(|b| b.name())
        .chain(custom.iter().copied());
    let hint = closest(name, names)
        .map(|c| format!(" (did you mean `:{c}`?)"))
        .unwrap_or_default();
    let builtins: Vec<&str> = Builtin::ALL.iter().map(|b| b.usage()).collect();
    let mut m = format!(
        "unknown token `:{name}`{hint}; built-in tokens: {}",
        builtins.join(", ")
    );
    if custom.is_empty() {
        m.push_str("; custom tokens: none");
    } else {
        let list: Vec<String> = custom.iter().map(|c| format!(":{c}")).collect();
        m.push_str("; custom tokens: ");
        m.push_str(&list.join(", "));
    }
    m
}

/// The message for a name-like format that is not predefined.
///
/// ```
/// let m = webfw_pattern::logfmt::unknown_format_message("combind");
/// assert!(m.contains("did you mean `combined`?"));
/// ```
pub fn unknown_format_message(name: &str) -> String {
    let hint = closest(name, PREDEFINED_NAMES)
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default();
    format!(
        "unknown predefined format `{name}`{hint}; predefined formats: {}",
        PREDEFINED_NAMES.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(f: &str) -> Vec<(String, Option<String>)> {
        tokenize(f)
            .into_iter()
            .filter_map(|p| match p {
                Piece::Token(t) => Some((t.name.to_owned(), t.arg.map(str::to_owned))),
                Piece::Literal(_) => None,
            })
            .collect()
    }

    fn lits(f: &str) -> Vec<String> {
        tokenize(f)
            .into_iter()
            .filter_map(|p| match p {
                Piece::Literal(l) => Some(l.to_owned()),
                Piece::Token(_) => None,
            })
            .collect()
    }

    #[test]
    fn morgan_tokenization_rules() {
        // `:a` (one char) stays literal.
        assert_eq!(toks(":a :bb"), vec![("bb".into(), None)]);
        assert_eq!(lits(":a :bb"), vec![":a "]);
        // `:tk[]` is the token followed by literal `[]`.
        assert_eq!(toks(":tk[]"), vec![("tk".into(), None)]);
        assert_eq!(lits(":tk[]"), vec!["[]"]);
        // `:tk[a]b]`: arg `a`, literal `b]`.
        assert_eq!(toks(":tk[a]b]"), vec![("tk".into(), Some("a".into()))]);
        assert_eq!(lits(":tk[a]b]"), vec!["b]"]);
        // `:method:` token then `:`; `::method` `:` then token.
        assert_eq!(lits(":method:"), vec![":"]);
        assert_eq!(lits("::method"), vec![":"]);
        // hyphens are part of the name.
        assert_eq!(toks(":method-x"), vec![("method-x".into(), None)]);
        // arguments may contain `[`.
        assert_eq!(toks(":a1[b[c]"), vec![("a1".into(), Some("b[c".into()))]);
        // unterminated bracket is literal.
        assert_eq!(lits(":date[clf"), vec!["[clf"]);
        // non-ASCII stops a name.
        assert_eq!(toks(":abé"), vec![("ab".into(), None)]);
        assert_eq!(lits(":abé"), vec!["é"]);
        // spans.
        let Piece::Token(t) = tokenize("x:date[iso]y")[1] else {
            panic!()
        };
        assert_eq!((t.start, t.end), (1, 11));
    }

    #[test]
    fn literal_only_and_empty() {
        assert!(tokenize("").is_empty());
        assert_eq!(tokenize("plain"), vec![Piece::Literal("plain")]);
        assert_eq!(tokenize(":"), vec![Piece::Literal(":")]);
    }

    #[test]
    fn strict_parse() {
        assert!(parse(":tk[]").is_err());
        assert!(parse(":date[clf").is_err());
        assert!(parse(":date [x").is_ok());
        assert!(parse("[:date]").is_ok());
        let e = parse("ab :url[").unwrap_err();
        assert_eq!(e.range(), 3..8);
    }

    #[test]
    fn builtin_args() {
        use BuiltinArg as A;
        assert_eq!(Builtin::TotalTime.check_arg(Some("0")), Ok(A::Digits(0)));
        assert_eq!(
            Builtin::TotalTime.check_arg(Some("100")),
            Ok(A::Digits(100))
        );
        assert!(Builtin::TotalTime.check_arg(Some("101")).is_err());
        assert!(Builtin::TotalTime.check_arg(Some("-1")).is_err());
        assert!(Builtin::TotalTime.check_arg(Some("1.5")).is_err());
        assert!(Builtin::Date.check_arg(Some("rfc")).is_err());
        assert!(Builtin::Req.check_arg(None).is_err());
        assert!(Builtin::Req.check_arg(Some("a:b")).is_err());
        assert!(Builtin::Method.check_arg(Some("x")).is_err());
        for b in Builtin::ALL {
            assert_eq!(Builtin::from_name(b.name()), Some(b));
        }
    }

    #[test]
    fn predefined_formats_parse() {
        for name in PREDEFINED_NAMES {
            match predefined(name).unwrap() {
                Predefined::String(s) => assert!(parse(s).is_ok()),
                Predefined::Dev => {
                    for c in DEV_COLORS {
                        assert!(parse(&dev_format(c)).is_ok());
                    }
                    assert!(parse(DEV_PLAIN).is_ok());
                }
            }
        }
    }

    #[test]
    fn hints() {
        assert_eq!(closest("combind", PREDEFINED_NAMES), Some("combined"));
        assert_eq!(
            closest("reponse-time", Builtin::ALL.map(|b| b.name())),
            Some("response-time")
        );
        let m = unknown_token_message("trcae", &["trace"]);
        assert!(m.contains("did you mean `:trace`?"), "{m}");
        assert!(m.ends_with("custom tokens: :trace"), "{m}");
        assert_eq!(morgan_arg("\u{1}"), "\\u0001");
    }
}
