//! A route: handlers per method for one path (`router.route(path)`).

use std::borrow::Cow;
use std::sync::Arc;

use crate::app_ref::parent::Parent;
use crate::handler::{Entry, IntoMiddlewares, Middleware};
use crate::request::RouteInfo;

/// The lower-case names of the standard methods: the request's method and
/// a route's are both taken from here, so the usual comparison is of two
/// pointers.
const STANDARD: [&str; 9] = [
    "get", "post", "put", "delete", "head", "options", "patch", "trace", "connect",
];

/// A request method in lower case, as route tables store it, and its bit
/// among the standard methods (0 for another method).
pub(crate) fn lower_method(m: &http::Method) -> (Cow<'static, str>, u16) {
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
        _ => return (Cow::Owned(m.as_str().to_ascii_lowercase()), 0),
    };
    (Cow::Borrowed(STANDARD[i]), 1 << i)
}

/// The bits of `get` and `head` in [`lower_method`]'s numbering.
const GET_BIT: u16 = 1 << 0;
const HEAD_BIT: u16 = 1 << 4;

/// A method name as a route stores it (the shared name when it is
/// standard), and its bit as [`lower_method`] gives it.
pub(crate) fn route_method(lower: String) -> (Cow<'static, str>, u16) {
    match STANDARD.iter().position(|m| **m == lower) {
        Some(i) => (Cow::Borrowed(STANDARD[i]), 1 << i),
        None => (Cow::Owned(lower), 0),
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

/// A route's handlers, each for one method or all: [`Middleware`] as
/// registered, [`Entry`] once frozen.
pub(crate) struct Route<E = Entry> {
    pub(crate) stack: Vec<(MethodSel, E)>,
    /// Methods in order of first registration (lower case).
    pub(crate) methods: Vec<Cow<'static, str>>,
    pub(crate) has_all: bool,
    /// The standard methods among `methods`, as bits: a request with a
    /// standard method is checked with one test, not a scan.
    standard: u16,
    /// `req.route`, kept up to date as methods are registered.
    pub(crate) info: Arc<RouteInfo>,
}

impl<E> Route<E> {
    pub(crate) fn new(path: Option<String>) -> Route<E> {
        Route {
            stack: Vec::new(),
            methods: Vec::new(),
            has_all: false,
            standard: 0,
            info: Arc::new(RouteInfo::new(path)),
        }
    }

    fn has(&self, method: &str) -> bool {
        self.methods.iter().any(|m| same_method(m, method))
    }

    /// `route._handles_method`: `all`, the method itself, or GET for HEAD;
    /// `bit` is the method's as [`lower_method`] gives it.
    pub(crate) fn handles_method(&self, method: &str, bit: u16) -> bool {
        if self.has_all {
            return true;
        }
        match bit {
            // Not a standard method: neither HEAD nor among the bits.
            0 => self.has(method),
            HEAD_BIT => self.standard & (HEAD_BIT | GET_BIT) != 0,
            _ => self.standard & bit != 0,
        }
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
}

impl Route<Middleware> {
    /// The route as it serves, its handlers frozen under the app `parent`.
    pub(crate) fn freeze(self, parent: &Parent) -> Route {
        let stack = self
            .stack
            .into_iter()
            .filter_map(|(sel, m)| Some((sel, m.freeze(parent)?)))
            .collect();
        Route {
            stack,
            methods: self.methods,
            has_all: self.has_all,
            standard: self.standard,
            info: self.info,
        }
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
    route: &'r mut Route<Middleware>,
}

impl<'r> RouteBuilder<'r> {
    pub(crate) fn new(route: &'r mut Route<Middleware>) -> Self {
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
        let mut list = Vec::new();
        handlers.into_middlewares(&mut list);
        self.add_method(method, list)
    }

    /// [`Self::method`] once the handlers are middleware: one copy of the
    /// code for every handler type, where a generic body was ~1.5 KB of
    /// each app's binary per route.
    fn add_method(self, method: &str, list: Vec<Middleware>) -> Self {
        let (method, bit) = route_method(method.to_ascii_lowercase());
        self.route.standard |= bit;
        assert!(
            !list.is_empty(),
            "Route.{method}() requires a callback function"
        );
        if !self.route.methods.contains(&method) {
            Arc::make_mut(&mut self.route.info).add_method(&method);
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
        self.add_all(list)
    }

    /// [`Self::all`] once the handlers are middleware (see [`Self::add_method`]).
    fn add_all(self, list: Vec<Middleware>) -> Self {
        assert!(!list.is_empty(), "Route.all() requires a callback function");
        if !self.route.has_all {
            Arc::make_mut(&mut self.route.info).add_all();
        }
        self.route.has_all = true;
        for h in list {
            self.route.stack.push((MethodSel::All, h));
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Request, Response, Result};

    fn ok(_: &mut Request, res: &mut Response) -> Result {
        res.send("ok")
    }

    fn route(methods: &[&str], all: bool) -> Route<Middleware> {
        let mut route = Route::new(None);
        for m in methods {
            RouteBuilder::new(&mut route).method(m, ok);
        }
        if all {
            RouteBuilder::new(&mut route).all(ok);
        }
        route
    }

    #[test]
    fn a_route_handles_its_methods_head_by_get_and_all_of_them_with_all() {
        let cases: [(&[&str], bool, &[&str]); 5] = [
            (&["GET"], false, &["get", "head"]),
            (&["head"], false, &["head"]),
            (&["post", "m-search"], false, &["post", "m-search"]),
            (
                &[],
                true,
                &[
                    "get", "head", "post", "delete", "options", "m-search", "purge",
                ],
            ),
            (&["purge"], false, &["purge"]),
        ];
        let methods = [
            "get", "head", "post", "delete", "options", "m-search", "purge",
        ];
        for (registered, all, handled) in cases {
            let route = route(registered, all);
            for name in methods {
                let method =
                    http::Method::from_bytes(name.to_ascii_uppercase().as_bytes()).unwrap();
                let (lower, bit) = lower_method(&method);
                assert_eq!(
                    route.handles_method(&lower, bit),
                    handled.contains(&name),
                    "{registered:?} all={all}: {name}"
                );
            }
        }
    }
}
