//! Routes collected by `routes![…]` and registered with [`App::mount`],
//! [`Router::mount`] and their `mount_at` variants.
//!
//! The route attributes (`#[get]`, `#[param]`, `#[error_handler]`,
//! `#[middleware]`, …) leave the annotated function untouched and generate,
//! in the type namespace only, a unit struct of the same name that
//! implements [`Handler`](crate::Handler), [`ParamHandler`](crate::ParamHandler)
//! or [`ErrorHandler`](crate::ErrorHandler) by calling the
//! function, plus the hidden `Mountable` trait that tells `routes!` what to
//! register. Mounting registers the entries in the listed order with exactly
//! the calls a hand-written app would make (`router.route(path).method(m, h)`,
//! `router.params(names, f)`, `router.use_at(path, h)`), so both apps behave
//! the same.
//!
//! ```
//! use webfw::prelude::*;
//!
//! #[get("/users/:id")]
//! fn show(req: &mut Request, res: &mut Response) -> Result {
//!     let id = req.param("id").unwrap_or_default().to_owned();
//!     res.send(id)
//! }
//!
//! #[param("id")]
//! fn load(_req: &mut Request, _res: &mut Response, _id: &str) -> Result {
//!     next()
//! }
//!
//! let routes = routes![load, show];
//! assert_eq!(routes.to_string(), "PARAM id -> load\nGET /users/:id -> show");
//! let mut app = webfw::app();
//! app.mount(routes);
//! ```

use std::fmt;

use webfw_pattern::{Options, Pattern, PatternError};

use crate::Dialect;
use crate::app::App;
use crate::handler::IntoMiddlewares;
use crate::router::{PathSpec, Router};

/// What an entry of [`Routes`] registers.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::EntryKind;
///
/// #[error_handler]
/// fn oops(err: Error, _req: &mut Request, res: &mut Response) -> Result {
///     res.status(err.status()).send(err.to_string())
/// }
/// let routes = routes![oops];
/// assert_eq!(routes.iter().next().unwrap().kind(), EntryKind::ErrorHandler);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// A route handler (`#[get]`, `#[post]`, …, `#[all]`, `#[route]`).
    Route,
    /// A parameter callback (`#[param]`).
    Param,
    /// Middleware (`#[middleware]`).
    Middleware,
    /// Error-handling middleware (`#[error_handler]`).
    ErrorHandler,
}

type Register = Box<dyn FnOnce(&mut Router, &At<'_>) + Send>;

/// Compiles a layer's path with every syntax ([`PathSpec::compile`]).
type Compile = fn(&PathSpec, Options, Dialect) -> Result<Pattern, PatternError>;

/// Where [`Routes::register`] puts the entries: under `prefix`, and how a
/// prefixed path compiles.
struct At<'a> {
    prefix: &'a str,
    /// `mount_at`'s compiler of prefixed paths. `mount` has none: there a
    /// path the attribute found simple compiles without the regex engine,
    /// and an app whose attributes' paths are all simple does not link it.
    full: Option<Compile>,
}

impl At<'_> {
    /// A path the attribute found simple, under the prefix: what
    /// `req.route.path` shows, and its pattern.
    ///
    /// # Panics
    /// When the prefixed path is not a valid pattern.
    fn simple(
        &self,
        router: &Router,
        path: &str,
        end: bool,
        dialect: Dialect,
    ) -> (String, Pattern) {
        let opts = router.pattern_opts(end);
        let what = if end { "route" } else { "mount" };
        let Some(compile) = self.full else {
            let pattern = match dialect {
                Dialect::Express4 => Pattern::simple(path, opts),
                Dialect::Express5 => Pattern::express5_simple(path, opts),
            };
            let pattern = pattern.unwrap_or_else(|| {
                panic!("{what} path {path:?} was simple when its attribute was expanded")
            });
            return (path.to_owned(), pattern);
        };
        let path = join(self.prefix, path);
        let spec = PathSpec::Pattern(path.clone());
        let pattern = compile(&spec, opts, dialect).unwrap_or_else(|e| match &e.hint {
            Some(hint) => panic!(
                "invalid {what} path {spec:?}: {}\n  hint: {hint}",
                e.message
            ),
            None => panic!("invalid {what} path {spec:?}: {e}"),
        });
        (path, pattern)
    }
}

/// One registration produced by a macro attribute.
///
/// ```
/// use webfw::prelude::*;
///
/// #[get("/a", "/b")]
/// #[post("/c")]
/// fn two(_req: &mut Request, res: &mut Response) -> Result {
///     res.send("two")
/// }
/// let routes = routes![two];
/// let first = routes.iter().next().unwrap();
/// assert_eq!(first.name(), "two");
/// assert_eq!(first.method(), Some("get"));
/// assert_eq!(first.paths(), ["/a", "/b"]);
/// assert_eq!(routes.len(), 2);
/// ```
pub struct RouteEntry {
    name: &'static str,
    kind: EntryKind,
    method: Option<&'static str>,
    paths: &'static [&'static str],
    dialect: Dialect,
    register: Register,
}

impl RouteEntry {
    /// The path syntax the entry's paths are written in: Express 5 for
    /// the attributes of [`webfw::express5`](crate::express5), whatever
    /// the app it is mounted in speaks.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// #[webfw::express5::get("/files/*rest")]
    /// fn files(_req: &mut Request, res: &mut Response) -> Result { res.end() }
    /// #[get("/old/*")]
    /// fn old(_req: &mut Request, res: &mut Response) -> Result { res.end() }
    /// let routes = routes![files, old];
    /// let dialects: Vec<_> = routes.iter().map(|e| e.dialect()).collect();
    /// assert_eq!(dialects, [webfw::Dialect::Express5, webfw::Dialect::Express4]);
    /// ```
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The name of the annotated function.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// #[middleware]
    /// fn stamp(_req: &mut Request, res: &mut Response) -> Result { res.set("x-stamp", "1"); next() }
    /// assert_eq!(routes![stamp].iter().next().unwrap().name(), "stamp");
    /// ```
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// What the entry registers.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// #[middleware]
    /// fn stamp(_req: &mut Request, _res: &mut Response) -> Result { next() }
    /// assert_eq!(routes![stamp].iter().next().unwrap().kind(), webfw::EntryKind::Middleware);
    /// ```
    pub fn kind(&self) -> EntryKind {
        self.kind
    }

    /// The lower-case method of a route (`"all"` for `#[all]`); `None` for
    /// other entries.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// #[route(method = "M-SEARCH", path = "/")]
    /// fn find(_req: &mut Request, res: &mut Response) -> Result { res.send("found") }
    /// assert_eq!(routes![find].iter().next().unwrap().method(), Some("m-search"));
    /// ```
    pub fn method(&self) -> Option<&'static str> {
        self.method
    }

    /// The paths as written in the attribute: route or mount paths, or the
    /// parameter names of a `#[param]` entry. Empty for middleware and error
    /// handlers mounted everywhere.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// #[param("first", "last")]
    /// fn name(_req: &mut Request, _res: &mut Response, _v: &str) -> Result { next() }
    /// assert_eq!(routes![name].iter().next().unwrap().paths(), ["first", "last"]);
    /// ```
    pub fn paths(&self) -> &'static [&'static str] {
        self.paths
    }
}

impl fmt::Display for RouteEntry {
    /// `GET /users/:id -> show`, `PARAM id -> load`, `USE / -> logger`,
    /// `ERROR /api -> oops`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let head = match (self.kind, self.method) {
            (EntryKind::Route, Some(m)) => m.to_ascii_uppercase(),
            (EntryKind::Route, None) => "ROUTE".to_owned(),
            (EntryKind::Param, _) => "PARAM".to_owned(),
            (EntryKind::Middleware, _) => "USE".to_owned(),
            (EntryKind::ErrorHandler, _) => "ERROR".to_owned(),
        };
        let paths = if self.paths.is_empty() {
            "/".to_owned()
        } else {
            self.paths.join(", ")
        };
        write!(f, "{head} {paths} -> {}", self.name)
    }
}

impl fmt::Debug for RouteEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RouteEntry")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("method", &self.method)
            .field("paths", &self.paths)
            .field("dialect", &self.dialect)
            .finish()
    }
}

/// Routes, param callbacks, middleware and error handlers collected by
/// `routes![…]`, in the listed order (and, for one function, in the order of
/// its attributes).
///
/// ```
/// use webfw::prelude::*;
///
/// #[get("/")]
/// async fn index(_req: &mut Request, res: &mut Response) -> Result {
///     res.send("index")
/// }
///
/// let mut routes = routes![index];
/// routes.extend(routes![index]);
/// assert_eq!(routes.len(), 2);
/// ```
#[derive(Default)]
pub struct Routes {
    entries: Vec<RouteEntry>,
}

impl Routes {
    /// An empty list (`routes![]`).
    ///
    /// ```
    /// assert!(webfw::Routes::new().is_empty());
    /// ```
    pub fn new() -> Routes {
        Routes::default()
    }

    /// Number of entries (one per attribute, or per path list).
    ///
    /// ```
    /// assert_eq!(webfw::Routes::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no entries.
    ///
    /// ```
    /// assert!(webfw::routes![].is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in registration order.
    ///
    /// ```
    /// # use webfw::prelude::*;
    /// #[get("/x")]
    /// fn x(_req: &mut Request, res: &mut Response) -> Result { res.send("x") }
    /// let names: Vec<_> = routes![x].iter().map(|e| e.name()).collect();
    /// assert_eq!(names, ["x"]);
    /// ```
    pub fn iter(&self) -> std::slice::Iter<'_, RouteEntry> {
        self.entries.iter()
    }

    /// Appends the entries of `other` after these.
    ///
    /// ```
    /// let mut a = webfw::Routes::new();
    /// a.extend(webfw::Routes::new());
    /// assert!(a.is_empty());
    /// ```
    pub fn extend(&mut self, other: Routes) -> &mut Self {
        self.entries.extend(other.entries);
        self
    }

    fn push(
        &mut self,
        name: &'static str,
        kind: EntryKind,
        method: Option<&'static str>,
        paths: &'static [&'static str],
        dialect: Dialect,
        register: Register,
    ) {
        self.entries.push(RouteEntry {
            name,
            kind,
            method,
            paths,
            dialect,
            register,
        });
    }

    fn register(self, router: &mut Router, at: &At<'_>) {
        for entry in self.entries {
            (entry.register)(router, at);
        }
    }
}

impl fmt::Display for Routes {
    /// One line per entry, as [`RouteEntry`]'s `Display`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.entries.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Routes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.entries).finish()
    }
}

impl<'a> IntoIterator for &'a Routes {
    type Item = &'a RouteEntry;
    type IntoIter = std::slice::Iter<'a, RouteEntry>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter()
    }
}

/// `prefix` + `path`, Rocket-style: `"/api"` + `"/users"` is `"/api/users"`,
/// `"/api"` + `"/"` is `"/api"`, an empty or `"/"` prefix changes nothing.
fn join(prefix: &str, path: &str) -> String {
    let prefix = prefix.trim_end_matches('/');
    if prefix.is_empty() {
        return path.to_owned();
    }
    if path.is_empty() || path == "/" {
        prefix.to_owned()
    } else if path.starts_with('/') {
        format!("{prefix}{path}")
    } else {
        format!("{prefix}/{path}")
    }
}

/// The route or mount path of `paths` under `prefix`; `None` (mount
/// everywhere) for middleware without paths and no prefix.
fn spec(prefix: &str, paths: &[&str]) -> Option<PathSpec> {
    match paths {
        [] if prefix.trim_end_matches('/').is_empty() => None,
        [] => Some(PathSpec::Pattern(join(prefix, "/"))),
        [one] => Some(PathSpec::Pattern(join(prefix, one))),
        many => Some(PathSpec::Many(
            many.iter().map(|p| join(prefix, p)).collect(),
        )),
    }
}

/// `mount`'s place: no prefix.
const UNPREFIXED: At<'static> = At {
    prefix: "",
    full: None,
};

/// `mount_at`'s place.
fn prefixed(prefix: &str) -> At<'_> {
    assert!(
        prefix.is_empty() || prefix.starts_with('/'),
        "mount prefix {prefix:?} must start with '/'"
    );
    At {
        prefix,
        full: Some(PathSpec::compile),
    }
}

/// Mounts middleware on `paths` (everywhere when there are none); `SIMPLE`:
/// the attribute found its path simple.
fn use_on<const SIMPLE: bool, M>(
    router: &mut Router,
    at: &At<'_>,
    paths: &'static [&'static str],
    dialect: Dialect,
    middleware: impl IntoMiddlewares<M>,
) {
    if !SIMPLE {
        match spec(at.prefix, paths) {
            Some(path) => {
                let mut handlers = Vec::new();
                middleware.into_use_middlewares(&mut handlers);
                router.push_use_in(path, handlers, dialect);
            }
            None => {
                router.use_(middleware);
            }
        };
    } else if paths.is_empty() && at.full.is_none() {
        router.use_(middleware);
    } else {
        let path = paths.first().copied().unwrap_or("/");
        let (_, pattern) = at.simple(router, path, false, dialect);
        router.use_compiled(pattern, middleware);
    }
}

impl Router {
    /// Registers everything `routes![…]` collected, in order, exactly as the
    /// equivalent `router.get(path, f)`, `router.param(name, f)`,
    /// `router.use_(f)` calls would.
    ///
    /// ```
    /// use webfw::prelude::*;
    ///
    /// #[get("/:id")]
    /// fn show(req: &mut Request, res: &mut Response) -> Result {
    ///     let id = req.param("id").unwrap_or_default().to_owned();
    ///     res.send(id)
    /// }
    ///
    /// let mut users = webfw::router();
    /// users.mount(routes![show]);
    /// assert_eq!(users.len(), 1);
    /// let mut app = webfw::app();
    /// app.use_at("/users", users);
    /// ```
    pub fn mount(&mut self, routes: Routes) -> &mut Self {
        routes.register(self, &UNPREFIXED);
        self
    }

    /// [`Router::mount`] with `prefix` prepended to every route and mount
    /// path (`"/api"` + `"/users"` = `"/api/users"`, `"/api"` + `"/"` =
    /// `"/api"`); middleware without a path is mounted at `prefix`; param
    /// callbacks are registered unchanged.
    ///
    /// # Panics
    /// When `prefix` is neither empty nor starts with `/`, or when a prefixed
    /// path is not a valid pattern.
    ///
    /// ```
    /// use webfw::prelude::*;
    ///
    /// #[get("/users")]
    /// fn users(_req: &mut Request, res: &mut Response) -> Result {
    ///     res.send("users")
    /// }
    ///
    /// let routes = routes![users];
    /// let mut router = webfw::router();
    /// router.mount_at("/api", routes); // GET /api/users
    /// ```
    pub fn mount_at(&mut self, prefix: &str, routes: Routes) -> &mut Self {
        routes.register(self, &prefixed(prefix));
        self
    }
}

impl App {
    /// `app.mount(routes![…])`: registers routes, param callbacks, middleware
    /// and error handlers on the app's router in the listed order, exactly as
    /// the equivalent hand-written `app.get`, `app.param`, `app.use_` calls.
    ///
    /// ```
    /// use webfw::prelude::*;
    ///
    /// #[get("/")]
    /// fn hello(_req: &mut Request, res: &mut Response) -> Result {
    ///     res.send("Hello World!")
    /// }
    ///
    /// let mut app = webfw::app();
    /// app.mount(routes![hello]);
    /// ```
    pub fn mount(&mut self, routes: Routes) -> &mut Self {
        routes.register(self.router_mut(), &UNPREFIXED);
        self
    }

    /// [`App::mount`] with a path prefix (see [`Router::mount_at`]).
    ///
    /// # Panics
    /// As [`Router::mount_at`].
    ///
    /// ```
    /// use webfw::prelude::*;
    ///
    /// #[get("/status")]
    /// fn status(_req: &mut Request, res: &mut Response) -> Result {
    ///     res.json(&serde_json::json!({ "ok": true }))
    /// }
    ///
    /// let mut app = webfw::app();
    /// app.mount_at("/v1", routes![status]); // GET /v1/status
    /// ```
    pub fn mount_at(&mut self, prefix: &str, routes: Routes) -> &mut Self {
        routes.register(self.router_mut(), &prefixed(prefix));
        self
    }
}

/// Glue between the generated code and [`Routes`]; not a public API.
#[doc(hidden)]
pub mod __private {
    use std::future::Future;

    use super::{EntryKind, Routes, spec, use_on};
    use crate::Dialect;
    use crate::handler::{ErrorHandler, Handler, HandlerFuture, ParamHandler, error_handler_value};

    /// Implemented by the struct a webfw attribute generates next to the
    /// annotated function; `routes![f]` calls `<f as Mountable>::add_to`.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` is not a webfw route",
        label = "not a function annotated with a webfw attribute",
        note = "`routes!` takes the names of functions annotated with `#[get(\"/path\")]` (or another method attribute), `#[route(..)]`, `#[param(\"name\")]`, `#[error_handler]` or `#[middleware]`"
    )]
    pub trait Mountable {
        /// Appends this function's registrations to `routes`.
        fn add_to(routes: &mut Routes);
    }

    /// The return type of an annotated function, checked where the user
    /// wrote it: only `webfw::Result` implements this.
    #[diagnostic::on_unimplemented(
        message = "a handler must return `webfw::Result`, found `{Self}`",
        label = "expected `webfw::Result` (`Result<Flow, Error>`)",
        note = "import `webfw::Result` (or `use webfw::prelude::*;`) and write `-> Result`"
    )]
    pub trait HandlerResult: Sized {
        /// A synchronous handler's result.
        fn ready<'a>(self) -> HandlerFuture<'a>;
        /// An async handler's future.
        fn boxed<'a, F>(future: F) -> HandlerFuture<'a>
        where
            F: Future<Output = Self> + Send + 'a;
    }

    impl HandlerResult for crate::Result {
        #[inline]
        fn ready<'a>(self) -> HandlerFuture<'a> {
            HandlerFuture::ready(self)
        }

        #[inline]
        fn boxed<'a, F>(future: F) -> HandlerFuture<'a>
        where
            F: Future<Output = Self> + Send + 'a,
        {
            HandlerFuture::boxed(Box::pin(future))
        }
    }

    /// `routes![f]` → `add::<f>(&mut routes)`.
    pub fn add<T: Mountable>(routes: &mut Routes) {
        T::add_to(routes);
    }

    /// A route: `method` is lower case, `None` for `#[all]`. `SIMPLE`: its
    /// one path is simple (`webfw_pattern::Pattern::simple`).
    pub fn route<const SIMPLE: bool, H: Handler>(
        routes: &mut Routes,
        name: &'static str,
        method: Option<&'static str>,
        paths: &'static [&'static str],
        handler: H,
    ) {
        route_in::<SIMPLE, H>(routes, Dialect::Express4, name, method, paths, handler);
    }

    /// [`route`] with paths in `dialect`'s syntax (the Express 5
    /// attributes; `SIMPLE` then means `Pattern::express5_simple`).
    pub fn route_in<const SIMPLE: bool, H: Handler>(
        routes: &mut Routes,
        dialect: Dialect,
        name: &'static str,
        method: Option<&'static str>,
        paths: &'static [&'static str],
        handler: H,
    ) {
        routes.push(
            name,
            EntryKind::Route,
            Some(method.unwrap_or("all")),
            paths,
            dialect,
            Box::new(move |router, at| {
                let route = if SIMPLE {
                    let path = paths.first().copied().unwrap_or("/");
                    let (path, pattern) = at.simple(router, path, true, dialect);
                    router.route_compiled(Some(path), pattern)
                } else {
                    let path = spec(at.prefix, paths).unwrap_or_else(|| "/".into());
                    router.route_in(path, dialect)
                };
                match method {
                    Some(m) => route.method(m, handler),
                    None => route.all(handler),
                };
            }),
        );
    }

    /// A param callback for each of `names`.
    pub fn param<P: ParamHandler>(
        routes: &mut Routes,
        name: &'static str,
        names: &'static [&'static str],
        handler: P,
    ) {
        routes.push(
            name,
            EntryKind::Param,
            None,
            names,
            Dialect::Express4,
            Box::new(move |router, _at| {
                router.params(names, handler);
            }),
        );
    }

    /// Middleware on `paths` (everywhere when empty). `SIMPLE`: it has no
    /// path or one simple path.
    pub fn middleware<const SIMPLE: bool, H: Handler>(
        routes: &mut Routes,
        name: &'static str,
        paths: &'static [&'static str],
        handler: H,
    ) {
        middleware_in::<SIMPLE, H>(routes, Dialect::Express4, name, paths, handler);
    }

    /// [`middleware`] with paths in `dialect`'s syntax.
    pub fn middleware_in<const SIMPLE: bool, H: Handler>(
        routes: &mut Routes,
        dialect: Dialect,
        name: &'static str,
        paths: &'static [&'static str],
        handler: H,
    ) {
        routes.push(
            name,
            EntryKind::Middleware,
            None,
            paths,
            dialect,
            Box::new(move |router, at| use_on::<SIMPLE, _>(router, at, paths, dialect, handler)),
        );
    }

    /// Error-handling middleware on `paths` (everywhere when empty).
    /// `SIMPLE`: as for [`middleware`].
    pub fn error_handler<const SIMPLE: bool, E: ErrorHandler>(
        routes: &mut Routes,
        name: &'static str,
        paths: &'static [&'static str],
        handler: E,
    ) {
        routes.push(
            name,
            EntryKind::ErrorHandler,
            None,
            paths,
            Dialect::Express4,
            Box::new(move |router, at| {
                let handler = error_handler_value(handler);
                use_on::<SIMPLE, _>(router, at, paths, Dialect::Express4, handler);
            }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::join;

    #[test]
    fn join_prefixes_like_rocket() {
        assert_eq!(join("", "/a"), "/a");
        assert_eq!(join("/", "/a"), "/a");
        assert_eq!(join("/api", "/a"), "/api/a");
        assert_eq!(join("/api/", "/a"), "/api/a");
        assert_eq!(join("/api", "/"), "/api");
        assert_eq!(join("/api", ""), "/api");
        assert_eq!(join("/api", "*"), "/api/*");
    }
}
