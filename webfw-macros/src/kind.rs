//! The webfw attributes, what they register and which signature they need.

/// One of the attributes this crate defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `#[get]`, `#[post]`, …: the lower-case method.
    Method(&'static str),
    /// `#[all]`.
    All,
    /// `#[route(method = "…", path = "…")]`.
    Route,
    /// `#[param("name")]`.
    Param,
    /// `#[error_handler]`.
    ErrorHandler,
    /// `#[middleware]`.
    Middleware,
}

/// The signature an attribute requires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// `(req: &mut Request, res: &mut Response) -> Result`
    Handler,
    /// `(req: &mut Request, res: &mut Response, value: &str) -> Result`
    Param,
    /// `(err: Error, req: &mut Request, res: &mut Response) -> Result`
    Error,
}

/// The method attributes, named after Express's `app.METHOD` shortcuts.
pub(crate) const METHOD_ATTRS: &[&str] =
    &["get", "post", "put", "delete", "patch", "head", "options"];

impl Kind {
    /// The attribute of that name (the last segment of its path).
    pub(crate) fn from_name(name: &str) -> Option<Kind> {
        if let Some(m) = METHOD_ATTRS.iter().find(|m| **m == name) {
            return Some(Kind::Method(m));
        }
        Some(match name {
            "all" => Kind::All,
            "route" => Kind::Route,
            "param" => Kind::Param,
            "error_handler" => Kind::ErrorHandler,
            "middleware" => Kind::Middleware,
            _ => return None,
        })
    }

    /// The attribute's name, as written.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Method(m) => m,
            Kind::All => "all",
            Kind::Route => "route",
            Kind::Param => "param",
            Kind::ErrorHandler => "error_handler",
            Kind::Middleware => "middleware",
        }
    }

    /// Whether `webfw::express5` has this attribute (route and mount
    /// paths; `#[param]` and `#[error_handler]` are the Express 4 ones).
    pub(crate) fn has_express5(self) -> bool {
        !matches!(self, Kind::Param | Kind::ErrorHandler)
    }

    /// `#[get]`, for messages.
    pub(crate) fn shown(self) -> String {
        format!("`#[{}]`", self.name())
    }

    pub(crate) fn class(self) -> Class {
        match self {
            Kind::Method(_) | Kind::All | Kind::Route | Kind::Middleware => Class::Handler,
            Kind::Param => Class::Param,
            Kind::ErrorHandler => Class::Error,
        }
    }

    /// What the annotated function is called in messages.
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Kind::Method(_) | Kind::All | Kind::Route => "a route handler",
            Kind::Middleware => "a middleware function",
            Kind::Param => "a param callback",
            Kind::ErrorHandler => "an error handler",
        }
    }
}

impl Class {
    /// The expected argument list, for messages.
    pub(crate) fn arguments(self) -> &'static str {
        match self {
            Class::Handler => "`(req: &mut Request, res: &mut Response)`",
            Class::Param => "`(req: &mut Request, res: &mut Response, value: &str)`",
            Class::Error => "`(err: Error, req: &mut Request, res: &mut Response)`",
        }
    }

    pub(crate) fn arity(self) -> usize {
        match self {
            Class::Handler => 2,
            Class::Param | Class::Error => 3,
        }
    }
}

/// Node's `http.METHODS`, lower case: the methods Express 4 routes.
pub(crate) const HTTP_METHODS: &[&str] = &[
    "acl",
    "bind",
    "checkout",
    "connect",
    "copy",
    "delete",
    "get",
    "head",
    "link",
    "lock",
    "m-search",
    "merge",
    "mkactivity",
    "mkcalendar",
    "mkcol",
    "move",
    "notify",
    "options",
    "patch",
    "post",
    "propfind",
    "proppatch",
    "purge",
    "put",
    "query",
    "rebind",
    "report",
    "search",
    "source",
    "subscribe",
    "trace",
    "unbind",
    "unlink",
    "unlock",
    "unsubscribe",
];
