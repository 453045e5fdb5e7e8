//! The session cookie as express-session keeps it (`req.session.cookie`):
//! its options, its expiry arithmetic, and its JSON form in the store.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use crate::http::cookie::{Attributes, Priority, SameSite};
use crate::http::date::{iso_string, parse_iso};

/// The `secure` cookie option.
///
/// ```
/// use webfw::session::{CookieOptions, Secure};
/// let opts = CookieOptions::new().secure(Secure::Auto);
/// assert_eq!(opts.secure, Secure::Auto);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Secure {
    /// Not given (`secure` left out of the stored cookie; no `Secure` attribute).
    #[default]
    Unset,
    /// `secure: true`: the cookie is only sent over HTTPS.
    On,
    /// `secure: false`.
    Off,
    /// `secure: 'auto'`: `Secure` when the request came over HTTPS.
    Auto,
}

/// The `cookie` option of [`session`](crate::session()): the attributes of
/// the session cookie, as `res.cookie` takes them.
///
/// ```
/// use std::time::Duration;
/// use webfw::session::CookieOptions;
/// let opts = CookieOptions::new().max_age(Duration::from_secs(3600));
/// assert_eq!(opts.path, "/");
/// assert!(opts.http_only);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct CookieOptions {
    /// `maxAge`: the cookie's lifetime, which is also the store's TTL;
    /// `None` (the default) makes a browser-session cookie.
    pub max_age: Option<Duration>,
    /// `httpOnly` (default `true`).
    pub http_only: bool,
    /// `secure` (default: not set).
    pub secure: Secure,
    /// `path` (default `/`); the middleware only runs under it.
    pub path: String,
    /// `domain`.
    pub domain: Option<String>,
    /// `sameSite`.
    pub same_site: Option<SameSite>,
    /// `partitioned`.
    pub partitioned: bool,
    /// `priority`.
    pub priority: Option<Priority>,
}

impl Default for CookieOptions {
    fn default() -> Self {
        CookieOptions {
            max_age: None,
            http_only: true,
            secure: Secure::Unset,
            path: "/".to_owned(),
            domain: None,
            same_site: None,
            partitioned: false,
            priority: None,
        }
    }
}

impl CookieOptions {
    /// express-session's defaults: a browser-session cookie, `httpOnly`,
    /// path `/`.
    ///
    /// ```
    /// let o = webfw::session::CookieOptions::new();
    /// assert!(o.http_only && o.max_age.is_none());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// `maxAge`: the cookie's lifetime (and the store's TTL).
    ///
    /// ```
    /// use std::time::Duration;
    /// let o = webfw::session::CookieOptions::new().max_age(Duration::from_secs(60));
    /// assert_eq!(o.max_age, Some(Duration::from_secs(60)));
    /// ```
    pub fn max_age(mut self, max_age: Duration) -> Self {
        self.max_age = Some(max_age);
        self
    }

    /// `httpOnly`.
    ///
    /// ```
    /// let o = webfw::session::CookieOptions::new().http_only(false);
    /// assert!(!o.http_only);
    /// ```
    pub fn http_only(mut self, http_only: bool) -> Self {
        self.http_only = http_only;
        self
    }

    /// `secure`: `true`, `false` or `'auto'`.
    ///
    /// ```
    /// use webfw::session::{CookieOptions, Secure};
    /// let o = CookieOptions::new().secure(Secure::On);
    /// assert_eq!(o.secure, Secure::On);
    /// ```
    pub fn secure(mut self, secure: Secure) -> Self {
        self.secure = secure;
        self
    }

    /// `path`.
    ///
    /// ```
    /// let o = webfw::session::CookieOptions::new().path("/app");
    /// assert_eq!(o.path, "/app");
    /// ```
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// `domain`.
    ///
    /// ```
    /// let o = webfw::session::CookieOptions::new().domain("example.com");
    /// assert_eq!(o.domain.as_deref(), Some("example.com"));
    /// ```
    pub fn domain(mut self, domain: impl Into<String>) -> Self {
        self.domain = Some(domain.into());
        self
    }

    /// `sameSite`.
    ///
    /// ```
    /// use webfw::SameSite;
    /// let o = webfw::session::CookieOptions::new().same_site(SameSite::Lax);
    /// assert_eq!(o.same_site, Some(SameSite::Lax));
    /// ```
    pub fn same_site(mut self, same_site: SameSite) -> Self {
        self.same_site = Some(same_site);
        self
    }

    /// `partitioned`.
    ///
    /// ```
    /// assert!(webfw::session::CookieOptions::new().partitioned(true).partitioned);
    /// ```
    pub fn partitioned(mut self, partitioned: bool) -> Self {
        self.partitioned = partitioned;
        self
    }

    /// `priority`.
    ///
    /// ```
    /// use webfw::Priority;
    /// let o = webfw::session::CookieOptions::new().priority(Priority::High);
    /// assert_eq!(o.priority, Some(Priority::High));
    /// ```
    pub fn priority(mut self, priority: Priority) -> Self {
        self.priority = Some(priority);
        self
    }
}

/// Milliseconds since the Unix epoch, as JavaScript's `Date.now()`.
pub(crate) fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_millis() as f64)
}

/// A session's cookie: `req.session.cookie`. Stored with the session, so
/// its expiry travels with it (and gives the store its TTL).
///
/// ```
/// use std::time::Duration;
/// use webfw::session::{CookieOptions, SessionCookie};
/// let c = SessionCookie::new(&CookieOptions::new().max_age(Duration::from_secs(60)), false);
/// assert_eq!(c.original_max_age(), Some(60_000.0));
/// assert!(c.max_age().unwrap() <= 60_000.0);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SessionCookie {
    original_max_age: Option<f64>,
    /// Milliseconds since the epoch.
    expires: Option<f64>,
    secure: Option<bool>,
    http_only: bool,
    domain: Option<String>,
    path: String,
    same_site: Option<SameSite>,
    partitioned: bool,
    priority: Option<Priority>,
}

impl SessionCookie {
    /// A new session's cookie from the options; `secure_request` resolves
    /// [`Secure::Auto`].
    ///
    /// ```
    /// use webfw::session::{CookieOptions, Secure, SessionCookie};
    /// let c = SessionCookie::new(&CookieOptions::new().secure(Secure::Auto), true);
    /// assert!(c.secure());
    /// ```
    pub fn new(opts: &CookieOptions, secure_request: bool) -> SessionCookie {
        let mut c = SessionCookie {
            original_max_age: None,
            expires: None,
            secure: match opts.secure {
                Secure::Unset => None,
                Secure::On => Some(true),
                Secure::Off => Some(false),
                Secure::Auto => Some(secure_request),
            },
            http_only: opts.http_only,
            domain: opts.domain.clone(),
            path: opts.path.clone(),
            same_site: opts.same_site,
            partitioned: opts.partitioned,
            priority: opts.priority,
        };
        c.set_max_age(opts.max_age);
        c
    }

    /// `cookie.maxAge`: milliseconds left, `None` for a browser-session cookie.
    ///
    /// ```
    /// use webfw::session::{CookieOptions, SessionCookie};
    /// assert_eq!(SessionCookie::new(&CookieOptions::default(), false).max_age(), None);
    /// ```
    pub fn max_age(&self) -> Option<f64> {
        self.expires.map(|e| e - now_ms())
    }

    /// Sets `cookie.maxAge` (and `originalMaxAge`): the cookie then expires
    /// that long from now; `None` makes it a browser-session cookie.
    ///
    /// ```
    /// use std::time::Duration;
    /// use webfw::session::{CookieOptions, SessionCookie};
    /// let mut c = SessionCookie::new(&CookieOptions::default(), false);
    /// c.set_max_age(Some(Duration::from_secs(1)));
    /// assert_eq!(c.original_max_age(), Some(1000.0));
    /// ```
    pub fn set_max_age(&mut self, max_age: Option<Duration>) {
        self.set_max_age_ms(max_age.map(|d| d.as_millis() as f64));
    }

    fn set_max_age_ms(&mut self, ms: Option<f64>) {
        // One clock reading for both: express-session reads it twice, and
        // `originalMaxAge` can come out a millisecond short.
        self.expires = ms.map(|ms| now_ms() + ms);
        self.original_max_age = ms;
    }

    /// `cookie.originalMaxAge`, in milliseconds.
    ///
    /// ```
    /// use webfw::session::{CookieOptions, SessionCookie};
    /// assert_eq!(SessionCookie::new(&CookieOptions::default(), false).original_max_age(), None);
    /// ```
    pub fn original_max_age(&self) -> Option<f64> {
        self.original_max_age
    }

    /// `cookie.expires`, when the cookie has a lifetime.
    ///
    /// ```
    /// use webfw::session::{CookieOptions, SessionCookie};
    /// assert_eq!(SessionCookie::new(&CookieOptions::default(), false).expires(), None);
    /// ```
    pub fn expires(&self) -> Option<SystemTime> {
        self.expires
            .map(|ms| UNIX_EPOCH + Duration::from_millis(ms.max(0.0) as u64))
    }

    /// `cookie.secure`.
    ///
    /// ```
    /// use webfw::session::{CookieOptions, SessionCookie};
    /// assert!(!SessionCookie::new(&CookieOptions::default(), true).secure());
    /// ```
    pub fn secure(&self) -> bool {
        self.secure == Some(true)
    }

    /// `session.resetMaxAge()`: a cookie with a lifetime gets it afresh.
    pub(crate) fn reset_max_age(&mut self) {
        let original = self.original_max_age;
        self.set_max_age_ms(original);
    }

    /// The attributes `Set-Cookie` carries.
    pub(crate) fn attributes(&self) -> Attributes<'_> {
        Attributes {
            max_age: None,
            domain: self.domain.as_deref(),
            path: Some(&self.path),
            expires: self.expires,
            http_only: self.http_only,
            secure: self.secure(),
            partitioned: self.partitioned,
            priority: self.priority,
            same_site: self.same_site,
        }
    }

    /// The stored form (`cookie.data`): keys in express-session's order,
    /// unset ones left out.
    pub(crate) fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("originalMaxAge".into(), num(self.original_max_age));
        if self.partitioned {
            m.insert("partitioned".into(), Value::Bool(true));
        }
        if let Some(p) = self.priority {
            let p = match p {
                Priority::Low => "low",
                Priority::Medium => "medium",
                Priority::High => "high",
            };
            m.insert("priority".into(), p.into());
        }
        m.insert(
            "expires".into(),
            self.expires
                .and_then(iso_string)
                .map_or(Value::Null, Value::String),
        );
        if let Some(s) = self.secure {
            m.insert("secure".into(), Value::Bool(s));
        }
        m.insert("httpOnly".into(), Value::Bool(self.http_only));
        if let Some(d) = &self.domain {
            m.insert("domain".into(), d.clone().into());
        }
        m.insert("path".into(), self.path.clone().into());
        if let Some(s) = self.same_site {
            let s = match s {
                SameSite::Strict => "strict",
                SameSite::Lax => "lax",
                SameSite::None => "none",
            };
            m.insert("sameSite".into(), s.into());
        }
        Value::Object(m)
    }

    /// The cookie a stored session carries (`new Cookie(sess.cookie)`);
    /// what is missing or malformed takes the default.
    pub(crate) fn from_json(v: &Value) -> SessionCookie {
        let get = |k: &str| v.get(k);
        let text = |k: &str| get(k).and_then(Value::as_str);
        SessionCookie {
            original_max_age: get("originalMaxAge").and_then(Value::as_f64),
            expires: text("expires").and_then(parse_iso),
            secure: get("secure").and_then(Value::as_bool),
            http_only: get("httpOnly").and_then(Value::as_bool).unwrap_or(true),
            domain: text("domain").map(str::to_owned),
            path: text("path").unwrap_or("/").to_owned(),
            same_site: match get("sameSite") {
                Some(Value::Bool(true)) => Some(SameSite::Strict),
                Some(Value::String(s)) => s.parse().ok(),
                _ => None,
            },
            partitioned: get("partitioned").and_then(Value::as_bool).unwrap_or(false),
            priority: text("priority").and_then(|p| p.parse().ok()),
        }
    }
}

fn num(v: Option<f64>) -> Value {
    match v {
        // Whole milliseconds print as integers, as JSON.stringify does.
        Some(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Value::from(n as i64),
        Some(n) => serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number),
        None => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_cookie_is_stored_as_express_session_stores_it() {
        let c = SessionCookie::new(&CookieOptions::default(), false);
        assert_eq!(
            c.to_json().to_string(),
            r#"{"originalMaxAge":null,"expires":null,"httpOnly":true,"path":"/"}"#
        );
    }

    #[test]
    fn a_full_cookie_round_trips_through_its_json() {
        let opts = CookieOptions::new()
            .max_age(Duration::from_secs(60))
            .secure(Secure::Off)
            .domain("x.com")
            .same_site(SameSite::Lax);
        let c = SessionCookie::new(&opts, false);
        let json = c.to_json();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "originalMaxAge",
                "expires",
                "secure",
                "httpOnly",
                "domain",
                "path",
                "sameSite"
            ]
        );
        assert_eq!(json["originalMaxAge"], 60000);
        let back = SessionCookie::from_json(&json);
        assert_eq!(back.expires, c.expires.map(f64::trunc));
        assert_eq!(back.same_site, Some(SameSite::Lax));
        assert_eq!(back.secure, Some(false));
    }

    #[test]
    fn touch_gives_the_cookie_its_full_lifetime_again() {
        let opts = CookieOptions::new().max_age(Duration::from_secs(60));
        let mut c = SessionCookie::new(&opts, false);
        c.expires = Some(now_ms() - 1.0);
        c.reset_max_age();
        let left = c.max_age().unwrap();
        assert!(left > 59_000.0 && left <= 60_000.0, "{left}");
        assert_eq!(c.original_max_age(), Some(60_000.0));
        let mut session_only = SessionCookie::new(&CookieOptions::default(), false);
        session_only.reset_max_age();
        assert_eq!(session_only.expires(), None);
    }

    #[test]
    fn iso_dates_are_javascripts() {
        assert_eq!(
            iso_string(1_764_079_073_547.0).unwrap(),
            "2025-11-25T13:57:53.547Z"
        );
        assert_eq!(
            parse_iso("2025-11-25T13:57:53.547Z"),
            Some(1_764_079_073_547.0)
        );
    }
}
