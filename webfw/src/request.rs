//! The request object (`req`).
//!
//! The URL is kept as the raw request target plus an offset, so mounting a
//! router (which strips the mount path from `req.url`) costs no allocation in
//! the common case.

mod body;
mod range;

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, OnceLock};

use http::{HeaderMap, HeaderValue, Method, Uri, Version};
use serde_json::{Map, Value};

mod is;
mod typed;

use crate::app_ref::AppRef;
use crate::inline_option::InlineOption;

mod accepts;
pub(crate) mod channel;
#[cfg(feature = "cookie-session")]
mod cookie_session;
#[cfg(feature = "cookie-parser")]
mod cookies;
mod incoming;
#[cfg(feature = "multer")]
mod multer;
mod param;
mod params;
#[cfg(feature = "rate-limit")]
mod rate_limit;
mod rewrite;
mod route;
#[cfg(feature = "session")]
mod session;
mod state;
mod upgrade;
mod url;

pub use body::BoxBody;
pub(crate) use incoming::BodyArrival;
pub use incoming::IncomingBody;
pub use params::Params;
pub use route::RouteInfo;
use url::Url;
pub(crate) use url::{Mounted, mount_edge};

/// The request body as it arrived, before any body parser.
///
/// ```
/// use webfw::prelude::*;
/// fn drop_body(req: &mut Request, res: &mut Response) -> Result {
///     let streamed = matches!(req.take_body(), webfw::RawBody::Incoming(_));
///     res.send(if streamed { "body ignored" } else { "no body" })
/// }
/// ```
pub enum RawBody {
    /// The body from the connection, as it arrives.
    Incoming(IncomingBody),
    /// A body from elsewhere: the request came through
    /// [`App::into_service`](crate::App::into_service) (or the test client),
    /// or a tower layer replaced it.
    Boxed(BoxBody),
    /// No body, or it was already taken.
    Empty,
}

/// An incoming request: Express's `req`.
///
/// ```
/// use webfw::prelude::*;
/// fn show(req: &mut Request, res: &mut Response) -> Result {
///     let id = req.param("id").unwrap_or("none").to_owned();
///     res.send(format!("{} {} id={id}", req.method(), req.path()))
/// }
/// let mut app = webfw::app();
/// app.get("/users/:id", show);
/// ```
pub struct Request {
    method: Method,
    uri: Uri,
    version: Version,
    /// Always present; an option only so that dropping the request, which
    /// hands the map on, leaves nothing behind to drop.
    headers: Option<HeaderMap>,
    body: RawBody,
    /// The request target as received (`req.originalUrl`), when it cannot be
    /// borrowed from `uri` (absolute-form targets, targets the connection
    /// shim had to escape).
    absolute_target: Option<String>,
    /// `req.url`, `req.path` and `req.baseUrl`.
    url: Url,
    /// Bumped whenever a handler rewrites `req.url` or `req.method`, so the
    /// router matches the layers after it against the new values.
    rewrites: u32,
    pub(crate) params: Params,
    query: OnceLock<Value>,
    remote: SocketAddr,
    secure: bool,
    pub(crate) app: AppRef,
    /// The outermost app: its `query parser` is the one that applies.
    pub(crate) top: AppRef,
    pub(crate) route: Option<Arc<RouteInfo>>,
    /// Boxed: most requests never set one, and the request lives in the
    /// per-request future whose size matters.
    locals: InlineOption<Box<Map<String, Value>>>,
    extensions: http::Extensions,
}

impl Drop for Request {
    fn drop(&mut self) {
        // The request's map has the size a small response needs.
        if let Some(map) = self.headers.take() {
            crate::header_pool::give(map);
        }
        Params::recycle(&mut self.params);
    }
}

impl Request {
    /// Whether the connection itself is TLS (Node's `req.connection.encrypted`),
    /// which express-session and cookie-session consult besides `req.secure`.
    #[cfg(any(feature = "session", feature = "cookie-session"))]
    pub(crate) fn connection_encrypted(&self) -> bool {
        self.secure
    }

    /// A request, built in `slot`: built elsewhere and moved there, the
    /// ~400-byte request would be copied once more.
    #[inline(always)]
    pub(crate) fn new_in(
        slot: &mut InlineOption<Request>,
        parts: http::request::Parts,
        raw_target: Option<String>,
        body: RawBody,
        remote: SocketAddr,
        secure: bool,
        app: AppRef,
    ) -> &mut Request {
        let absolute_target = if raw_target.is_some() {
            raw_target
        } else if parts.uri.scheme().is_some() {
            Some(parts.uri.to_string())
        } else {
            None
        };
        let req = slot.fill(Request {
            method: parts.method,
            uri: parts.uri,
            version: parts.version,
            // Folded in place below: folded first, the map was copied twice
            // more on its way into the slot.
            headers: Some(parts.headers),
            body,
            absolute_target,
            // Located in place below: built here, the whole request was
            // assembled on the stack and copied into the slot.
            url: Url::new(),
            rewrites: 0,
            params: Params::default(),
            query: OnceLock::new(),
            remote,
            secure,
            top: app.clone(),
            app,
            route: None,
            locals: InlineOption::none(),
            // The server's own (an upgrade request's handle): dropping
            // them and making new ones cost a call each.
            extensions: parts.extensions,
        });
        if let Some(headers) = req.headers.as_mut() {
            fold_repeated_headers(headers);
        }
        // The usual origin-form target: http has split off the query.
        let path_len = match req.uri.path_and_query() {
            Some(pq) if req.absolute_target.is_none() && pq.as_str().starts_with('/') => {
                Some(pq.path().len())
            }
            _ => None,
        };
        req.url
            .locate_path(|| original_url(&req.absolute_target, &req.uri), path_len);
        req
    }

    /// A copy of the request without its body or extensions, for a hook
    /// that runs while the handlers hold the request (the compression
    /// filter, when the head is written).
    #[cfg(feature = "compression")]
    pub(crate) fn snapshot(&self) -> Request {
        Request {
            method: self.method.clone(),
            uri: self.uri.clone(),
            version: self.version,
            headers: self.headers.clone(),
            body: RawBody::Empty,
            absolute_target: self.absolute_target.clone(),
            url: self.url.clone(),
            rewrites: self.rewrites,
            params: self.params.clone(),
            query: self.query.clone(),
            remote: self.remote,
            secure: self.secure,
            app: self.app.clone(),
            top: self.top.clone(),
            route: self.route.clone(),
            locals: {
                let mut locals = InlineOption::none();
                if let Some(m) = self.locals.as_ref() {
                    locals.fill(m.clone());
                }
                locals
            },
            extensions: http::Extensions::new(),
        }
    }

    /// The HTTP method (`req.method`).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::POST, "/");
    /// assert_eq!(req.method(), "POST");
    /// ```
    pub fn method(&self) -> &Method {
        &self.method
    }

    /// The HTTP version of the request.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert_eq!(req.version(), http::Version::HTTP_11);
    /// ```
    pub fn version(&self) -> Version {
        self.version
    }

    /// `req.httpVersion`: `"1.1"`, `"1.0"` or `"2.0"`.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert_eq!(req.http_version(), "1.1");
    /// ```
    pub fn http_version(&self) -> &'static str {
        match self.version {
            Version::HTTP_09 => "0.9",
            Version::HTTP_10 => "1.0",
            Version::HTTP_2 => "2.0",
            Version::HTTP_3 => "3.0",
            _ => "1.1",
        }
    }

    /// All request headers (`req.headers`), repeated names folded into one
    /// value as Node does (`, `-joined; `; ` for `cookie`; first wins for
    /// `content-type`, `user-agent`, … ; `set-cookie` stays a list).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(req.headers().is_empty());
    /// ```
    pub fn headers(&self) -> &HeaderMap {
        match &self.headers {
            Some(h) => h,
            None => crate::header_pool::empty(),
        }
    }

    /// Mutable access to the request headers.
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.headers_mut().insert("x-a", "1".parse().unwrap());
    /// assert_eq!(req.get("X-A"), Some("1"));
    /// ```
    pub fn headers_mut(&mut self) -> &mut HeaderMap {
        self.headers.get_or_insert_with(HeaderMap::new)
    }

    /// `req.get(name)` / `req.header(name)`: a header value, case-insensitively;
    /// `Referer` and `Referrer` are interchangeable. Values that are not visible
    /// ASCII are returned only if they are valid UTF-8.
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.headers_mut().insert("referer", "http://x/".parse().unwrap());
    /// assert_eq!(req.get("Referrer"), Some("http://x/"));
    /// ```
    pub fn get(&self, name: &str) -> Option<&str> {
        let value = if name.eq_ignore_ascii_case("referer") || name.eq_ignore_ascii_case("referrer")
        {
            self.headers()
                .get("referrer")
                .or_else(|| self.headers().get("referer"))
        } else {
            self.headers().get(name)
        };
        value.and_then(header_str)
    }

    /// Alias of [`Request::get`].
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert_eq!(req.header("host"), None);
    /// ```
    pub fn header(&self, name: &str) -> Option<&str> {
        self.get(name)
    }

    /// The original target as received (`req.originalUrl`).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/a?b=1");
    /// assert_eq!(req.original_url(), "/a?b=1");
    /// ```
    pub fn original_url(&self) -> &str {
        original_url(&self.absolute_target, &self.uri)
    }

    /// `req.url`: the target with the mount path of the current router stripped.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/a?b=1");
    /// assert_eq!(req.url(), "/a?b=1");
    /// ```
    #[inline]
    pub fn url(&self) -> &str {
        self.url.url(self.original_url())
    }

    /// Rewrites `req.url` (later routing uses the new value, as in Express).
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/old");
    /// req.set_url("/new");
    /// assert_eq!(req.path(), "/new");
    /// assert_eq!(req.original_url(), "/old");
    /// ```
    pub fn set_url(&mut self, url: impl Into<String>) {
        let original = original_url(&self.absolute_target, &self.uri);
        self.url.set(url.into(), original);
        self.rewrites = self.rewrites.wrapping_add(1);
        self.forget_query();
    }

    /// Express 5 parses `req.query` from `req.url` with the current app's
    /// parser: a new URL or app asks again.
    pub(crate) fn forget_query(&mut self) {
        if self.app.dialect().is_express5() {
            self.reset_query();
        }
    }

    pub(crate) fn reset_query(&mut self) {
        self.query = OnceLock::new();
    }

    /// Sets `req.params`, keeping the buffers of the ones replaced.
    pub(crate) fn replace_params(&mut self, params: Params) {
        Params::recycle(&mut self.params);
        self.params = params;
    }

    /// Changes whenever a handler rewrites `req.url` or `req.method`.
    #[inline(always)]
    pub(crate) fn rewrites(&self) -> u32 {
        self.rewrites
    }

    /// Enters a mount (see [`Url::enter_mount`]).
    #[inline(always)]
    pub(crate) fn enter_mount(
        &mut self,
        removed_len: usize,
        edge: Option<bool>,
        v5: bool,
    ) -> Option<Mounted> {
        let (target, uri) = (&self.absolute_target, &self.uri);
        self.url
            .enter_mount(|| original_url(target, uri), removed_len, edge, v5)
    }

    /// Leaves a mount (see [`Url::leave_mount`]).
    #[inline(always)]
    pub(crate) fn leave_mount(&mut self, mounted: Mounted) {
        let (target, uri) = (&self.absolute_target, &self.uri);
        self.url.leave_mount(|| original_url(target, uri), mounted);
    }

    /// `req.path`: the pathname of `req.url`.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/a/b?c");
    /// assert_eq!(req.path(), "/a/b");
    /// ```
    #[inline(always)]
    pub fn path(&self) -> &str {
        self.url
            .path(|| original_url(&self.absolute_target, &self.uri))
    }

    /// `req.baseUrl`: the path the current router was mounted on (the matched
    /// text, not the pattern).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert_eq!(req.base_url(), "");
    /// ```
    pub fn base_url(&self) -> &str {
        self.url.base_url(self.original_url())
    }

    /// `req.params`: route parameters, percent-decoded.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(req.params().is_empty());
    /// ```
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Mutable parameters (changes last until the next layer matches, as in Express).
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.params_mut().set("id", "7");
    /// assert_eq!(req.param("id"), Some("7"));
    /// ```
    pub fn params_mut(&mut self) -> &mut Params {
        &mut self.params
    }

    /// One route parameter by name (`req.params[name]`); numbered captures use
    /// `"0"`, `"1"`, ….
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.params_mut().set("0", "rest");
    /// assert_eq!(req.param("0"), Some("rest"));
    /// ```
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params.get(name)
    }

    /// `req.query`, parsed on first use by the outermost app's `query parser`
    /// (`extended` by default; `{}` when disabled), from the query of
    /// `req.originalUrl`: Express parses it before any middleware runs, so a
    /// rewritten `req.url` does not change it.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/?a[b]=1&a[c]=2");
    /// assert_eq!(req.query()["a"]["c"], "2");
    /// ```
    ///
    /// In an Express 5 app `req.query` is a getter: the `query parser` of
    /// the app the request is in (a sub-app's own), over the query of
    /// `req.url` (`simple` by default: `a[b]=1` is the key `a[b]`).
    pub fn query(&self) -> &Value {
        self.query.get_or_init(|| {
            if self.app.dialect().is_express5() {
                let raw = self.url().split_once('?').map(|(_, q)| q);
                return self.app.settings().query_parser.parse(raw);
            }
            let url = self.original_url();
            let raw = url.split_once('?').map(|(_, q)| q);
            self.top.settings().query_parser.parse(raw)
        })
    }

    /// Replaces `req.query`.
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/?a=1");
    /// req.set_query(serde_json::json!({"b": "2"}));
    /// assert_eq!(req.query()["b"], "2");
    /// ```
    pub fn set_query(&mut self, value: Value) {
        self.query = OnceLock::from(value);
    }

    /// The request body as it arrived. Body parsers take it; it is `Empty`
    /// afterwards.
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::POST, "/");
    /// assert!(matches!(req.take_body(), webfw::RawBody::Empty));
    /// ```
    pub fn take_body(&mut self) -> RawBody {
        std::mem::replace(&mut self.body, RawBody::Empty)
    }

    /// Gives the request a body again (a tower layer's view of it).
    #[cfg(feature = "tower")]
    pub(crate) fn put_raw_body(&mut self, body: RawBody) {
        self.body = body;
    }

    /// `req.app`: the application whose handler is running (a sub-app inside it).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert_eq!(req.app().setting_str("env").is_some(), true);
    /// ```
    pub fn app(&self) -> &AppRef {
        &self.app
    }

    /// The address of the connection's peer.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert_eq!(req.remote_addr().ip().to_string(), "127.0.0.1");
    /// ```
    pub fn remote_addr(&self) -> SocketAddr {
        self.remote
    }

    /// `req.ip`: the client address, honouring `trust proxy`.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert_eq!(req.ip(), "127.0.0.1");
    /// ```
    pub fn ip(&self) -> String {
        self.proxy_chain().0
    }

    /// `req.ips`: the `X-Forwarded-For` chain that `trust proxy` accepts, client first.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(req.ips().is_empty());
    /// ```
    pub fn ips(&self) -> Vec<String> {
        self.proxy_chain().1
    }

    fn proxy_chain(&self) -> (String, Vec<String>) {
        let trust = &self.app.settings().trust_proxy;
        let xff = self.headers().get("x-forwarded-for").and_then(header_str);
        crate::http::proxy_addr::proxy_chain(trust, canonical_ip(self.remote.ip()), xff)
    }

    fn trusts_peer(&self) -> bool {
        self.app
            .settings()
            .trust_proxy
            .trusts(canonical_ip(self.remote.ip()), 0)
    }

    /// `req.protocol`: `https` for TLS, else `http`; behind a trusted proxy the
    /// first `X-Forwarded-Proto` value (case kept).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert_eq!(req.protocol(), "http");
    /// ```
    pub fn protocol(&self) -> &str {
        let own = if self.secure { "https" } else { "http" };
        if !self.trusts_peer() {
            return own;
        }
        match self.headers().get("x-forwarded-proto").and_then(header_str) {
            Some(v) => v.split(',').next().unwrap_or("").trim(),
            None => own,
        }
    }

    /// `req.secure`: `req.protocol == "https"`.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(!req.secure());
    /// ```
    pub fn secure(&self) -> bool {
        self.protocol() == "https"
    }

    /// `req.hostname`: the Host header (or `X-Forwarded-Host` behind a trusted
    /// proxy) without the port.
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.headers_mut().insert("host", "example.com:3000".parse().unwrap());
    /// assert_eq!(req.hostname(), Some("example.com"));
    /// ```
    pub fn hostname(&self) -> Option<&str> {
        let host = self.host_with_port()?;
        let search_from = if host.starts_with('[') {
            host.find(']').map_or(0, |i| i + 1)
        } else {
            0
        };
        Some(match host[search_from..].find(':') {
            Some(i) => &host[..search_from + i],
            None => host,
        })
    }

    /// `req.host`. Express 5: the Host header (or the first
    /// `X-Forwarded-Host` behind a trusted proxy) with its port. Express 4:
    /// the deprecated alias of [`Request::hostname`], without it.
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.headers_mut().insert("host", "example.com:3000".parse().unwrap());
    /// assert_eq!(req.host(), Some("example.com"));
    /// ```
    pub fn host(&self) -> Option<&str> {
        if self.app.dialect().is_express5() {
            self.host_with_port()
        } else {
            self.hostname()
        }
    }

    /// Express 5's `req.host`, which `req.hostname` derives from in both.
    fn host_with_port(&self) -> Option<&str> {
        let mut host = None;
        if self.trusts_peer() {
            host = self
                .headers()
                .get("x-forwarded-host")
                .and_then(header_str)
                .map(|h| match h.find(',') {
                    Some(i) => h[..i].trim_end(),
                    None => h,
                });
        }
        let host = match host {
            Some(h) => h,
            None => match self.headers().get(http::header::HOST).and_then(header_str) {
                Some(h) => h,
                None => self.uri.host()?,
            },
        };
        if host.is_empty() {
            return None;
        }
        Some(host)
    }

    /// `req.subdomains`: host labels right to left, minus `subdomain offset` of them.
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.headers_mut().insert("host", "tobi.ferrets.example.com".parse().unwrap());
    /// assert_eq!(req.subdomains(), vec!["ferrets", "tobi"]);
    /// ```
    pub fn subdomains(&self) -> Vec<String> {
        let Some(host) = self.hostname() else {
            return Vec::new();
        };
        let offset = self.app.settings().subdomain_offset;
        let labels: Vec<String> = if host.parse::<IpAddr>().is_ok() {
            vec![host.to_owned()]
        } else {
            host.split('.').rev().map(str::to_owned).collect()
        };
        labels.into_iter().skip(offset).collect()
    }

    /// `req.xhr`: `X-Requested-With` is `XMLHttpRequest` (any case).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(!req.xhr());
    /// ```
    pub fn xhr(&self) -> bool {
        self.headers()
            .get("x-requested-with")
            .and_then(header_str)
            .is_some_and(|v| v.eq_ignore_ascii_case("xmlhttprequest"))
    }

    /// Per-request values shared between middleware, as JSON (Express code sets
    /// arbitrary properties on `req`; this is where they go).
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.set_local("user", serde_json::json!("tobi"));
    /// assert_eq!(req.local("user"), Some(&serde_json::json!("tobi")));
    /// ```
    pub fn local(&self, key: &str) -> Option<&Value> {
        self.locals.as_ref()?.get(key)
    }

    /// Sets a per-request value (see [`Request::local`]).
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.set_local("n", serde_json::json!(1));
    /// ```
    pub fn set_local(&mut self, key: impl Into<String>, value: Value) {
        self.locals_mut().insert(key.into(), value);
    }

    /// All per-request JSON values, mutable.
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.locals_mut().insert("a".into(), serde_json::json!([]));
    /// assert!(req.local("a").is_some());
    /// ```
    pub fn locals_mut(&mut self) -> &mut Map<String, Value> {
        self.locals.get_or_insert_with(Box::default)
    }

    /// Typed per-request values. A request from a connection starts with
    /// those the server attached (the handle [`Response::upgrade`](crate::Response::upgrade)
    /// takes, for a request asking to upgrade the connection).
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.extensions_mut().insert(42u32);
    /// assert_eq!(req.extensions().get::<u32>(), Some(&42));
    /// ```
    pub fn extensions(&self) -> &http::Extensions {
        &self.extensions
    }

    /// Mutable typed per-request values.
    ///
    /// ```
    /// let mut req = webfw::testing::request(http::Method::GET, "/");
    /// req.extensions_mut().insert("x");
    /// ```
    pub fn extensions_mut(&mut self) -> &mut http::Extensions {
        &mut self.extensions
    }
}

/// Request headers of which Node keeps only the first value when repeated
/// (`matchKnownFields` in `_http_incoming.js`).
pub(crate) const FIRST_VALUE_WINS: &[&str] = &[
    "age",
    "authorization",
    "content-length",
    "content-type",
    "etag",
    "expires",
    "from",
    "host",
    "if-modified-since",
    "if-unmodified-since",
    "last-modified",
    "location",
    "max-forwards",
    "proxy-authorization",
    "referer",
    "retry-after",
    "server",
    "user-agent",
];

/// Folds repeated request headers into one value as Node's `req.headers` does:
/// `cookie` lines are joined with `; `, the [`FIRST_VALUE_WINS`] headers keep
/// their first line, `set-cookie` stays a list, and any other header is joined
/// with `, `. Costs one comparison when no name repeats.
#[inline(always)]
fn fold_repeated_headers(headers: &mut HeaderMap) {
    if headers.len() != headers.keys_len() {
        fold_repeated(headers);
    }
}

/// [`fold_repeated_headers`] when some name repeats.
#[cold]
fn fold_repeated(headers: &mut HeaderMap) {
    let repeated: Vec<http::HeaderName> = headers
        .keys()
        .filter(|name| headers.get_all(*name).iter().nth(1).is_some())
        .cloned()
        .collect();
    for name in repeated {
        let separator: &[u8] = match name.as_str() {
            "set-cookie" => continue,
            "cookie" => b"; ",
            n if FIRST_VALUE_WINS.contains(&n) => {
                if let Some(first) = headers.get(&name).cloned() {
                    headers.insert(name, first);
                }
                continue;
            }
            _ => b", ",
        };
        let mut joined = Vec::new();
        for (i, v) in headers.get_all(&name).iter().enumerate() {
            if i > 0 {
                joined.extend_from_slice(separator);
            }
            joined.extend_from_slice(v.as_bytes());
        }
        if let Ok(v) = HeaderValue::from_bytes(&joined) {
            headers.insert(name, v);
        }
    }
}

/// A header value as text, if it is valid UTF-8.
pub(crate) fn header_str(v: &HeaderValue) -> Option<&str> {
    std::str::from_utf8(v.as_bytes()).ok()
}

/// IPv4-mapped IPv6 peers are reported as IPv4, as Node does for dual-stack sockets.
fn canonical_ip(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// Length of `scheme://host` at the start of an absolute-form URL, else 0.
pub(crate) fn protohost_len(url: &str) -> usize {
    if url.is_empty() || url.starts_with('/') {
        return 0;
    }
    let search_end = url.find('?').unwrap_or(url.len());
    match url[..search_end].find("://") {
        Some(i) => {
            let after = i + 3;
            url[after..].find('/').map_or(url.len(), |j| after + j)
        }
        None => 0,
    }
}

/// `req.originalUrl`, from the fields that hold it (borrowing only those).
#[inline]
fn original_url<'a>(absolute_target: &'a Option<String>, uri: &'a Uri) -> &'a str {
    if let Some(abs) = absolute_target {
        return abs;
    }
    match uri.path_and_query() {
        Some(pq) => pq.as_str(),
        None => uri.path(),
    }
}

/// The pathname of a URL (query removed; for absolute-form, the path part).
pub(crate) fn pathname(url: &str) -> &str {
    let rest = &url[protohost_len(url)..];
    &rest[..path_len(rest)]
}

/// The length of the path at the start of `rest` (up to any query).
pub(crate) fn path_len(rest: &str) -> usize {
    crate::http::find_byte(b'?', rest.as_bytes()).unwrap_or(rest.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(lines: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in lines {
            h.append(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn repeated_headers_fold_like_node() {
        let mut h = map(&[
            ("x-custom", "one"),
            ("x-custom", "two"),
            ("cookie", "a=1"),
            ("cookie", "b=2"),
            ("user-agent", "first"),
            ("user-agent", "second"),
            ("set-cookie", "s=1"),
            ("set-cookie", "s=2"),
            ("accept", "text/html"),
        ]);
        fold_repeated_headers(&mut h);
        assert_eq!(
            h.get_all("x-custom").iter().collect::<Vec<_>>(),
            ["one, two"]
        );
        assert_eq!(h.get_all("cookie").iter().collect::<Vec<_>>(), ["a=1; b=2"]);
        assert_eq!(
            h.get_all("user-agent").iter().collect::<Vec<_>>(),
            ["first"]
        );
        assert_eq!(h.get_all("set-cookie").iter().count(), 2);
        assert_eq!(h.get("accept").unwrap(), "text/html");
    }
}
