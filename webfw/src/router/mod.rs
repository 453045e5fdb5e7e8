//! Routers: ordered stacks of `use` layers and routes (Express's
//! `router/index.js`, `layer.js`, `route.js`).

mod dispatch;
mod exact;
pub(crate) mod flow;
#[cfg(test)]
mod flow_agree;
mod index;
pub(crate) mod layer;
mod route;

use std::collections::HashMap;
use std::sync::Arc;

pub use crate::request::Params;
pub(crate) use layer::Entry;
pub use layer::Middleware;
pub use route::RouteBuilder;

pub(crate) use dispatch::{Exit, Resume};
use layer::{Layer, LayerKind};
use route::Route;

use crate::handler::{IntoMiddlewares, IntoParamHandler, ParamHandler};

/// Options of [`Router::with_options`] (`express.Router(options)`).
///
/// ```
/// let router = webfw::Router::with_options(webfw::RouterOptions {
///     merge_params: true,
///     ..Default::default()
/// });
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct RouterOptions {
    /// `caseSensitive`: `/Foo` and `/foo` differ.
    pub case_sensitive: bool,
    /// `strict`: `/foo` and `/foo/` differ.
    pub strict: bool,
    /// `mergeParams`: keep the parent router's `req.params`.
    pub merge_params: bool,
}

/// A route or mount path: a pattern string, several of them, or a regular
/// expression.
///
/// ```
/// use webfw::PathSpec;
/// let _: PathSpec = "/users/:id".into();
/// let _: PathSpec = ["/a", "/b"].into();
/// let _ = PathSpec::regex(r"^\/re\/(\w+)$");
/// ```
#[derive(Clone, Debug)]
pub enum PathSpec {
    /// A path-to-regexp 0.1 pattern.
    Pattern(String),
    /// Several patterns; any may match.
    Many(Vec<String>),
    /// A regular expression, used as given (JavaScript syntax).
    Regex(String),
}

impl PathSpec {
    /// A regular-expression path (`app.get(/^\/re$/, …)` in Express).
    ///
    /// ```
    /// let p = webfw::PathSpec::regex(r"^\/x$");
    /// ```
    pub fn regex(source: impl Into<String>) -> PathSpec {
        PathSpec::Regex(source.into())
    }

    /// The pattern as `req.route.path` shows it (`None` for regex and lists).
    fn display(&self) -> Option<String> {
        match self {
            PathSpec::Pattern(p) => Some(p.clone()),
            _ => None,
        }
    }

    /// The value `app.mountpath` reports.
    pub(crate) fn mountpath(&self) -> Vec<String> {
        match self {
            PathSpec::Pattern(p) => vec![p.clone()],
            PathSpec::Many(v) => v.clone(),
            PathSpec::Regex(r) => vec![format!("/{r}/")],
        }
    }
}

impl From<&str> for PathSpec {
    fn from(s: &str) -> Self {
        PathSpec::Pattern(s.to_owned())
    }
}
impl From<String> for PathSpec {
    fn from(s: String) -> Self {
        PathSpec::Pattern(s)
    }
}
impl From<&String> for PathSpec {
    fn from(s: &String) -> Self {
        PathSpec::Pattern(s.clone())
    }
}
impl<const N: usize> From<[&str; N]> for PathSpec {
    fn from(v: [&str; N]) -> Self {
        PathSpec::Many(v.iter().map(|s| (*s).to_owned()).collect())
    }
}
impl From<Vec<&str>> for PathSpec {
    fn from(v: Vec<&str>) -> Self {
        PathSpec::Many(v.into_iter().map(str::to_owned).collect())
    }
}
impl From<Vec<String>> for PathSpec {
    fn from(v: Vec<String>) -> Self {
        PathSpec::Many(v)
    }
}

/// A router: middleware and routes matched in registration order
/// (`express.Router()`).
///
/// ```
/// use webfw::prelude::*;
/// let mut users = webfw::Router::new();
/// users.get("/:id", |req: &mut Request, res: &mut Response| {
///     let id = req.param("id").unwrap_or_default().to_owned();
///     res.send(id)
/// });
/// let mut app = webfw::app();
/// app.use_at("/users", users);
/// ```
pub struct Router {
    pub(crate) opts: RouterOptions,
    stack: Vec<Layer>,
    params: HashMap<String, Vec<Arc<dyn ParamHandler>>>,
}

/// A router frozen for serving: only this one runs requests, so a router
/// cannot be used before its index is built.
pub(crate) struct Frozen {
    opts: RouterOptions,
    stack: Vec<Layer>,
    params: HashMap<String, Vec<Arc<dyn ParamHandler>>>,
    index: index::Index,
}

impl Default for Router {
    fn default() -> Self {
        Router::new()
    }
}

impl std::fmt::Debug for Router {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Router")
            .field("opts", &self.opts)
            .field("layers", &self.stack.len())
            .finish()
    }
}

impl Router {
    /// A router with default options (case-insensitive, non-strict).
    ///
    /// ```
    /// let router = webfw::Router::new();
    /// ```
    pub fn new() -> Router {
        Router::with_options(RouterOptions::default())
    }

    /// A router with options.
    ///
    /// ```
    /// let strict = webfw::Router::with_options(webfw::RouterOptions { strict: true, ..Default::default() });
    /// ```
    pub fn with_options(opts: RouterOptions) -> Router {
        Router {
            opts,
            stack: Vec::new(),
            params: HashMap::new(),
        }
    }

    fn pattern_opts(&self, end: bool) -> webfw_pattern::Options {
        webfw_pattern::Options {
            end,
            strict: end && self.opts.strict,
            sensitive: self.opts.case_sensitive,
        }
    }

    /// Registers middleware for every path (`router.use(fn)`).
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut router = webfw::Router::new();
    /// router.use_(|_req: &mut Request, _res: &mut Response| next());
    /// ```
    pub fn use_<M>(&mut self, middleware: impl IntoMiddlewares<M>) -> &mut Self {
        self.use_at("/", middleware)
    }

    /// Registers middleware under a mount path (`router.use(path, fn)`): the
    /// path matches itself and anything below it, and is stripped from
    /// `req.url` while the middleware runs.
    ///
    /// # Panics
    /// When the path is not a valid pattern (a programming error, reported at
    /// start-up like Express's thrown TypeError).
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut router = webfw::Router::new();
    /// router.use_at("/api", |req: &mut Request, res: &mut Response| res.send(req.url().to_owned()));
    /// ```
    pub fn use_at<M>(
        &mut self,
        path: impl Into<PathSpec>,
        middleware: impl IntoMiddlewares<M>,
    ) -> &mut Self {
        let mut handlers = Vec::new();
        middleware.into_use_middlewares(&mut handlers);
        self.push_use(path.into(), handlers);
        self
    }

    pub(crate) fn push_use(&mut self, path: PathSpec, handlers: Vec<Middleware>) {
        assert!(
            !handlers.is_empty(),
            "Router.use() requires a middleware function"
        );
        let layer = Layer::new(&path, self.pattern_opts(false), LayerKind::Use(handlers))
            .unwrap_or_else(|e| panic!("invalid mount path {path:?}: {e}"));
        self.stack.push(layer);
    }

    /// `router.route(path)`: a route on which handlers for several methods can
    /// be chained.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut router = webfw::Router::new();
    /// router
    ///     .route("/book")
    ///     .get(|_: &mut Request, res: &mut Response| res.send("get"))
    ///     .post(|_: &mut Request, res: &mut Response| res.send("post"));
    /// ```
    pub fn route(&mut self, path: impl Into<PathSpec>) -> RouteBuilder<'_> {
        let path = path.into();
        let route = Route::new(path.display());
        let layer = Layer::new(&path, self.pattern_opts(true), LayerKind::Route(route))
            .unwrap_or_else(|e| panic!("invalid route path {path:?}: {e}"));
        self.stack.push(layer);
        let LayerKind::Route(route) = &mut self.stack.last_mut().expect("just pushed").kind else {
            unreachable!("a route layer was just pushed")
        };
        RouteBuilder::new(route)
    }

    /// `router.METHOD(path, …)` for any method name, e.g. `m-search`.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut router = webfw::Router::new();
    /// router.method("m-search", "/", |_: &mut Request, res: &mut Response| res.send("found"));
    /// ```
    pub fn method<M>(
        &mut self,
        method: &str,
        path: impl Into<PathSpec>,
        handlers: impl IntoMiddlewares<M>,
    ) -> &mut Self {
        self.route(path).method(method, handlers);
        self
    }

    /// `router.all(path, …)`: every method.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut router = webfw::Router::new();
    /// router.all("/any", |req: &mut Request, res: &mut Response| res.send(req.method().to_string()));
    /// ```
    pub fn all<M>(
        &mut self,
        path: impl Into<PathSpec>,
        handlers: impl IntoMiddlewares<M>,
    ) -> &mut Self {
        self.route(path).all(handlers);
        self
    }

    /// `router.param(name, fn)`: runs `fn` before the handlers of any layer of
    /// this router whose path has the parameter, once per request per value.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut router = webfw::Router::new();
    /// router.param("id", |req: &mut Request, _: &mut Response, id: &str| {
    ///     req.set_local("id", serde_json::json!(id));
    ///     next()
    /// });
    /// ```
    pub fn param<M>(&mut self, name: &str, handler: impl IntoParamHandler<M>) -> &mut Self {
        let name = name.strip_prefix(':').unwrap_or(name);
        self.params
            .entry(name.to_owned())
            .or_default()
            .push(handler.into_param_handler());
        self
    }

    /// `app.param([names], fn)`: the same callback for several parameters.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut router = webfw::Router::new();
    /// router.params(&["first", "last"], |_: &mut Request, _: &mut Response, _v: &str| next());
    /// ```
    pub fn params<M>(&mut self, names: &[&str], handler: impl IntoParamHandler<M>) -> &mut Self {
        let h = handler.into_param_handler();
        for name in names {
            let name = name.strip_prefix(':').unwrap_or(name);
            self.params
                .entry((*name).to_owned())
                .or_default()
                .push(h.clone());
        }
        self
    }

    /// Number of layers (each `use` call and each route is one).
    ///
    /// ```
    /// assert_eq!(webfw::Router::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.stack.len()
    }

    /// True when nothing is registered.
    ///
    /// ```
    /// assert!(webfw::Router::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }

    /// Freezes the routers and sub-apps mounted in this router tree and
    /// builds the matching index; the router can then serve.
    pub(crate) fn freeze(mut self, parent: &crate::app::parent::Parent) -> Frozen {
        for layer in &mut self.stack {
            layer.freeze(parent);
        }
        let prefixes: Vec<&str> = self.stack.iter().map(Layer::literal_prefix).collect();
        let index = index::Index::build(&prefixes, self.opts.case_sensitive, |i, text| {
            self.stack[i as usize].fact_at(text)
        });
        Frozen {
            opts: self.opts,
            stack: self.stack,
            params: self.params,
            index,
        }
    }
}

macro_rules! method_fns {
    ($($(#[$doc:meta])* $name:ident => $method:literal;)*) => {
        impl Router {
            $(
                $(#[$doc])*
                ///
                /// ```
                /// # use webfw::prelude::*;
                /// # fn handler(_req: &mut Request, res: &mut Response) -> Result { res.end() }
                /// let mut router = webfw::Router::new();
                #[doc = concat!("router.", stringify!($name), "(\"/items/:id\", handler);")]
                /// ```
                pub fn $name<M>(&mut self, path: impl Into<PathSpec>, handlers: impl IntoMiddlewares<M>) -> &mut Self {
                    self.method($method, path, handlers)
                }
            )*
        }
        impl<'r> RouteBuilder<'r> {
            $(
                $(#[$doc])*
                ///
                /// ```
                /// # use webfw::prelude::*;
                /// # fn handler(_req: &mut Request, res: &mut Response) -> Result { res.end() }
                /// let mut app = webfw::app();
                #[doc = concat!("app.route(\"/items/:id\").", stringify!($name), "(handler);")]
                /// ```
                pub fn $name<M>(self, handlers: impl IntoMiddlewares<M>) -> Self {
                    self.method($method, handlers)
                }
            )*
        }
        impl crate::app::App {
            $(
                $(#[$doc])*
                ///
                /// ```
                /// # use webfw::prelude::*;
                /// # fn handler(_req: &mut Request, res: &mut Response) -> Result { res.end() }
                /// let mut app = webfw::app();
                #[doc = concat!("app.", stringify!($name), "(\"/items/:id\", handler);")]
                /// ```
                pub fn $name<M>(&mut self, path: impl Into<PathSpec>, handlers: impl IntoMiddlewares<M>) -> &mut Self {
                    self.router_mut().method($method, path, handlers);
                    self
                }
            )*
        }
    };
}

method_fns! {
    /// GET handlers (they also answer HEAD unless a HEAD handler comes first).
    get => "get";
    /// POST handlers.
    post => "post";
    /// PUT handlers.
    put => "put";
    /// DELETE handlers.
    delete => "delete";
    /// PATCH handlers.
    patch => "patch";
    /// HEAD handlers.
    head => "head";
    /// OPTIONS handlers (otherwise OPTIONS is answered automatically).
    options => "options";
    /// CHECKOUT handlers.
    checkout => "checkout";
    /// COPY handlers.
    copy => "copy";
    /// LOCK handlers.
    lock => "lock";
    /// MERGE handlers.
    merge => "merge";
    /// MKACTIVITY handlers.
    mkactivity => "mkactivity";
    /// MKCOL handlers.
    mkcol => "mkcol";
    /// MOVE handlers.
    move_ => "move";
    /// M-SEARCH handlers.
    m_search => "m-search";
    /// NOTIFY handlers.
    notify => "notify";
    /// PURGE handlers.
    purge => "purge";
    /// REPORT handlers.
    report => "report";
    /// SEARCH handlers.
    search => "search";
    /// SUBSCRIBE handlers.
    subscribe => "subscribe";
    /// TRACE handlers.
    trace => "trace";
    /// UNLOCK handlers.
    unlock => "unlock";
    /// UNSUBSCRIBE handlers.
    unsubscribe => "unsubscribe";
}
