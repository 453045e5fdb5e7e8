//! Routers: ordered stacks of `use` layers and routes (Express's
//! `router/index.js`, `layer.js`, `route.js`). A [`Router`] is built;
//! freezing consumes it into a `RouterRef`, the only one that runs
//! requests, and which a parent runs as one of its handlers.

mod dispatch;
mod exact;
mod flow;
#[cfg(test)]
mod flow_agree;
mod index;
mod layer;
mod route;
pub(crate) mod verbs;

use std::collections::HashMap;
use std::sync::Arc;

use webfw_pattern::Pattern;

pub use crate::request::Params;
pub use route::RouteBuilder;

pub(crate) use dispatch::{Exit, Resume};
use layer::Layer;
use route::Route;

use crate::app_ref::parent::Parent;
use crate::handler::markers::RouterValue;
use crate::handler::sealed::Plain;
use crate::handler::{
    Handler, IntoMiddleware, IntoMiddlewares, IntoParamHandler, Middleware, Mount, ParamHandler,
};

/// Options of [`Router::with_options`] (`express.Router(options)`).
///
/// ```
/// let router = webfw::Router::with_options(webfw::RouterOptions::new().merge_params(true));
/// ```
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct RouterOptions {
    /// `caseSensitive`: `/Foo` and `/foo` differ.
    pub case_sensitive: bool,
    /// `strict`: `/foo` and `/foo/` differ.
    pub strict: bool,
    /// `mergeParams`: keep the parent router's `req.params`.
    pub merge_params: bool,
    /// Which Express's router this is: its path syntax and automatic
    /// OPTIONS answer.
    pub dialect: crate::Dialect,
}

impl RouterOptions {
    /// Express's defaults: case-insensitive, not strict, own params only.
    ///
    /// ```
    /// let o = webfw::RouterOptions::new();
    /// assert!(!o.case_sensitive && !o.strict && !o.merge_params);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// `caseSensitive`.
    ///
    /// ```
    /// assert!(webfw::RouterOptions::new().case_sensitive(true).case_sensitive);
    /// ```
    pub fn case_sensitive(mut self, on: bool) -> Self {
        self.case_sensitive = on;
        self
    }

    /// `strict`.
    ///
    /// ```
    /// assert!(webfw::RouterOptions::new().strict(true).strict);
    /// ```
    pub fn strict(mut self, on: bool) -> Self {
        self.strict = on;
        self
    }

    /// `mergeParams`.
    ///
    /// ```
    /// assert!(webfw::RouterOptions::new().merge_params(true).merge_params);
    /// ```
    pub fn merge_params(mut self, on: bool) -> Self {
        self.merge_params = on;
        self
    }

    /// The Express whose router this is ([`webfw::express5::router`]
    /// sets Express 5).
    ///
    /// [`webfw::express5::router`]: crate::express5::router
    ///
    /// ```
    /// use webfw::{Dialect, RouterOptions};
    /// let o = RouterOptions::new().dialect(Dialect::Express5);
    /// assert_eq!(o.dialect, Dialect::Express5);
    /// ```
    pub fn dialect(mut self, dialect: crate::Dialect) -> Self {
        self.dialect = dialect;
        self
    }
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

    /// Compiles the path for a layer in `dialect`'s syntax; a string path
    /// one of the regex-free engines runs skips the regex parser.
    pub(crate) fn compile(
        &self,
        opts: webfw_pattern::Options,
        dialect: crate::Dialect,
    ) -> Result<Pattern, webfw_pattern::PatternError> {
        match (self, dialect) {
            (PathSpec::Pattern(p), crate::Dialect::Express4) => Pattern::new(p, opts),
            (PathSpec::Pattern(p), crate::Dialect::Express5) => Pattern::express5(p, opts),
            (PathSpec::Many(list), dialect) => {
                let refs: Vec<&str> = list.iter().map(String::as_str).collect();
                match dialect {
                    crate::Dialect::Express4 => Pattern::many(&refs, opts),
                    crate::Dialect::Express5 => Pattern::express5_many(&refs, opts),
                }
            }
            (PathSpec::Regex(r), _) => Pattern::regex(r, opts),
        }
    }

    /// [`PathSpec::compile`], panicking as Express throws at registration:
    /// an Express 5 refusal shows path-to-regexp's message and the fix.
    pub(crate) fn compile_or_panic(
        &self,
        opts: webfw_pattern::Options,
        dialect: crate::Dialect,
        what: &str,
    ) -> Pattern {
        self.compile(opts, dialect)
            .unwrap_or_else(|e| match &e.hint {
                Some(hint) => panic!(
                    "invalid {what} path {self:?}: {}\n  hint: {hint}",
                    e.message
                ),
                None => panic!("invalid {what} path {self:?}: {e}"),
            })
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
    /// The `use` layers, each with its place among all the layers.
    uses: Vec<(usize, Layer<Vec<Middleware>>)>,
    /// The routes, each with its place: kept apart from the `use` layers,
    /// so that [`Router::route`] can hand out the route it adds.
    routes: Vec<(usize, Layer<Route<Middleware>>)>,
    params: HashMap<String, Vec<Arc<dyn ParamHandler>>>,
}

/// A router frozen for serving, as [`AppRef`](crate::AppRef) is a frozen
/// app: only this one runs requests, so a router cannot be used before its
/// index is built.
pub(crate) struct RouterRef {
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
            .field("layers", &self.len())
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
    /// let strict = webfw::Router::with_options(webfw::RouterOptions::new().strict(true));
    /// ```
    pub fn with_options(opts: RouterOptions) -> Router {
        Router {
            opts,
            uses: Vec::new(),
            routes: Vec::new(),
            params: HashMap::new(),
        }
    }

    pub(crate) fn pattern_opts(&self, end: bool) -> webfw_pattern::Options {
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
        let mut handlers = Vec::new();
        middleware.into_use_middlewares(&mut handlers);
        self.push_use_everywhere(handlers);
        self
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
        self.push_use_in(path, handlers, self.opts.dialect);
    }

    /// `use` with a path in `dialect`'s syntax (`routes![…]` entries carry
    /// theirs).
    pub(crate) fn push_use_in(
        &mut self,
        path: PathSpec,
        handlers: Vec<Middleware>,
        dialect: crate::Dialect,
    ) {
        self.push_use_compiled(handlers, |opts| {
            path.compile_or_panic(opts, dialect, "mount")
        });
    }

    /// `use` without a path: `"/"`, which never needs the regex engine.
    pub(crate) fn push_use_everywhere(&mut self, handlers: Vec<Middleware>) {
        self.push_use_compiled(handlers, |opts| {
            Pattern::simple("/", opts).expect("\"/\" is a simple mount path")
        });
    }

    /// `use` on a pattern compiled by the caller (`mount` compiles a simple
    /// path without the regex engine).
    pub(crate) fn use_compiled<M>(
        &mut self,
        pattern: Pattern,
        middleware: impl IntoMiddlewares<M>,
    ) -> &mut Self {
        let mut handlers = Vec::new();
        middleware.into_use_middlewares(&mut handlers);
        self.push_use_compiled(handlers, |_| pattern);
        self
    }

    fn push_use_compiled(
        &mut self,
        handlers: Vec<Middleware>,
        compile: impl FnOnce(webfw_pattern::Options) -> Pattern,
    ) {
        assert!(
            !handlers.is_empty(),
            "Router.use() requires a middleware function"
        );
        let layer = Layer::new(compile(self.pattern_opts(false)), handlers);
        self.uses.push((self.len(), layer));
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
        self.route_in(path.into(), self.opts.dialect)
    }

    /// [`Router::route`] that returns the refusal instead of panicking: a
    /// `TypeError` whose message is the one Express throws at registration
    /// (for Express 5, path-to-regexp 8's word for word).
    ///
    /// ```
    /// let mut router = webfw::express5::router();
    /// let err = router.try_route("/ab?cd").map(drop).unwrap_err();
    /// assert_eq!(
    ///     err.message(),
    ///     "Unexpected ? at index 3: /ab?cd; visit https://git.new/pathToRegexpError for info"
    /// );
    /// assert!(router.try_route("/ab{c}d").is_ok());
    /// ```
    pub fn try_route(
        &mut self,
        path: impl Into<PathSpec>,
    ) -> Result<RouteBuilder<'_>, crate::Error> {
        let path = path.into();
        let pattern = path
            .compile(self.pattern_opts(true), self.opts.dialect)
            .map_err(|e| crate::Error::new(e.message).with_name("TypeError"))?;
        Ok(self.route_compiled(path.display(), pattern))
    }

    /// `route` with a path in `dialect`'s syntax.
    pub(crate) fn route_in(&mut self, path: PathSpec, dialect: crate::Dialect) -> RouteBuilder<'_> {
        let pattern = path.compile_or_panic(self.pattern_opts(true), dialect, "route");
        self.route_compiled(path.display(), pattern)
    }

    /// `route` on a pattern compiled by the caller; `display` is
    /// `req.route.path`.
    pub(crate) fn route_compiled(
        &mut self,
        display: Option<String>,
        pattern: Pattern,
    ) -> RouteBuilder<'_> {
        let layer = Layer::new(pattern, Route::new(display));
        let at = self.len();
        RouteBuilder::new(&mut self.routes.push_mut((at, layer)).1.kind)
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
        self.add_param(&[name], handler.into_param_handler());
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
        self.add_param(names, handler.into_param_handler());
        self
    }

    /// What `param` and `params` do once the callback is a handler: one copy
    /// of the code, not one per callback type.
    fn add_param(&mut self, names: &[&str], handler: Arc<dyn ParamHandler>) {
        for name in names {
            // Express 4 strips a leading `:` (deprecated); router 2 keeps
            // it, so such a callback never runs.
            let name = match name.strip_prefix(':') {
                Some(bare) if !self.opts.dialect.is_express5() => bare,
                _ => name,
            };
            self.params
                .entry((*name).to_owned())
                .or_default()
                .push(handler.clone());
        }
    }

    /// Number of layers (each `use` call and each route is one).
    ///
    /// ```
    /// assert_eq!(webfw::Router::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.uses.len() + self.routes.len()
    }

    /// True when nothing is registered.
    ///
    /// ```
    /// assert!(webfw::Router::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.uses.is_empty() && self.routes.is_empty()
    }

    /// Freezes the routers and sub-apps mounted in this router tree and
    /// builds the matching index: the router as it serves.
    pub(crate) fn freeze(self, parent: &Parent) -> RouterRef {
        let uses = self.uses.into_iter().map(|(at, l)| (at, l.freeze(parent)));
        let routes = self
            .routes
            .into_iter()
            .map(|(at, l)| (at, l.freeze(parent)));
        let mut placed: Vec<(usize, Layer)> = uses.chain(routes).collect();
        crate::http::sort::sort_by_key(&mut placed, |(at, _)| *at);
        let stack: Vec<Layer> = placed.into_iter().map(|(_, layer)| layer).collect();
        let prefixes: Vec<&str> = stack.iter().map(Layer::literal_prefix).collect();
        let index = index::Index::build(&prefixes, self.opts.case_sensitive, |i, text| {
            stack[i as usize].fact_at(text)
        });
        RouterRef {
            opts: self.opts,
            stack,
            params: self.params,
            index,
        }
    }
}

impl Mount for Router {
    fn freeze(self: Box<Self>, parent: &Parent) -> Arc<dyn Handler> {
        Arc::new(Router::freeze(*self, parent))
    }

    fn kind(&self) -> &'static str {
        "Router"
    }
}

#[diagnostic::do_not_recommend]
impl IntoMiddleware<RouterValue> for Router {
    fn into_middleware(self) -> Middleware {
        Middleware::mount(Box::new(self))
    }
}

impl Plain<RouterValue> for Router {}

/// `router.get(path, …)`, `route.get(…)` and the other verbs, made from
/// the one list.
macro_rules! router_verbs {
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
    };
}

verbs::each_verb!(router_verbs);
