//! The response object (`res`).
//!
//! Headers are collected here until the head is committed by `send`, `end`,
//! `json` or the first `write`; at that moment status and headers are handed to
//! the server (design decision 4), `on_headers` hooks run just before, and
//! `on_finish` hooks run once the last byte has been handed to the connection.

mod attachment;
mod backpressure;
mod body_memo;
mod cookie;
mod encode;
mod format;
mod fresh;
mod jsonp;
mod links;
pub(crate) mod outbox;
#[cfg(feature = "views")]
mod render;
mod send;
mod send_file;
mod serde_body;
#[cfg(feature = "http2")]
pub(crate) mod session_memory;
mod upgrade;

use std::sync::Arc;
use std::time::Instant;

use http::header::{CONTENT_TYPE, ETAG, LAST_MODIFIED};
use http::{HeaderMap, HeaderName, HeaderValue, Method};
use serde_json::{Map, Value};

use crate::app_ref::AppRef;
use crate::error::Error;
use crate::header_pool;
use crate::inline_option::InlineOption;
use crate::outcome::Result;
use crate::request::{Request, header_str};
use outbox::{Head, HeadBody, Mailbox, Outbox};

pub use cookie::{CookieOptions, CookieValue};
#[cfg(feature = "compression")]
pub(crate) use encode::BodyEncoder;
pub use format::{BranchFuture, Format, NotAcceptable};
pub use send::{JsonBody, SendBody};
pub use serde_body::Json;

type HeadersHook = Box<dyn FnOnce(&mut Response) + Send>;
type FinishFn = Box<dyn FnOnce(&Request, &Response) + Send>;

enum FinishHook {
    /// Registered with `on_finish`: may read every response header.
    Once(FinishFn),
    /// With the instant it was registered, for hooks that time the response.
    #[cfg_attr(not(any(feature = "logger", feature = "tracing")), allow(dead_code))]
    Shared(Arc<dyn SharedFinish>, Option<Instant>),
}

/// Hooks beyond a single `on_finish` one, and what `on_headers` hooks
/// leave behind, boxed: most responses have none (the logger's is the
/// single one), and even empty vectors cost something to drop on every
/// request.
#[derive(Default)]
struct MoreHooks {
    on_headers: Vec<HeadersHook>,
    /// `on_finish` hooks after the first.
    on_finish: Vec<FinishHook>,
    /// What encodes the body (see `encode.rs`).
    encoder: Option<Box<dyn encode::BodyEncoder>>,
    /// The complete body's length while `on_headers` hooks run.
    #[cfg(feature = "compression")]
    committing_length: Option<usize>,
}

/// An `on_finish` hook shared by every request (the logger's): registering
/// it allocates nothing, and the head keeps for it only the response headers
/// it declares (hyper takes the originals; copying them all costs more).
pub(crate) trait SharedFinish: Send + Sync {
    /// The response headers `finish` reads, lower-case; `None`: any.
    fn reads(&self) -> Option<&[HeaderName]>;
    /// Whether `finish` depends on nothing but the request and the
    /// complete response (not on when the response was written): it may
    /// then run as soon as the response is complete, before it is written.
    fn runs_early(&self) -> bool;
    /// `since`: as given to [`Response::on_finish_shared`].
    fn finish(&self, req: &Request, res: &Response, since: Option<Instant>);
}

/// The response being prepared: Express's `res`.
///
/// ```
/// use webfw::prelude::*;
/// fn created(_req: &mut Request, res: &mut Response) -> Result {
///     res.status(201).set("X-Id", "7").json(&serde_json::json!({ "id": 7 }))
/// }
/// ```
pub struct Response {
    status: u16,
    /// `None` until a header is set and once the head has left: dropping
    /// even an empty map costs something on every request.
    headers: Option<Box<HeaderMap>>,
    headers_sent: bool,
    finished: bool,
    method: Method,
    /// Conditional-request headers copied from the request, for `send`'s
    /// freshness check (`req.fresh` in Express reads them through `res.req`).
    conditional: InlineOption<Box<Conditional>>,
    /// The request's `Accept` header, for `redirect`'s negotiation.
    pub(crate) accept: Option<HeaderValue>,
    /// The request's `Referrer` (else `Referer`) header, for `location('back')`.
    pub(crate) referrer: Option<HeaderValue>,
    pub(crate) app: AppRef,
    /// Boxed for the same reason as the request's.
    locals: InlineOption<Box<Map<String, Value>>>,
    /// The first `on_finish` hook (inline: a vector would allocate for it).
    on_finish: Option<FinishHook>,
    more_hooks: InlineOption<Box<MoreHooks>>,
    /// A header value that could not be set; reported by the next send/end
    /// (Node throws from `setHeader`; the chainable API defers it).
    deferred: Option<Error>,
    /// Where the head and body go.
    pub(crate) outbox: Outbox,
    /// The `Content-Length` of the body `send` sized, when it was left out of
    /// `headers` because every hook declares what it reads.
    sent_length: Option<usize>,
    /// What `headers` holds as `Content-Type`, known without a lookup.
    content_type: Known,
    /// Whether `headers` surely has no `ETag` (spares `send` a lookup).
    no_etag: bool,
    /// Whether to record `head_at` (a hook times the response).
    time_head: bool,
    /// When the head was committed, if `time_head`.
    head_at: Option<Instant>,
    /// The secret `res.cookie` signs with (`req.secret`), set by
    /// `cookie_parser`.
    #[cfg(feature = "cookie-parser")]
    pub(crate) cookie_secret: Option<Arc<str>>,
}

impl Drop for Response {
    fn drop(&mut self) {
        // Still here only when the head never left, or for hooks.
        if let Some(map) = self.headers.take() {
            header_pool::give_box(map);
        }
    }
}

/// The `Content-Type` as far as the response followed it: `send` then skips
/// the lookup and the charset check. Changes it does not follow (through
/// `headers_mut`) make it `Unknown`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Known {
    Absent,
    /// One value, in the form `set_charset(_, "utf-8")` returns unchanged.
    Utf8,
    Unknown,
}

#[derive(Default)]
struct Conditional {
    if_none_match: Option<HeaderValue>,
    if_modified_since: Option<HeaderValue>,
    cache_control: Option<HeaderValue>,
}

impl Response {
    pub(crate) fn new(req: &Request, mailbox: Arc<Mailbox>) -> Response {
        let mut slot = InlineOption::none();
        Response::new_in(&mut slot, req, mailbox);
        slot.take()
            .unwrap_or_else(|| unreachable!("new_in fills the slot"))
    }

    /// A response to `req`, built in `slot` (built aside and moved there,
    /// the ~230-byte response would be copied once more).
    #[inline(always)]
    pub(crate) fn new_in<'s>(
        slot: &'s mut InlineOption<Response>,
        req: &Request,
        mailbox: Arc<Mailbox>,
    ) -> &'s mut Response {
        let res = slot.fill(Response {
            status: 200,
            headers: None,
            headers_sent: false,
            finished: false,
            method: req.method().clone(),
            conditional: InlineOption::none(),
            accept: None,
            referrer: None,
            app: req.app.clone(),
            locals: InlineOption::none(),
            on_finish: None,
            more_hooks: InlineOption::none(),
            deferred: None,
            outbox: Outbox::new(mailbox),
            sent_length: None,
            content_type: Known::Absent,
            no_etag: true,
            time_head: false,
            head_at: None,
            #[cfg(feature = "cookie-parser")]
            cookie_secret: None,
        });
        // One pass over the request's headers (a lookup each would cost
        // several times more on the common path, where none is present).
        // Repeated names were folded into their first entry already.
        let mut referer = None;
        let mut cache_control = None;
        for (name, value) in req.headers() {
            let field = match *name {
                http::header::ACCEPT => &mut res.accept,
                http::header::REFERER => &mut referer,
                http::header::CACHE_CONTROL => &mut cache_control,
                http::header::IF_NONE_MATCH => {
                    &mut res
                        .conditional
                        .get_or_insert_with(Box::default)
                        .if_none_match
                }
                http::header::IF_MODIFIED_SINCE => {
                    &mut res
                        .conditional
                        .get_or_insert_with(Box::default)
                        .if_modified_since
                }
                _ if name.as_str() == "referrer" => &mut res.referrer,
                _ => continue,
            };
            *field = Some(value.clone());
        }
        if res.referrer.is_none() {
            res.referrer = referer;
        }
        if let Some(conditional) = res.conditional.as_mut() {
            conditional.cache_control = cache_control;
        }
        res
    }

    /// `res.status(code)`: sets the status code; chainable. Codes outside
    /// 100–999 fail when the head is sent.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.status(404);
    /// assert_eq!(res.status_code(), 404);
    /// ```
    ///
    /// In an Express 5 app a code outside 100–999 is refused at once: the
    /// status stays, and the next `send`, `json` or `end` fails with the
    /// `RangeError` before it sets any header.
    pub fn status(&mut self, code: u16) -> &mut Self {
        if !(100..=999).contains(&code) && self.app.dialect().is_express5() {
            self.deferred = Some(
                Error::new(format!(
                    "Invalid status code: {code}. Status code must be greater than 99 and less than 1000."
                ))
                .with_name("RangeError"),
            );
            return self;
        }
        self.status = code;
        self
    }

    /// An error Express 5 would have thrown before the current send: it
    /// ends the send before any header is set.
    #[inline(always)]
    pub(crate) fn thrown(&mut self) -> Option<Error> {
        if self.deferred.is_some() && self.app.dialect().is_express5() {
            return self.deferred.take();
        }
        None
    }

    /// `res.statusCode`.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert_eq!(webfw::testing::response(&req).status_code(), 200);
    /// ```
    pub fn status_code(&self) -> u16 {
        self.status
    }

    /// `res.headersSent`.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(!webfw::testing::response(&req).headers_sent());
    /// ```
    pub fn headers_sent(&self) -> bool {
        self.headers_sent
    }

    /// True once the whole response has been handed over (`res.writableEnded`).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.end().unwrap();
    /// assert!(res.finished());
    /// ```
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// `res.set(field, value)` / `res.header`: sets a header. `Content-Type`
    /// gains `; charset=utf-8` for text, JavaScript and JSON types without a
    /// charset, as in Express.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.set("Content-Type", "text/html");
    /// assert_eq!(res.get("content-type"), Some("text/html; charset=utf-8"));
    /// ```
    pub fn set(&mut self, field: &str, value: impl AsRef<str>) -> &mut Self {
        let value = value.as_ref();
        let Some(name) = self.header_name(field) else {
            return self;
        };
        if name == CONTENT_TYPE {
            self.set_content_type(value);
        } else {
            self.insert_value(name, value);
        }
        self
    }

    /// `res.set(field, [values…])`: one header line per value.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.set_all("X-Three", ["a", "b"]);
    /// assert_eq!(res.get_all("x-three"), vec!["a", "b"]);
    /// ```
    pub fn set_all<I, S>(&mut self, field: &str, values: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let Some(name) = self.header_name(field) else {
            return self;
        };
        if name == CONTENT_TYPE {
            self.deferred =
                Some(Error::new("Content-Type cannot be set to an Array").with_name("TypeError"));
            return self;
        }
        self.map_mut().remove(&name);
        for v in values {
            self.append_value(name.clone(), v.as_ref());
        }
        self
    }

    /// `res.set({…})`: several headers at once.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.set_many([("X-One", "1"), ("X-Two", "2")]);
    /// assert_eq!(res.get("x-two"), Some("2"));
    /// ```
    pub fn set_many<I, K, V>(&mut self, fields: I) -> &mut Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<str>,
        V: AsRef<str>,
    {
        for (k, v) in fields {
            self.set(k.as_ref(), v);
        }
        self
    }

    /// Alias of [`Response::set`].
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.header("X-A", "1");
    /// ```
    pub fn header(&mut self, field: &str, value: impl AsRef<str>) -> &mut Self {
        self.set(field, value)
    }

    /// `res.append(field, value)`: adds a header line, keeping earlier ones.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.append("X-Multi", "one").append("X-Multi", "two");
    /// assert_eq!(res.get_all("x-multi"), vec!["one", "two"]);
    /// ```
    pub fn append(&mut self, field: &str, value: impl AsRef<str>) -> &mut Self {
        if let Some(name) = self.header_name(field) {
            if !self.map().contains_key(&name) {
                // Express: a first value goes through res.set (charset rule).
                return self.set(field, value);
            }
            self.append_value(name, value.as_ref());
        }
        self
    }

    /// `res.get(field)`: the first value of a response header (before the head
    /// is sent; afterwards only while hooks registered with
    /// [`Response::on_finish`] are pending).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.set("X-A", "a");
    /// assert_eq!(res.get("x-a"), Some("a"));
    /// ```
    pub fn get(&self, field: &str) -> Option<&str> {
        self.map().get(field).and_then(header_str)
    }

    /// Every value of a response header, in order.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let res = webfw::testing::response(&req);
    /// assert!(res.get_all("x-none").is_empty());
    /// ```
    pub fn get_all(&self, field: &str) -> Vec<&str> {
        self.map()
            .get_all(field)
            .iter()
            .filter_map(header_str)
            .collect()
    }

    /// `res.removeHeader(field)`.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.set("X-A", "1").remove_header("x-a");
    /// assert_eq!(res.get("x-a"), None);
    /// ```
    pub fn remove_header(&mut self, field: &str) -> &mut Self {
        self.map_mut().remove(field);
        // The Content-Type may be gone; `no_etag` holds (removing adds nothing).
        self.content_type = Known::Unknown;
        self
    }

    /// All response headers.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// assert!(webfw::testing::response(&req).headers().is_empty());
    /// ```
    pub fn headers(&self) -> &HeaderMap {
        self.map()
    }

    /// Mutable response headers (no Express charset rules applied).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.headers_mut().insert("x-raw", http::HeaderValue::from_static("1"));
    /// ```
    pub fn headers_mut(&mut self) -> &mut HeaderMap {
        self.content_type = Known::Unknown;
        self.no_etag = false;
        self.map_mut()
    }

    fn map(&self) -> &HeaderMap {
        match &self.headers {
            Some(h) => h,
            None => header_pool::empty(),
        }
    }

    fn map_mut(&mut self) -> &mut HeaderMap {
        self.headers.get_or_insert_with(header_pool::take)
    }

    /// Sets a header the framework adds itself (`X-Powered-By`), keeping
    /// what the response knows of its `Content-Type` and `ETag`.
    pub(crate) fn insert_header(&mut self, name: HeaderName, value: HeaderValue) {
        self.note(&name);
        self.map_mut().insert(name, value);
    }

    /// Forgets what is known of `name` before it is set or appended.
    fn note(&mut self, name: &HeaderName) {
        if *name == CONTENT_TYPE {
            self.content_type = Known::Unknown;
        } else if *name == ETAG {
            self.no_etag = false;
        }
    }

    /// `res.type(t)` / `res.contentType(t)`: a MIME type (containing `/`) as
    /// given, else a file extension looked up in the MIME table.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.type_("json");
    /// assert_eq!(res.get("content-type"), Some("application/json; charset=utf-8"));
    /// ```
    ///
    /// An Express 5 app looks extensions up in mime-types 3 (`js` is
    /// `text/javascript; charset=utf-8`, an unknown one
    /// `application/octet-stream`).
    pub fn type_(&mut self, t: &str) -> &mut Self {
        if self.app.dialect().is_express5() {
            let ct = if t.contains('/') {
                std::borrow::Cow::Borrowed(t)
            } else {
                crate::http::mime::v3::content_type_or_octet_stream(t)
            };
            self.set_content_type(&ct);
            return self;
        }
        // The common types first: they all contain `/`.
        if let Some(v) = crate::http::mime::with_utf8_static(t) {
            self.put_static_type(v);
        } else if t.contains('/') {
            self.set_content_type(t);
        } else {
            self.set_content_type(crate::http::mime::lookup(t));
        }
        self
    }

    /// `res.set('Content-Type', v)`: the charset rule, with the common values
    /// served from static strings (this runs on most requests).
    fn set_content_type(&mut self, value: &str) {
        if self.app.dialect().is_express5() {
            // The common values first, as below: mime-types 3 gives each
            // the same (webfw-http's `static_types_agree_with_mime_types_3`).
            if let Some(v) = crate::http::mime::with_utf8_static(value) {
                self.put_static_type(v);
                return;
            }
            // mime-types 3's `contentType`; Node writes its `false` as text.
            let v = crate::http::mime::v3::content_type(value);
            self.insert_value(CONTENT_TYPE, v.as_deref().unwrap_or("false"));
            return;
        }
        if let Some(v) = crate::http::mime::with_utf8_static(value) {
            self.put_static_type(v);
            return;
        }
        let v = crate::http::content_type::with_default_charset(value);
        self.insert_value(CONTENT_TYPE, &v);
    }

    /// Sets a value of `with_utf8_static`'s table.
    fn put_static_type(&mut self, v: HeaderValue) {
        // The table's values are lower-case with no other parameter.
        let utf8 = v.as_bytes().ends_with(b"; charset=utf-8");
        self.put_content_type(v, utf8);
    }

    /// Sets a Content-Type the framework chose; `utf8`: it is in the form
    /// `set_charset(_, "utf-8")` leaves unchanged.
    fn put_content_type(&mut self, v: HeaderValue, utf8: bool) {
        self.content_type = if utf8 { Known::Utf8 } else { Known::Unknown };
        self.map_mut().insert(CONTENT_TYPE, v);
    }

    /// Alias of [`Response::type_`].
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.content_type("text/plain");
    /// ```
    pub fn content_type(&mut self, t: &str) -> &mut Self {
        self.type_(t)
    }

    /// `res.vary(field)`: adds the field to `Vary` unless present.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.vary("Accept").vary("accept");
    /// assert_eq!(res.get("vary"), Some("Accept"));
    /// ```
    pub fn vary(&mut self, field: &str) -> &mut Self {
        let current = self.get("vary").map(str::to_owned);
        match crate::http::vary::append_vary(current.as_deref(), &[field]) {
            Ok(v) if Some(v.as_str()) != current.as_deref() => {
                self.set("Vary", v);
            }
            Ok(_) => {}
            Err(e) => self.deferred = Some(Error::new(e.to_string()).with_name("TypeError")),
        }
        self
    }

    /// `res.locals`: values for this request's templates and later handlers.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.locals_mut().insert("title".into(), serde_json::json!("Home"));
    /// assert_eq!(res.locals()["title"], "Home");
    /// ```
    pub fn locals(&self) -> &Map<String, Value> {
        static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
        match &*self.locals {
            Some(m) => m,
            None => EMPTY.get_or_init(Map::new),
        }
    }

    /// Mutable `res.locals`.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.locals_mut().insert("n".into(), serde_json::json!(1));
    /// ```
    pub fn locals_mut(&mut self) -> &mut Map<String, Value> {
        self.locals.get_or_insert_with(Box::default)
    }

    /// `res.app`: the application handling the request.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let res = webfw::testing::response(&req);
    /// assert!(res.app().enabled("x-powered-by"));
    /// ```
    pub fn app(&self) -> &AppRef {
        &self.app
    }

    /// Runs `hook` just before the head is sent; it may still change headers
    /// (the `on-headers` module in Node).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.on_headers(|res| { res.set("X-Late", "1"); });
    /// ```
    pub fn on_headers(&mut self, hook: impl FnOnce(&mut Response) + Send + 'static) {
        self.more_hooks().on_headers.push(Box::new(hook));
    }

    /// Runs `hook` once the response is finished: its last byte was handed to
    /// the connection, or the client went away (`on-finished` in Node). The
    /// response passed in still has its headers.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.on_finish(|req, res| eprintln!("{} {}", req.method(), res.status_code()));
    /// ```
    pub fn on_finish(&mut self, hook: impl FnOnce(&Request, &Response) + Send + 'static) {
        self.push_finish(FinishHook::Once(Box::new(hook)));
    }

    /// [`Response::on_finish`] for a hook that declares what it reads.
    /// `since` is handed back to the hook (a timing hook's start).
    #[cfg_attr(not(any(feature = "logger", feature = "tracing")), allow(dead_code))]
    pub(crate) fn on_finish_shared(&mut self, hook: Arc<dyn SharedFinish>, since: Option<Instant>) {
        self.push_finish(FinishHook::Shared(hook, since));
    }

    fn more_hooks(&mut self) -> &mut MoreHooks {
        self.more_hooks.get_or_insert_with(Box::default)
    }

    fn push_finish(&mut self, hook: FinishHook) {
        if self.on_finish.is_none() {
            self.on_finish = Some(hook);
        } else {
            self.more_hooks().on_finish.push(hook);
        }
    }

    /// The `on_finish` hooks in registration order.
    fn finish_hooks(&self) -> impl Iterator<Item = &FinishHook> {
        let more: &[FinishHook] = self.more_hooks.as_ref().map_or(&[], |m| &m.on_finish);
        self.on_finish.iter().chain(more)
    }

    fn has_headers_hooks(&self) -> bool {
        self.more_hooks
            .as_ref()
            .is_some_and(|m| !m.on_headers.is_empty())
    }

    /// Records when the head is committed (what an `on_headers` hook taking
    /// the time would see, without the hook).
    #[cfg_attr(not(feature = "logger"), allow(dead_code))]
    pub(crate) fn time_head(&mut self) {
        self.time_head = true;
    }

    /// When the head was committed, if [`Response::time_head`] was asked for.
    #[cfg_attr(not(feature = "logger"), allow(dead_code))]
    pub(crate) fn head_at(&self) -> Option<Instant> {
        self.head_at
    }

    /// Whether the `on_finish` hooks may run once the response is complete
    /// rather than once it is written: a single shared hook that says so.
    pub(crate) fn finish_hooks_run_early(&self) -> bool {
        match (&self.on_finish, &*self.more_hooks) {
            (Some(FinishHook::Shared(h, _)), None) => h.runs_early(),
            _ => false,
        }
    }

    pub(crate) fn has_finish_hooks(&self) -> bool {
        self.on_finish.is_some()
    }

    /// Whether a hook may read any header around the moment they are sent.
    fn hooks_read_all(&self) -> bool {
        self.has_headers_hooks()
            || self.finish_hooks().any(|h| match h {
                FinishHook::Once(_) => true,
                FinishHook::Shared(h, _) => h.reads().is_none(),
            })
    }

    /// The Content-Length `send` set but did not store (no hook reads every
    /// header): what a declared reader of `content-length` sees once the
    /// head is sent.
    #[cfg_attr(not(feature = "logger"), allow(dead_code))]
    pub(crate) fn sent_length(&self) -> Option<usize> {
        self.sent_length
    }

    pub(crate) fn run_finish_hooks(&mut self, req: &Request) {
        // Without a chained iterator, whose drop alone cost more than this.
        if let Some(hook) = self.on_finish.take() {
            self.run_finish_hook(hook, req);
        }
        if let Some(more) = self.more_hooks.as_mut() {
            for hook in std::mem::take(&mut more.on_finish) {
                self.run_finish_hook(hook, req);
            }
        }
    }

    fn run_finish_hook(&self, hook: FinishHook, req: &Request) {
        match hook {
            FinishHook::Once(f) => f(req, self),
            FinishHook::Shared(h, since) => h.finish(req, self, since),
        }
    }

    /// The headers `on_finish` hooks declared, copied (`Some(None)`: none
    /// present); `None` when one may read any.
    fn kept_for_hooks(&self) -> Option<Option<Box<HeaderMap>>> {
        let mut kept: Option<Box<HeaderMap>> = None;
        for hook in self.finish_hooks() {
            let FinishHook::Shared(h, _) = hook else {
                return None;
            };
            let reads = h.reads()?;
            // A pass over the names present: cheaper than hashing each
            // declared one, and most are absent.
            for name in self.map().keys() {
                if !reads.contains(name) {
                    continue;
                }
                let kept = kept.get_or_insert_with(header_pool::take);
                if !kept.contains_key(name) {
                    for v in self.map().get_all(name) {
                        kept.append(name.clone(), v.clone());
                    }
                }
            }
        }
        Some(kept)
    }

    pub(crate) fn set_app(&mut self, app: AppRef) {
        self.app = app;
    }

    pub(crate) fn method(&self) -> &Method {
        &self.method
    }

    /// `req.fresh` with the request's conditional headers (see [`Request::fresh`]).
    pub(crate) fn is_fresh_for(&self, method: &Method, req_headers: &HeaderMap) -> bool {
        if !fresh_method(method) {
            return false;
        }
        if !((200..300).contains(&self.status) || self.status == 304) {
            return false;
        }
        let h = |n: http::header::HeaderName| req_headers.get(n).and_then(header_str);
        self.fresh_rule()(
            h(http::header::IF_NONE_MATCH),
            h(http::header::IF_MODIFIED_SINCE),
            h(http::header::CACHE_CONTROL),
            self.get(ETAG.as_str()),
            self.get(LAST_MODIFIED.as_str()),
        )
    }

    /// fresh 0.5 (Express 4: both conditions must hold) or fresh 2
    /// (Express 5: `If-None-Match` decides alone).
    #[inline]
    fn fresh_rule(&self) -> FreshRule {
        if self.app.dialect().is_express5() {
            crate::http::fresh::is_fresh_v2
        } else {
            crate::http::fresh::is_fresh
        }
    }

    /// Freshness from the copied conditional headers (no request at hand).
    fn is_fresh(&self) -> bool {
        let Some(c) = &*self.conditional else {
            return false;
        };
        if !fresh_method(&self.method) {
            return false;
        }
        if !((200..300).contains(&self.status) || self.status == 304) {
            return false;
        }
        fn s(v: &Option<HeaderValue>) -> Option<&str> {
            v.as_ref().and_then(header_str)
        }
        self.fresh_rule()(
            s(&c.if_none_match),
            s(&c.if_modified_since),
            s(&c.cache_control),
            self.get(ETAG.as_str()),
            self.get(LAST_MODIFIED.as_str()),
        )
    }

    fn header_name(&mut self, field: &str) -> Option<HeaderName> {
        // Skip the general parser for the names handlers set most.
        for known in [
            CONTENT_TYPE,
            http::header::LOCATION,
            http::header::VARY,
            ETAG,
        ] {
            if field.eq_ignore_ascii_case(known.as_str()) {
                return Some(known);
            }
        }
        match HeaderName::from_bytes(field.as_bytes()) {
            Ok(n) => Some(n),
            Err(_) => {
                self.deferred = Some(
                    Error::new(format!(
                        "Header name must be a valid HTTP token [\"{field}\"]"
                    ))
                    .with_name("TypeError"),
                );
                None
            }
        }
    }

    fn header_value(&mut self, name: &HeaderName, value: &str) -> Option<HeaderValue> {
        match HeaderValue::from_str(value) {
            Ok(v) => Some(v),
            Err(_) => match HeaderValue::from_bytes(value.as_bytes()) {
                Ok(v) => Some(v),
                Err(_) => {
                    self.deferred = Some(
                        Error::new(format!(
                            "Invalid character in header content [\"{}\"]",
                            name.as_str()
                        ))
                        .with_name("TypeError"),
                    );
                    None
                }
            },
        }
    }

    pub(crate) fn insert_value(&mut self, name: HeaderName, value: &str) {
        if let Some(v) = self.header_value(&name, value) {
            self.note(&name);
            self.map_mut().insert(name, v);
        }
    }

    fn append_value(&mut self, name: HeaderName, value: &str) {
        if let Some(v) = self.header_value(&name, value) {
            self.note(&name);
            self.map_mut().append(name, v);
        }
    }

    /// Hands status and headers to the server. Runs `on_headers` hooks first,
    /// then the body encoder one of them may have set.
    pub(crate) fn commit(&mut self, mut body: HeadBody) -> Result<()> {
        if self.headers_sent {
            return Err(headers_sent_error());
        }
        if let Some(err) = self.deferred.take() {
            return Err(err);
        }
        // on-headers wraps writeHead once per registration, so the hook
        // registered last runs first.
        if let Some(more) = self.more_hooks.as_mut()
            && !more.on_headers.is_empty()
        {
            #[cfg(feature = "compression")]
            {
                more.committing_length = match &body {
                    HeadBody::Full(b) => Some(b.len()),
                    HeadBody::Empty => Some(0),
                    HeadBody::Stream => None,
                };
            }
            for hook in std::mem::take(&mut more.on_headers).into_iter().rev() {
                hook(self);
            }
            body = self.encode_head_body(body);
        }
        // Kept from a first attempt that failed (bad status), as a hook's
        // record would be.
        if self.time_head && self.head_at.is_none() {
            self.head_at = Some(Instant::now());
        }
        if !(100..=999).contains(&self.status) {
            return Err(
                Error::new(format!("Invalid status code: {}", self.status)).with_name("RangeError")
            );
        }
        self.headers_sent = true;
        let streaming = matches!(body, HeadBody::Stream);
        let headers = if self.on_finish.is_none() {
            self.headers.take()
        } else if let Some(kept) = self.kept_for_hooks() {
            std::mem::replace(&mut self.headers, kept)
        } else {
            self.headers.clone()
        };
        self.outbox.put_head(Head {
            status: self.status,
            headers: headers.unwrap_or_else(header_pool::take),
            body,
        });
        self.finished = !streaming;
        Ok(())
    }
}

/// Node's `ERR_HTTP_HEADERS_SENT`.
pub(crate) fn headers_sent_error() -> Error {
    Error::new("Cannot set headers after they are sent to the client")
}

/// `fresh(If-None-Match, If-Modified-Since, Cache-Control, ETag,
/// Last-Modified)`.
type FreshRule = fn(Option<&str>, Option<&str>, Option<&str>, Option<&str>, Option<&str>) -> bool;

/// The methods whose answers can be fresh: GET, HEAD and QUERY (express
/// 4.22 and 5 alike).
#[inline]
fn fresh_method(method: &Method) -> bool {
    *method == Method::GET || *method == Method::HEAD || method.as_str() == "QUERY"
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    /// A declared reader of `x-kept` that records what it saw.
    struct Reader(Arc<Mutex<Vec<String>>>);

    impl SharedFinish for Reader {
        fn reads(&self) -> Option<&[HeaderName]> {
            static NAMES: [HeaderName; 1] = [HeaderName::from_static("x-kept")];
            Some(&NAMES)
        }
        fn runs_early(&self) -> bool {
            false
        }
        fn finish(&self, _req: &Request, res: &Response, _since: Option<Instant>) {
            let seen = format!(
                "shared {:?} {:?} {:?}",
                res.get("x-kept"),
                res.get("x-other"),
                res.sent_length()
            );
            self.0.lock().unwrap().push(seen);
        }
    }

    fn response() -> (Request, Response, Arc<Mutex<Vec<String>>>) {
        let req = crate::testing::request(Method::GET, "/");
        let res = crate::testing::response(&req);
        (req, res, Arc::default())
    }

    #[test]
    fn finish_hooks_run_in_order_and_declared_readers_keep_only_their_headers() {
        let (req, mut res, seen) = response();
        res.on_finish_shared(Arc::new(Reader(seen.clone())), None);
        let log = seen.clone();
        res.on_finish(move |_, res| {
            log.lock()
                .unwrap()
                .push(format!("once {:?}", res.get("x-other")))
        });
        res.on_finish_shared(Arc::new(Reader(seen.clone())), None);
        res.append("X-Kept", "a")
            .append("X-Kept", "b")
            .set("X-Other", "o");
        res.send("hey").unwrap();
        res.run_finish_hooks(&req);
        // A plain hook reads everything: all headers are kept, the length too.
        let all = "shared Some(\"a\") Some(\"o\") None";
        assert_eq!(*seen.lock().unwrap(), [all, "once Some(\"o\")", all]);
        assert!(!res.has_finish_hooks());

        let (req, mut res, seen) = response();
        res.on_finish_shared(Arc::new(Reader(seen.clone())), None);
        res.on_finish_shared(Arc::new(Reader(seen.clone())), None);
        res.append("X-Kept", "a")
            .append("X-Kept", "b")
            .set("X-Other", "o");
        res.send("hey").unwrap();
        assert_eq!(res.get_all("x-kept"), ["a", "b"]);
        res.run_finish_hooks(&req);
        let only = "shared Some(\"a\") None Some(3)";
        assert_eq!(*seen.lock().unwrap(), [only, only]);
    }

    #[test]
    fn the_head_time_is_recorded_only_when_asked_for() {
        let (_req, mut res, _) = response();
        res.send("x").unwrap();
        assert_eq!(res.head_at(), None);
        let (_req, mut res, _) = response();
        res.time_head();
        let before = Instant::now();
        res.send("x").unwrap();
        assert!(res.head_at().is_some_and(|t| t >= before));
    }
}
