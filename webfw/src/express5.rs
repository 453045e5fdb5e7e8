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

/// A GET route whose paths are Express 5 paths (path-to-regexp 8), checked at
/// compile time: a path Express 5 refuses is a compile error naming the fix.
/// See [`crate::get`](macro@crate::get) for everything else.
///
/// ```
/// use webfw::prelude::*;
///
/// #[webfw::express5::get("/files/*rest")]
/// fn files(req: &mut Request, res: &mut Response) -> Result {
///     let parts: Vec<String> = req.params().list("rest").unwrap().map(str::to_owned).collect();
///     res.json(&parts)
/// }
///
/// let mut app = webfw::express5::app();
/// app.mount(routes![files]); // GET /files/a/b → ["a","b"]
/// ```
pub use webfw_macros::get5 as get;

/// A POST route with an Express 5 path; see [`get`](macro@get).
///
/// ```
/// use webfw::prelude::*;
/// #[webfw::express5::post("/users{/:id}")]
/// fn save(_req: &mut Request, res: &mut Response) -> Result { res.send("saved") }
/// webfw::express5::app().mount(routes![save]);
/// ```
pub use webfw_macros::post5 as post;

/// A PUT route with an Express 5 path; see [`get`](macro@get).
///
/// ```
/// use webfw::prelude::*;
/// #[webfw::express5::put("/users/:id")]
/// fn update(_req: &mut Request, res: &mut Response) -> Result { res.send("updated") }
/// webfw::express5::app().mount(routes![update]);
/// ```
pub use webfw_macros::put5 as put;

/// A DELETE route with an Express 5 path; see [`get`](macro@get).
///
/// ```
/// use webfw::prelude::*;
/// #[webfw::express5::delete("/users/:id")]
/// fn remove(_req: &mut Request, res: &mut Response) -> Result { res.send("removed") }
/// webfw::express5::app().mount(routes![remove]);
/// ```
pub use webfw_macros::delete5 as delete;

/// A PATCH route with an Express 5 path; see [`get`](macro@get).
///
/// ```
/// use webfw::prelude::*;
/// #[webfw::express5::patch("/users/:id")]
/// fn change(_req: &mut Request, res: &mut Response) -> Result { res.send("changed") }
/// webfw::express5::app().mount(routes![change]);
/// ```
pub use webfw_macros::patch5 as patch;

/// A HEAD route with an Express 5 path; see [`get`](macro@get).
///
/// ```
/// use webfw::prelude::*;
/// #[webfw::express5::head("/files/*rest")]
/// fn probe(_req: &mut Request, res: &mut Response) -> Result { res.end() }
/// webfw::express5::app().mount(routes![probe]);
/// ```
pub use webfw_macros::head5 as head;

/// An OPTIONS route with an Express 5 path; see [`get`](macro@get).
///
/// ```
/// use webfw::prelude::*;
/// #[webfw::express5::options("/api{/*rest}")]
/// fn preflight(_req: &mut Request, res: &mut Response) -> Result { res.send_status(204) }
/// webfw::express5::app().mount(routes![preflight]);
/// ```
pub use webfw_macros::options5 as options;

/// A route for every method with an Express 5 path; see [`get`](macro@get).
///
/// ```
/// use webfw::prelude::*;
/// #[webfw::express5::all("/color{s}")]
/// fn colors(req: &mut Request, res: &mut Response) -> Result { res.send(req.method().to_string()) }
/// webfw::express5::app().mount(routes![colors]);
/// ```
pub use webfw_macros::all5 as all;

/// A route for any method with Express 5 paths; see [`crate::route`](macro@crate::route).
///
/// ```
/// use webfw::prelude::*;
/// #[webfw::express5::route(method = "m-search", path = "/:name{.:ext}")]
/// fn find(_req: &mut Request, res: &mut Response) -> Result { res.send("found") }
/// webfw::express5::app().mount(routes![find]);
/// ```
pub use webfw_macros::route5 as route;

/// Middleware, on Express 5 mount paths when given; see
/// [`crate::middleware`](macro@crate::middleware).
///
/// ```
/// use webfw::prelude::*;
/// #[webfw::express5::middleware("/api/:version")]
/// fn api(_req: &mut Request, _res: &mut Response) -> Result { next() }
/// webfw::express5::app().mount(routes![api]);
/// ```
pub use webfw_macros::middleware5 as middleware;
