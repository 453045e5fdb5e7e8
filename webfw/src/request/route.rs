//! `req.route`: the route whose handlers are running, as Express's `Route`
//! object shows itself to them (its path and methods).

use super::Request;

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
    /// A route of `path` (`None` for a regex or a list) with no methods yet.
    pub(crate) fn new(path: Option<String>) -> RouteInfo {
        RouteInfo {
            path,
            methods: Vec::new(),
        }
    }

    /// A method registered on the route for the first time.
    pub(crate) fn add_method(&mut self, method: &str) {
        self.methods.push(method.to_owned());
    }

    /// `route.all` registered for the first time: `_all` comes first.
    pub(crate) fn add_all(&mut self) {
        self.methods.insert(0, "_all".to_owned());
    }

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

impl Request {
    /// `req.route`: the route being dispatched, if any.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(req.route().is_none());
    /// ```
    pub fn route(&self) -> Option<&RouteInfo> {
        self.route.as_deref()
    }
}
