//! `req.cookies`, `req.signedCookies` and `req.secret`, as
//! [`crate::cookie_parser`] left them.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::Request;
use crate::cookie_parser::ParsedCookies;

/// The empty object `req.cookies` is without the parser.
fn empty() -> &'static Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    EMPTY.get_or_init(Map::new)
}

impl Request {
    fn parsed_cookies(&self) -> Option<&ParsedCookies> {
        self.extensions().get::<ParsedCookies>()
    }

    /// `req.cookies`: the unsigned cookies, `j:` ones parsed as JSON, others
    /// as strings (empty without [`crate::cookie_parser`]).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(req.cookies().is_empty());
    /// ```
    pub fn cookies(&self) -> &Map<String, Value> {
        match self.parsed_cookies() {
            Some(p) => &p.cookies,
            None => empty(),
        }
    }

    /// `req.signedCookies`: the signed cookies whose signature one of the
    /// secrets made, unsigned (JSON ones parsed); a cookie whose signature
    /// none made is `false`.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(req.signed_cookies().is_empty());
    /// ```
    pub fn signed_cookies(&self) -> &Map<String, Value> {
        match self.parsed_cookies() {
            Some(p) => &p.signed,
            None => empty(),
        }
    }

    /// `req.cookies[name]` when it is a string.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert_eq!(req.cookie("sid"), None);
    /// ```
    pub fn cookie(&self, name: &str) -> Option<&str> {
        self.cookies().get(name).and_then(Value::as_str)
    }

    /// `req.signedCookies[name]` when it is a string: the value, only if
    /// its signature is valid.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert_eq!(req.signed_cookie("user"), None);
    /// ```
    pub fn signed_cookie(&self, name: &str) -> Option<&str> {
        self.signed_cookies().get(name).and_then(Value::as_str)
    }

    /// An unsigned cookie decoded into `T` (a `j:` JSON cookie, or a string
    /// cookie for string-like `T`); `None` when absent or of another shape.
    ///
    /// ```
    /// #[derive(serde::Deserialize)]
    /// struct Cart { items: Vec<u32> }
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(req.cookie_as::<Cart>("cart").is_none());
    /// ```
    pub fn cookie_as<T: DeserializeOwned>(&self, name: &str) -> Option<T> {
        T::deserialize(self.cookies().get(name)?).ok()
    }

    /// A signed cookie with a valid signature decoded into `T`.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(req.signed_cookie_as::<u32>("visits").is_none());
    /// ```
    pub fn signed_cookie_as<T: DeserializeOwned>(&self, name: &str) -> Option<T> {
        match self.signed_cookies().get(name)? {
            // A tampered cookie is `false`, which a `bool` would accept.
            Value::Bool(false) => None,
            v => T::deserialize(v).ok(),
        }
    }

    /// `req.secret`: the first secret given to [`crate::cookie_parser`].
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert_eq!(req.secret(), None);
    /// ```
    pub fn secret(&self) -> Option<&str> {
        self.parsed_cookies()?.secret.as_deref()
    }
}
