//! Rewriting `req.method` (Express middleware assigns `req.method`;
//! method-override is built on it). `req.url` is rewritten through
//! [`Request::set_url`].

use http::Method;

use super::Request;

/// The method a request arrived with, kept once a handler rewrote it. An
/// extension of a private type: it costs only the requests that rewrite.
#[derive(Clone)]
struct OriginalMethod(Method);

impl Request {
    /// Rewrites `req.method`, as Express middleware assigns it: the router
    /// matches the layers after this one against the new method (HEAD
    /// falling back to GET routes as usual), `req.method()` and the access
    /// log show it, and it stays when a mounted router or app is left.
    /// Whether the response may have a body is decided by the method the
    /// request arrived with, as in Node.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// use http::Method;
    /// let mut app = webfw::app();
    /// app.use_(|req: &mut Request, _: &mut Response| {
    ///     if req.get("x-tunnel").is_some() {
    ///         req.set_method(Method::DELETE);
    ///     }
    ///     next()
    /// });
    /// app.delete("/item", |req: &mut Request, res: &mut Response| {
    ///     let line = format!("{} was {}", req.method(), req.original_method());
    ///     res.send(line)
    /// });
    /// ```
    pub fn set_method(&mut self, method: Method) {
        if self.extensions.get::<OriginalMethod>().is_none() {
            let first = OriginalMethod(self.method.clone());
            self.extensions.insert(first);
        }
        self.method = method;
        self.rewrites = self.rewrites.wrapping_add(1);
    }

    /// The method before any handler rewrote it: `req.originalMethod` as
    /// method-override sets it (there it appears once method-override ran;
    /// here it is always the method the request arrived with).
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::POST, "/");
    /// req.set_method(http::Method::PUT);
    /// req.set_method(http::Method::PATCH);
    /// assert_eq!(req.method(), "PATCH");
    /// assert_eq!(req.original_method(), "POST");
    /// ```
    pub fn original_method(&self) -> &Method {
        match self.extensions.get::<OriginalMethod>() {
            Some(OriginalMethod(m)) => m,
            None => &self.method,
        }
    }
}
