//! Body parsers (`express.json`, `express.raw`, `express.text`,
//! `express.urlencoded`: body-parser 1.20 for Express 4, and 2.4 through
//! [`crate::express5::json`] and its siblings) and what they share: the
//! bounded, streaming reader, charset decoding, and `req.body`.
//!
//! Each parser reads only requests whose `Content-Type` matches its `type`
//! option, at most `limit` bytes (after inflating gzip and deflate bodies),
//! and fails with body-parser's errors: the status, the `type` tag
//! ([`Error::kind`](crate::Error::kind)) and the message are the same, so
//! error handlers written for Express port as they are.
//!
//! ```
//! use webfw::prelude::*;
//! use webfw::body::{JsonOptions, TextOptions};
//!
//! fn echo(req: &mut Request, res: &mut Response) -> Result {
//!     let body = req.body().clone();
//!     res.json(&body)
//! }
//! let mut app = webfw::app();
//! app.use_(webfw::json(JsonOptions::new().limit("1mb")));
//! app.post("/echo", (webfw::text(TextOptions::new().type_("*/*")), echo));
//! ```

mod brotli;
mod charset;
mod charset_tables;
mod dbcs;
mod dbcs_tables;
mod errors;
#[cfg(test)]
mod iconv_oracle;
mod json;
mod json_syntax;
pub(crate) mod json_value;
mod lenient;
pub(crate) mod limit;
pub(crate) mod options;
mod raw;
mod read;
mod text;
mod urlencoded;
mod utf7;

use bytes::Bytes;
use serde::Serialize;
use serde_json::Value;

pub(crate) use charset::{charset_supported, decode_charset, decode_unicode, decode_utf8};
pub use json::{JsonOptions, JsonParser, json};
pub use limit::Limit;
pub use options::MediaTypes;
pub use raw::{RawOptions, RawParser, raw};
pub use text::{TextOptions, TextParser, text};
pub use urlencoded::{UrlencodedOptions, UrlencodedParser, urlencoded};

use crate::error::Error;
use crate::request::Request;

/// Reads the whole request body, at most `limit` bytes after inflating a
/// gzip or deflate body, as the parsers do: a `Content-Length` above the
/// limit is refused with 413 before anything is read, and so is a body that
/// grows past it while streaming; nothing beyond the limit is buffered. A
/// body that ends early (client gone) is a 400 `request aborted`; an
/// unknown `Content-Encoding` is a 415.
///
/// ```no_run
/// # async fn demo(req: &mut webfw::Request) -> webfw::Result<()> {
/// let bytes = webfw::body::read_limited(req, 100 * 1024).await?;
/// # Ok(()) }
/// ```
pub async fn read_limited(req: &mut Request, limit: usize) -> Result<Bytes, Error> {
    let spec = read::ReadSpec {
        limit,
        inflate: true,
        brotli: false,
        charset: None,
    };
    read::read_body(req, spec).await
}

/// body-parser's `getCharset`: the `charset` parameter of the
/// `Content-Type`, lower-cased (`None` when absent or empty, or for
/// body-parser 1 when the header does not parse).
fn request_charset(req: &Request, common: &options::Common) -> Option<String> {
    let ct = req.headers().get(http::header::CONTENT_TYPE)?;
    // Parameters follow a `;`: most requests have none.
    if !ct.as_bytes().contains(&b';') {
        return None;
    }
    if common.express5() {
        return lenient::charset(ct);
    }
    let parsed = crate::http::content_type::parse(ct.to_str().ok()?).ok()?;
    parsed
        .parameters
        .get("charset")
        .filter(|c| !c.is_empty())
        .map(|c| c.to_lowercase())
}

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
    /// No body parser ran, or only Express 5 parsers that did not parse
    /// the request (`req.body` is `undefined`).
    #[default]
    Undefined,
    /// A JSON-like value; `{}` when an Express 4 parser ran but did not
    /// parse the request (wrong type, no body), as body-parser 1 sets it.
    /// (The Express 5 parsers of [`crate::express5`] leave
    /// [`Body::Undefined`] then.)
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

    /// `{}`: what a parser leaves in `req.body` when it does not read the
    /// request.
    ///
    /// ```
    /// use webfw::body::Body;
    /// assert_eq!(Body::empty_object(), Body::Value(serde_json::json!({})));
    /// ```
    pub fn empty_object() -> Body {
        Body::Value(Value::Object(serde_json::Map::new()))
    }

    /// The JSON value of a [`Body::Value`] (json, urlencoded).
    ///
    /// ```
    /// let b = webfw::body::Body::Value(serde_json::json!([1]));
    /// assert_eq!(b.as_value().unwrap()[0], 1);
    /// ```
    pub fn as_value(&self) -> Option<&Value> {
        match self {
            Body::Value(v) => Some(v),
            _ => None,
        }
    }

    /// The bytes of a [`Body::Bytes`] (raw).
    ///
    /// ```
    /// let b = webfw::body::Body::Bytes(bytes::Bytes::from_static(b"\x01"));
    /// assert_eq!(b.as_bytes(), Some(&b"\x01"[..]));
    /// ```
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Body::Bytes(b) => Some(b),
            _ => None,
        }
    }

    /// `req.body[key]` of an object body (`None` otherwise).
    ///
    /// ```
    /// let b = webfw::body::Body::Value(serde_json::json!({"name": "ada"}));
    /// assert_eq!(b.get("name").and_then(|v| v.as_str()), Some("ada"));
    /// ```
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_value()?.as_object()?.get(key)
    }

    /// JavaScript's `typeof req.body`: `"object"` (objects, arrays, null,
    /// bytes), `"string"`, `"number"`, `"boolean"` or `"undefined"`.
    ///
    /// ```
    /// assert_eq!(webfw::body::Body::Text("x".into()).type_of(), "string");
    /// assert_eq!(webfw::body::Body::Undefined.type_of(), "undefined");
    /// ```
    pub fn type_of(&self) -> &'static str {
        match self {
            Body::Undefined => "undefined",
            Body::Text(_) | Body::Value(Value::String(_)) => "string",
            Body::Value(Value::Number(_)) => "number",
            Body::Value(Value::Bool(_)) => "boolean",
            Body::Value(_) | Body::Bytes(_) => "object",
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

/// `res.json(req.body)`: values as they are, text as a string, bytes as
/// Node serialises a Buffer (`{"type":"Buffer","data":[…]}`), undefined as
/// `null`.
impl Serialize for Body {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Body::Undefined => s.serialize_unit(),
            Body::Value(v) => v.serialize(s),
            Body::Text(t) => s.serialize_str(t),
            Body::Bytes(b) => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("type", "Buffer")?;
                m.serialize_entry("data", &b[..])?;
                m.end()
            }
        }
    }
}

/// Marks a `req.body` made by [`urlencoded`]: its leaves are strings.
#[derive(Clone, Copy)]
pub(crate) struct FormBody;

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
    /// let mut req = webfw::testing::request(http::Method::POST, "/");
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
    /// let mut req = webfw::testing::request(http::Method::POST, "/");
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
