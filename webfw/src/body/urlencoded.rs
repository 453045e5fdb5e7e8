//! `express.urlencoded(options)` (body-parser 1.20 `urlencoded`).

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
/// `parameterLimit` and `depth`.
///
/// ```
/// let opts = webfw::body::UrlencodedOptions::new().extended(false).parameter_limit(50);
/// ```
#[derive(Clone, Debug)]
pub struct UrlencodedOptions {
    common: Common,
    extended: bool,
    parameter_limit: usize,
    depth: usize,
}

impl Default for UrlencodedOptions {
    fn default() -> Self {
        UrlencodedOptions {
            common: Common::new("application/x-www-form-urlencoded"),
            extended: true,
            parameter_limit: 1000,
            depth: 32,
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

    /// `extended`: `true` (default) parses with qs (`a[b]=1` nests,
    /// `a[]=1` makes arrays); `false` with Node's `querystring` (keys are
    /// literal, repeated keys make arrays of strings).
    ///
    /// ```
    /// let opts = webfw::body::UrlencodedOptions::new().extended(false);
    /// ```
    pub fn extended(mut self, extended: bool) -> UrlencodedOptions {
        self.extended = extended;
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
    UrlencodedParser {
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
}

impl Handler for UrlencodedParser {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        if !self.options.common.applies(req) {
            return HandlerFuture::ready(Ok(Flow::Next));
        }
        let charset = super::request_charset(req).unwrap_or_else(|| "utf-8".to_owned());
        if charset != "utf-8" {
            let err = Err(errors::charset_unsupported(&charset));
            return HandlerFuture::ready(Common::settle(req, err));
        }
        HandlerFuture::boxed(Box::pin(async move {
            let body = match self.options.common.read(req, res, Some("utf-8")).await {
                Ok(bytes) => {
                    let text = super::decode_utf8(&bytes);
                    parse_form(&text, &self.options).map_err(errors::parse_failed)
                }
                Err(e) => Err(e),
            };
            if body.is_ok() {
                req.extensions_mut().insert(super::FormBody);
            }
            Common::settle(req, body.map(Body::Value))
        }))
    }
}

fn parse_form(text: &str, opts: &UrlencodedOptions) -> std::result::Result<Value, Error> {
    if text.is_empty() {
        return Ok(Value::Object(Default::default()));
    }
    let count =
        parameter_count(text, opts.parameter_limit).ok_or_else(errors::too_many_parameters)?;
    if !opts.extended {
        return Ok(querystring::parse(text, opts.parameter_limit));
    }
    let qs_opts = QsOptions {
        depth: opts.depth,
        array_limit: count.max(100),
        parameter_limit: opts.parameter_limit,
        strict_depth: true,
        allow_prototypes: true,
    };
    qs::parse(text, &qs_opts).map_err(|e| {
        Error::status_message(400, e.to_string()).with_type("querystring.parse.rangeError")
    })
}

/// The number of `&`-separated parameters, or `None` past `limit`.
fn parameter_count(body: &str, limit: usize) -> Option<usize> {
    let count = memchr::memchr_iter(b'&', body.as_bytes()).count() + 1;
    (count <= limit).then_some(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extended_and_simple() {
        let ext = UrlencodedOptions::new();
        let v = parse_form("a[b]=1&a[c][]=2&name=t+j", &ext).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"a": {"b": "1", "c": ["2"]}, "name": "t j"})
        );
        let simple = UrlencodedOptions::new().extended(false);
        let v = parse_form("a[b]=1&a=2&a=3", &simple).unwrap();
        assert_eq!(v, serde_json::json!({"a[b]": "1", "a": ["2", "3"]}));
    }

    #[test]
    fn limits() {
        let three = UrlencodedOptions::new().parameter_limit(3);
        assert!(parse_form("a=1&b=2&c=3", &three).is_ok());
        let err = parse_form("a=1&b=2&c=3&d=4", &three).unwrap_err();
        assert_eq!(
            (err.status(), err.kind()),
            (413, Some("parameters.too.many"))
        );
        let shallow = UrlencodedOptions::new().depth(1);
        let err = parse_form("a[b][c]=1", &shallow).unwrap_err();
        assert_eq!(err.message(), "The input exceeded the depth");
        assert_eq!(err.kind(), Some("querystring.parse.rangeError"));
    }
}
