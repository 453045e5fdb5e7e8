//! `express.json(options)` (body-parser 1.20 `json`).

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::json_syntax::{parse_error_message, starts_like_object_or_array, strict_error_message};
use super::options::{Common, common_options};
use super::{Body, errors};
use crate::error::Error;
use crate::handler::{Flow, Handler, HandlerFuture, Result};
use crate::request::Request;
use crate::response::Response;

type ReviverFn = dyn Fn(&str, Value) -> Option<Value> + Send + Sync;

/// Options of [`json`]: `inflate`, `limit`, `type` (default
/// `application/json`), `verify`, `reviver` and `strict`.
///
/// ```
/// use webfw::body::JsonOptions;
/// let opts = JsonOptions::new().limit("1mb").strict(false).type_(["json", "+json"]);
/// ```
#[derive(Clone)]
pub struct JsonOptions {
    common: Common,
    strict: bool,
    reviver: Option<Arc<ReviverFn>>,
}

impl Default for JsonOptions {
    fn default() -> Self {
        JsonOptions {
            common: Common::new("application/json"),
            strict: true,
            reviver: None,
        }
    }
}

impl fmt::Debug for JsonOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsonOptions")
            .field("common", &self.common)
            .field("strict", &self.strict)
            .field("reviver", &self.reviver.is_some())
            .finish()
    }
}

impl JsonOptions {
    /// body-parser's defaults: 100kb, `application/json`, strict.
    ///
    /// ```
    /// let opts = webfw::body::JsonOptions::new();
    /// ```
    pub fn new() -> JsonOptions {
        JsonOptions::default()
    }

    /// `strict`: only objects and arrays at the top (default `true`); a body
    /// starting with anything else fails with 400 `entity.parse.failed`.
    /// `false` takes any JSON value.
    ///
    /// ```
    /// let opts = webfw::body::JsonOptions::new().strict(false);
    /// ```
    pub fn strict(mut self, strict: bool) -> JsonOptions {
        self.strict = strict;
        self
    }

    /// `reviver(key, value)`: `JSON.parse`'s second argument. Called for
    /// every value, innermost first, then for the whole body with key `""`;
    /// what it returns replaces the value, `None` removes it (`undefined`).
    ///
    /// ```
    /// use serde_json::Value;
    /// let opts = webfw::body::JsonOptions::new().reviver(|_key, v| match v {
    ///     Value::Number(n) => Some(Value::from(n.as_f64().unwrap_or(0.0) * 2.0)),
    ///     other => Some(other),
    /// });
    /// ```
    pub fn reviver(
        mut self,
        f: impl Fn(&str, Value) -> Option<Value> + Send + Sync + 'static,
    ) -> JsonOptions {
        self.reviver = Some(Arc::new(f));
        self
    }
}

common_options!(JsonOptions, "webfw::body::JsonOptions::new()");

/// `express.json(options)`: parses JSON bodies of the configured types into
/// `req.body` ([`Body::Value`]). A request without a body or of another
/// type passes through with `req.body` `{}`. Errors (to the error
/// handlers): 400 `entity.parse.failed` with `JSON.parse`'s message, 413
/// `entity.too.large`, 415 `charset.unsupported` for a charset not
/// starting with `utf-` (UTF-8, UTF-16, UTF-7) or unknown to iconv-lite
/// (`utf-32`), 415 `encoding.unsupported`, 403 `entity.verify.failed`, 400
/// `request.aborted`.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::body::JsonOptions;
/// fn create(req: &mut Request, res: &mut Response) -> Result {
///     let name = req.body().get("name").and_then(|v| v.as_str()).unwrap_or("anon").to_owned();
///     res.status(201).json(&serde_json::json!({ "created": name }))
/// }
/// let mut app = webfw::app();
/// app.post("/users", (webfw::json(JsonOptions::new()), create));
/// ```
pub fn json(options: JsonOptions) -> JsonParser {
    JsonParser {
        options: Arc::new(options),
    }
}

/// The middleware [`json`] returns.
///
/// ```
/// let parser: webfw::body::JsonParser = webfw::json(Default::default());
/// let mut app = webfw::app();
/// app.use_(parser);
/// ```
#[derive(Clone, Debug)]
pub struct JsonParser {
    options: Arc<JsonOptions>,
}

impl Handler for JsonParser {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        if !self.options.common.applies(req) {
            return HandlerFuture::ready(Ok(Flow::Next));
        }
        let charset =
            super::request_charset(req, &self.options.common).unwrap_or_else(|| "utf-8".to_owned());
        if !charset.starts_with("utf-") {
            let err = Err(errors::charset_unsupported(&charset));
            return HandlerFuture::ready(self.options.common.settle(req, err));
        }
        HandlerFuture::boxed(Box::pin(async move {
            let body = self.parse(req, res, charset).await;
            self.options.common.settle(req, body)
        }))
    }
}

impl JsonParser {
    async fn parse(
        &self,
        req: &mut Request,
        res: &mut Response,
        charset: String,
    ) -> std::result::Result<Body, Error> {
        let opts = &*self.options;
        let bytes = opts.common.read(req, res, Some(&charset)).await?;
        parse_json(&bytes, &charset, opts).map_err(errors::parse_failed)
    }
}

fn parse_json(bytes: &[u8], charset: &str, opts: &JsonOptions) -> std::result::Result<Body, Error> {
    // UTF-8 is checked in one pass over the whole body, far cheaper than
    // serde_json's check inside every string of `from_slice`. Other
    // charsets, and invalid UTF-8 (U+FFFD, as iconv-lite decodes it), are
    // decoded first.
    let decoded;
    let text = match std::str::from_utf8(bytes) {
        Ok(text) if matches!(charset, "utf-8" | "utf8") => {
            text.strip_prefix('\u{feff}').unwrap_or(text)
        }
        _ => {
            decoded = super::decode_unicode(bytes, charset)
                .ok_or_else(|| errors::charset_unsupported(charset))?;
            &decoded
        }
    };
    if text.is_empty() {
        return Ok(Body::empty_object());
    }
    if opts.strict && !starts_like_object_or_array(text) {
        return Err(syntax_error(strict_error_message(text)));
    }
    match super::json_value::from_str(text) {
        Ok(v) => Ok(finish(v, opts)),
        Err(e) => Err(syntax_error(
            parse_error_message(text).unwrap_or_else(|| e.to_string()),
        )),
    }
}

/// The parsed value through the reviver.
fn finish(value: Value, opts: &JsonOptions) -> Body {
    match &opts.reviver {
        None => Body::Value(value),
        Some(f) => revive("", value, &**f).map_or(Body::Undefined, Body::Value),
    }
}

fn syntax_error(message: String) -> Error {
    Error::status_message(400, message).with_name("SyntaxError")
}

/// `JSON.parse`'s internalize step: members first, then the holder.
fn revive(key: &str, value: Value, f: &ReviverFn) -> Option<Value> {
    let value = match value {
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, v)| revive(&i.to_string(), v, f).unwrap_or(Value::Null))
                .collect(),
        ),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter_map(|(k, v)| revive(&k, v, f).map(|v| (k, v)))
                .collect(),
        ),
        other => other,
    };
    f(key, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_strict() {
        let opts = JsonOptions::new();
        assert_eq!(
            parse_json(b"", "utf-8", &opts).unwrap(),
            Body::empty_object()
        );
        let err = parse_json(b"true", "utf-8", &opts).unwrap_err();
        assert_eq!(
            err.message(),
            "Unexpected token 't', \"true\" is not valid JSON"
        );
        let lax = JsonOptions::new().strict(false);
        assert_eq!(
            parse_json(b"true", "utf-8", &lax).unwrap(),
            Body::Value(Value::Bool(true))
        );
        let utf16 = parse_json(b"{\0}\0", "utf-16le", &opts).unwrap();
        assert_eq!(utf16, Body::empty_object());
    }
}
