//! The `origin` option: which request origins get
//! `Access-Control-Allow-Origin`, decided once or per request.

use std::future::Future;
use std::sync::Arc;

use regex::Regex;

use crate::error::Error;
use crate::handler::BoxFuture;

type SyncFn = dyn Fn(Option<&str>) -> Result<Origin, Error> + Send + Sync;
type AsyncFn = dyn Fn(Option<String>) -> BoxFuture<'static, Result<Origin, Error>> + Send + Sync;

/// cors's `origin` option. Build it from `"*"` (any origin, the default),
/// `false` (cors does nothing), `true` (reflect the request's origin), a
/// fixed origin (`"https://a.example"`, sent whatever the request says), a
/// [`Regex`] or a list of origins and regexes (the request's origin is
/// reflected when it matches), or a function deciding per request
/// ([`Origin::function`], [`Origin::function_async`]).
///
/// ```
/// use webfw::cors::{Origin, OriginMatch, Regex};
/// let _: Origin = "*".into();
/// let _: Origin = true.into();
/// let _: Origin = "https://a.example".into();
/// let _: Origin = Regex::new(r"\.example\.com$").unwrap().into();
/// let _ = Origin::list([
///     OriginMatch::from("https://a.example"),
///     OriginMatch::from(Regex::new(r"\.b\.example$").unwrap()),
/// ]);
/// ```
#[derive(Clone)]
pub struct Origin(pub(crate) Kind);

#[derive(Clone)]
pub(crate) enum Kind {
    /// `false` or an empty string: no CORS headers at all.
    Off,
    /// `'*'`.
    Any,
    /// A fixed origin, sent as is.
    Fixed(String),
    /// `true`, a regex or a list: the request's origin if it matches.
    Match(Matcher),
    Sync(Arc<SyncFn>),
    Async(Arc<AsyncFn>),
}

/// What an origin is matched against.
#[derive(Clone, Debug)]
pub(crate) enum Matcher {
    /// `true`: every origin.
    All,
    One(OriginMatch),
    List(Vec<OriginMatch>),
}

/// One entry of an origin list: an exact origin or a [`Regex`] searched in
/// the origin (unanchored, as `RegExp.prototype.test`).
///
/// ```
/// use webfw::cors::{OriginMatch, Regex};
/// let exact = OriginMatch::from("https://a.example");
/// let pattern = OriginMatch::from(Regex::new(r"\.b\.example$").unwrap());
/// assert!(exact.matches("https://a.example"));
/// assert!(pattern.matches("https://x.b.example"));
/// ```
#[derive(Clone, Debug)]
pub enum OriginMatch {
    /// Equal to this origin.
    Exact(String),
    /// Matched by this regular expression.
    Regex(Regex),
}

impl OriginMatch {
    /// Whether `origin` is allowed by this entry.
    ///
    /// ```
    /// assert!(!webfw::cors::OriginMatch::from("https://a.example").matches("https://b.example"));
    /// ```
    pub fn matches(&self, origin: &str) -> bool {
        match self {
            OriginMatch::Exact(o) => o == origin,
            OriginMatch::Regex(r) => r.is_match(origin),
        }
    }
}

impl From<&str> for OriginMatch {
    fn from(s: &str) -> OriginMatch {
        OriginMatch::Exact(s.to_owned())
    }
}

impl From<String> for OriginMatch {
    fn from(s: String) -> OriginMatch {
        OriginMatch::Exact(s)
    }
}

impl From<Regex> for OriginMatch {
    fn from(r: Regex) -> OriginMatch {
        OriginMatch::Regex(r)
    }
}

impl Matcher {
    /// cors's `isOriginAllowed`.
    pub(crate) fn allows(&self, origin: &str) -> bool {
        match self {
            Matcher::All => true,
            Matcher::One(m) => m.matches(origin),
            Matcher::List(list) => list.iter().any(|m| m.matches(origin)),
        }
    }
}

impl Origin {
    /// Allows the origins of a list (exact strings and regexes); the
    /// request's origin is reflected when one matches.
    ///
    /// ```
    /// use webfw::cors::{Origin, OriginMatch};
    /// let _ = Origin::list(["https://a.example", "https://b.example"].map(OriginMatch::from));
    /// ```
    pub fn list(entries: impl IntoIterator<Item = impl Into<OriginMatch>>) -> Origin {
        Origin(Kind::Match(Matcher::List(
            entries.into_iter().map(Into::into).collect(),
        )))
    }

    /// cors's `origin: function (origin, callback)`: `f` gets the request's
    /// `Origin` header (`None` without one) and returns the origin option to
    /// use for this request (`false` to send nothing), or an error, which
    /// goes to the error handlers.
    ///
    /// ```
    /// use webfw::cors::Origin;
    /// let _ = Origin::function(|origin| Ok((origin == Some("https://ok.example")).into()));
    /// ```
    pub fn function<F>(f: F) -> Origin
    where
        F: Fn(Option<&str>) -> Result<Origin, Error> + Send + Sync + 'static,
    {
        Origin(Kind::Sync(Arc::new(f)))
    }

    /// [`Origin::function`] for a function that awaits (a database of
    /// allowed origins, say).
    ///
    /// ```
    /// use webfw::cors::Origin;
    /// let _ = Origin::function_async(|origin: Option<String>| async move {
    ///     tokio::task::yield_now().await;
    ///     Ok(Origin::from(origin.as_deref() == Some("https://ok.example")))
    /// });
    /// ```
    pub fn function_async<F, Fut>(f: F) -> Origin
    where
        F: Fn(Option<String>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Origin, Error>> + Send + 'static,
    {
        Origin(Kind::Async(Arc::new(move |o| Box::pin(f(o)))))
    }
}

impl Default for Origin {
    /// `'*'`.
    fn default() -> Origin {
        Origin(Kind::Any)
    }
}

impl std::fmt::Debug for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Kind::Off => f.write_str("Origin(false)"),
            Kind::Any => f.write_str("Origin(\"*\")"),
            Kind::Fixed(o) => write!(f, "Origin({o:?})"),
            Kind::Match(m) => write!(f, "Origin({m:?})"),
            Kind::Sync(_) | Kind::Async(_) => f.write_str("Origin(function)"),
        }
    }
}

impl From<bool> for Origin {
    fn from(b: bool) -> Origin {
        Origin(if b {
            Kind::Match(Matcher::All)
        } else {
            Kind::Off
        })
    }
}

impl From<&str> for Origin {
    fn from(s: &str) -> Origin {
        Origin::from(s.to_owned())
    }
}

impl From<String> for Origin {
    fn from(s: String) -> Origin {
        Origin(match s.as_str() {
            "" => Kind::Off,
            "*" => Kind::Any,
            _ => Kind::Fixed(s),
        })
    }
}

impl From<Regex> for Origin {
    fn from(r: Regex) -> Origin {
        Origin(Kind::Match(Matcher::One(OriginMatch::Regex(r))))
    }
}

impl From<OriginMatch> for Origin {
    fn from(m: OriginMatch) -> Origin {
        match m {
            OriginMatch::Exact(s) => Origin::from(s),
            m @ OriginMatch::Regex(_) => Origin(Kind::Match(Matcher::One(m))),
        }
    }
}

impl From<Vec<OriginMatch>> for Origin {
    fn from(list: Vec<OriginMatch>) -> Origin {
        Origin::list(list)
    }
}

impl<const N: usize> From<[OriginMatch; N]> for Origin {
    fn from(list: [OriginMatch; N]) -> Origin {
        Origin::list(list)
    }
}
