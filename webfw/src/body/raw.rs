//! `express.raw(options)` (body-parser 1.20 `raw`).

use std::sync::Arc;

use super::Body;
use super::options::{Common, common_options};
use crate::handler::{Flow, Handler, HandlerFuture, Result};
use crate::request::Request;
use crate::response::Response;

/// Options of [`raw`]: `inflate`, `limit`, `type` (default
/// `application/octet-stream`) and `verify`.
///
/// ```
/// let opts = webfw::body::RawOptions::new().type_("*/*").limit("1kb");
/// ```
#[derive(Clone, Debug)]
pub struct RawOptions {
    common: Common,
}

impl Default for RawOptions {
    fn default() -> Self {
        RawOptions {
            common: Common::new("application/octet-stream"),
        }
    }
}

impl RawOptions {
    /// body-parser's defaults: 100kb, `application/octet-stream`.
    ///
    /// ```
    /// let opts = webfw::body::RawOptions::new();
    /// ```
    pub fn new() -> RawOptions {
        RawOptions::default()
    }
}

common_options!(RawOptions, "webfw::body::RawOptions::new()");

/// `express.raw(options)`: reads bodies of the configured types into
/// `req.body` as bytes ([`Body::Bytes`], inflated when compressed). Other
/// requests pass through with `req.body` `{}`. Errors: 413, 415 for an
/// unknown `Content-Encoding`, 403 from `verify`, 400 `request.aborted`.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::body::{Body, RawOptions};
/// fn size(req: &mut Request, res: &mut Response) -> Result {
///     let n = match req.body() { Body::Bytes(b) => b.len(), _ => 0 };
///     res.send(format!("{n} bytes"))
/// }
/// let mut app = webfw::app();
/// app.post("/upload", (webfw::raw(RawOptions::new().type_("*/*")), size));
/// ```
pub fn raw(options: RawOptions) -> RawParser {
    RawParser {
        options: Arc::new(options),
    }
}

/// The middleware [`raw`] returns.
///
/// ```
/// let parser: webfw::body::RawParser = webfw::raw(Default::default());
/// ```
#[derive(Clone, Debug)]
pub struct RawParser {
    options: Arc<RawOptions>,
}

impl Handler for RawParser {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        if !self.options.common.applies(req) {
            return HandlerFuture::ready(Ok(Flow::Next));
        }
        HandlerFuture::boxed(Box::pin(async move {
            let bytes = self.options.common.read(req, res, None).await;
            self.options.common.settle(req, bytes.map(Body::Bytes))
        }))
    }
}
