//! cors's options and their defaults.

use super::origin::Origin;

/// A header list option (`methods`, `allowedHeaders`, `exposedHeaders`):
/// a string used as given, or names joined with `,` as cors joins an array.
///
/// ```
/// use webfw::cors::List;
/// assert_eq!(List::from(["GET", "PUT"]).as_str(), "GET,PUT");
/// assert_eq!(List::from("GET, POST").as_str(), "GET, POST");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct List(pub(crate) String, bool);

impl List {
    /// The header value.
    ///
    /// ```
    /// assert_eq!(webfw::cors::List::from(vec!["X-A", "X-B"]).as_str(), "X-A,X-B");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// An empty string, which JavaScript counts as not given (an empty
    /// array is given).
    pub(crate) fn falsy(&self) -> bool {
        self.1
    }

    fn joined<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> List {
        let parts: Vec<S> = items.into_iter().collect();
        let refs: Vec<&str> = parts.iter().map(AsRef::as_ref).collect();
        List(refs.join(","), false)
    }
}

impl From<&str> for List {
    fn from(s: &str) -> List {
        List(s.to_owned(), s.is_empty())
    }
}

impl From<String> for List {
    fn from(s: String) -> List {
        let empty = s.is_empty();
        List(s, empty)
    }
}

impl<S: AsRef<str>> From<Vec<S>> for List {
    fn from(v: Vec<S>) -> List {
        List::joined(v)
    }
}

impl<S: AsRef<str>> From<&[S]> for List {
    fn from(v: &[S]) -> List {
        List::joined(v)
    }
}

impl<S: AsRef<str>, const N: usize> From<[S; N]> for List {
    fn from(v: [S; N]) -> List {
        List::joined(v)
    }
}

/// The options of [`cors`](crate::cors()), with cors's defaults: any origin
/// (`*`), methods `GET,HEAD,PUT,PATCH,POST,DELETE`, the requested headers
/// allowed, no credentials, no max-age, and preflights answered with 204.
///
/// ```
/// use webfw::cors::CorsOptions;
/// let opts = CorsOptions::new()
///     .origin("https://app.example")
///     .credentials(true)
///     .exposed_headers(["X-Total", "X-Page"])
///     .max_age(600);
/// let mut app = webfw::app();
/// app.use_(webfw::cors(opts));
/// ```
#[derive(Clone, Debug)]
pub struct CorsOptions {
    pub(crate) origin: Origin,
    pub(crate) methods: List,
    pub(crate) allowed_headers: Option<List>,
    pub(crate) exposed_headers: Option<List>,
    pub(crate) credentials: bool,
    pub(crate) max_age: Option<u64>,
    pub(crate) preflight_continue: bool,
    pub(crate) options_success_status: u16,
}

impl Default for CorsOptions {
    fn default() -> CorsOptions {
        CorsOptions {
            origin: Origin::default(),
            methods: List("GET,HEAD,PUT,PATCH,POST,DELETE".into(), false),
            allowed_headers: None,
            exposed_headers: None,
            credentials: false,
            max_age: None,
            preflight_continue: false,
            options_success_status: 204,
        }
    }
}

impl CorsOptions {
    /// cors's defaults (`cors()`).
    ///
    /// ```
    /// let opts = webfw::cors::CorsOptions::new();
    /// ```
    pub fn new() -> CorsOptions {
        CorsOptions::default()
    }

    /// `origin`: which origins are allowed (see [`Origin`]).
    ///
    /// ```
    /// let opts = webfw::cors::CorsOptions::new().origin(true);
    /// ```
    pub fn origin(mut self, origin: impl Into<Origin>) -> Self {
        self.origin = origin.into();
        self
    }

    /// `methods`: `Access-Control-Allow-Methods` of preflights.
    ///
    /// ```
    /// let opts = webfw::cors::CorsOptions::new().methods(["GET", "PUT"]);
    /// ```
    pub fn methods(mut self, methods: impl Into<List>) -> Self {
        self.methods = methods.into();
        self
    }

    /// `allowedHeaders`: `Access-Control-Allow-Headers` of preflights.
    /// Unset (or an empty string), the headers the preflight asks for are
    /// allowed, with `Vary: Access-Control-Request-Headers`.
    ///
    /// ```
    /// let opts = webfw::cors::CorsOptions::new().allowed_headers(["Content-Type", "X-Token"]);
    /// ```
    pub fn allowed_headers(mut self, headers: impl Into<List>) -> Self {
        self.allowed_headers = Some(headers.into());
        self
    }

    /// `exposedHeaders`: `Access-Control-Expose-Headers`.
    ///
    /// ```
    /// let opts = webfw::cors::CorsOptions::new().exposed_headers("X-Total");
    /// ```
    pub fn exposed_headers(mut self, headers: impl Into<List>) -> Self {
        self.exposed_headers = Some(headers.into());
        self
    }

    /// `credentials: true`: `Access-Control-Allow-Credentials: true`.
    ///
    /// ```
    /// let opts = webfw::cors::CorsOptions::new().origin("https://a.example").credentials(true);
    /// ```
    pub fn credentials(mut self, on: bool) -> Self {
        self.credentials = on;
        self
    }

    /// `maxAge`: seconds a preflight may be cached
    /// (`Access-Control-Max-Age`).
    ///
    /// ```
    /// let opts = webfw::cors::CorsOptions::new().max_age(600);
    /// ```
    pub fn max_age(mut self, seconds: u64) -> Self {
        self.max_age = Some(seconds);
        self
    }

    /// `preflightContinue`: pass preflights on to the next handler instead
    /// of answering them.
    ///
    /// ```
    /// let opts = webfw::cors::CorsOptions::new().preflight_continue(true);
    /// ```
    pub fn preflight_continue(mut self, on: bool) -> Self {
        self.preflight_continue = on;
        self
    }

    /// `optionsSuccessStatus`: the status of answered preflights (204;
    /// some legacy browsers need 200).
    ///
    /// ```
    /// let opts = webfw::cors::CorsOptions::new().options_success_status(200);
    /// ```
    pub fn options_success_status(mut self, status: u16) -> Self {
        self.options_success_status = status;
        self
    }
}

impl From<Origin> for CorsOptions {
    fn from(origin: Origin) -> CorsOptions {
        CorsOptions::new().origin(origin)
    }
}
