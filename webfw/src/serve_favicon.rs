//! `favicon(path, options)`: the `serve-favicon` 2.5 middleware.
//!
//! Express: `app.use(favicon(path.join(__dirname, 'public', 'favicon.ico'), { maxAge: '2d' }))`;
//! webfw: `app.use_(webfw::favicon("public/favicon.ico", FaviconOptions::new().max_age("2d")))`.
//!
//! The icon is read once, when the middleware is made, and served from
//! memory for `GET /favicon.ico` (and `HEAD`) with a strong `ETag`,
//! `Cache-Control: public, max-age=…` (one year unless told) and
//! `304 Not Modified` for a matching conditional request. `OPTIONS` gets
//! 200 and any other method 405, both with `Allow: GET, HEAD, OPTIONS`.
//! Every other path passes on.
//!
//! ```
//! use webfw::serve_favicon::{Favicon, FaviconOptions};
//! let icon = Favicon::from_bytes(vec![0u8; 4], FaviconOptions::new().max_age("2d"));
//! let mut app = webfw::app();
//! app.use_(icon);
//! ```

use std::path::Path;

use bytes::Bytes;
use http::Method;

use crate::files::MaxAge;
use crate::handler::{Flow, Handler, HandlerFuture, Result};
use crate::request::Request;
use crate::response::Response;

/// One year, serve-favicon's default and largest max-age.
const ONE_YEAR_MS: u64 = 365 * 24 * 3600 * 1000;

/// The options of [`favicon`](crate::favicon()): `maxAge`, in milliseconds
/// or as a time string (`"2d"`), clamped to one year (the default).
///
/// ```
/// use webfw::serve_favicon::FaviconOptions;
/// let opts = FaviconOptions::new().max_age("2d");
/// let also = FaviconOptions::new().max_age(172_800_000u64);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct FaviconOptions {
    max_age: MaxAge,
}

impl Default for FaviconOptions {
    fn default() -> FaviconOptions {
        FaviconOptions {
            max_age: MaxAge::from(ONE_YEAR_MS),
        }
    }
}

impl From<()> for FaviconOptions {
    fn from((): ()) -> FaviconOptions {
        FaviconOptions::default()
    }
}

impl FaviconOptions {
    /// serve-favicon's defaults.
    ///
    /// ```
    /// let opts = webfw::serve_favicon::FaviconOptions::new();
    /// ```
    pub fn new() -> FaviconOptions {
        FaviconOptions::default()
    }

    /// `maxAge`: how long browsers may keep the icon.
    ///
    /// ```
    /// let opts = webfw::serve_favicon::FaviconOptions::new().max_age("1h");
    /// ```
    pub fn max_age(mut self, max_age: impl Into<MaxAge>) -> Self {
        self.max_age = max_age.into();
        self
    }
}

/// The middleware [`favicon`](crate::favicon()) returns: the icon in
/// memory with its headers.
///
/// ```
/// use webfw::serve_favicon::Favicon;
/// let icon = Favicon::from_bytes(&b"\0\0\x01\0"[..], ());
/// ```
#[derive(Clone, Debug)]
pub struct Favicon {
    body: Bytes,
    etag: String,
    cache_control: String,
}

impl Favicon {
    /// Reads the icon at `path`; the error says why it cannot be read.
    ///
    /// ```
    /// use webfw::serve_favicon::Favicon;
    /// assert!(Favicon::open("no/such/favicon.ico", ()).is_err());
    /// ```
    pub fn open(
        path: impl AsRef<Path>,
        options: impl Into<FaviconOptions>,
    ) -> std::io::Result<Favicon> {
        let body = std::fs::read(path.as_ref())?;
        Ok(Favicon::from_bytes(body, options))
    }

    /// An icon already in memory (serve-favicon given a `Buffer`).
    ///
    /// ```
    /// use webfw::serve_favicon::Favicon;
    /// let icon = Favicon::from_bytes(vec![1, 2, 3], ());
    /// ```
    pub fn from_bytes(body: impl Into<Bytes>, options: impl Into<FaviconOptions>) -> Favicon {
        let body = body.into();
        let max_age = options.into().max_age;
        Favicon {
            etag: crate::http::etag::entity_tag(&body, false),
            cache_control: format!("public, max-age={}", max_age.seconds()),
            body,
        }
    }
}

/// `favicon(path, options)`: serves the icon at `path` (see the
/// [module](self)). Like serve-favicon, which throws when the path does
/// not exist, it panics when the icon cannot be read; [`Favicon::open`]
/// returns the error instead.
///
/// ```no_run
/// use webfw::serve_favicon::FaviconOptions;
/// let mut app = webfw::app();
/// app.use_(webfw::favicon("public/favicon.ico", FaviconOptions::new().max_age("2d")));
/// ```
pub fn favicon(path: impl AsRef<Path>, options: impl Into<FaviconOptions>) -> Favicon {
    let path = path.as_ref();
    Favicon::open(path, options).unwrap_or_else(|e| {
        panic!(
            "serve-favicon: cannot read the icon {}: {e}; give the path of a readable file",
            path.display()
        )
    })
}

impl Handler for Favicon {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        HandlerFuture::ready(self.serve(req, res))
    }
}

impl Favicon {
    fn serve(&self, req: &Request, res: &mut Response) -> Result {
        if req.path() != "/favicon.ico" {
            return Ok(Flow::Next);
        }
        let method = req.method();
        if method != Method::GET && method != Method::HEAD {
            let status = if method == Method::OPTIONS { 200 } else { 405 };
            return res
                .status(status)
                .set("Allow", "GET, HEAD, OPTIONS")
                .set("Content-Length", "0")
                .end();
        }
        res.set("Cache-Control", &self.cache_control)
            .set("ETag", &self.etag);
        if is_fresh(req, res) {
            return res.status(304).end();
        }
        res.status(200)
            .set("Content-Length", self.body.len().to_string())
            .set("Content-Type", "image/x-icon")
            .end_with(self.body.clone())
    }
}

/// serve-favicon's `fresh(req.headers, {etag, last-modified})`: unlike
/// `req.fresh`, whatever the method and status.
fn is_fresh(req: &Request, res: &Response) -> bool {
    crate::http::fresh::is_fresh(
        req.get("if-none-match"),
        req.get("if-modified-since"),
        req.get("cache-control"),
        res.get("etag"),
        res.get("last-modified"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_made_once_from_the_icon() {
        let icon = Favicon::from_bytes(&b"hello"[..], FaviconOptions::new().max_age("2d"));
        assert_eq!(icon.etag, r#""5-qvTGHdzF6KLavt4PO0gs2a6pQ00""#);
        assert_eq!(icon.cache_control, "public, max-age=172800");
        let default = Favicon::from_bytes(&b""[..], ());
        assert_eq!(default.cache_control, "public, max-age=31536000");
    }
}
