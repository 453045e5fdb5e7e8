//! Express 5: what `require('express')` gives an app written for express 5.
//!
//! An Express 5 app is an [`App`] made by [`app()`]; its own router, and
//! every router made by [`router()`], speaks router 2 (path-to-regexp 8
//! paths, the sorted automatic OPTIONS answer). Requests inside it follow
//! Express 5's `req`/`res` (the `simple` query parser, `req.host` with its
//! port, the stricter `res.status`). Express 4 apps in the same binary are
//! untouched, and either kind mounts in the other as Express does when the
//! two are mixed through `app.use`.
//!
//! ```
//! use webfw::prelude::*;
//! let mut app = webfw::express5::app();
//! app.get("/files/*rest", |req: &mut Request, res: &mut Response| {
//!     res.send(req.param("rest").unwrap_or_default().to_owned())
//! });
//! assert_eq!(app.dialect(), webfw::Dialect::Express5);
//! ```

use crate::{App, Dialect, Router, RouterOptions};

/// `express()` of express 5.
///
/// ```
/// let app = webfw::express5::app();
/// assert_eq!(app.setting("query parser").unwrap().as_str(), Some("simple"));
/// ```
pub fn app() -> App {
    App::with_dialect(Dialect::Express5)
}

/// `express.Router()` of express 5 (router 2).
///
/// ```
/// let router = webfw::express5::router();
/// ```
pub fn router() -> Router {
    router_with(RouterOptions::new())
}

/// `express.Router(options)` of express 5.
///
/// ```
/// let strict = webfw::express5::router_with(webfw::RouterOptions::new().strict(true));
/// ```
pub fn router_with(opts: RouterOptions) -> Router {
    Router::with_options(opts.dialect(Dialect::Express5))
}
