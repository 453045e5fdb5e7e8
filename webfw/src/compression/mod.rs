//! `compression(options)`: the `compression` 1.8 middleware.
//!
//! Express: `app.use(compression({ threshold: '1kb', level: 6 }))`;
//! webfw: `app.use_(webfw::compression(CompressionOptions::new().threshold("1kb").level(6)))`.
//!
//! When a response's head is written, the middleware decides, in the
//! package's order: the [`filter`](CompressionOptions::filter) must accept
//! it (by default [`should_compress`]: a compressible `Content-Type`),
//! `Cache-Control` must not say `no-transform`; from there on the response
//! gets `Vary: Accept-Encoding`, compressed or not. It is then compressed
//! unless its length is known and under the
//! [`threshold`](CompressionOptions::threshold), it has a
//! `Content-Encoding` other than `identity`, the request is a HEAD, or the
//! client's `Accept-Encoding` picks none of br, gzip and deflate (br, then
//! gzip, win among equal q-values, as with negotiator 0.6.4;
//! [`enforce_encoding`](CompressionOptions::enforce_encoding) answers
//! requests without the header). A compressed response gets
//! `Content-Encoding` and loses `Content-Length`; its `ETag` is kept as it
//! is, as the package keeps it.
//!
//! Bodies sent whole (`res.send`, `res.json`, small files) are compressed
//! in one call and sent with their compressed length (Node sends the same
//! bytes chunked); streamed ones
//! (`res.write`, large files through `res.send_file` and
//! [`static_`](crate::static_), ranges included) are compressed chunk by
//! chunk under the response's usual backpressure, and
//! [`Response::flush`] pushes out what the compressor holds (an event
//! stream's events). An app that mounts no compression pays nothing for
//! it.
//!
//! ```
//! use webfw::prelude::*;
//! use webfw::compression::CompressionOptions;
//! let mut app = webfw::app();
//! app.use_(webfw::compression(()));
//! app.get("/report", (
//!     webfw::compression(CompressionOptions::new().threshold(0).level(9)),
//!     |_req: &mut Request, res: &mut Response| res.type_("text").send("a report"),
//! ));
//! ```

mod compressible;
mod compressible_table;
mod decide;
mod encoder;
mod options;
mod pool;

use std::sync::Arc;

pub use compressible::compressible;
pub use options::{BrotliMode, BrotliOptions, CompressionOptions, Strategy, Threshold};

use crate::handler::{Flow, Handler, HandlerFuture};
use crate::request::Request;
use crate::response::Response;
use decide::Pending;

/// The middleware [`compression`](crate::compression()) returns.
///
/// ```
/// let gzip: webfw::compression::Compression = webfw::compression(());
/// let mut app = webfw::app();
/// app.use_(gzip);
/// ```
#[derive(Clone, Debug)]
pub struct Compression(Arc<CompressionOptions>);

/// `compression(options)`: compresses responses the client accepts
/// compressed (see the [module](self)). `()` for compression's defaults.
///
/// ```
/// use webfw::compression::CompressionOptions;
/// let mut app = webfw::app();
/// app.use_(webfw::compression(CompressionOptions::new().threshold("2kb")));
/// ```
pub fn compression(options: impl Into<CompressionOptions>) -> Compression {
    Compression(Arc::new(options.into()))
}

/// `compression.filter`, the default filter: whether the response's
/// `Content-Type` is [`compressible`]. A custom
/// [`filter`](CompressionOptions::filter) calls it to keep the default
/// for the responses it does not decide itself.
///
/// ```
/// use webfw::compression::should_compress;
/// let req = webfw::testing::request(http::Method::GET, "/");
/// let mut res = webfw::testing::response(&req);
/// res.type_("json");
/// assert!(should_compress(&req, &res));
/// res.type_("png");
/// assert!(!should_compress(&req, &res));
/// ```
pub fn should_compress(_req: &Request, res: &Response) -> bool {
    decide::compressible_type(res)
}

impl Handler for Compression {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        let pending = Pending::of(&self.0, req);
        res.on_headers(move |res| decide::on_headers(pending, res));
        HandlerFuture::ready(Ok(Flow::Next))
    }
}
