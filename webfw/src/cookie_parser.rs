//! `cookie_parser(secrets)`: the `cookie-parser` 1.4 middleware. It parses
//! the `Cookie` header once per request into `req.cookies()` and, with
//! secrets, moves `s:` cookies into `req.signed_cookies()` after checking
//! their signature against every secret in turn (so secrets can be rotated:
//! sign with the first, still accept the older ones). A signature that no
//! secret made gives `false`. `j:` cookies are parsed as JSON.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::handler::{Flow, Handler, HandlerFuture};
use crate::http::{cookie, cookie_signature};
use crate::request::Request;
use crate::response::Response;

/// The secrets `cookie_parser` signs and verifies with: one (`&str`,
/// `String`) or several, the first signing (`Vec`, arrays, slices); none
/// with [`CookieSecrets::none`].
///
/// ```
/// use webfw::CookieSecrets;
/// let rotated = CookieSecrets::from(["new secret", "old secret"]);
/// let unsigned = CookieSecrets::none();
/// ```
#[derive(Clone, Debug, Default)]
pub struct CookieSecrets(Vec<Arc<str>>);

impl CookieSecrets {
    /// No secret: signed cookies stay in `req.cookies()` as sent, and
    /// `res.cookie` refuses `signed`.
    ///
    /// ```
    /// let parser = webfw::cookie_parser(webfw::CookieSecrets::none());
    /// ```
    pub fn none() -> CookieSecrets {
        CookieSecrets(Vec::new())
    }
}

impl From<&str> for CookieSecrets {
    fn from(s: &str) -> CookieSecrets {
        CookieSecrets(vec![s.into()])
    }
}

impl From<String> for CookieSecrets {
    fn from(s: String) -> CookieSecrets {
        CookieSecrets(vec![s.into()])
    }
}

impl<S: AsRef<str>> From<Vec<S>> for CookieSecrets {
    fn from(v: Vec<S>) -> CookieSecrets {
        CookieSecrets(v.iter().map(|s| s.as_ref().into()).collect())
    }
}

impl<S: AsRef<str>> From<&[S]> for CookieSecrets {
    fn from(v: &[S]) -> CookieSecrets {
        CookieSecrets(v.iter().map(|s| s.as_ref().into()).collect())
    }
}

impl<S: AsRef<str>, const N: usize> From<[S; N]> for CookieSecrets {
    fn from(v: [S; N]) -> CookieSecrets {
        CookieSecrets(v.iter().map(|s| s.as_ref().into()).collect())
    }
}

/// The middleware [`cookie_parser`] returns.
///
/// ```
/// let parser: webfw::CookieParser = webfw::cookie_parser(["new secret", "old secret"]);
/// let mut app = webfw::app();
/// app.use_(parser);
/// ```
#[derive(Clone, Debug)]
pub struct CookieParser {
    secrets: CookieSecrets,
}

/// What `cookie_parser` found, kept in the request's extensions.
#[derive(Clone)]
pub(crate) struct ParsedCookies {
    pub(crate) cookies: Map<String, Value>,
    pub(crate) signed: Map<String, Value>,
    pub(crate) secret: Option<Arc<str>>,
}

/// `cookieParser(secret)`: parses cookies into [`Request::cookies`] and
/// [`Request::signed_cookies`], and gives [`Response::cookie_with`] the
/// first secret for `signed` cookies.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::CookieOptions;
///
/// let mut app = webfw::app();
/// app.use_(webfw::cookie_parser("keyboard cat"));
/// app.get("/login", |_req: &mut Request, res: &mut Response| {
///     res.cookie_with("user", "tobi", &CookieOptions::new().signed().http_only())?;
///     res.redirect("/")
/// });
/// app.get("/", |req: &mut Request, res: &mut Response| {
///     let user = req.signed_cookie("user").unwrap_or("stranger").to_owned();
///     res.send(format!("hello {user}"))
/// });
/// ```
pub fn cookie_parser(secrets: impl Into<CookieSecrets>) -> CookieParser {
    CookieParser {
        secrets: secrets.into(),
    }
}

/// JavaScript truthiness of a parsed JSON value.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// `JSONCookie`: a `j:` value parsed as JSON, when that gives a truthy value.
fn json_cookie(v: &str) -> Option<Value> {
    let json = v.strip_prefix("j:")?;
    serde_json::from_str::<Value>(json).ok().filter(truthy)
}

/// Whether `key` is an array index, which JavaScript objects list first,
/// in numeric order.
fn array_index(key: &str) -> Option<u32> {
    let canonical = key == "0" || (!key.starts_with('0') && !key.is_empty());
    if !canonical || !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse::<u32>().ok().filter(|n| *n != u32::MAX)
}

/// An object with JavaScript's key order: array indexes first, ascending,
/// then the other keys in insertion order.
fn js_object(pairs: Vec<(String, Value)>) -> Map<String, Value> {
    let (mut indexes, others): (Vec<_>, Vec<_>) = pairs
        .into_iter()
        .partition(|(k, _)| array_index(k).is_some());
    crate::http::sort::sort_by_key(&mut indexes, |(k, _)| array_index(k));
    indexes.into_iter().chain(others).collect()
}

impl CookieParser {
    fn parse(&self, header: Option<&[u8]>) -> ParsedCookies {
        let secret = self.secrets.0.first().cloned();
        let Some(header) = header.filter(|h| !h.is_empty()) else {
            return ParsedCookies {
                cookies: Map::new(),
                signed: Map::new(),
                secret,
            };
        };
        let mut plain = Vec::new();
        let mut signed = Vec::new();
        for (name, value) in cookie::parse(&cookie::latin1(header)) {
            let signed_value = (!self.secrets.0.is_empty())
                .then(|| value.strip_prefix("s:"))
                .flatten();
            match signed_value {
                Some(rest) => {
                    let verified = self
                        .secrets
                        .0
                        .iter()
                        .find_map(|s| cookie_signature::unsign(rest, s));
                    let v = match verified {
                        Some(v) => json_cookie(v).unwrap_or_else(|| Value::String(v.to_owned())),
                        None => Value::Bool(false),
                    };
                    signed.push((name, v));
                }
                None => {
                    let v = json_cookie(&value).unwrap_or(Value::String(value));
                    plain.push((name, v));
                }
            }
        }
        ParsedCookies {
            cookies: js_object(plain),
            signed: js_object(signed),
            secret,
        }
    }
}

impl Handler for CookieParser {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        // A second parser on the same request leaves the first one's result.
        if req.extensions().get::<ParsedCookies>().is_none() {
            let header = req
                .headers()
                .get(http::header::COOKIE)
                .map(|v| v.as_bytes());
            let parsed = self.parse(header);
            res.cookie_secret = parsed.secret.clone();
            req.extensions_mut().insert(parsed);
        }
        HandlerFuture::ready(Ok(Flow::Next))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(secrets: impl Into<CookieSecrets>, header: &str) -> (Value, Value) {
        let p = cookie_parser(secrets).parse(Some(header.as_bytes()));
        (Value::Object(p.cookies), Value::Object(p.signed))
    }

    #[test]
    fn signed_json_and_plain_cookies_are_sorted_out() {
        let signed = format!(
            "s:{}",
            cookie_signature::sign("j:{\"a\":1}", "old").replace('+', "%2B")
        );
        let header = format!("b=2; sig={signed}; 10=x; 2=y; j=j:[1]; f=j:0; bad=s:v.x");
        let (cookies, signed) = parsed(vec!["new", "old"], &header);
        assert_eq!(
            cookies.to_string(),
            r#"{"2":"y","10":"x","b":"2","j":[1],"f":"j:0"}"#
        );
        assert_eq!(signed.to_string(), r#"{"sig":{"a":1},"bad":false}"#);
    }

    #[test]
    fn without_secrets_signed_cookies_stay_plain() {
        let (cookies, signed) = parsed(CookieSecrets::none(), "s=s:v.sig");
        assert_eq!(cookies.to_string(), r#"{"s":"s:v.sig"}"#);
        assert_eq!(signed.to_string(), "{}");
    }
}
