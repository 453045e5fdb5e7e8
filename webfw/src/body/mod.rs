//! Body parsers (`express.json`, `express.raw`, `express.text`,
//! `express.urlencoded`) and what they share: the bounded reader and
//! `req.body`.
//!
//! Only [`text`] exists so far, on top of the shared pieces: [`read_limited`]
//! (reads the body, answering 413 past the limit) and [`Body`] /
//! [`Request::body`].
//!
//! ```
//! use webfw::prelude::*;
//! use webfw::body::{text, Body, TextOptions};
//!
//! fn echo(req: &mut Request, res: &mut Response) -> Result {
//!     let body = req.body().as_str().unwrap_or("").to_owned();
//!     res.type_("text/plain").send(body)
//! }
//! let mut app = webfw::app();
//! app.post("/echo", (text(TextOptions::new().type_("*/*")), echo));
//! ```

mod limit;
mod read;
mod text;

use bytes::Bytes;
use serde_json::Value;

pub use limit::parse_limit;
pub use read::read_limited;
pub use text::{TextOptions, TextParser, text};

use crate::request::Request;

/// `req.body`.
///
/// ```
/// use webfw::body::Body;
/// assert_eq!(Body::Text("hi".into()).as_str(), Some("hi"));
/// assert!(Body::Undefined.as_str().is_none());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub enum Body {
    /// No body parser ran (`req.body` is `undefined`).
    #[default]
    Undefined,
    /// A JSON-like value; `{}` when a parser ran but did not parse the
    /// request (wrong type, no body), as body-parser sets it.
    Value(Value),
    /// Text from [`text`].
    Text(String),
    /// Bytes from the raw parser.
    Bytes(Bytes),
}

impl Body {
    /// The text of a [`Body::Text`] (`typeof req.body === 'string'`).
    ///
    /// ```
    /// assert_eq!(webfw::body::Body::Text("a".into()).as_str(), Some("a"));
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Body::Text(s) => Some(s),
            _ => None,
        }
    }

    /// Whether no parser has set a body.
    ///
    /// ```
    /// assert!(webfw::body::Body::Undefined.is_undefined());
    /// ```
    pub fn is_undefined(&self) -> bool {
        matches!(self, Body::Undefined)
    }
}

/// `req.body`, stored with the request.
#[derive(Clone)]
struct ParsedBody(Body);

/// `req._body`: a parser has consumed the body.
#[derive(Clone, Copy)]
struct BodyConsumed;

static UNDEFINED: Body = Body::Undefined;

impl Request {
    /// `req.body`: what a body parser made of the request body
    /// ([`Body::Undefined`] when none ran).
    ///
    /// ```
    /// let mut req = webfw::Request::for_test(http::Method::POST, "/");
    /// assert!(req.body().is_undefined());
    /// req.set_body(webfw::body::Body::Text("x".into()));
    /// assert_eq!(req.body().as_str(), Some("x"));
    /// ```
    pub fn body(&self) -> &Body {
        self.extensions()
            .get::<ParsedBody>()
            .map_or(&UNDEFINED, |b| &b.0)
    }

    /// Sets `req.body`.
    ///
    /// ```
    /// let mut req = webfw::Request::for_test(http::Method::POST, "/");
    /// req.set_body(webfw::body::Body::Value(serde_json::json!({"a": 1})));
    /// ```
    pub fn set_body(&mut self, body: Body) {
        self.extensions_mut().insert(ParsedBody(body));
    }

    /// `req._body`: whether a body parser already read the body.
    pub(crate) fn body_consumed(&self) -> bool {
        self.extensions().get::<BodyConsumed>().is_some()
    }

    pub(crate) fn mark_body_consumed(&mut self) {
        self.extensions_mut().insert(BodyConsumed);
    }
}

/// type-is `hasBody`: a `Transfer-Encoding` header, or a numeric
/// `Content-Length` (even `0`).
pub(crate) fn has_body(req: &Request) -> bool {
    let h = req.headers();
    h.contains_key(http::header::TRANSFER_ENCODING)
        || h.get(http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| js_number_is_finite(v.trim()))
}

/// `!isNaN(value)` for a header string (`Number('')` is 0).
fn js_number_is_finite(v: &str) -> bool {
    v.is_empty() || v.parse::<f64>().is_ok_and(|n| !n.is_nan())
}

/// type-is `typeis(req, types)` for `type/subtype` patterns with `*`
/// wildcards and `+suffix` (`*/*`, `text/*`, `*/*+json`, `+json`).
pub(crate) fn type_matches(req: &Request, types: &[String]) -> bool {
    let Some(ct) = req.headers().get(http::header::CONTENT_TYPE) else {
        return false;
    };
    let Ok(ct) = ct.to_str() else { return false };
    let Ok(parsed) = crate::http::content_type::parse(ct) else {
        return false;
    };
    let actual = parsed.media_type;
    types.iter().any(|t| {
        let t = match t.as_str() {
            "urlencoded" => "application/x-www-form-urlencoded".to_owned(),
            "multipart" => "multipart/*".to_owned(),
            t if t.starts_with('+') => format!("*/*{t}"),
            t if !t.contains('/') => crate::http::mime::lookup(t).to_owned(),
            t => t.to_owned(),
        };
        mime_match(&t, &actual)
    })
}

fn mime_match(expected: &str, actual: &str) -> bool {
    let (Some((et, es)), Some((at, asub))) = (expected.split_once('/'), actual.split_once('/'))
    else {
        return false;
    };
    if es.contains('/') || asub.contains('/') {
        return false;
    }
    if et != "*" && et != at {
        return false;
    }
    if let Some(suffix) = es.strip_prefix('*')
        && suffix.starts_with('+')
    {
        return es.len() <= asub.len() + 1 && asub.ends_with(suffix);
    }
    es == "*" || es == asub
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mime_matching() {
        assert!(mime_match("*/*", "text/plain"));
        assert!(mime_match("text/*", "text/plain"));
        assert!(!mime_match("text/*", "application/json"));
        assert!(mime_match("*/*+json", "application/ld+json"));
        assert!(!mime_match("*/*+json", "application/json"));
        assert!(mime_match("text/plain", "text/plain"));
    }

    #[test]
    fn has_body_rules() {
        let mut req = Request::for_test(http::Method::POST, "/");
        assert!(!has_body(&req));
        req.headers_mut()
            .insert(http::header::CONTENT_LENGTH, "0".parse().unwrap());
        assert!(has_body(&req));
    }
}
