//! `express.text(options)` (body-parser 1.20 `text`).

use std::sync::Arc;

use super::options::{Common, common_options};
use super::{Body, errors};
use crate::handler::{Flow, Handler, HandlerFuture, Result};
use crate::request::Request;
use crate::response::Response;

/// Options of [`text`]: `inflate`, `limit`, `type` (default `text/plain`),
/// `verify` and `defaultCharset`.
///
/// ```
/// let opts = webfw::body::TextOptions::new().type_("*/*").limit("1mb").default_charset("latin1");
/// ```
#[derive(Clone, Debug)]
pub struct TextOptions {
    common: Common,
    default_charset: String,
}

impl Default for TextOptions {
    fn default() -> Self {
        TextOptions {
            common: Common::new("text/plain"),
            default_charset: "utf-8".to_owned(),
        }
    }
}

impl TextOptions {
    /// body-parser's defaults: 100kb, `text/plain`, UTF-8.
    ///
    /// ```
    /// let opts = webfw::body::TextOptions::new();
    /// ```
    pub fn new() -> TextOptions {
        TextOptions::default()
    }

    /// `defaultCharset`: the charset of a body whose `Content-Type` names
    /// none (default `utf-8`); any charset iconv-lite knows.
    ///
    /// ```
    /// let opts = webfw::body::TextOptions::new().default_charset("iso-8859-1");
    /// ```
    pub fn default_charset(mut self, charset: &str) -> TextOptions {
        self.default_charset = charset.to_owned();
        self
    }

    /// `limit` in bytes.
    ///
    /// ```
    /// let opts = webfw::body::TextOptions::new().limit_bytes(1024);
    /// ```
    pub fn limit_bytes(self, limit: usize) -> TextOptions {
        self.limit(limit)
    }
}

common_options!(TextOptions, "webfw::body::TextOptions::new()");

/// `express.text(options)`: reads bodies of the configured types into
/// `req.body` as a string ([`Body::Text`]), decoded from the charset the
/// request names (else `defaultCharset`). Other requests pass through with
/// `req.body` `{}`. Errors: 413, 415 for an unknown charset or
/// `Content-Encoding`, 403 from `verify`, 400 `request.aborted`.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::body::{text, TextOptions};
/// fn echo(req: &mut Request, res: &mut Response) -> Result {
///     let s = req.body().as_str().unwrap_or_default().to_owned();
///     res.send(s)
/// }
/// let mut app = webfw::app();
/// app.post("/echo", (text(TextOptions::new()), echo));
/// ```
pub fn text(options: TextOptions) -> TextParser {
    TextParser {
        options: Arc::new(options),
    }
}

/// The middleware [`text`] returns.
///
/// ```
/// let parser: webfw::body::TextParser = webfw::text(webfw::TextOptions::new());
/// let mut app = webfw::app();
/// app.use_(parser);
/// ```
#[derive(Clone, Debug)]
pub struct TextParser {
    options: Arc<TextOptions>,
}

impl Handler for TextParser {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        if !self.options.common.applies(req) {
            return HandlerFuture::ready(Ok(Flow::Next));
        }
        let charset = super::request_charset(req, &self.options.common)
            .unwrap_or_else(|| self.options.default_charset.clone());
        HandlerFuture::boxed(Box::pin(async move {
            let body = match self.options.common.read(req, res, Some(&charset)).await {
                Ok(bytes) => super::decode_charset(&bytes, &charset)
                    .map(Body::Text)
                    .ok_or_else(|| errors::charset_unsupported(&charset)),
                Err(e) => Err(e),
            };
            self.options.common.settle(req, body)
        }))
    }
}
