//! `express.urlencoded(options)`: body-parser 1.20's `urlencoded` for
//! Express 4 and 2.4's for Express 5 ([`crate::express5::urlencoded`]), which
//! differ in the `extended` default, the simple parser and the charsets.

use std::sync::Arc;

use serde_json::Value;

use super::options::{Common, common_options};
use super::{Body, errors};
use crate::error::Error;
use crate::handler::{Flow, Handler, HandlerFuture, Result};
use crate::http::qs::{self, QsOptions};
use crate::http::querystring;
use crate::request::Request;
use crate::response::Response;

/// Options of [`urlencoded`]: `inflate`, `limit`, `type` (default
/// `application/x-www-form-urlencoded`), `verify`, `extended`,
/// `parameterLimit` and `depth`; the Express 5 parser
/// ([`crate::express5::urlencoded_with`]) also reads `defaultCharset`,
/// `charsetSentinel` and `interpretNumericEntities`.
///
/// ```
/// let opts = webfw::body::UrlencodedOptions::new().extended(false).parameter_limit(50);
/// ```
#[derive(Clone, Debug)]
pub struct UrlencodedOptions {
    common: Common,
    /// `None` until set: its default is the parser's (true for body-parser 1,
    /// false for 2).
    extended: Option<bool>,
    parameter_limit: usize,
    depth: usize,
    latin1_default: bool,
    charset_sentinel: bool,
    interpret_numeric_entities: bool,
}

impl Default for UrlencodedOptions {
    fn default() -> Self {
        UrlencodedOptions {
            common: Common::new("application/x-www-form-urlencoded"),
            extended: None,
            parameter_limit: 1000,
            depth: 32,
            latin1_default: false,
            charset_sentinel: false,
            interpret_numeric_entities: false,
        }
    }
}

impl UrlencodedOptions {
    /// body-parser's defaults: 100kb, extended, 1000 parameters, depth 32.
    ///
    /// ```
    /// let opts = webfw::body::UrlencodedOptions::new();
    /// ```
    pub fn new() -> UrlencodedOptions {
        UrlencodedOptions::default()
    }

    /// `extended`: `true` parses with qs (`a[b]=1` nests, `a[]=1` makes
    /// arrays); `false` keeps keys literal, repeated keys making arrays of
    /// strings (Node's `querystring` in Express 4; qs with depth 0 in
    /// Express 5, which also drops a `__proto__` key). The default is `true`
    /// in Express 4 and `false` in Express 5.
    ///
    /// ```
    /// let opts = webfw::body::UrlencodedOptions::new().extended(false);
    /// let nested = webfw::express5::urlencoded_with(
    ///     webfw::body::UrlencodedOptions::new().extended(true),
    /// );
    /// ```
    pub fn extended(mut self, extended: bool) -> UrlencodedOptions {
        self.extended = Some(extended);
        self
    }

    /// `defaultCharset` (Express 5 only): the charset of a body whose
    /// `Content-Type` names none, `"utf-8"` (default) or `"iso-8859-1"`.
    ///
    /// # Panics
    ///
    /// For any other charset (`option defaultCharset must be either utf-8
    /// or iso-8859-1`).
    ///
    /// ```
    /// use webfw::body::UrlencodedOptions;
    /// let form = webfw::express5::urlencoded_with(UrlencodedOptions::new().default_charset("iso-8859-1"));
    /// ```
    pub fn default_charset(mut self, charset: &str) -> UrlencodedOptions {
        self.latin1_default = match charset {
            "utf-8" => false,
            "iso-8859-1" => true,
            _ => panic!("option defaultCharset must be either utf-8 or iso-8859-1"),
        };
        self
    }

    /// `charsetSentinel` (Express 5 only): a `utf8=` field (the `✓` a form
    /// adds, `utf8=%E2%9C%93` or `utf8=%26%2310003%3B`) says which charset
    /// the body is in, and is left out of `req.body`.
    ///
    /// ```
    /// use webfw::body::UrlencodedOptions;
    /// let form = webfw::express5::urlencoded_with(UrlencodedOptions::new().charset_sentinel(true));
    /// ```
    pub fn charset_sentinel(mut self, on: bool) -> UrlencodedOptions {
        self.charset_sentinel = on;
        self
    }

    /// `interpretNumericEntities` (Express 5 only): in an ISO-8859-1 body,
    /// `&#NNNN;` in a value (what a browser sends for a character the
    /// charset lacks) becomes that character.
    ///
    /// ```
    /// use webfw::body::UrlencodedOptions;
    /// let opts = UrlencodedOptions::new().default_charset("iso-8859-1").interpret_numeric_entities(true);
    /// let form = webfw::express5::urlencoded_with(opts);
    /// ```
    pub fn interpret_numeric_entities(mut self, on: bool) -> UrlencodedOptions {
        self.interpret_numeric_entities = on;
        self
    }

    /// `parameterLimit`: more `&`-separated parameters than this fail with
    /// 413 `parameters.too.many` (default 1000).
    ///
    /// # Panics
    ///
    /// For 0 (`option parameterLimit must be a positive number`).
    ///
    /// ```
    /// let opts = webfw::body::UrlencodedOptions::new().parameter_limit(10);
    /// ```
    pub fn parameter_limit(mut self, limit: usize) -> UrlencodedOptions {
        assert!(
            limit >= 1,
            "option parameterLimit must be a positive number"
        );
        self.parameter_limit = limit;
        self
    }

    /// `depth` (extended only): how many levels of `[key]` nest (default
    /// 32); a deeper key fails with 400 `querystring.parse.rangeError`.
    ///
    /// ```
    /// let opts = webfw::body::UrlencodedOptions::new().depth(5);
    /// ```
    pub fn depth(mut self, depth: usize) -> UrlencodedOptions {
        self.depth = depth;
        self
    }
}

common_options!(UrlencodedOptions, "webfw::body::UrlencodedOptions::new()");

/// `express.urlencoded(options)`: parses HTML form bodies into `req.body`
/// ([`Body::Value`], an object). Only UTF-8 is accepted. Other requests pass
/// through with `req.body` `{}`. Errors: 413 `entity.too.large` and
/// `parameters.too.many`, 400 `querystring.parse.rangeError`, 415
/// `charset.unsupported` and `encoding.unsupported`, 403 from `verify`.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::body::UrlencodedOptions;
/// fn login(req: &mut Request, res: &mut Response) -> Result {
///     let user = req.body().get("user").and_then(|v| v.as_str()).unwrap_or("").to_owned();
///     res.send(format!("hello {user}"))
/// }
/// let mut app = webfw::app();
/// app.post("/login", (webfw::urlencoded(UrlencodedOptions::new()), login));
/// ```
pub fn urlencoded(options: UrlencodedOptions) -> UrlencodedParser {
    let default_extended = !options.common.express5();
    UrlencodedParser {
        extended: options.extended.unwrap_or(default_extended),
        options: Arc::new(options),
    }
}

/// The middleware [`urlencoded`] returns.
///
/// ```
/// let parser: webfw::body::UrlencodedParser = webfw::urlencoded(Default::default());
/// ```
#[derive(Clone, Debug)]
pub struct UrlencodedParser {
    options: Arc<UrlencodedOptions>,
    /// `extended` with the parser's default applied.
    extended: bool,
}

impl Handler for UrlencodedParser {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        if self.options.common.express5() {
            return self.call5(req, res);
        }
        if !self.options.common.applies(req) {
            return HandlerFuture::ready(Ok(Flow::Next));
        }
        let charset =
            super::request_charset(req, &self.options.common).unwrap_or_else(|| "utf-8".to_owned());
        if charset != "utf-8" {
            let err = Err(errors::charset_unsupported(&charset));
            return HandlerFuture::ready(self.options.common.settle(req, err));
        }
        HandlerFuture::boxed(Box::pin(async move {
            let body = match self.options.common.read(req, res, Some("utf-8")).await {
                Ok(bytes) => {
                    let text = super::decode_utf8(&bytes);
                    parse_form(&text, &self.options, self.extended).map_err(errors::parse_failed)
                }
                Err(e) => Err(e),
            };
            if body.is_ok() {
                req.extensions_mut().insert(super::FormBody);
            }
            self.options.common.settle(req, body.map(Body::Value))
        }))
    }
}

fn parse_form(
    text: &str,
    opts: &UrlencodedOptions,
    extended: bool,
) -> std::result::Result<Value, Error> {
    if text.is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    let count =
        parameter_count(text, opts.parameter_limit).ok_or_else(errors::too_many_parameters)?;
    if !extended {
        return Ok(querystring::parse(text, opts.parameter_limit));
    }
    let qs_opts = QsOptions {
        depth: opts.depth,
        array_limit: count.max(100),
        parameter_limit: opts.parameter_limit,
        strict_depth: true,
        allow_prototypes: true,
        ..QsOptions::default()
    };
    qs::parse(text, &qs_opts).map_err(depth_error)
}

/// qs's `RangeError` as body-parser reports it.
fn depth_error(e: qs::QsError) -> Error {
    Error::status_message(400, e.to_string()).with_type("querystring.parse.rangeError")
}

/// The number of `&`-separated parameters, or `None` past `limit`.
fn parameter_count(body: &str, limit: usize) -> Option<usize> {
    let count = memchr::memchr_iter(b'&', body.as_bytes()).count() + 1;
    (count <= limit).then_some(count)
}

mod express5;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extended_and_simple() {
        let ext = UrlencodedOptions::new();
        let v = parse_form("a[b]=1&a[c][]=2&name=t+j", &ext, true).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"a": {"b": "1", "c": ["2"]}, "name": "t j"})
        );
        let simple = UrlencodedOptions::new();
        let v = parse_form("a[b]=1&a=2&a=3", &simple, false).unwrap();
        assert_eq!(v, serde_json::json!({"a[b]": "1", "a": ["2", "3"]}));
    }

    #[test]
    fn limits() {
        let three = UrlencodedOptions::new().parameter_limit(3);
        assert!(parse_form("a=1&b=2&c=3", &three, true).is_ok());
        let err = parse_form("a=1&b=2&c=3&d=4", &three, true).unwrap_err();
        assert_eq!(
            (err.status(), err.kind()),
            (413, Some("parameters.too.many"))
        );
        let shallow = UrlencodedOptions::new().depth(1);
        let err = parse_form("a[b][c]=1", &shallow, true).unwrap_err();
        assert_eq!(err.message(), "The input exceeded the depth");
        assert_eq!(err.kind(), Some("querystring.parse.rangeError"));
    }
}
