//! Compiled formats and the registries of tokens and named formats.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, OnceLock, RwLock};

use http::HeaderName;
use webfw_pattern::logfmt::{
    self, Builtin, BuiltinArg, DateFormat, FormatError, Piece, Predefined,
};

use super::tokens::{self, Cx, Line};
use crate::request::Request;
use crate::response::Response;

/// A token function: `(req, res, arg)` → value, `None` when undefined.
#[doc(hidden)]
pub type TokenFn = Arc<dyn Fn(&Request, &Response, Option<&str>) -> Option<String> + Send + Sync>;

/// A format function: `(tokens, req, res)` → line, `None` to skip it.
pub(crate) type FormatFn =
    Arc<dyn Fn(&Tokens, &Request, &Response) -> Option<String> + Send + Sync>;

/// The line function `logger!` generates.
#[doc(hidden)]
pub type LineFn = fn(&Cx, &Request, &Response, &mut Line) -> bool;

/// A token defined with `logger::token`: a slot, so that redefining the name
/// reaches formats compiled before.
pub(crate) type Slot = Arc<RwLock<TokenFn>>;

static TOKENS: LazyLock<RwLock<HashMap<String, Slot>>> = LazyLock::new(Default::default);
static FORMATS: LazyLock<RwLock<HashMap<String, Format>>> = LazyLock::new(Default::default);
/// Set once a built-in token name is redefined: only then do built-in pieces
/// look the registry up.
static BUILTIN_OVERRIDDEN: AtomicBool = AtomicBool::new(false);

fn read<T>(l: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    l.read().unwrap_or_else(|p| p.into_inner())
}

fn write<T>(l: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    l.write().unwrap_or_else(|p| p.into_inner())
}

pub(crate) fn define_token(name: &str, f: TokenFn) {
    if Builtin::from_name(name).is_some() {
        BUILTIN_OVERRIDDEN.store(true, Ordering::Release);
    }
    let mut map = write(&TOKENS);
    match map.get(name) {
        Some(slot) => *write(slot) = f,
        None => {
            map.insert(name.to_owned(), Arc::new(RwLock::new(f)));
        }
    }
}

pub(crate) fn define_format(name: &str, f: Format) {
    write(&FORMATS).insert(name.to_owned(), f);
}

fn custom_slot(name: &str) -> Option<Slot> {
    read(&TOKENS).get(name).cloned()
}

fn custom_names() -> Vec<String> {
    let mut v: Vec<String> = read(&TOKENS)
        .keys()
        .filter(|k| Builtin::from_name(k).is_none())
        .cloned()
        .collect();
    crate::http::sort::sort_by(&mut v, Ord::cmp);
    v
}

/// Whether a built-in token was redefined (checked once per line).
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Overrides(bool);

#[doc(hidden)]
#[inline]
pub fn overrides() -> Overrides {
    Overrides(BUILTIN_OVERRIDDEN.load(Ordering::Acquire))
}

/// Whether a built-in token was redefined (its function may read anything).
pub(crate) fn builtin_overridden() -> bool {
    overrides().0
}

impl Overrides {
    /// The redefinition of built-in token `name`, if any.
    #[inline]
    pub fn get(self, name: &str) -> Option<TokenFn> {
        if !self.0 {
            return None;
        }
        custom_slot(name).map(|s| read(&s).clone())
    }
}

/// A built-in token with its checked argument.
#[derive(Clone, Debug)]
enum Call {
    Date(DateFormat),
    HttpVersion,
    Method,
    Pid,
    Referrer,
    RemoteAddr,
    RemoteUser,
    Req(HeaderName),
    Res(HeaderName),
    ResponseTime(u8),
    Status,
    TotalTime(u8),
    Url,
    UserAgent,
}

impl Call {
    fn new(b: Builtin, arg: BuiltinArg) -> Call {
        let header = |arg: BuiltinArg| match arg {
            BuiltinArg::Header(h) => HeaderName::from_bytes(h.as_bytes()).ok(),
            _ => None,
        };
        let digits = |arg: &BuiltinArg| match arg {
            BuiltinArg::Digits(d) => *d,
            _ => 3,
        };
        match b {
            Builtin::Date => Call::Date(match arg {
                BuiltinArg::Date(d) => d,
                _ => DateFormat::Web,
            }),
            Builtin::HttpVersion => Call::HttpVersion,
            Builtin::Method => Call::Method,
            Builtin::Pid => Call::Pid,
            Builtin::Referrer => Call::Referrer,
            Builtin::RemoteAddr => Call::RemoteAddr,
            Builtin::RemoteUser => Call::RemoteUser,
            // `check_arg` only accepts valid header names.
            Builtin::Req => header(arg).map_or(Call::Url, Call::Req),
            Builtin::Res => header(arg).map_or(Call::Url, Call::Res),
            Builtin::ResponseTime => Call::ResponseTime(digits(&arg)),
            Builtin::Status => Call::Status,
            Builtin::TotalTime => Call::TotalTime(digits(&arg)),
            Builtin::Url => Call::Url,
            Builtin::UserAgent => Call::UserAgent,
        }
    }

    fn value<'a>(&self, cx: &Cx, req: &'a Request, res: &'a Response) -> tokens::Val<'a> {
        match self {
            Call::Date(f) => tokens::date(cx, req, res, *f),
            Call::HttpVersion => tokens::http_version(cx, req, res),
            Call::Method => tokens::method(cx, req, res),
            Call::Pid => tokens::pid(cx, req, res),
            Call::Referrer => tokens::referrer(cx, req, res),
            Call::RemoteAddr => tokens::remote_addr(cx, req, res),
            Call::RemoteUser => tokens::remote_user(cx, req, res),
            Call::Req(h) => tokens::req_header(cx, req, res, h),
            Call::Res(h) => tokens::res_header(cx, req, res, h),
            Call::ResponseTime(d) => tokens::response_time(cx, req, res, *d),
            Call::Status => tokens::status(cx, req, res),
            Call::TotalTime(d) => tokens::total_time(cx, req, res, *d),
            Call::Url => tokens::url(cx, req, res),
            Call::UserAgent => tokens::user_agent(cx, req, res),
        }
    }

    fn timed(&self) -> bool {
        matches!(self, Call::ResponseTime(_) | Call::TotalTime(_))
    }

    /// The response header this token reads, if any.
    fn res_header(&self) -> Option<&HeaderName> {
        match self {
            Call::Res(h) => Some(h),
            _ => None,
        }
    }
}

#[derive(Clone)]
enum Part {
    Lit(Box<str>),
    Builtin {
        name: &'static str,
        arg: Option<Box<str>>,
        call: Call,
    },
    Custom {
        /// The argument as morgan passes it (JSON-escaped).
        arg: Option<Box<str>>,
        token: CustomRef,
    },
}

#[derive(Clone)]
enum CustomRef {
    Slot(Slot),
    Static(TokenFn),
}

/// A format string compiled to pieces.
#[derive(Clone)]
struct Compiled {
    parts: Vec<Part>,
    timed: bool,
}

impl Compiled {
    fn new(fmt: &str, local: &[(&str, TokenFn)]) -> Result<Compiled, FormatError> {
        let pieces = logfmt::parse(fmt)?;
        let mut parts = Vec::with_capacity(pieces.len());
        let mut timed = false;
        for piece in pieces {
            let t = match piece {
                Piece::Literal(l) => {
                    parts.push(Part::Lit(l.into()));
                    continue;
                }
                Piece::Token(t) => t,
            };
            let arg = t
                .arg
                .map(|a| logfmt::morgan_arg(a).into_owned().into_boxed_str());
            if let Some((_, f)) = local.iter().find(|(n, _)| *n == t.name) {
                parts.push(Part::Custom {
                    arg,
                    token: CustomRef::Static(f.clone()),
                });
                continue;
            }
            let builtin = Builtin::from_name(t.name);
            if builtin.is_none()
                && let Some(slot) = custom_slot(t.name)
            {
                parts.push(Part::Custom {
                    arg,
                    token: CustomRef::Slot(slot),
                });
                continue;
            }
            let Some(b) = builtin else {
                let mut names = custom_names();
                names.extend(local.iter().map(|(n, _)| (*n).to_owned()));
                let names: Vec<&str> = names.iter().map(String::as_str).collect();
                return Err(FormatError::new(
                    logfmt::unknown_token_message(t.name, &names),
                    t.start,
                    t.end,
                ));
            };
            let overridden = custom_slot(t.name).is_some();
            let checked = match b.check_arg(t.arg) {
                Ok(a) => a,
                // A redefined built-in accepts whatever its new function does.
                Err(_) if overridden => BuiltinArg::None,
                Err(m) => return Err(FormatError::new(m, t.start, t.end)),
            };
            let call = Call::new(b, checked);
            timed |= call.timed();
            parts.push(Part::Builtin {
                name: b.name(),
                arg,
                call,
            });
        }
        Ok(Compiled { parts, timed })
    }

    /// Adds the response headers the parts read to `names`; false when a
    /// custom token (which may read any) is among them.
    fn res_headers(&self, names: &mut Vec<HeaderName>) -> bool {
        for part in &self.parts {
            match part {
                Part::Lit(_) => {}
                Part::Builtin { call, .. } => names.extend(call.res_header().cloned()),
                Part::Custom { .. } => return false,
            }
        }
        true
    }

    fn write(&self, cx: &Cx, req: &Request, res: &Response, out: &mut Line) {
        let ov = overrides();
        for part in &self.parts {
            match part {
                Part::Lit(l) => out.lit(l),
                Part::Builtin { name, arg, call } => match ov.get(name) {
                    Some(f) => out.push_custom(f(req, res, arg.as_deref())),
                    None => out.push(call.value(cx, req, res)),
                },
                Part::Custom { arg, token } => {
                    let v = match token {
                        CustomRef::Slot(s) => {
                            let f = read(s).clone();
                            f(req, res, arg.as_deref())
                        }
                        CustomRef::Static(f) => f(req, res, arg.as_deref()),
                    };
                    out.push_custom(v);
                }
            }
        }
    }
}

#[derive(Clone)]
enum Kind {
    Compiled(Compiled),
    /// `dev`: one compiled format per status colour, or the plain one.
    Dev(Arc<DevFormats>),
    /// Generated by `logger!`.
    Static {
        line: LineFn,
        timed: bool,
    },
    Func(FormatFn),
}

struct DevFormats {
    colored: Vec<(u8, Compiled)>,
    plain: Compiled,
}

/// A compiled log format: what `logger::compile`, `logger!` and the
/// predefined names produce, and what a function format becomes.
///
/// ```
/// use webfw::logger::{self, Tokens};
///
/// let tiny = logger::compile(":method :url :status").unwrap();
/// let req = webfw::testing::request(http::Method::GET, "/a?b=1");
/// let mut res = webfw::testing::response(&req);
/// assert_eq!(tiny.call(&Tokens::new(), &req, &res).as_deref(), Some("GET /a?b=1 -"));
/// res.send("ok").unwrap();
/// assert_eq!(tiny.call(&Tokens::new(), &req, &res).as_deref(), Some("GET /a?b=1 200"));
/// ```
#[derive(Clone)]
pub struct Format {
    kind: Kind,
    source: Option<Arc<str>>,
}

impl fmt::Debug for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.source {
            Some(s) => f.debug_tuple("Format").field(s).finish(),
            None => f.write_str("Format(<function>)"),
        }
    }
}

impl Format {
    /// A format function: `(tokens, req, res)` → the line, or `None` to
    /// write nothing for this request.
    ///
    /// ```
    /// use webfw::logger::Format;
    /// let f = Format::from_fn(|tokens, req, res| {
    ///     let status = tokens.get("status", req, res, None)?;
    ///     Some(format!("{} -> {status}", req.method()))
    /// });
    /// ```
    pub fn from_fn(
        f: impl Fn(&Tokens, &Request, &Response) -> Option<String> + Send + Sync + 'static,
    ) -> Format {
        Format {
            kind: Kind::Func(Arc::new(f)),
            source: None,
        }
    }

    /// The format string this was compiled from (`None` for functions and
    /// for `dev`).
    ///
    /// ```
    /// let f = webfw::logger::compile(":method").unwrap();
    /// assert_eq!(f.source(), Some(":method"));
    /// ```
    pub fn source(&self) -> Option<&str> {
        self.source.as_deref()
    }

    /// The line for a request, or `None` when the format skips it.
    /// `tokens` carries the request's timing (see [`Tokens`]).
    ///
    /// ```
    /// use webfw::logger::{compile, Tokens};
    /// let f = compile(":method :res[x-id]").unwrap();
    /// let req = webfw::testing::request(http::Method::PUT, "/");
    /// let res = webfw::testing::response(&req);
    /// assert_eq!(f.call(&Tokens::new(), &req, &res).unwrap(), "PUT -");
    /// ```
    pub fn call(&self, tokens: &Tokens, req: &Request, res: &Response) -> Option<String> {
        let mut line = Line::new();
        self.write(&tokens.cx, req, res, &mut line)
            .then(|| line.into_string())
    }

    /// Writes the line into `out`; false when the format skips it.
    #[inline]
    pub(crate) fn write(&self, cx: &Cx, req: &Request, res: &Response, out: &mut Line) -> bool {
        // `logger!`'s function is called from the caller, not through a
        // function of its own.
        if let Kind::Static { line, .. } = &self.kind {
            return line(cx, req, res, out);
        }
        self.write_other(cx, req, res, out)
    }

    fn write_other(&self, cx: &Cx, req: &Request, res: &Response, out: &mut Line) -> bool {
        match &self.kind {
            Kind::Compiled(c) => {
                c.write(cx, req, res, out);
                true
            }
            Kind::Dev(d) => {
                if no_color() {
                    d.plain.write(cx, req, res, out);
                } else {
                    let status = res.headers_sent().then(|| res.status_code());
                    let color = logfmt::dev_color(status);
                    let c = d
                        .colored
                        .iter()
                        .find(|(k, _)| *k == color)
                        .map_or(&d.plain, |(_, c)| c);
                    c.write(cx, req, res, out);
                }
                true
            }
            Kind::Static { line, .. } => line(cx, req, res, out),
            Kind::Func(f) => match f(&Tokens { cx: *cx }, req, res) {
                Some(s) => {
                    out.lit(&s);
                    true
                }
                None => false,
            },
        }
    }

    /// Whether the format may read `:response-time` / `:total-time` (the
    /// logger then records the head's time).
    pub(crate) fn timed(&self) -> bool {
        match &self.kind {
            Kind::Compiled(c) => c.timed,
            Kind::Dev(_) => true,
            Kind::Static { timed, .. } => *timed,
            Kind::Func(_) => true,
        }
    }

    /// The response headers the format reads (deduplicated), or `None` when
    /// it may read any (a function, a custom token). Redefined built-in
    /// tokens are the caller's to check, as they may change at any time.
    pub(crate) fn res_headers(&self) -> Option<Vec<HeaderName>> {
        let mut names = Vec::new();
        let complete = match &self.kind {
            Kind::Compiled(c) => c.res_headers(&mut names),
            Kind::Dev(d) => {
                d.plain.res_headers(&mut names)
                    && d.colored.iter().all(|(_, c)| c.res_headers(&mut names))
            }
            // `logger!` writes exactly the tokens of its source.
            Kind::Static { .. } => match self.source.as_deref() {
                Some(src) => Compiled::new(src, &[]).is_ok_and(|c| c.res_headers(&mut names)),
                None => false,
            },
            Kind::Func(_) => false,
        };
        crate::http::sort::sort_by(&mut names, |a, b| a.as_str().cmp(b.as_str()));
        names.dedup();
        complete.then_some(names)
    }

    /// A format generated by `logger!`.
    #[doc(hidden)]
    pub fn __static(source: Option<&'static str>, line: LineFn, timed: bool) -> Format {
        Format {
            kind: Kind::Static { line, timed },
            source: source.map(Arc::from),
        }
    }

    /// The predefined `dev` format.
    pub(crate) fn dev() -> Format {
        static DEV: OnceLock<Format> = OnceLock::new();
        DEV.get_or_init(|| {
            let compile = |s: &str| {
                Compiled::new(s, &[]).unwrap_or(Compiled {
                    parts: Vec::new(),
                    timed: true,
                })
            };
            let colored = logfmt::DEV_COLORS
                .iter()
                .map(|&c| (c, compile(&logfmt::dev_format(c))))
                .collect();
            Format {
                kind: Kind::Dev(Arc::new(DevFormats {
                    colored,
                    plain: compile(logfmt::DEV_PLAIN),
                })),
                source: None,
            }
        })
        .clone()
    }
}

/// `NO_COLOR` set to a non-empty value (read once, as morgan reads it at load).
#[doc(hidden)]
pub fn no_color() -> bool {
    static NO_COLOR: OnceLock<bool> = OnceLock::new();
    *NO_COLOR.get_or_init(|| std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()))
}

/// `logger.compile(format)`: compiles a format string.
///
/// Unlike morgan, mistakes are reported here instead of at logging time: an
/// unknown token (neither built in nor defined with [`token`](super::token)
/// before), a bad argument (`:date[rfc]`, `:response-time[x]`, `:req` without
/// a header name, an argument to a token that takes none) and an
/// unterminated or empty `[` after a token are errors. `logger!` reports the
/// same mistakes at compile time.
///
/// ```
/// use webfw::logger::compile;
/// assert!(compile(":method :url :status :response-time[1] ms").is_ok());
/// let err = compile(":metod").unwrap_err();
/// assert!(err.to_string().starts_with("unknown token `:metod` (did you mean `:method`?)"));
/// ```
pub fn compile(format: &str) -> Result<Format, FormatError> {
    compile_with(format, &[])
}

/// [`compile`] with extra tokens known only to this format (what `logger!`
/// passes for `tokens = [...]` when its format is not a literal).
#[doc(hidden)]
pub fn compile_with(format: &str, local: &[(&str, TokenFn)]) -> Result<Format, FormatError> {
    Ok(Format {
        kind: Kind::Compiled(Compiled::new(format, local)?),
        source: Some(Arc::from(format)),
    })
}

/// A format by name or string, as `logger(format, …)` resolves it: a name
/// registered with [`format`](super::format), then a predefined name, else
/// the string is compiled as a format.
pub(crate) fn resolve(s: &str) -> Result<Format, FormatError> {
    resolve_with(s, &[])
}

/// [`resolve`] with extra tokens known only to this format.
#[doc(hidden)]
pub fn resolve_with(s: &str, local: &[(&str, TokenFn)]) -> Result<Format, FormatError> {
    if let Some(f) = read(&FORMATS).get(s) {
        return Ok(f.clone());
    }
    match logfmt::predefined(s) {
        Some(Predefined::Dev) => Ok(Format::dev()),
        Some(Predefined::String(fmt)) => compile_with(fmt, local),
        None => compile_with(s, local),
    }
}

/// The tokens, as a format function sees them (morgan's `tokens` argument),
/// together with the request's timing.
///
/// ```
/// use webfw::logger::Tokens;
/// let req = webfw::testing::request(http::Method::GET, "/x");
/// let res = webfw::testing::response(&req);
/// let tokens = Tokens::new();
/// assert_eq!(tokens.get("url", &req, &res, None).as_deref(), Some("/x"));
/// assert_eq!(tokens.get("status", &req, &res, None), None); // head not sent
/// ```
#[derive(Clone, Copy, Default)]
pub struct Tokens {
    cx: Cx,
}

impl Tokens {
    /// Tokens without timing (`:response-time` and `:total-time` are then
    /// undefined), for calling formats outside a logger.
    ///
    /// ```
    /// let t = webfw::logger::Tokens::new();
    /// ```
    pub fn new() -> Tokens {
        Tokens { cx: Cx::default() }
    }

    pub(crate) fn with_cx(cx: Cx) -> Tokens {
        Tokens { cx }
    }

    #[doc(hidden)]
    pub fn __cx(&self) -> &Cx {
        &self.cx
    }

    /// `tokens[name](req, res, arg)`: the value of a token, escaped as
    /// morgan 1.12 does; `None` when it is undefined for this request or no
    /// such token exists (or the argument is not valid for a built-in).
    ///
    /// ```
    /// use webfw::logger::Tokens;
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.headers_mut().insert("x-id", "a\"b".parse().unwrap());
    /// let res = webfw::testing::response(&req);
    /// let v = Tokens::new().get("req", &req, &res, Some("X-Id"));
    /// assert_eq!(v.as_deref(), Some("a\\\"b"));
    /// ```
    pub fn get(
        &self,
        name: &str,
        req: &Request,
        res: &Response,
        arg: Option<&str>,
    ) -> Option<String> {
        if let Some(slot) = custom_slot(name) {
            let f = read(&slot).clone();
            return f(req, res, arg).and_then(|v| tokens::Val::Text(v.into()).into_string());
        }
        let b = Builtin::from_name(name)?;
        let call = Call::new(b, b.check_arg(arg).ok()?);
        call.value(&self.cx, req, res).into_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req_res(target: &str) -> (Request, Response) {
        let req = crate::testing::request(http::Method::GET, target);
        let res = crate::testing::response(&req);
        (req, res)
    }

    fn line(f: &Format, req: &Request, res: &Response) -> Option<String> {
        f.call(&Tokens::new(), req, res)
    }

    #[test]
    fn compile_reports_mistakes_with_their_position() {
        let e = compile("GET :metod").unwrap_err();
        assert_eq!(e.range(), 4..10);
        assert!(
            e.message()
                .starts_with("unknown token `:metod` (did you mean `:method`?)")
        );
        let e = compile(":status :response-time[x]").unwrap_err();
        assert_eq!(e.range(), 8..25);
        assert!(compile(":date[rfc]").is_err());
        assert!(compile(":req").is_err());
        assert!(compile(":url[x]").is_err());
        assert!(compile(":url[").is_err());
        assert!(compile(":url[]").is_err());
        assert!(compile("plain text, : and :a").is_ok());
    }

    #[test]
    fn unknown_token_message_lists_defined_tokens() {
        define_token("fmt-test-listed", Arc::new(|_, _, _| None));
        let e = compile(":fmt-test-liste").unwrap_err();
        assert!(e.message().contains(":fmt-test-listed"), "{e}");
    }

    #[test]
    fn redefining_a_token_reaches_compiled_formats() {
        define_token("fmt-test-redef", Arc::new(|_, _, _| Some("one".into())));
        let f = compile("[:fmt-test-redef]").unwrap();
        let (req, res) = req_res("/");
        assert_eq!(line(&f, &req, &res).unwrap(), "[one]");
        define_token("fmt-test-redef", Arc::new(|_, _, _| Some("two".into())));
        assert_eq!(line(&f, &req, &res).unwrap(), "[two]");
    }

    #[test]
    fn custom_tokens_get_morgans_argument_and_are_escaped() {
        define_token(
            "fmt-test-arg",
            Arc::new(|_, _, arg| arg.map(|a| format!("<{a}>\n"))),
        );
        let f = compile(":fmt-test-arg[a\"b] :fmt-test-arg").unwrap();
        let (req, res) = req_res("/");
        assert_eq!(line(&f, &req, &res).unwrap(), "<a\\\\\\\"b>\\n -");
    }

    #[test]
    fn named_formats_resolve_before_predefined_ones() {
        define_format("fmt-test-brief", compile(":method!").unwrap());
        let (req, res) = req_res("/");
        let f = resolve("fmt-test-brief").unwrap();
        assert_eq!(line(&f, &req, &res).unwrap(), "GET!");
        // An unknown name is a format string, as in morgan.
        let f = resolve("fmt-test-unknown").unwrap();
        assert_eq!(line(&f, &req, &res).unwrap(), "fmt-test-unknown");
        assert_eq!(resolve("tiny").unwrap().source(), Some(logfmt::TINY));
    }

    #[test]
    fn tokens_get_returns_morgan_values() {
        let (mut req, res) = req_res("/p?q");
        req.headers_mut().insert("x-a", "v\t1".parse().unwrap());
        let t = Tokens::new();
        assert_eq!(t.get("url", &req, &res, None).as_deref(), Some("/p?q"));
        assert_eq!(
            t.get("req", &req, &res, Some("X-A")).as_deref(),
            Some("v\\t1")
        );
        assert_eq!(t.get("req", &req, &res, Some("x-b")), None);
        assert_eq!(t.get("status", &req, &res, None), None);
        assert_eq!(t.get("response-time", &req, &res, None), None);
        assert_eq!(t.get("nope", &req, &res, None), None);
        assert_eq!(t.get("date", &req, &res, Some("bad")), None);
    }

    #[test]
    fn formats_declare_the_response_headers_they_read() {
        let names = |f: &Format| {
            f.res_headers()
                .map(|v| v.iter().map(|n| n.as_str().to_owned()).collect::<Vec<_>>())
        };
        let f = compile(":res[X-B] :status :res[content-length] :res[x-b]").unwrap();
        assert_eq!(names(&f).unwrap(), ["content-length", "x-b"]);
        assert_eq!(names(&compile(":method :url").unwrap()).unwrap(), [""; 0]);
        assert_eq!(names(&resolve("dev").unwrap()).unwrap(), ["content-length"]);
        fn line(_: &Cx, _: &Request, _: &Response, _: &mut Line) -> bool {
            true
        }
        let f = Format::__static(Some(":res[x-c] :status"), line, false);
        assert_eq!(names(&f).unwrap(), ["x-c"]);
        // Anything that may read any header: a function, a custom token, a
        // generated format whose source is not known.
        assert_eq!(names(&Format::from_fn(|_, _, _| None)), None);
        define_token("fmt-test-reads", Arc::new(|_, _, _| None));
        assert_eq!(names(&compile(":status :fmt-test-reads").unwrap()), None);
        assert_eq!(names(&Format::__static(None, line, true)), None);
        assert_eq!(
            names(&Format::__static(Some(":x-unknown"), line, false)),
            None
        );
    }

    #[test]
    fn function_formats_skip_with_none() {
        let f = Format::from_fn(|_, req, _| (req.path() != "/skip").then(|| "x".to_owned()));
        let (req, res) = req_res("/skip");
        assert_eq!(line(&f, &req, &res), None);
        let (req, res) = req_res("/");
        assert_eq!(line(&f, &req, &res).as_deref(), Some("x"));
        assert!(f.timed());
        assert!(!compile(":status").unwrap().timed());
        assert!(compile(":total-time").unwrap().timed());
    }
}
