//! A route: handlers per method for one path (`router.route(path)`).

use std::borrow::Cow;
use std::sync::Arc;

use crate::handler::{IntoMiddlewares, Middleware};

/// The matched route as handlers see it (`req.route`).
///
/// ```
/// use webfw::prelude::*;
/// fn show(req: &mut Request, res: &mut Response) -> Result {
///     let path = req.route().and_then(|r| r.path()).unwrap_or("?").to_owned();
///     res.send(path)
/// }
/// ```
#[derive(Debug, Clone)]
pub struct RouteInfo {
    path: Option<String>,
    methods: Vec<String>,
}

impl RouteInfo {
    /// The registered path (`None` when it was a regex or a list).
    ///
    /// ```
    /// # fn f(info: &webfw::RouteInfo) { let _ = info.path(); }
    /// ```
    pub fn path(&self) -> Option<&str> {
        self.path.as_deref()
    }

    /// The lower-case methods the route handles, in registration order
    /// (`_all` for `all`).
    ///
    /// ```
    /// # fn f(info: &webfw::RouteInfo) { let _ = info.methods(); }
    /// ```
    pub fn methods(&self) -> &[String] {
        &self.methods
    }
}

/// The lower-case names of the standard methods: the request's method and
/// a route's are both taken from here, so the usual comparison is of two
/// pointers.
const STANDARD: [&str; 9] = [
    "get", "post", "put", "delete", "head", "options", "patch", "trace", "connect",
];

/// A request method in lower case, as route tables store it.
pub(crate) fn lower_method(m: &http::Method) -> Cow<'static, str> {
    let i = match *m {
        http::Method::GET => 0,
        http::Method::POST => 1,
        http::Method::PUT => 2,
        http::Method::DELETE => 3,
        http::Method::HEAD => 4,
        http::Method::OPTIONS => 5,
        http::Method::PATCH => 6,
        http::Method::TRACE => 7,
        http::Method::CONNECT => 8,
        _ => return Cow::Owned(m.as_str().to_ascii_lowercase()),
    };
    Cow::Borrowed(STANDARD[i])
}

/// A method name as a route stores it: the shared name when it is standard.
fn route_method(lower: String) -> Cow<'static, str> {
    match STANDARD.iter().find(|m| **m == lower) {
        Some(m) => Cow::Borrowed(m),
        None => Cow::Owned(lower),
    }
}

/// Method names compared without a `memcmp` call: every route of every
/// request compares one, and standard names are the same pointer.
#[inline]
pub(crate) fn same_method(a: &str, b: &str) -> bool {
    (a.as_ptr() == b.as_ptr() && a.len() == b.len()) || crate::http::same_str(a, b)
}

/// Which requests a route entry applies to.
pub(crate) enum MethodSel {
    All,
    One(Cow<'static, str>),
}

pub(crate) struct Route {
    pub(crate) path: Option<String>,
    pub(crate) stack: Vec<(MethodSel, Middleware)>,
    /// Methods in order of first registration (lower case).
    pub(crate) methods: Vec<Cow<'static, str>>,
    pub(crate) has_all: bool,
    pub(crate) info: Option<Arc<RouteInfo>>,
}

impl Route {
    pub(crate) fn new(path: Option<String>) -> Route {
        Route {
            path,
            stack: Vec::new(),
            methods: Vec::new(),
            has_all: false,
            info: None,
        }
    }

    fn has(&self, method: &str) -> bool {
        self.methods.iter().any(|m| same_method(m, method))
    }

    /// `route._handles_method`: `all`, the method itself, or GET for HEAD.
    pub(crate) fn handles_method(&self, method: &str) -> bool {
        self.has_all || self.has(method) || (method == "head" && self.has("get"))
    }

    /// The `Allow` contribution of this route for automatic OPTIONS replies.
    pub(crate) fn options_methods(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .methods
            .iter()
            .map(|m| m.to_ascii_uppercase())
            .collect();
        if self.has("get") && !self.has("head") {
            out.push("HEAD".into());
        }
        out
    }

    /// Which handler method a request uses: HEAD falls back to GET.
    pub(crate) fn dispatch_method<'m>(&self, method: &'m str) -> &'m str {
        if method == "head" && !self.has("head") {
            "get"
        } else {
            method
        }
    }

    pub(crate) fn freeze(&mut self) {
        let mut methods: Vec<String> = self.methods.iter().map(|m| m.to_string()).collect();
        if self.has_all {
            methods.insert(0, "_all".into());
        }
        self.info = Some(Arc::new(RouteInfo {
            path: self.path.clone(),
            methods,
        }));
    }
}

/// Adds handlers to a route; returned by [`crate::Router::route`] and
/// `app.route`.
///
/// ```
/// use webfw::prelude::*;
/// let mut app = webfw::app();
/// app.route("/chain")
///     .get(|_: &mut Request, res: &mut Response| res.send("chain GET"))
///     .put(|_: &mut Request, res: &mut Response| res.send("chain PUT"));
/// ```
pub struct RouteBuilder<'r> {
    route: &'r mut Route,
}

impl<'r> RouteBuilder<'r> {
    pub(crate) fn new(route: &'r mut Route) -> Self {
        RouteBuilder { route }
    }

    /// Handlers for a method given by name (`"m-search"`, `"GET"`…).
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut app = webfw::app();
    /// app.route("/").method("m-search", |_: &mut Request, res: &mut Response| res.send("ok"));
    /// ```
    pub fn method<M>(self, method: &str, handlers: impl IntoMiddlewares<M>) -> Self {
        let method = route_method(method.to_ascii_lowercase());
        let mut list = Vec::new();
        handlers.into_middlewares(&mut list);
        assert!(
            !list.is_empty(),
            "Route.{method}() requires a callback function"
        );
        if !self.route.methods.contains(&method) {
            self.route.methods.push(method.clone());
        }
        for h in list {
            self.route.stack.push((MethodSel::One(method.clone()), h));
        }
        self
    }

    /// Handlers for every method (`route.all`).
    ///
    /// ```
    /// use webfw::prelude::*;
    /// let mut app = webfw::app();
    /// app.route("/any").all(|_: &mut Request, res: &mut Response| res.send("any"));
    /// ```
    pub fn all<M>(self, handlers: impl IntoMiddlewares<M>) -> Self {
        let mut list = Vec::new();
        handlers.into_middlewares(&mut list);
        assert!(!list.is_empty(), "Route.all() requires a callback function");
        self.route.has_all = true;
        for h in list {
            self.route.stack.push((MethodSel::All, h));
        }
        self
    }
}
