//! `res.sendFile` and `res.download`.
//!
//! Express's completion callback `fn(err)` is the `try_` form's result:
//! [`Response::try_send_file`] hands every failure back, so the handler can
//! answer it while nothing was sent. [`Response::send_file`] is the form
//! without a callback: a directory continues with `next()`, an error with
//! `next(err)`, a client that went away ends the request quietly.

use std::path::Path;

use http::header::CONTENT_DISPOSITION;

use super::Response;
use crate::error::Error;
use crate::files::rules::{Send0, Send1, SendRules};
use crate::files::{self, Dotfiles, SendFileOptions, Sent};
use crate::outcome::{Flow, Result};
use crate::request::Request;

impl Response {
    /// `res.sendFile(path, options)`: sends the file with send's HTTP
    /// semantics (type from the extension, weak ETag, Last-Modified,
    /// Cache-Control, ranges, conditional requests, HEAD), streamed in
    /// constant memory. `path` must be absolute unless
    /// [`SendFileOptions::root`] is given; relative to a root it may not
    /// leave it (`..` gives 403).
    ///
    /// Returns `next()` for a directory and `Err` (for `next(err)`) when the
    /// file cannot be sent: the error has the status send gives (404 for a
    /// missing file, 403, 400, 412, 416, …) and, for system errors, a
    /// [`code`](Error::code) such as `ENOENT`.
    ///
    /// In an Express 5 app (the app handling the request, as
    /// [`res.app()`](Response::app) says) it is send 1's: any path segment
    /// starting with `.` is a 404 unless [`SendFileOptions::dotfiles`] says
    /// otherwise, the type comes from mime-types 3 (`.js` →
    /// `text/javascript; charset=utf-8`), a malformed `Range` is ignored,
    /// `If-None-Match` decides freshness alone, and the ETag follows the
    /// app's `etag` setting whatever [`SendFileOptions::etag`] says.
    ///
    /// ```no_run
    /// use webfw::prelude::*;
    /// use webfw::files::SendFileOptions;
    ///
    /// async fn report(req: &mut Request, res: &mut Response) -> Result {
    ///     let name = req.param("name").unwrap_or_default().to_owned();
    ///     res.send_file(req, &name, SendFileOptions::new().root("reports")).await
    /// }
    /// let mut app = webfw::app();
    /// app.get("/reports/:name", report);
    /// // The same handler in an Express 5 app sends files as send 1 does.
    /// let mut app5 = webfw::express5::app();
    /// app5.get("/reports/:name", report);
    /// ```
    pub async fn send_file(
        &mut self,
        req: &Request,
        path: &str,
        options: SendFileOptions,
    ) -> Result {
        let outcome = self.try_send_file(req, path, options).await;
        express_default(outcome)
    }

    /// `res.sendFile(path, options, fn)`: as [`Response::send_file`], with
    /// every failure returned, as Express's callback receives it: `EISDIR`
    /// for a directory, `ECONNABORTED` when the client went away. When
    /// [`headers_sent`](Response::headers_sent) is false the handler may
    /// still answer.
    ///
    /// ```no_run
    /// use webfw::prelude::*;
    /// use webfw::files::SendFileOptions;
    ///
    /// async fn page(req: &mut Request, res: &mut Response) -> Result {
    ///     match res.try_send_file(req, "page.html", SendFileOptions::new().root("site")).await {
    ///         Ok(()) => Ok(Flow::Done),
    ///         Err(e) if !res.headers_sent() => res.status(e.status()).send("no page"),
    ///         Err(e) => Err(e),
    ///     }
    /// }
    /// ```
    pub async fn try_send_file(
        &mut self,
        req: &Request,
        path: &str,
        mut options: SendFileOptions,
    ) -> std::result::Result<(), Error> {
        if options.config.root.is_none() && !Path::new(path).is_absolute() {
            return Err(
                Error::new("path must be absolute or specify root to res.sendFile")
                    .with_name("TypeError"),
            );
        }
        // Express 5's response prototype: send 1, `opts.etag =
        // app.enabled('etag')` (the call's own option is overwritten) and
        // send 1's `dotfiles: 'ignore'` default for every segment.
        let app = self.app();
        if app.dialect().is_express5() {
            options.config.etag = !matches!(app.settings().etag, crate::EtagMode::Off);
            options.config.dotfiles.get_or_insert(Dotfiles::Ignore);
            return self.send_with::<Send1>(req, path, options).await;
        }
        self.send_with::<Send0>(req, path, options).await
    }

    /// send's `pipe` with `R`'s rules, the file streamed to the end.
    async fn send_with<R: SendRules>(
        &mut self,
        req: &Request,
        path: &str,
        options: SendFileOptions,
    ) -> std::result::Result<(), Error> {
        let cfg = &options.config;
        let resolved = files::path::resolve(path, cfg)?;
        let (file, meta, found) = match files::send::locate(&resolved, cfg)? {
            files::send::Located::File(f, m, p) => (f, m, p),
            files::send::Located::Directory => {
                return Err(Error::new("EISDIR, read").with_code("EISDIR"));
            }
        };
        let headers = &options.headers;
        let hook = |res: &mut Response, _: &Path, _: &std::fs::Metadata| {
            let h = res.headers_mut();
            for (name, value) in headers {
                h.insert(name.clone(), value.clone());
            }
        };
        match files::send::respond::<R>(req, self, file, &meta, &found, cfg, &hook)? {
            Sent::Done => Ok(()),
            Sent::Stream(s) => match files::send::stream(self, s).await? {
                true => Ok(()),
                false => Err(Error::new("Request aborted").with_code("ECONNABORTED")),
            },
        }
    }

    /// `res.download(path, filename, options)`: [`Response::send_file`]
    /// with `Content-Disposition: attachment` naming `filename` (else the
    /// file's own name), written as the `content-disposition` package does.
    /// A relative `path` without a root is taken from the working
    /// directory; a `Content-Disposition` among the options' headers is
    /// ignored.
    ///
    /// ```no_run
    /// use webfw::prelude::*;
    /// use webfw::files::SendFileOptions;
    ///
    /// async fn get_report(req: &mut Request, res: &mut Response) -> Result {
    ///     let opts = SendFileOptions::new().root("reports");
    ///     res.download(req, "2024.pdf", Some("Report 2024.pdf"), opts).await
    /// }
    /// ```
    pub async fn download(
        &mut self,
        req: &Request,
        path: &str,
        filename: Option<&str>,
        options: SendFileOptions,
    ) -> Result {
        let outcome = self.try_download(req, path, filename, options).await;
        express_default(outcome)
    }

    /// `res.download(path, filename, options, fn)`: [`Response::download`]
    /// with every failure returned, as for [`Response::try_send_file`].
    ///
    /// ```no_run
    /// use webfw::prelude::*;
    /// use webfw::files::SendFileOptions;
    ///
    /// async fn get(req: &mut Request, res: &mut Response) -> Result {
    ///     let opts = SendFileOptions::new().root("files");
    ///     if let Err(e) = res.try_download(req, "a.zip", None, opts).await {
    ///         if !res.headers_sent() {
    ///             return res.status(e.status()).send("download failed");
    ///         }
    ///     }
    ///     Ok(Flow::Done)
    /// }
    /// ```
    pub async fn try_download(
        &mut self,
        req: &Request,
        path: &str,
        filename: Option<&str>,
        mut options: SendFileOptions,
    ) -> std::result::Result<(), Error> {
        // content-disposition 0.5 or 2, as the app's Express writes it.
        let value = self.disposition(Some(filename.unwrap_or(path)));
        options.headers.retain(|(n, _)| *n != CONTENT_DISPOSITION);
        options.headers.insert(0, (CONTENT_DISPOSITION, value));
        let full = if options.config.root.is_none() {
            files::node_path::absolute(path.into())
        } else {
            path.to_owned()
        };
        self.try_send_file(req, &full, options).await
    }

    /// Waits until the connection has taken what was written; `false` when
    /// the client went away.
    pub(crate) fn drained(&self) -> impl Future<Output = bool> + Send + 'static {
        let mailbox = self.outbox.mailbox().clone();
        async move { std::future::poll_fn(|_| mailbox.poll_drained()).await }
    }
}

/// What Express does without a callback: a directory goes on with
/// `next()`, an aborted request is left alone, other errors `next(err)`.
fn express_default(outcome: std::result::Result<(), Error>) -> Result {
    match outcome {
        Ok(()) => Ok(Flow::Done),
        Err(e) if e.code() == Some("EISDIR") => Ok(Flow::Next),
        Err(e) if e.code() == Some("ECONNABORTED") => Ok(Flow::Done),
        Err(e) => Err(e),
    }
}
