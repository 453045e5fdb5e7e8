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

// serve-static 2
//
// `express.static` of express 5 (serve-static 2.2 over send 1.2). `res.
// sendFile` and `res.download` need nothing here: they follow the dialect
// of the app handling the request.

/// `express.static(root)` of express 5: serves the files under `root` as
/// serve-static 2 does. Unlike [`webfw::static_`](crate::static_) (serve-
/// static 1), a path with any segment starting with `.` (dot directories
/// too) is ignored, `Content-Type` comes from mime-types 3 with a
/// lower-case `charset=utf-8` (`.js` → `text/javascript`), a malformed
/// `Range` is ignored (a full 200) and `If-None-Match` decides freshness
/// alone.
///
/// ```
/// let mut app = webfw::express5::app();
/// app.use_at("/static", webfw::express5::static_("public"));
/// ```
pub fn static_(root: impl Into<std::path::PathBuf>) -> crate::files::Static5 {
    static_with(root, crate::StaticOptions::new())
}

/// `express.static(root, options)` of express 5: [`static_`] with
/// serve-static's options. An unset
/// [`dotfiles`](crate::StaticOptions::dotfiles) is `Ignore` here, for
/// every segment.
///
/// ```
/// use webfw::files::{Dotfiles, StaticOptions};
/// let mut app = webfw::express5::app();
/// app.use_at("/dot", webfw::express5::static_with("public", StaticOptions::new().dotfiles(Dotfiles::Allow)));
/// app.use_at("/cache", webfw::express5::static_with("public", StaticOptions::new().max_age("1d").immutable(true)));
/// ```
pub fn static_with(
    root: impl Into<std::path::PathBuf>,
    options: crate::StaticOptions,
) -> crate::files::Static5 {
    crate::files::Static5::new(root.into(), options)
}
