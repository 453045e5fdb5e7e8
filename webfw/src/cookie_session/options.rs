//! cookie-session's options: the cookie's name and keys, and the attributes
//! the `cookies` package writes.

use std::time::{Duration, SystemTime};

use crate::http::cookie::{Priority, SameSite};

/// The options of [`cookie_session`](crate::cookie_session()), as
/// `cookieSession({...})` takes them. The defaults are cookie-session's:
/// name `session`, signed, `httpOnly`, `overwrite`, path `/`, a browser
/// session cookie (no `maxAge`).
///
/// ```
/// use std::time::Duration;
/// use webfw::cookie_session::CookieSessionOptions;
/// use webfw::SameSite;
/// let opts = CookieSessionOptions::new()
///     .keys(["key-new", "key-old"])
///     .max_age(Duration::from_secs(3600))
///     .same_site(SameSite::Lax);
/// assert_eq!(opts.name, "session");
/// assert!(opts.signed && opts.http_only && opts.overwrite);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CookieSessionOptions {
    /// `name`: the cookie's name (`session`); the signature goes in
    /// `<name>.sig`.
    pub name: String,
    /// `keys` (or `secret`, a single key): the first signs, all verify.
    pub keys: Vec<String>,
    /// `signed` (true): write and require the `.sig` cookie.
    pub signed: bool,
    /// `maxAge`: the cookie expires this long after each write.
    pub max_age: Option<Duration>,
    /// `expires`: a fixed expiry (`max_age` wins when both are set).
    pub expires: Option<SystemTime>,
    /// `path` (`/`).
    pub path: String,
    /// `domain`.
    pub domain: Option<String>,
    /// `secure`: `None` marks the cookie secure exactly when the request
    /// came over HTTPS (`req.protocol`); `Some(true)` over plain HTTP
    /// writes no cookie, as the package refuses to.
    pub secure: Option<bool>,
    /// `httpOnly` (true).
    pub http_only: bool,
    /// `sameSite` (`true` in Express is [`SameSite::Strict`]).
    pub same_site: Option<SameSite>,
    /// `overwrite` (true): a cookie of the same name set earlier in this
    /// response is replaced rather than sent twice.
    pub overwrite: bool,
    /// `partitioned`.
    pub partitioned: bool,
    /// `priority`.
    pub priority: Option<Priority>,
}

impl Default for CookieSessionOptions {
    fn default() -> Self {
        CookieSessionOptions {
            name: "session".into(),
            keys: Vec::new(),
            signed: true,
            max_age: None,
            expires: None,
            path: "/".into(),
            domain: None,
            secure: None,
            http_only: true,
            same_site: None,
            overwrite: true,
            partitioned: false,
            priority: None,
        }
    }
}

impl CookieSessionOptions {
    /// cookie-session's defaults; a signed session needs
    /// [`keys`](Self::keys) or [`secret`](Self::secret) before use.
    ///
    /// ```
    /// let o = webfw::cookie_session::CookieSessionOptions::new();
    /// assert!(o.keys.is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// `name`.
    ///
    /// ```
    /// let o = webfw::cookie_session::CookieSessionOptions::new().name("sid");
    /// assert_eq!(o.name, "sid");
    /// ```
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// `keys`: the newest first.
    ///
    /// ```
    /// let o = webfw::cookie_session::CookieSessionOptions::new().keys(["new", "old"]);
    /// assert_eq!(o.keys, ["new", "old"]);
    /// ```
    pub fn keys<I, S>(mut self, keys: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.keys = keys.into_iter().map(Into::into).collect();
        self
    }

    /// `secret`: one key (used when no `keys` are given).
    ///
    /// ```
    /// let o = webfw::cookie_session::CookieSessionOptions::new().secret("s3cr3t");
    /// assert_eq!(o.keys, ["s3cr3t"]);
    /// ```
    pub fn secret(mut self, secret: impl Into<String>) -> Self {
        if self.keys.is_empty() {
            self.keys = vec![secret.into()];
        }
        self
    }

    /// `signed`.
    ///
    /// ```
    /// let o = webfw::cookie_session::CookieSessionOptions::new().signed(false);
    /// assert!(!o.signed);
    /// ```
    pub fn signed(mut self, signed: bool) -> Self {
        self.signed = signed;
        self
    }

    /// `maxAge`.
    ///
    /// ```
    /// use std::time::Duration;
    /// let o = webfw::cookie_session::CookieSessionOptions::new().max_age(Duration::from_secs(60));
    /// assert_eq!(o.max_age, Some(Duration::from_secs(60)));
    /// ```
    pub fn max_age(mut self, max_age: Duration) -> Self {
        self.max_age = Some(max_age);
        self
    }

    /// `expires`.
    ///
    /// ```
    /// let o = webfw::cookie_session::CookieSessionOptions::new()
    ///     .expires(std::time::SystemTime::UNIX_EPOCH);
    /// assert!(o.expires.is_some());
    /// ```
    pub fn expires(mut self, at: SystemTime) -> Self {
        self.expires = Some(at);
        self
    }

    /// `path`.
    ///
    /// ```
    /// let o = webfw::cookie_session::CookieSessionOptions::new().path("/app");
    /// assert_eq!(o.path, "/app");
    /// ```
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// `domain`.
    ///
    /// ```
    /// let o = webfw::cookie_session::CookieSessionOptions::new().domain("example.com");
    /// assert_eq!(o.domain.as_deref(), Some("example.com"));
    /// ```
    pub fn domain(mut self, domain: impl Into<String>) -> Self {
        self.domain = Some(domain.into());
        self
    }

    /// `secure`.
    ///
    /// ```
    /// let o = webfw::cookie_session::CookieSessionOptions::new().secure(true);
    /// assert_eq!(o.secure, Some(true));
    /// ```
    pub fn secure(mut self, secure: bool) -> Self {
        self.secure = Some(secure);
        self
    }

    /// `httpOnly`.
    ///
    /// ```
    /// let o = webfw::cookie_session::CookieSessionOptions::new().http_only(false);
    /// assert!(!o.http_only);
    /// ```
    pub fn http_only(mut self, http_only: bool) -> Self {
        self.http_only = http_only;
        self
    }

    /// `sameSite`.
    ///
    /// ```
    /// use webfw::SameSite;
    /// let o = webfw::cookie_session::CookieSessionOptions::new().same_site(SameSite::Strict);
    /// assert_eq!(o.same_site, Some(SameSite::Strict));
    /// ```
    pub fn same_site(mut self, same_site: SameSite) -> Self {
        self.same_site = Some(same_site);
        self
    }

    /// `overwrite`.
    ///
    /// ```
    /// let o = webfw::cookie_session::CookieSessionOptions::new().overwrite(false);
    /// assert!(!o.overwrite);
    /// ```
    pub fn overwrite(mut self, overwrite: bool) -> Self {
        self.overwrite = overwrite;
        self
    }

    /// `partitioned`.
    ///
    /// ```
    /// let o = webfw::cookie_session::CookieSessionOptions::new().partitioned(true);
    /// assert!(o.partitioned);
    /// ```
    pub fn partitioned(mut self, partitioned: bool) -> Self {
        self.partitioned = partitioned;
        self
    }

    /// `priority`.
    ///
    /// ```
    /// use webfw::Priority;
    /// let o = webfw::cookie_session::CookieSessionOptions::new().priority(Priority::High);
    /// assert_eq!(o.priority, Some(Priority::High));
    /// ```
    pub fn priority(mut self, priority: Priority) -> Self {
        self.priority = Some(priority);
        self
    }
}
