//! The request logger: morgan 1.12 (`morgan(format, options)`), byte for
//! byte.
//!
//! | morgan | webfw |
//! |---|---|
//! | `morgan('combined', { stream, skip, immediate })` | [`logger()`](fn@logger)(fn@logger)`("combined", LoggerOptions::new().stream(…).skip(…).immediate(…))` |
//! | `morgan(':method :url')` | `logger(":method :url", ())`, or [`logger!`](crate::logger!)`(":method :url")`, checked at compile time |
//! | `morgan(function (tokens, req, res) { … })` | `logger(\|tokens: &Tokens, req, res\| Some(…), ())` |
//! | `morgan.token(name, fn)` | [`token`] (or `#[logger_token]` for `logger!`) |
//! | `morgan.format(name, fmt)` | [`format()`] |
//! | `morgan.compile(fmt)` | [`compile`] → [`Format`] |
//!
//! ```no_run
//! use webfw::logger::{LogStream, LoggerOptions, logger};
//!
//! let mut app = webfw::app();
//! // Errors only, to the console, coloured by status:
//! app.use_(logger("dev", LoggerOptions::new().skip(|_req, res| res.status_code() < 400)));
//! // Everything, to a file:
//! app.use_(logger("combined", LoggerOptions::new().stream(LogStream::append("access.log")?)));
//! // Checked while compiling: a typo in a token name does not build.
//! app.use_(webfw::logger!(":method :url :status :response-time[1] ms"));
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! # Output
//!
//! Every line is what morgan 1.12.1 writes: same tokens, same `-` for a
//! missing value, same `dev` colours (and `NO_COLOR`), same escaping of
//! token values (`"`, `\`, control characters, U+2028/U+2029), so a header
//! value can never start a second line or close a quoted field.
//!
//! The line is written when the response is finished (its last byte handed
//! to the connection), or at once with `immediate`. `:response-time` ends
//! when the head is written, `:total-time` when the line is written.
//!
//! # Compile-time formats: `logger!`
//!
//! [`logger!`](crate::logger!)`("…")` reads a literal format while
//! compiling, with the tokenizer the run-time [`compile`] uses
//! (`webfw_pattern::logfmt`): predefined names resolve at compile time and
//! each built-in token becomes a direct call of the same token function the
//! run-time format calls, so both print identical lines (a test checks them
//! against morgan itself). A mistake is a compile error on the format:
//!
//! * unknown token, with the list of known ones and a "did you mean";
//! * bad argument: `:response-time[x]` / `:total-time[101]` (decimals are
//!   0..=100), `:date[rfc]` (`clf`, `iso`, `web`), `:req` / `:res` without a
//!   header name or with an invalid one, an argument to a token that takes
//!   none (`:method[x]`);
//! * unterminated (`:date[clf`) or empty (`:res[]`) brackets after a token;
//! * a single word that is not a predefined format (`"combind"`);
//! * an option other than `tokens = [...]`.
//!
//! Custom tokens are functions marked [`#[logger_token("name")]`](crate::logger_token)
//! (or `#[logger_token]`, named after the function) and listed with the
//! format: `logger!(":method :trace-id", tokens = [trace_id])`. The attribute
//! checks the signature `fn(&Request, &Response, Option<&str>) ->
//! Option<String>`, keeps the function callable, and implements
//! [`LoggerToken`] for a type of the same name; `logger!` finds each custom
//! token of the format among the listed `NAME`s while compiling, so a
//! misspelt custom token does not build either (the listed paths are checked
//! by rustc). [`register`] makes such a token known at run time too.
//! A format that is not a string literal (`logger!(fmt_string)`) is
//! compiled at run time, with the listed tokens.
//!
//! ```
//! use webfw::{Request, Response, logger_token};
//!
//! #[logger_token("trace-id")]
//! fn trace_id(req: &Request, _res: &Response, _arg: Option<&str>) -> Option<String> {
//!     req.get("x-trace-id").map(str::to_owned)
//! }
//!
//! let mut app = webfw::app();
//! app.use_(webfw::logger!(":method :url :status :trace-id", tokens = [trace_id]));
//! ```
//!
//! A built-in token redefined at run time with [`token`] is used by every
//! format, `logger!` ones included.
//!
//! # Writing lines
//!
//! See [`LogStream`]: a line is one `write` on the request's thread while
//! the stream keeps up, and is queued for a background writer when the
//! stream is busy or slow, so requests never wait on another request's line;
//! nothing is dropped, queued lines are written when the server shuts down
//! gracefully (or on [`flush_all`]), and a failing stream is reported once
//! on stderr without failing requests.
//!
//! # Differences from morgan
//!
//! * Formats are checked when compiled ([`compile`], `logger(…)`,
//!   [`logger!`](crate::logger!)) instead of failing while logging: unknown
//!   tokens, bad token arguments and unterminated `[` are errors, and a
//!   custom token must be defined before a format using it is compiled
//!   (redefining it later still takes effect).
//! * The deprecated `buffer` option is not offered: the stream never blocks a
//!   request on another request's write anyway (see [`LogStream`]).
//! * Token names and format names are separate namespaces.

mod clock;
mod format;
mod sink;
mod tokens;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Instant;

pub use format::{Format, Tokens, compile};
pub use sink::LogStream;
/// ```
/// use webfw::{Request, Response, logger_token};
///
/// #[logger_token("tenant")]
/// fn tenant(req: &Request, _res: &Response, _arg: Option<&str>) -> Option<String> {
///     req.get("x-tenant").map(str::to_owned)
/// }
///
/// let mut app = webfw::app();
/// app.use_(webfw::logger!("combined").stream(std::io::sink()));
/// app.use_(webfw::logger!(":method :url :status :response-time[1] ms"));
/// app.use_(webfw::logger!(":tenant :method", tokens = [tenant]).skip(|_req, res| res.status_code() < 400));
/// ```
#[doc(inline)]
pub use webfw_macros::logger;
/// ```
/// use webfw::{Request, Response, logger_token};
///
/// #[logger_token("req-id")]
/// fn req_id(req: &Request, _res: &Response, _arg: Option<&str>) -> Option<String> {
///     req.get("x-request-id").map(str::to_owned)
/// }
///
/// // Still a function:
/// let req = webfw::testing::request(http::Method::GET, "/");
/// let res = webfw::testing::response(&req);
/// assert_eq!(req_id(&req, &res, None), None);
/// // Usable by `logger!` and, once registered, at run time:
/// let _ = webfw::logger!(":req-id :url", tokens = [req_id]);
/// webfw::logger::register::<req_id>();
/// ```
#[doc(inline)]
pub use webfw_macros::logger_token;
pub use webfw_pattern::logfmt::FormatError;

use crate::handler::sealed::Plain;
use crate::handler::{Flow, IntoMiddleware, Middleware, SyncHandler, markers};
use crate::request::Request;
use crate::response::{Response, SharedFinish};
use tokens::{Cx, Line};

type SkipFn = Arc<dyn Fn(&Request, &Response) -> bool + Send + Sync>;

/// Options of [`logger()`](fn@logger) (morgan's options object).
///
/// ```
/// use webfw::logger::{LogStream, LoggerOptions};
/// let opts = LoggerOptions::new()
///     .immediate(false)
///     .skip(|_req, res| res.status_code() < 400)
///     .stream(LogStream::stderr());
/// ```
#[derive(Clone, Default)]
pub struct LoggerOptions {
    immediate: bool,
    skip: Option<SkipFn>,
    stream: Option<LogStream>,
}

impl LoggerOptions {
    /// The defaults: log when the response is finished, skip nothing, write
    /// to standard output.
    ///
    /// ```
    /// let opts = webfw::logger::LoggerOptions::new();
    /// ```
    pub fn new() -> LoggerOptions {
        LoggerOptions::default()
    }

    /// `immediate`: write the line when the request arrives (status,
    /// response headers and times are then `-`).
    ///
    /// ```
    /// let opts = webfw::logger::LoggerOptions::new().immediate(true);
    /// ```
    pub fn immediate(mut self, yes: bool) -> LoggerOptions {
        self.immediate = yes;
        self
    }

    /// `skip(req, res)`: no line when it returns true (evaluated when the
    /// line would be written).
    ///
    /// ```
    /// let opts = webfw::logger::LoggerOptions::new().skip(|req, _res| req.path() == "/health");
    /// ```
    pub fn skip(
        mut self,
        skip: impl Fn(&Request, &Response) -> bool + Send + Sync + 'static,
    ) -> LoggerOptions {
        self.skip = Some(Arc::new(skip));
        self
    }

    /// `stream`: where lines go (a [`LogStream`] or any `Write + Send`).
    ///
    /// ```
    /// let opts = webfw::logger::LoggerOptions::new().stream(std::io::sink());
    /// ```
    pub fn stream(mut self, stream: impl Into<LogStream>) -> LoggerOptions {
        self.stream = Some(stream.into());
        self
    }
}

impl From<()> for LoggerOptions {
    fn from((): ()) -> LoggerOptions {
        LoggerOptions::default()
    }
}

/// What [`logger()`](fn@logger) accepts as a format: a name or format string (`&str`,
/// `String`), a compiled [`Format`], or a format function
/// `(tokens, req, res) -> Option<String>`.
///
/// ```
/// use webfw::logger::{IntoFormat, Tokens};
/// let _ = "tiny".into_format();
/// let _ = (|_t: &Tokens, _q: &webfw::Request, _s: &webfw::Response| None).into_format();
/// ```
pub trait IntoFormat<M = ()> {
    /// Resolves or compiles the format.
    ///
    /// # Panics
    ///
    /// For a string that is not a valid format (see [`compile`]).
    ///
    /// ```
    /// use webfw::logger::IntoFormat;
    /// let format = ":method :url :status".into_format();
    /// let _ = webfw::logger(format, ());
    /// ```
    fn into_format(self) -> Format;
}

impl IntoFormat for Format {
    fn into_format(self) -> Format {
        self
    }
}

impl IntoFormat for &str {
    fn into_format(self) -> Format {
        format::resolve(self).unwrap_or_else(|e| panic!("invalid log format {self:?}: {e}"))
    }
}

impl IntoFormat for String {
    fn into_format(self) -> Format {
        self.as_str().into_format()
    }
}

impl IntoFormat for &String {
    fn into_format(self) -> Format {
        self.as_str().into_format()
    }
}

#[doc(hidden)]
pub struct FnMarker;

impl<F> IntoFormat<FnMarker> for F
where
    F: Fn(&Tokens, &Request, &Response) -> Option<String> + Send + Sync + 'static,
{
    fn into_format(self) -> Format {
        Format::from_fn(self)
    }
}

/// `morgan(format, options)`: a logging middleware.
///
/// `format` is a predefined name (`combined`, `common`, `dev`, `short`,
/// `tiny`, deprecated `default`), a name registered with [`format()`], a
/// format string, a [`Format`] or a format function. `options` is a
/// [`LoggerOptions`] or `()` for the defaults.
///
/// # Panics
///
/// When `format` is a string that is not a valid format (unknown token, bad
/// argument; see [`compile`]). Use [`compile`] to handle the error instead.
///
/// ```
/// use webfw::logger::{logger, LoggerOptions, Tokens};
///
/// let mut app = webfw::app();
/// app.use_(logger("tiny", ()));
/// app.use_(logger(":method :url :status", LoggerOptions::new().stream(std::io::sink())));
/// app.use_(logger(
///     |tokens: &Tokens, req: &webfw::Request, res: &webfw::Response| {
///         Some(format!("{} {}", req.method(), tokens.get("status", req, res, None)?))
///     },
///     (),
/// ));
/// ```
pub fn logger<M>(format: impl IntoFormat<M>, options: impl Into<LoggerOptions>) -> Logger {
    Logger::new(format.into_format(), options.into())
}

/// `morgan.token(name, fn)`: defines token `:name`. Its value is escaped like
/// every token's; `None` or an empty string prints `-`. Defining an existing
/// name (built-in ones included) replaces it, also in formats compiled
/// before.
///
/// ```
/// use webfw::logger::{compile, token, Tokens};
/// token("trace", |req, _res, _arg| Some(req.get("x-trace").unwrap_or("no-trace").to_owned()));
/// let f = compile(":method :trace").unwrap();
/// let req = webfw::testing::request(http::Method::GET, "/");
/// let res = webfw::testing::response(&req);
/// assert_eq!(f.call(&Tokens::new(), &req, &res).unwrap(), "GET no-trace");
/// ```
pub fn token(
    name: &str,
    f: impl Fn(&Request, &Response, Option<&str>) -> Option<String> + Send + Sync + 'static,
) {
    format::define_token(name, Arc::new(f));
}

/// Defines at run time a token declared with `#[logger_token]`, under its
/// declared name, so that run-time formats can use it too.
///
/// ```
/// use webfw::logger::{self, logger_token};
/// use webfw::{Request, Response};
///
/// #[logger_token("req-id")]
/// fn req_id(req: &Request, _res: &Response, _arg: Option<&str>) -> Option<String> {
///     req.get("x-request-id").map(str::to_owned)
/// }
///
/// logger::register::<req_id>();
/// assert!(logger::compile(":req-id").is_ok());
/// ```
pub fn register<T: LoggerToken>() {
    let f: fn(&Request, &Response, Option<&str>) -> Option<String> = T::value;
    token(T::NAME, f);
}

/// `morgan.format(name, fmt)`: registers a named format for [`logger()`](fn@logger).
/// A name equal to a predefined one replaces it for later `logger` calls.
///
/// # Panics
///
/// When `fmt` is a string that is not a valid format.
///
/// ```
/// use webfw::logger::{self, logger};
/// logger::format("brief", ":method :url :status");
/// let mut app = webfw::app();
/// app.use_(logger("brief", ()));
/// ```
pub fn format<M>(name: &str, fmt: impl IntoFormat<M>) {
    format::define_format(name, fmt.into_format());
}

/// Writes out every line queued in any [`LogStream`] and flushes the
/// writers. Lines are normally written at once; this matters only for lines
/// queued behind a slow stream, e.g. before `std::process::exit`.
///
/// ```
/// webfw::logger::flush_all();
/// ```
pub fn flush_all() {
    sink::flush_all();
}

/// A token known to `logger!` at compile time. `#[logger_token("name")]` on
/// a function implements it; `logger!(…, tokens = [path, …])` lists them.
///
/// ```
/// use webfw::logger::LoggerToken;
/// use webfw::{Request, Response};
///
/// #[allow(non_camel_case_types)]
/// struct tenant {}
/// impl LoggerToken for tenant {
///     const NAME: &'static str = "tenant";
///     fn value(req: &Request, _res: &Response, _arg: Option<&str>) -> Option<String> {
///         req.get("x-tenant").map(str::to_owned)
///     }
/// }
/// let _ = webfw::logger!(":method :tenant", tokens = [tenant]);
/// ```
pub trait LoggerToken {
    /// The token's name in formats (`:NAME`).
    const NAME: &'static str;
    /// The token's value: `None` (or an empty string) prints `-`.
    ///
    /// ```
    /// use webfw::logger::LoggerToken;
    /// use webfw::{Request, Response};
    /// #[allow(non_camel_case_types)]
    /// struct agent {}
    /// impl LoggerToken for agent {
    ///     const NAME: &'static str = "agent";
    ///     fn value(req: &Request, _res: &Response, _arg: Option<&str>) -> Option<String> {
    ///         req.get("user-agent").map(|ua| ua.chars().take(20).collect())
    ///     }
    /// }
    /// let _ = webfw::logger!(":agent :status", tokens = [agent]);
    /// ```
    fn value(req: &Request, res: &Response, arg: Option<&str>) -> Option<String>;
}

struct Inner {
    format: Format,
    /// The response headers the format reads (`None`: any).
    reads: Option<Box<[http::HeaderName]>>,
    immediate: bool,
    timed: bool,
    skip: Option<SkipFn>,
    stream: LogStream,
}

/// The untimed logger is one shared hook for all requests.
impl SharedFinish for Inner {
    fn reads(&self) -> Option<&[http::HeaderName]> {
        // `skip` and redefined built-in tokens see the whole response.
        if self.skip.is_some() || format::builtin_overridden() {
            return None;
        }
        self.reads.as_deref()
    }

    fn runs_early(&self) -> bool {
        // An untimed format of built-in tokens only (known reads): the line
        // is the same before the response is written as after.
        !self.timed && self.reads().is_some()
    }

    fn finish(&self, req: &Request, res: &Response, since: Option<Instant>) {
        let cx = Cx {
            start: since,
            // A head sent before this logger saw the request is not its.
            head: since.and_then(|s| res.head_at().filter(|&h| h >= s)),
            now: None,
        };
        self.log(&cx, req, res);
    }
}

impl Inner {
    fn log(&self, cx: &Cx, req: &Request, res: &Response) {
        // A panicking token, format, skip function or writer must not take
        // the connection down: the line is lost, the request is not.
        let _ = catch_unwind(AssertUnwindSafe(|| {
            if let Some(skip) = &self.skip
                && skip(req, res)
            {
                return;
            }
            with_line(|line| {
                if self.format.write(cx, req, res, line) {
                    line.lit("\n");
                    self.stream.write_bytes(line.as_bytes());
                }
            });
        }));
    }
}

thread_local! {
    static LINE: std::cell::RefCell<Line> = const { std::cell::RefCell::new(Line::new()) };
}

/// Runs `f` with this thread's reusable line buffer (a fresh one when it is
/// already in use, e.g. a token that logs).
fn with_line(f: impl FnOnce(&mut Line)) {
    let mut f = Some(f);
    let _ = LINE.try_with(|cell| {
        if let Ok(mut line) = cell.try_borrow_mut() {
            line.clear();
            if let Some(f) = f.take() {
                f(&mut line);
            }
            if line.capacity() > 64 * 1024 {
                line.shrink();
            }
        }
    });
    if let Some(f) = f {
        f(&mut Line::new());
    }
}

/// The logging middleware [`logger()`](fn@logger) and [`logger!`](crate::logger!) return.
/// Use it with `app.use_` / `app.use_at`; it always continues with
/// `next()`.
///
/// ```
/// use webfw::logger::{logger, LogStream};
/// let log = logger("tiny", ()).stream(LogStream::stderr()).immediate(true);
/// let mut app = webfw::app();
/// app.use_(log);
/// ```
#[derive(Clone)]
pub struct Logger {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Logger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Logger")
            .field("format", &self.inner.format)
            .field("immediate", &self.inner.immediate)
            .finish_non_exhaustive()
    }
}

impl Logger {
    /// A logger with this format and these options.
    ///
    /// ```
    /// let log = webfw::logger::Logger::new(webfw::logger::compile(":url").unwrap(), ().into());
    /// ```
    pub fn new(format: Format, options: LoggerOptions) -> Logger {
        Logger {
            inner: Arc::new(Inner {
                timed: format.timed(),
                reads: format.res_headers().map(Vec::into_boxed_slice),
                format,
                immediate: options.immediate,
                skip: options.skip,
                stream: options.stream.unwrap_or_else(LogStream::stdout),
            }),
        }
    }

    fn edit(mut self, f: impl FnOnce(&mut Inner)) -> Logger {
        match Arc::get_mut(&mut self.inner) {
            Some(inner) => f(inner),
            None => {
                let old = &self.inner;
                let mut inner = Inner {
                    format: old.format.clone(),
                    reads: old.reads.clone(),
                    immediate: old.immediate,
                    timed: old.timed,
                    skip: old.skip.clone(),
                    stream: old.stream.clone(),
                };
                f(&mut inner);
                self.inner = Arc::new(inner);
            }
        }
        self
    }

    /// Replaces the options.
    ///
    /// ```
    /// let log = webfw::logger!("tiny").options(webfw::logger::LoggerOptions::new().immediate(true));
    /// ```
    pub fn options(self, options: LoggerOptions) -> Logger {
        self.edit(|i| {
            i.immediate = options.immediate;
            i.skip = options.skip;
            i.stream = options.stream.unwrap_or_else(LogStream::stdout);
        })
    }

    /// Sets `immediate` (see [`LoggerOptions::immediate`]).
    ///
    /// ```
    /// let log = webfw::logger!("short").immediate(true);
    /// ```
    pub fn immediate(self, yes: bool) -> Logger {
        self.edit(|i| i.immediate = yes)
    }

    /// Sets `skip` (see [`LoggerOptions::skip`]).
    ///
    /// ```
    /// let log = webfw::logger!("tiny").skip(|_req, res| res.status_code() < 400);
    /// ```
    pub fn skip(
        self,
        skip: impl Fn(&Request, &Response) -> bool + Send + Sync + 'static,
    ) -> Logger {
        self.edit(|i| i.skip = Some(Arc::new(skip)))
    }

    /// Sets the stream (see [`LoggerOptions::stream`]).
    ///
    /// ```
    /// let log = webfw::logger!("combined").stream(std::io::sink());
    /// ```
    pub fn stream(self, stream: impl Into<LogStream>) -> Logger {
        let stream = stream.into();
        self.edit(|i| i.stream = stream)
    }

    /// The format.
    ///
    /// ```
    /// assert_eq!(webfw::logger!(":method").format().source(), Some(":method"));
    /// ```
    pub fn format(&self) -> &Format {
        &self.inner.format
    }

    /// Registers the hooks for one request (what calling the middleware does).
    fn start(&self, req: &mut Request, res: &mut Response) {
        let inner = &self.inner;
        if inner.immediate {
            let cx = Cx {
                start: Some(Instant::now()),
                ..Cx::default()
            };
            inner.log(&cx, req, res);
            return;
        }
        // One shared hook, no allocation; a timed format gets the time it
        // saw the request and the time the head left (morgan's `_startAt`s).
        let since = inner.timed.then(Instant::now);
        if since.is_some() {
            res.time_head();
        }
        res.on_finish_shared(inner.clone(), since);
    }
}

impl SyncHandler for Logger {
    fn call_sync(&self, req: &mut Request, res: &mut Response) -> crate::handler::Result {
        self.start(req, res);
        Ok(Flow::Next)
    }
}

/// The logger never awaits: it is registered as a synchronous handler.
#[diagnostic::do_not_recommend]
impl IntoMiddleware<markers::LoggerValue> for Logger {
    fn into_middleware(self) -> Middleware {
        Middleware::sync(Arc::new(self))
    }
}

impl Plain<markers::LoggerValue> for Logger {}

/// Support for `logger!` expansions; not public API.
#[doc(hidden)]
pub mod __private {
    pub use super::clock::SmallStr;
    pub use super::format::{LineFn, Overrides, TokenFn, compile_with, no_color, overrides};
    pub use super::tokens::{Cx, Line, Val};

    /// The built-in token functions.
    pub mod tokens {
        pub use crate::logger::tokens::{
            First, REFERRER, date, http_version, method, pid, referrer, referrer_of, remote_addr,
            remote_user, remote_user_of, req_header, req_header_of, req_values, res_header,
            response_time, status, total_time, url, user_agent,
        };
    }
    pub use http::HeaderName;
    pub use http::header::{AUTHORIZATION, REFERER, USER_AGENT};
    pub use webfw_pattern::logfmt::DateFormat;

    use super::{Format, Logger, LoggerOptions};
    use crate::response::Response;

    /// `dev`'s colour for this response.
    #[inline]
    pub fn dev_color(res: &Response) -> u8 {
        webfw_pattern::logfmt::dev_color(res.headers_sent().then(|| res.status_code()))
    }

    /// A logger over a generated format, with default options.
    pub fn logger(format: Format) -> Logger {
        Logger::new(format, LoggerOptions::default())
    }

    /// The index of `name` in `names`, or `usize::MAX` (for the compile-time
    /// check of `tokens = [...]`).
    pub const fn find_token(names: &[&str], name: &str) -> usize {
        let mut i = 0;
        while i < names.len() {
            if str_eq(names[i], name) {
                return i;
            }
            i += 1;
        }
        usize::MAX
    }

    const fn str_eq(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// A run-time compiled logger with extra tokens (a non-literal format
    /// given to `logger!` with `tokens = [...]`).
    ///
    /// # Panics
    ///
    /// When the format is invalid.
    pub fn logger_with(format: &str, local: &[(&str, TokenFn)]) -> Logger {
        let f = super::format::resolve_with(format, local)
            .unwrap_or_else(|e| panic!("invalid log format {format:?}: {e}"));
        Logger::new(f, LoggerOptions::default())
    }

    /// A token function as a [`TokenFn`].
    pub fn token_fn(f: fn(&crate::Request, &Response, Option<&str>) -> Option<String>) -> TokenFn {
        std::sync::Arc::new(f)
    }

    /// The `Tokens` a format function sees, with this timing.
    pub fn tokens_with(cx: Cx) -> super::Tokens {
        super::Tokens::with_cx(cx)
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::Mutex;

    use super::*;

    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);

    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn timed_logger(buf: &Buf) -> Logger {
        logger(":status :res[content-length] :response-time[0]", ()).stream(buf.clone())
    }

    #[test]
    fn a_timed_logger_times_only_a_head_sent_after_it_saw_the_request() {
        let (first, second) = (Buf::default(), Buf::default());
        let mut req = crate::testing::request(http::Method::GET, "/");
        let mut res = crate::testing::response(&req);
        timed_logger(&first).start(&mut req, &mut res);
        res.send("ok").unwrap();
        // Registered once the head had left: no response time of its own.
        timed_logger(&second).start(&mut req, &mut res);
        res.run_finish_hooks(&req);
        let text = |b: &Buf| String::from_utf8(b.0.lock().unwrap().clone()).unwrap();
        assert!(
            text(&first).starts_with("200 2 ") && !text(&first).ends_with("-\n"),
            "{}",
            text(&first)
        );
        assert_eq!(text(&second), "200 2 -\n");
    }
}
