//! `res.format(object)`: picks a handler by the request's `Accept` header.

use super::Response;
use crate::error::Error;
use crate::http::negotiate;
use crate::outcome::Result;

type FormatFn<'h> = Box<dyn FnOnce(&mut Response) -> Result + 'h>;

/// What an async branch returns: a future borrowing the response.
pub type BranchFuture<'r> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result> + Send + 'r>>;

type AsyncFormatFn<'h> = Box<dyn for<'r> FnOnce(&'r mut Response) -> BranchFuture<'r> + 'h>;

/// A branch: run now, or a future to await (`res.render(..).await`).
enum Branch<'h> {
    Now(FormatFn<'h>),
    Later(AsyncFormatFn<'h>),
}

impl Branch<'_> {
    /// Runs the branch as far as it goes without waiting.
    fn start(self, res: &mut Response) -> BranchFuture<'_> {
        match self {
            Branch::Now(f) => Box::pin(std::future::ready(f(res))),
            Branch::Later(f) => f(res),
        }
    }
}

/// The handlers of [`Response::format`], by MIME type (`text/html`,
/// `text/*`) or extension name (`json`), in the order given (the first
/// wins when several are equally acceptable, and when there is no `Accept`
/// header), with an optional `default`. A branch that awaits (`res.render`)
/// is added with [`Format::on_async`] and run by [`Response::format_async`].
///
/// ```
/// use webfw::Format;
/// let f = Format::new()
///     .on("text/plain", |res| res.send("hi"))
///     .on("json", |res| res.json(&serde_json::json!({ "message": "hi" })))
///     .default(|res| res.status(406).send("Not Acceptable"));
/// ```
pub struct Format<'h> {
    handlers: Vec<(String, Branch<'h>)>,
    default: Option<Branch<'h>>,
}

impl Default for Format<'_> {
    /// No handlers (the same as [`Format::new`]; `Format::default(…)` is the
    /// builder method that adds the `default` handler).
    fn default() -> Self {
        Format::new()
    }
}

impl<'h> Format<'h> {
    /// No handlers yet.
    ///
    /// ```
    /// let f = webfw::Format::new();
    /// ```
    pub fn new() -> Format<'h> {
        Format {
            handlers: Vec::new(),
            default: None,
        }
    }

    /// Adds the handler for `key` (a MIME type or an extension name). The
    /// handler may borrow from the surrounding handler (the request, say).
    ///
    /// ```
    /// let f = webfw::Format::new().on("html", |res| res.send("<p>hi</p>"));
    /// ```
    pub fn on(
        mut self,
        key: impl Into<String>,
        handler: impl FnOnce(&mut Response) -> Result + 'h,
    ) -> Self {
        self.handlers
            .push((key.into(), Branch::Now(Box::new(handler))));
        self
    }

    /// Adds an async handler for `key`: it returns a boxed future that may
    /// borrow the response (`Box::pin(async move { res.render(..).await })`).
    /// A `Format` with async branches is run by [`Response::format_async`].
    ///
    /// ```
    /// # #[cfg(feature = "views")] {
    /// let f = webfw::Format::new()
    ///     .on_async("html", |res| Box::pin(async move { res.render("page", ()).await }))
    ///     .on("json", |res| res.json(&serde_json::json!({ "page": true })));
    /// # }
    /// ```
    pub fn on_async(
        mut self,
        key: impl Into<String>,
        handler: impl for<'r> FnOnce(&'r mut Response) -> BranchFuture<'r> + 'h,
    ) -> Self {
        self.handlers
            .push((key.into(), Branch::Later(Box::new(handler))));
        self
    }

    /// The handler used when no key is acceptable (instead of a 406 error).
    ///
    /// ```
    /// let f = webfw::Format::new().default(|res| res.send_status(406));
    /// ```
    pub fn default(mut self, handler: impl FnOnce(&mut Response) -> Result + 'h) -> Self {
        self.default = Some(Branch::Now(Box::new(handler)));
        self
    }

    /// [`Format::default`] for a handler that awaits.
    ///
    /// ```
    /// # #[cfg(feature = "views")] {
    /// let f = webfw::Format::new()
    ///     .default_async(|res| Box::pin(async move { res.render("406", ()).await }));
    /// # }
    /// ```
    pub fn default_async(
        mut self,
        handler: impl for<'r> FnOnce(&'r mut Response) -> BranchFuture<'r> + 'h,
    ) -> Self {
        self.default = Some(Branch::Later(Box::new(handler)));
        self
    }
}

impl Response {
    /// `res.format(object)`: runs the handler whose key best matches the
    /// `Accept` header (as `req.accepts(keys)`), after setting
    /// `Content-Type` to the key's type (the handler may change it). Adds
    /// `Accept` to `Vary`. When no key is acceptable, runs `default`, or
    /// returns a 406 `Not Acceptable` error listing the types offered (the
    /// final handler answers it like any error).
    ///
    /// ```
    /// use webfw::Format;
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.headers_mut().insert("accept", "application/json".parse().unwrap());
    /// let mut res = webfw::testing::response(&req);
    /// res.format(
    ///     Format::new()
    ///         .on("text/plain", |res| res.send("hey"))
    ///         .on("json", |res| {
    ///             assert_eq!(res.get("content-type"), Some("application/json; charset=utf-8"));
    ///             assert_eq!(res.get("vary"), Some("Accept"));
    ///             res.json(&serde_json::json!({ "message": "hey" }))
    ///         }),
    /// ).unwrap();
    /// assert!(res.headers_sent());
    ///
    /// req.headers_mut().insert("accept", "image/png".parse().unwrap());
    /// let mut res = webfw::testing::response(&req);
    /// let err = res.format(Format::new().on("html", |res| res.send("<p>hey</p>"))).unwrap_err();
    /// assert_eq!(err.status(), 406);
    /// ```
    pub fn format(&mut self, format: Format<'_>) -> Result {
        match self.choose(format)? {
            Branch::Now(handler) => handler(self),
            Branch::Later(_) => Err(Error::new(
                "res.format: the chosen handler is async (Format::on_async); run it with `res.format_async(format).await`",
            )),
        }
    }

    /// [`Response::format`] for a `Format` whose branches may await: the
    /// chosen branch is started at once and the returned future finishes it.
    ///
    /// ```no_run
    /// # #[cfg(feature = "views")] {
    /// use webfw::Format;
    /// use webfw::prelude::*;
    ///
    /// async fn users(_req: &mut Request, res: &mut Response) -> Result {
    ///     let list = serde_json::json!({ "users": ["tobi", "loki"] });
    ///     let for_html = list.clone();
    ///     res.format_async(
    ///         Format::new()
    ///             .on_async("html", move |res| Box::pin(async move { res.render("users", for_html).await }))
    ///             .on("json", move |res| res.json(&list)),
    ///     )
    ///     .await
    /// }
    /// # }
    /// ```
    pub fn format_async(&mut self, format: Format<'_>) -> BranchFuture<'_> {
        match self.choose(format) {
            Ok(branch) => branch.start(self),
            Err(e) => Box::pin(std::future::ready(Err(e))),
        }
    }

    /// The negotiation of `res.format`: `Vary: Accept`, the chosen branch with
    /// its `Content-Type` set, the default, or the 406 error.
    fn choose<'h>(&mut self, format: Format<'h>) -> std::result::Result<Branch<'h>, Error> {
        let Format {
            mut handlers,
            default,
        } = format;
        let chosen = {
            let keys: Vec<&str> = handlers.iter().map(|(k, _)| k.as_str()).collect();
            let accept = self.accept.as_ref().and_then(crate::request::header_str);
            negotiate::accepts(accept, &keys)
        };
        self.vary("Accept");
        if let Some(i) = chosen {
            let (key, handler) = handlers.swap_remove(i);
            self.set("Content-Type", negotiate::format_type(&key));
            return Ok(handler);
        }
        if let Some(handler) = default {
            return Ok(handler);
        }
        let types = handlers
            .iter()
            .map(|(k, _)| negotiate::format_type(k).to_owned())
            .collect();
        Err(Error::from_status(406).with_source(NotAcceptable { types }))
    }
}

/// The source of the 406 error [`Response::format`] returns: the types it
/// offered (Express's `err.types`).
///
/// ```
/// use webfw::{Format, NotAcceptable};
/// let mut req = webfw::testing::request(http::Method::GET, "/");
/// req.headers_mut().insert("accept", "image/png".parse().unwrap());
/// let mut res = webfw::testing::response(&req);
/// let err = res.format(Format::new().on("json", |res| res.send("{}"))).unwrap_err();
/// let cause = err.source().and_then(|s| s.downcast_ref::<NotAcceptable>()).unwrap();
/// assert_eq!(cause.types, ["application/json"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAcceptable {
    /// The MIME types of the handlers, in order.
    pub types: Vec<String>,
}

impl std::fmt::Display for NotAcceptable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Not Acceptable (offered: {})", self.types.join(", "))
    }
}

impl std::error::Error for NotAcceptable {}
