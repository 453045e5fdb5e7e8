//! `res.cookie` and `res.clearCookie` (Express 4.22 over cookie 0.7).

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use super::Response;
use crate::error::Error;
use crate::http::cookie::{self, Attributes, Priority, SameSite};

type EncodeFn = Arc<dyn Fn(&str) -> String + Send + Sync>;

/// The options of `res.cookie` (Express's §4.7 table). Unset options take
/// RFC 6265's defaults; `path` defaults to `/`.
///
/// ```
/// use std::time::Duration;
/// use webfw::CookieOptions;
/// use webfw::SameSite;
/// let opts = CookieOptions::new()
///     .max_age(Duration::from_secs(3600))
///     .http_only()
///     .same_site(SameSite::Lax)
///     .signed();
/// assert!(opts.signed && opts.http_only);
/// ```
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct CookieOptions {
    /// `Domain`; by default the cookie belongs to the host that set it.
    pub domain: Option<String>,
    /// How the value is encoded (`encodeURIComponent` by default).
    pub encode: Option<EncodeFn>,
    /// `Expires`; a session cookie when neither this nor `max_age` is set.
    pub expires: Option<SystemTime>,
    /// `HttpOnly`: hidden from the page's scripts.
    pub http_only: bool,
    /// Lifetime in milliseconds, as Express's `maxAge` (sets `Max-Age` in
    /// seconds and `Expires`); may be negative (already expired). NaN or
    /// infinity is an error when the cookie is set.
    pub max_age: Option<f64>,
    /// `Path` (`/` when unset; left out when empty).
    pub path: Option<String>,
    /// `Partitioned` (CHIPS).
    pub partitioned: bool,
    /// `Priority`.
    pub priority: Option<Priority>,
    /// `Secure`: HTTPS only.
    pub secure: bool,
    /// Sign the value with the secret given to [`crate::cookie_parser`].
    pub signed: bool,
    /// `SameSite` (Express's `sameSite: true` is [`SameSite::Strict`]).
    pub same_site: Option<SameSite>,
}

impl CookieOptions {
    /// No options: a session cookie for path `/`.
    ///
    /// ```
    /// assert!(!webfw::CookieOptions::new().signed);
    /// ```
    pub fn new() -> CookieOptions {
        CookieOptions::default()
    }

    /// Sets `domain`.
    ///
    /// ```
    /// let o = webfw::CookieOptions::new().domain("example.com");
    /// assert_eq!(o.domain.as_deref(), Some("example.com"));
    /// ```
    pub fn domain(mut self, domain: impl Into<String>) -> Self {
        self.domain = Some(domain.into());
        self
    }

    /// Sets `encode`, replacing `encodeURIComponent`.
    ///
    /// ```
    /// let o = webfw::CookieOptions::new().encode(|v| v.replace(' ', "_"));
    /// assert!(o.encode.is_some());
    /// ```
    pub fn encode(mut self, encode: impl Fn(&str) -> String + Send + Sync + 'static) -> Self {
        self.encode = Some(Arc::new(encode));
        self
    }

    /// Sets `expires`.
    ///
    /// ```
    /// let o = webfw::CookieOptions::new().expires(std::time::SystemTime::UNIX_EPOCH);
    /// assert!(o.expires.is_some());
    /// ```
    pub fn expires(mut self, at: SystemTime) -> Self {
        self.expires = Some(at);
        self
    }

    /// Sets `httpOnly`.
    ///
    /// ```
    /// assert!(webfw::CookieOptions::new().http_only().http_only);
    /// ```
    pub fn http_only(mut self) -> Self {
        self.http_only = true;
        self
    }

    /// Sets `maxAge` from a duration.
    ///
    /// ```
    /// let o = webfw::CookieOptions::new().max_age(std::time::Duration::from_secs(60));
    /// assert_eq!(o.max_age, Some(60_000.0));
    /// ```
    pub fn max_age(mut self, age: Duration) -> Self {
        self.max_age = Some(age.as_millis() as f64);
        self
    }

    /// Sets `path`.
    ///
    /// ```
    /// let o = webfw::CookieOptions::new().path("/admin");
    /// assert_eq!(o.path.as_deref(), Some("/admin"));
    /// ```
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Sets `partitioned`.
    ///
    /// ```
    /// assert!(webfw::CookieOptions::new().partitioned().partitioned);
    /// ```
    pub fn partitioned(mut self) -> Self {
        self.partitioned = true;
        self
    }

    /// Sets `priority`.
    ///
    /// ```
    /// use webfw::Priority;
    /// let o = webfw::CookieOptions::new().priority(Priority::High);
    /// assert_eq!(o.priority, Some(Priority::High));
    /// ```
    pub fn priority(mut self, priority: Priority) -> Self {
        self.priority = Some(priority);
        self
    }

    /// Sets `secure`.
    ///
    /// ```
    /// assert!(webfw::CookieOptions::new().secure().secure);
    /// ```
    pub fn secure(mut self) -> Self {
        self.secure = true;
        self
    }

    /// Sets `signed`.
    ///
    /// ```
    /// assert!(webfw::CookieOptions::new().signed().signed);
    /// ```
    pub fn signed(mut self) -> Self {
        self.signed = true;
        self
    }

    /// Sets `sameSite`.
    ///
    /// ```
    /// use webfw::SameSite;
    /// let o = webfw::CookieOptions::new().same_site(SameSite::Strict);
    /// assert_eq!(o.same_site, Some(SameSite::Strict));
    /// ```
    pub fn same_site(mut self, same_site: SameSite) -> Self {
        self.same_site = Some(same_site);
        self
    }
}

/// A cookie's value: text as given, or JSON (objects, arrays and `null`
/// are stored as `j:` + JSON, as Express does; JSON strings, numbers and
/// booleans as their text).
///
/// ```
/// use webfw::CookieValue;
/// assert_eq!(CookieValue::from(serde_json::json!({"a": 1})).to_cookie_text(), "j:{\"a\":1}");
/// assert_eq!(CookieValue::from("plain").to_cookie_text(), "plain");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum CookieValue {
    /// A string value.
    Text(String),
    /// A JSON value.
    Json(Value),
}

impl CookieValue {
    /// The text stored in the cookie before signing and encoding.
    ///
    /// ```
    /// assert_eq!(webfw::CookieValue::from(serde_json::json!(null)).to_cookie_text(), "j:null");
    /// ```
    pub fn to_cookie_text(&self) -> String {
        match self {
            CookieValue::Text(s) => s.clone(),
            CookieValue::Json(Value::String(s)) => s.clone(),
            CookieValue::Json(v @ (Value::Bool(_) | Value::Number(_))) => v.to_string(),
            CookieValue::Json(v) => format!("j:{v}"),
        }
    }
}

impl From<&str> for CookieValue {
    fn from(s: &str) -> CookieValue {
        CookieValue::Text(s.to_owned())
    }
}

impl From<String> for CookieValue {
    fn from(s: String) -> CookieValue {
        CookieValue::Text(s)
    }
}

impl From<&String> for CookieValue {
    fn from(s: &String) -> CookieValue {
        CookieValue::Text(s.clone())
    }
}

impl From<Value> for CookieValue {
    fn from(v: Value) -> CookieValue {
        CookieValue::Json(v)
    }
}

/// Milliseconds since the Unix epoch (negative before it).
fn epoch_ms(t: SystemTime) -> f64 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_secs_f64() * 1000.0,
        Err(e) => -(e.duration().as_secs_f64() * 1000.0),
    }
}

impl Response {
    /// `res.cookie(name, value)`: adds a `Set-Cookie` line for a session
    /// cookie on path `/`. See [`Response::cookie_with`].
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.cookie("name", "tobi").unwrap();
    /// assert_eq!(res.get("set-cookie"), Some("name=tobi; Path=/"));
    /// ```
    pub fn cookie(
        &mut self,
        name: &str,
        value: impl Into<CookieValue>,
    ) -> Result<&mut Self, Error> {
        self.cookie_with(name, value, &CookieOptions::default())
    }

    /// `res.cookie(name, value, options)`: adds a `Set-Cookie` line with the
    /// attributes in cookie 0.7's order. The value is `encodeURIComponent`-ed
    /// (or passed through `options.encode`); objects become `j:` + JSON;
    /// `signed` prefixes `s:` and appends the HMAC-SHA256 signature under the
    /// secret of [`crate::cookie_parser`]. An invalid name, value or option is
    /// an error (a `TypeError`: 500 unless handled), as in Express.
    ///
    /// ```
    /// use std::time::Duration;
    /// use webfw::CookieOptions;
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.cookie_with("sid", "a b", &CookieOptions::new().path("/admin").http_only()).unwrap();
    /// assert_eq!(res.get("set-cookie"), Some("sid=a%20b; Path=/admin; HttpOnly"));
    /// assert!(res.cookie("bad name", "v").is_err());
    /// assert!(res.cookie_with("s", "v", &CookieOptions::new().signed()).is_err()); // no secret
    /// ```
    pub fn cookie_with(
        &mut self,
        name: &str,
        value: impl Into<CookieValue>,
        options: &CookieOptions,
    ) -> Result<&mut Self, Error> {
        let line = self.serialize_cookie(name, &value.into(), options)?;
        Ok(self.append("Set-Cookie", line))
    }

    /// `s:` and the value signed with cookie-parser's first secret.
    #[cfg(feature = "cookie-parser")]
    fn signed(&self, text: &str) -> Result<String, Error> {
        let Some(secret) = self.cookie_secret.as_deref() else {
            return Err(no_secret());
        };
        Ok(format!(
            "s:{}",
            crate::http::cookie_signature::sign(text, secret)
        ))
    }

    /// Only cookie-parser gives the response a secret.
    #[cfg(not(feature = "cookie-parser"))]
    fn signed(&self, _text: &str) -> Result<String, Error> {
        Err(no_secret())
    }

    fn serialize_cookie(
        &self,
        name: &str,
        value: &CookieValue,
        options: &CookieOptions,
    ) -> Result<String, Error> {
        let mut text = value.to_cookie_text();
        if options.signed {
            text = self.signed(&text)?;
        }
        let mut expires = options.expires.map(epoch_ms);
        let mut max_age = None;
        if let Some(ms) = options.max_age {
            if ms.is_nan() {
                max_age = Some(ms);
            } else {
                expires = Some(epoch_ms(SystemTime::now()) + ms);
                max_age = Some((ms / 1000.0).floor());
            }
        }
        let encoded = match &options.encode {
            Some(f) => f(&text),
            None => cookie::encode_uri_component(&text),
        };
        let attrs = Attributes {
            max_age,
            domain: options.domain.as_deref(),
            path: Some(options.path.as_deref().unwrap_or("/")),
            expires,
            http_only: options.http_only,
            secure: options.secure,
            partitioned: options.partitioned,
            priority: options.priority,
            same_site: options.same_site,
        };
        cookie::serialize(name, &encoded, &attrs)
            .map_err(|e| Error::new(e.to_string()).with_name("TypeError"))
    }

    /// `res.clearCookie(name)`: expires the cookie on path `/`.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.clear_cookie("sid").unwrap();
    /// assert_eq!(res.get("set-cookie"), Some("sid=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT"));
    /// ```
    pub fn clear_cookie(&mut self, name: &str) -> Result<&mut Self, Error> {
        self.clear_cookie_with(name, &CookieOptions::default())
    }

    /// `res.clearCookie(name, options)` as Express 4.22: an empty value
    /// with the given options, `Expires` at the epoch unless `expires` is
    /// given (a browser clears the cookie only when domain and path equal
    /// those it was set with). A `max_age` still applies, as in 4.22
    /// (deprecated there). In an Express 5 app `max_age` and `expires`
    /// are ignored: the cookie always expires at the epoch.
    ///
    /// ```
    /// use webfw::CookieOptions;
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.clear_cookie_with("p", &CookieOptions::new().path("/admin")).unwrap();
    /// assert_eq!(res.get("set-cookie"), Some("p=; Path=/admin; Expires=Thu, 01 Jan 1970 00:00:00 GMT"));
    /// ```
    #[track_caller]
    pub fn clear_cookie_with(
        &mut self,
        name: &str,
        options: &CookieOptions,
    ) -> Result<&mut Self, Error> {
        if self.app.dialect().is_express5() {
            // Express 5 always expires the cookie and never sends Max-Age.
            let mut options = options.clone();
            options.max_age = None;
            options.expires = Some(UNIX_EPOCH + Duration::from_millis(1));
            return self.cookie_with(name, "", &options);
        }
        const V5: &str = "In v5.0.0 of Express, this option will be ignored, as res.clearCookie will automatically set cookies to expire immediately. Please update your code to omit this option.";
        // JavaScript's truthiness: 0 and NaN pass silently.
        if options.max_age.is_some_and(|ms| ms != 0.0 && !ms.is_nan()) {
            crate::deprecate::deprecate(|| {
                format!("res.clearCookie: Passing \"options.maxAge\" is deprecated. {V5}")
            });
        }
        if options.expires.is_some() {
            crate::deprecate::deprecate(|| {
                format!("res.clearCookie: Passing \"options.expires\" is deprecated. {V5}")
            });
        }
        let mut options = options.clone();
        if options.expires.is_none() {
            options.expires = Some(UNIX_EPOCH + Duration::from_millis(1));
        }
        self.cookie_with(name, "", &options)
    }
}

/// Express's error for a signed cookie without `cookieParser(secret)`.
fn no_secret() -> Error {
    Error::new("cookieParser(\"secret\") required for signed cookies")
}
