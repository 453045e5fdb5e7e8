//! The error value that travels through the chain (`next(err)` in Express).
//!
//! Like `http-errors`, an [`Error`] carries a status, whether its message may be
//! shown to clients (`expose`), extra headers, a `type` tag (body parsers use it)
//! and an optional source. Any `std::error::Error` converts into it with `?`.

use std::borrow::Cow;
use std::fmt;

use http::{HeaderName, HeaderValue};

/// The error type of boxed bodies and services (tower's and hyper's
/// convention).
///
/// ```
/// let e: webfw::BoxError = "timed out".into();
/// assert_eq!(e.to_string(), "timed out");
/// ```
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// An error passed along the chain, with an HTTP status.
///
/// ```
/// use webfw::Error;
/// let err = Error::new("bad id").with_status(422);
/// assert_eq!(err.status(), 422);
/// assert_eq!(err.to_string(), "bad id");
/// ```
#[derive(Clone)]
pub struct Error {
    inner: std::sync::Arc<Inner>,
}

#[derive(Clone)]
struct Inner {
    status: Option<i64>,
    message: Cow<'static, str>,
    name: Cow<'static, str>,
    expose: Option<bool>,
    kind: Option<Cow<'static, str>>,
    code: Option<Cow<'static, str>>,
    headers: Vec<(HeaderName, HeaderValue)>,
    source: Option<std::sync::Arc<dyn std::error::Error + Send + Sync>>,
    backtrace: Option<std::sync::Arc<std::backtrace::Backtrace>>,
}

impl Error {
    /// A plain error (Express: `new Error(message)`); it has no status, so the final
    /// handler answers 500. With `RUST_BACKTRACE=1` (or `RUST_LIB_BACKTRACE=1`)
    /// it records a backtrace, which the development error page shows as
    /// Express shows `err.stack`; errors converted with `?` record one too.
    ///
    /// ```
    /// let err = webfw::Error::new("boom");
    /// assert_eq!(err.status(), 500);
    /// ```
    pub fn new(message: impl Into<Cow<'static, str>>) -> Self {
        let mut err = Error::plain(message);
        let trace = std::backtrace::Backtrace::capture();
        if trace.status() == std::backtrace::BacktraceStatus::Captured {
            err.inner_mut().backtrace = Some(std::sync::Arc::new(trace));
        }
        err
    }

    /// An error without a backtrace: what webfw builds for expected outcomes
    /// (bad client input), which must stay cheap whatever `RUST_BACKTRACE` says.
    pub(crate) fn plain(message: impl Into<Cow<'static, str>>) -> Self {
        Error {
            inner: std::sync::Arc::new(Inner {
                status: None,
                message: message.into(),
                name: Cow::Borrowed("Error"),
                expose: None,
                kind: None,
                code: None,
                headers: Vec::new(),
                source: None,
                backtrace: None,
            }),
        }
    }

    /// An error with a status, like `http-errors`' `createError(status, message)`,
    /// named as that makes it (`NotFoundError` for 404; the development
    /// error page and standard error show the name).
    ///
    /// ```
    /// let err = webfw::Error::status_message(404, "no such user");
    /// assert_eq!(err.status(), 404);
    /// assert!(err.expose());
    /// assert_eq!(err.name(), "NotFoundError");
    /// ```
    pub fn status_message(status: u16, message: impl Into<Cow<'static, str>>) -> Self {
        Error::plain(message)
            .with_status(i64::from(status))
            .with_name(crate::http::status::http_error_name(status))
    }

    /// An error whose message is the standard status text (`createError(404)`);
    /// a 4xx or 5xx code without one takes its class's (`Bad Request`,
    /// `Internal Server Error`), as `http-errors` does.
    ///
    /// ```
    /// assert_eq!(webfw::Error::from_status(404).to_string(), "Not Found");
    /// assert_eq!(webfw::Error::from_status(499).to_string(), "Bad Request");
    /// ```
    pub fn from_status(status: u16) -> Self {
        let text = match (status, crate::http::status::status_text(status)) {
            (_, Some(text)) => text,
            (400..=499, None) => "Bad Request",
            (500..=599, None) => "Internal Server Error",
            _ => "Unknown Error",
        };
        Error::status_message(status, text)
    }

    /// Sets `err.status` (any number; the final handler only honours 400–599).
    ///
    /// ```
    /// let err = webfw::Error::new("x").with_status(600);
    /// assert_eq!(err.status(), 500); // outside 400–599: treated as 500
    /// assert_eq!(err.raw_status(), Some(600));
    /// ```
    pub fn with_status(mut self, status: impl Into<i64>) -> Self {
        self.inner_mut().status = Some(status.into());
        self
    }

    /// Sets the error's name (`TypeError`, `URIError`, …), shown in development pages.
    ///
    /// ```
    /// let err = webfw::Error::new("bad").with_name("TypeError");
    /// assert_eq!(err.name(), "TypeError");
    /// ```
    pub fn with_name(mut self, name: impl Into<Cow<'static, str>>) -> Self {
        self.inner_mut().name = name.into();
        self
    }

    /// Sets the `type` tag (body-parser's `entity.too.large`, …).
    ///
    /// ```
    /// let err = webfw::Error::status_message(413, "too large").with_type("entity.too.large");
    /// assert_eq!(err.kind(), Some("entity.too.large"));
    /// ```
    pub fn with_type(mut self, kind: impl Into<Cow<'static, str>>) -> Self {
        self.inner_mut().kind = Some(kind.into());
        self
    }

    /// Sets `err.code`, the system error code (`ENOENT`, `EISDIR`, …) that
    /// file errors carry as Node's do.
    ///
    /// ```
    /// let err = webfw::Error::from_status(404).with_code("ENOENT");
    /// assert_eq!(err.code(), Some("ENOENT"));
    /// ```
    pub fn with_code(mut self, code: impl Into<Cow<'static, str>>) -> Self {
        self.inner_mut().code = Some(code.into());
        self
    }

    /// `err.code`, if any.
    ///
    /// ```
    /// assert_eq!(webfw::Error::new("x").code(), None);
    /// ```
    pub fn code(&self) -> Option<&str> {
        self.inner.code.as_deref()
    }

    /// Overrides whether the message may be shown to clients.
    ///
    /// ```
    /// let err = webfw::Error::status_message(400, "detail").with_expose(false);
    /// assert!(!err.expose());
    /// ```
    pub fn with_expose(mut self, expose: bool) -> Self {
        self.inner_mut().expose = Some(expose);
        self
    }

    /// Adds a header the final handler sets when the status comes from this error
    /// (Express: `err.headers`).
    ///
    /// ```
    /// let err = webfw::Error::from_status(429).with_header("retry-after", "120");
    /// assert_eq!(err.headers().len(), 1);
    /// ```
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        if let (Ok(n), Ok(v)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(value),
        ) {
            self.inner_mut().headers.push((n, v));
        }
        self
    }

    /// Attaches the underlying cause.
    ///
    /// ```
    /// let io = std::io::Error::other("disk");
    /// let err = webfw::Error::new("save failed").with_source(io);
    /// assert!(err.source().is_some());
    /// ```
    pub fn with_source(mut self, source: impl std::error::Error + Send + Sync + 'static) -> Self {
        self.inner_mut().source = Some(std::sync::Arc::new(source));
        self
    }

    fn inner_mut(&mut self) -> &mut Inner {
        std::sync::Arc::make_mut(&mut self.inner)
    }

    /// The status the final handler uses: the error's own status when it lies in
    /// 400–599, else 500.
    ///
    /// ```
    /// assert_eq!(webfw::Error::from_status(418).status(), 418);
    /// ```
    pub fn status(&self) -> u16 {
        self.error_status().unwrap_or(500)
    }

    /// The error's own status when it lies in 400–599 (finalhandler's rule).
    pub(crate) fn error_status(&self) -> Option<u16> {
        match self.inner.status {
            Some(s) if (400..=599).contains(&s) => Some(s as u16),
            _ => None,
        }
    }

    /// The status exactly as set, if any.
    ///
    /// ```
    /// assert_eq!(webfw::Error::new("x").raw_status(), None);
    /// ```
    pub fn raw_status(&self) -> Option<i64> {
        self.inner.status
    }

    /// Whether the message is meant for clients: explicitly set, else true for 4xx.
    ///
    /// ```
    /// assert!(!webfw::Error::new("internal").expose());
    /// ```
    pub fn expose(&self) -> bool {
        self.inner
            .expose
            .unwrap_or_else(|| (400..500).contains(&self.status()))
    }

    /// The message (`err.message`).
    ///
    /// ```
    /// assert_eq!(webfw::Error::new("boom").message(), "boom");
    /// ```
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// The name (`Error` unless set).
    ///
    /// ```
    /// assert_eq!(webfw::Error::new("boom").name(), "Error");
    /// ```
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// The `type` tag, if any.
    ///
    /// ```
    /// assert_eq!(webfw::Error::new("boom").kind(), None);
    /// ```
    pub fn kind(&self) -> Option<&str> {
        self.inner.kind.as_deref()
    }

    /// Headers to set with the error response.
    ///
    /// ```
    /// assert!(webfw::Error::new("boom").headers().is_empty());
    /// ```
    pub fn headers(&self) -> &[(HeaderName, HeaderValue)] {
        &self.inner.headers
    }

    /// The underlying cause, if any.
    ///
    /// ```
    /// assert!(webfw::Error::new("boom").source().is_none());
    /// ```
    pub fn source(&self) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        self.inner.source.as_deref()
    }

    /// `name: message`, the chain of causes one per line, then the backtrace
    /// when one was captured: what the development error page and standard
    /// error show where Node shows `err.stack`.
    pub(crate) fn stack(&self) -> String {
        let mut out = if self.inner.message.is_empty() {
            self.inner.name.to_string()
        } else {
            format!("{}: {}", self.inner.name, self.inner.message)
        };
        let mut cause = self.source().map(|s| s as &dyn std::error::Error);
        while let Some(c) = cause {
            out.push_str("\n    caused by: ");
            out.push_str(&c.to_string());
            cause = c.source();
        }
        if let Some(trace) = &self.inner.backtrace {
            out.push_str("\n    backtrace:\n");
            out.push_str(trace.to_string().trim_end());
        }
        out
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.inner.message)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("status", &self.inner.status)
            .field("name", &self.inner.name)
            .field("message", &self.inner.message)
            .field("type", &self.inner.kind)
            .finish()
    }
}

/// Any standard error becomes a 500 error carrying it as its source, so `?` works
/// in handlers. (For that reason [`Error`] itself does not implement
/// `std::error::Error`, as with `anyhow::Error`.)
impl<E: std::error::Error + Send + Sync + 'static> From<E> for Error {
    fn from(err: E) -> Self {
        Error::new(err.to_string()).with_source(err)
    }
}
