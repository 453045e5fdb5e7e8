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
//! The packages Express 5 bundles are here too: the body parsers
//! ([`json()`], [`urlencoded()`], [`text()`], [`raw()`]: body-parser 2),
//! static files ([`static_()`]: serve-static 2) and the route attributes
//! ([`get`](macro@get) and the other methods, checked at build time with
//! path-to-regexp 8).
//!
//! ```
//! use webfw::prelude::*;
//! let mut app = webfw::express5::app();
//! app.get("/files/*rest", |req: &mut Request, res: &mut Response| {
//!     res.send(req.param("rest").unwrap_or_default().to_owned())
//! });
//! assert_eq!(app.dialect(), webfw::Dialect::Express5);
//! ```

use crate::body::{
    JsonOptions, JsonParser, RawOptions, RawParser, TextOptions, TextParser, UrlencodedOptions,
    UrlencodedParser,
};
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

// body-parser 2
//
// `express.json`, `express.urlencoded`, `express.text` and `express.raw` of
// express 5 are body-parser 2.4's. They take the same options types as the
// Express 4 parsers (`webfw::json(...)` and friends, body-parser 1.20);
// what differs is decided once, here, when the parser is made:
// - a request the parser does not read (no body, another type, parsed
//   already, or an error) leaves `req.body` as it was, `undefined` if nothing
//   set it, where body-parser 1 makes it `{}`;
// - `Content-Encoding: br` is decoded (any case), other unknown encodings
//   (`zstd`) are 415;
// - `Content-Type` is read leniently (`application/json;;charset=utf-8`);
// - `urlencoded`: `extended` defaults to `false`, which is qs keeping keys
//   whole (brackets stay text, `__proto__` dropped) within `parameterLimit`;
//   UTF-8 and ISO-8859-1 bodies, with `defaultCharset`, `charsetSentinel`
//   and `interpretNumericEntities`.

/// `express.json()` of express 5 (body-parser 2): JSON bodies into
/// `req.body`; other requests leave it `undefined`.
///
/// ```
/// use webfw::prelude::*;
/// let mut app = webfw::express5::app();
/// app.post("/users", (webfw::express5::json(), |req: &mut Request, res: &mut Response| {
///     if req.body().is_undefined() {
///         return res.status(415).send("send JSON");
///     }
///     let body = req.body().clone();
///     res.status(201).json(&body)
/// }));
/// ```
pub fn json() -> JsonParser {
    json_with(JsonOptions::new())
}

/// `express.json(options)` of express 5.
///
/// ```
/// use webfw::body::JsonOptions;
/// let parser = webfw::express5::json_with(JsonOptions::new().limit("1mb").strict(false));
/// ```
pub fn json_with(options: JsonOptions) -> JsonParser {
    crate::body::json(options.into_express5())
}

/// `express.urlencoded()` of express 5 (body-parser 2): form bodies into
/// `req.body` with keys kept whole (`extended: false`: `a[b]=1` is
/// `{"a[b]": "1"}`); UTF-8 or ISO-8859-1.
///
/// ```
/// use webfw::prelude::*;
/// let mut app = webfw::express5::app();
/// app.use_(webfw::express5::urlencoded());
/// app.post("/login", |req: &mut Request, res: &mut Response| {
///     let user = req.body().get("user").and_then(|v| v.as_str()).unwrap_or("").to_owned();
///     res.send(format!("hello {user}"))
/// });
/// ```
pub fn urlencoded() -> UrlencodedParser {
    urlencoded_with(UrlencodedOptions::new())
}

/// `express.urlencoded(options)` of express 5: `extended` defaults to
/// `false`; `defaultCharset`, `charsetSentinel` and
/// `interpretNumericEntities` apply.
///
/// ```
/// use webfw::body::UrlencodedOptions;
/// let nested = webfw::express5::urlencoded_with(UrlencodedOptions::new().extended(true).depth(5));
/// let latin1 = webfw::express5::urlencoded_with(UrlencodedOptions::new().default_charset("iso-8859-1"));
/// ```
pub fn urlencoded_with(options: UrlencodedOptions) -> UrlencodedParser {
    crate::body::urlencoded(options.into_express5())
}

/// `express.text()` of express 5 (body-parser 2): `text/plain` bodies into
/// `req.body` as a string.
///
/// ```
/// use webfw::prelude::*;
/// let mut app = webfw::express5::app();
/// app.post("/echo", (webfw::express5::text(), |req: &mut Request, res: &mut Response| {
///     let s = req.body().as_str().unwrap_or_default().to_owned();
///     res.send(s)
/// }));
/// ```
pub fn text() -> TextParser {
    text_with(TextOptions::new())
}

/// `express.text(options)` of express 5.
///
/// ```
/// use webfw::body::TextOptions;
/// let any = webfw::express5::text_with(TextOptions::new().type_("*/*").default_charset("latin1"));
/// ```
pub fn text_with(options: TextOptions) -> TextParser {
    crate::body::text(options.into_express5())
}

/// `express.raw()` of express 5 (body-parser 2):
/// `application/octet-stream` bodies into `req.body` as bytes.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::body::Body;
/// let mut app = webfw::express5::app();
/// app.post("/upload", (webfw::express5::raw(), |req: &mut Request, res: &mut Response| {
///     let n = match req.body() { Body::Bytes(b) => b.len(), _ => 0 };
///     res.send(format!("{n} bytes"))
/// }));
/// ```
pub fn raw() -> RawParser {
    raw_with(RawOptions::new())
}

/// `express.raw(options)` of express 5.
///
/// ```
/// use webfw::body::RawOptions;
/// let any = webfw::express5::raw_with(RawOptions::new().type_("*/*").limit("1mb"));
/// ```
pub fn raw_with(options: RawOptions) -> RawParser {
    crate::body::raw(options.into_express5())
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
