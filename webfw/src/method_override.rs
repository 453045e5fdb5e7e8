//! `method_override(getter)`: the `method-override` 3.0 middleware. A client
//! that can only send GET and POST (an HTML form, an old proxy) names the
//! method it means in a header, in the query or in the body; this
//! middleware rewrites `req.method` to it ([`Request::set_method`]), so the
//! routes after it match the method meant. [`Request::original_method`]
//! keeps the one that arrived.

use std::sync::Arc;

use http::Method;

use crate::handler::{Flow, Handler, HandlerFuture};
use crate::request::Request;
use crate::response::Response;

/// Node's `http.METHODS` (Node 20), lower case: the methods an override may
/// name (the `methods` package method-override checks against).
const NODE_METHODS: [&str; 35] = [
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

/// A function getter: what [`MethodGetter::from_fn`] wraps.
type GetterFn = dyn Fn(&mut Request, &mut Response) -> Option<String> + Send + Sync;

/// Where [`method_override`] finds the method meant.
///
/// A string starting with `X-` (any case) names a header; any other string
/// names a query parameter; [`MethodGetter::from_fn`] takes a function.
///
/// ```
/// use webfw::MethodGetter;
/// let header = MethodGetter::from("X-HTTP-Method-Override");
/// let query = MethodGetter::from("_method");
/// let custom = MethodGetter::from_fn(|req, _res| req.get("x-verb").map(str::to_owned));
/// ```
#[derive(Clone)]
pub struct MethodGetter(Getter);

#[derive(Clone)]
enum Getter {
    /// The header's name as given (for `Vary`) and in lower case.
    Header {
        name: Arc<str>,
        lower: Arc<str>,
    },
    Query(Arc<str>),
    Fn(Arc<GetterFn>),
}

impl MethodGetter {
    /// A function that returns the method meant, or `None` to leave the
    /// request's method. It may change the request, as method-override's
    /// function getters do to remove the field they read from the body.
    ///
    /// ```
    /// use webfw::MethodGetter;
    /// use webfw::body::Body;
    /// // The `_method` field of a form, removed from `req.body`.
    /// let from_body = MethodGetter::from_fn(|req, _res| {
    ///     let Body::Value(serde_json::Value::Object(mut form)) = req.body().clone() else {
    ///         return None;
    ///     };
    ///     let method = form.remove("_method")?;
    ///     req.set_body(Body::Value(form.into()));
    ///     method.as_str().map(str::to_owned)
    /// });
    /// let mut app = webfw::app();
    /// app.use_(webfw::urlencoded(Default::default()));
    /// app.use_(webfw::method_override(from_body));
    /// ```
    pub fn from_fn<F>(f: F) -> MethodGetter
    where
        F: Fn(&mut Request, &mut Response) -> Option<String> + Send + Sync + 'static,
    {
        MethodGetter(Getter::Fn(Arc::new(f)))
    }
}

impl From<&str> for MethodGetter {
    fn from(s: &str) -> MethodGetter {
        let header = s.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("x-"));
        MethodGetter(if header {
            Getter::Header {
                name: s.into(),
                lower: s.to_ascii_lowercase().into(),
            }
        } else {
            Getter::Query(s.into())
        })
    }
}

impl From<String> for MethodGetter {
    fn from(s: String) -> MethodGetter {
        MethodGetter::from(s.as_str())
    }
}

/// The middleware [`method_override`] returns; [`MethodOverride::methods`]
/// chooses which requests it looks at.
///
/// ```
/// let mo: webfw::MethodOverride = webfw::method_override("X-HTTP-Method-Override");
/// let mut app = webfw::app();
/// app.use_(mo);
/// ```
#[derive(Clone)]
pub struct MethodOverride {
    getter: MethodGetter,
    /// `None`: every request (method-override's `methods: null`).
    methods: Option<Arc<[String]>>,
}

/// `methodOverride(getter)`: rewrites `req.method` to the method a request
/// names in a header (`"X-HTTP-Method-Override"`: a getter starting with
/// `X-`, which also adds the header to `Vary`), in the query (any other
/// string: `"_method"` reads `?_method=PUT`) or through a function
/// ([`MethodGetter::from_fn`]). Only POST requests are looked at unless
/// [`MethodOverride::methods`] says otherwise; a name that is not one of
/// Node's methods (any case) is ignored, and the method becomes the name in
/// upper case. Several values (a repeated query key, a header list) give the
/// first.
///
/// ```
/// use webfw::prelude::*;
/// let mut app = webfw::app();
/// app.use_(webfw::method_override("X-HTTP-Method-Override"));
/// app.delete("/item", |req: &mut Request, res: &mut Response| {
///     let line = format!("{} (sent as {})", req.method(), req.original_method());
///     res.send(line)
/// });
/// ```
pub fn method_override(getter: impl Into<MethodGetter>) -> MethodOverride {
    MethodOverride {
        getter: getter.into(),
        methods: Some(Arc::from([String::from("POST")])),
    }
}

impl MethodOverride {
    /// The request methods whose requests may be overridden (exact names,
    /// case-sensitive, as method-override compares them); `["POST"]` by
    /// default. Other requests pass untouched, and a header getter adds no
    /// `Vary` to them.
    ///
    /// ```
    /// let mo = webfw::method_override("X-M").methods(["POST", "PATCH"]);
    /// ```
    pub fn methods<I>(mut self, methods: I) -> MethodOverride
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.methods = Some(methods.into_iter().map(Into::into).collect());
        self
    }

    /// Looks at requests of every method (method-override's `methods: null`).
    ///
    /// ```
    /// let mo = webfw::method_override("_method").any_method();
    /// ```
    pub fn any_method(mut self) -> MethodOverride {
        self.methods = None;
        self
    }

    /// The method the getter names, if any.
    fn get(&self, req: &mut Request, res: &mut Response) -> Option<String> {
        match &self.getter.0 {
            Getter::Header { name, lower } => {
                res.vary(name);
                header_method(req.headers().get(&**lower)?.as_bytes())
            }
            Getter::Query(key) => query_method(req.url(), key),
            Getter::Fn(f) => f(req, res),
        }
    }
}

impl Handler for MethodOverride {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        let examined = match &self.methods {
            Some(list) => {
                let original = req.original_method().as_str();
                list.iter().any(|m| m == original)
            }
            None => true,
        };
        if examined && let Some(method) = self.get(req, res).as_deref().and_then(supported) {
            req.set_method(method);
        }
        HandlerFuture::ready(Ok(Flow::Next))
    }
}

/// The first of a header's values, trimmed. Node reads header bytes as
/// Latin-1 and JavaScript's `trim` removes U+00A0 too.
fn header_method(value: &[u8]) -> Option<String> {
    let text: String = value.iter().map(|&b| char::from(b)).collect();
    let first = text.split(',').next().unwrap_or_default();
    let method = first.trim_matches(is_js_space);
    (!method.is_empty()).then(|| method.to_owned())
}

/// What JavaScript's `trim` removes: Unicode white space less U+0085, and
/// the byte order mark.
fn is_js_space(c: char) -> bool {
    (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}'
}

/// The value of `key` in the query of `url` (the first, when repeated), as
/// method-override reads it with `querystring.parse`.
fn query_method(url: &str, key: &str) -> Option<String> {
    let before_hash = url.split('#').next().unwrap_or_default();
    let (_, query) = before_hash.split_once('?')?;
    let parsed = crate::http::querystring::parse(query, 1000);
    match parsed.get(key)? {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Array(values) => values.first()?.as_str().map(str::to_owned),
        _ => None,
    }
}

/// The method a supported name stands for: method-override sets the name
/// in upper case when its lower case is one of Node's methods.
fn supported(name: &str) -> Option<Method> {
    let lower = name.to_lowercase();
    let known = NODE_METHODS.iter().find(|m| **m == lower)?;
    // JavaScript's upper case of the name, unless that is no method token
    // (a Kelvin sign lower-cases to `k`, upper-cases to itself): then the
    // method it matched.
    Method::from_bytes(name.to_uppercase().as_bytes())
        .or_else(|_| Method::from_bytes(known.to_ascii_uppercase().as_bytes()))
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_matched_in_any_case_and_set_in_upper_case() {
        assert_eq!(supported("delete"), Some(Method::DELETE));
        assert_eq!(supported("m-Search").unwrap().as_str(), "M-SEARCH");
        assert_eq!(supported("LIN\u{212a}").unwrap().as_str(), "LINK");
        assert_eq!(supported("FOO"), None);
        assert_eq!(supported(""), None);
    }

    #[test]
    fn header_values_give_their_first_item_trimmed() {
        assert_eq!(header_method(b" put , get").as_deref(), Some("put"));
        assert_eq!(header_method(b"\xa0PATCH").as_deref(), Some("PATCH"));
        assert_eq!(header_method(b",PUT"), None);
        assert_eq!(header_method(b"\x85PUT").as_deref(), Some("\u{85}PUT"));
    }

    #[test]
    fn the_query_is_read_up_to_a_hash() {
        assert_eq!(
            query_method("/a?_method=PUT", "_method").as_deref(),
            Some("PUT")
        );
        assert_eq!(
            query_method("/a?_method=del%45te&_method=put", "_method").as_deref(),
            Some("delEte")
        );
        assert_eq!(query_method("/a#?_method=PUT", "_method"), None);
        assert_eq!(query_method("/a?x=1", "_method"), None);
    }
}
