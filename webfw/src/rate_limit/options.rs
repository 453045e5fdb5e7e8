//! express-rate-limit's options, as a builder.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::memory::MemoryStore;
use super::store::RateLimitStore;
use crate::handler::BoxFuture;
use crate::request::Request;
use crate::response::Response;

type ReqResFn<T> = Arc<dyn Fn(&Request, &Response) -> T + Send + Sync>;
type AsyncLimitFn = Arc<dyn Fn(&Request, &Response) -> BoxFuture<'static, u64> + Send + Sync>;
type KeyFn = Arc<dyn Fn(&Request) -> String + Send + Sync>;
type HandlerFn =
    Arc<dyn Fn(&mut Request, &mut Response, &RateLimitOptions) -> crate::Result + Send + Sync>;

/// Which IETF draft's `RateLimit` headers to send (`standardHeaders`).
///
/// ```
/// use webfw::rate_limit::{Draft, RateLimitOptions};
/// let o = RateLimitOptions::new().standard_headers(Draft::Draft7);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draft {
    /// `draft-6`: `RateLimit-Policy`, `RateLimit-Limit`,
    /// `RateLimit-Remaining`, `RateLimit-Reset` (`standardHeaders: true`).
    Draft6,
    /// `draft-7`: `RateLimit-Policy` and one combined `RateLimit`.
    Draft7,
    /// `draft-8`: named `RateLimit` and `RateLimit-Policy` with a partition
    /// key (see [`RateLimitOptions::identifier`]).
    Draft8,
}

/// `limit`: a number, or a function of the request, synchronous or not.
#[derive(Clone)]
pub(crate) enum Limit {
    Fixed(u64),
    Sync(ReqResFn<u64>),
    Async(AsyncLimitFn),
}

/// `message`: what the default handler sends with the status.
///
/// ```
/// use webfw::rate_limit::{Message, RateLimitOptions};
/// let o = RateLimitOptions::new().message(Message::Json(serde_json::json!({"error": "slow down"})));
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub enum Message {
    /// `res.send(string)`: an HTML body.
    Text(String),
    /// `res.send(object)`: a JSON body.
    Json(Value),
    /// A function of the request and response giving one of the others.
    Fn(ReqResFn<Message>),
}

impl Message {
    /// A message computed for each limited request ([`Message::Fn`]).
    ///
    /// ```
    /// use webfw::rate_limit::{Message, RateLimitOptions};
    /// let o = RateLimitOptions::new().message(Message::from_fn(|req, _res| {
    ///     format!("slow down, {}", req.ip()).into()
    /// }));
    /// ```
    pub fn from_fn(f: impl Fn(&Request, &Response) -> Message + Send + Sync + 'static) -> Message {
        Message::Fn(Arc::new(f))
    }
}

impl From<&str> for Message {
    fn from(s: &str) -> Message {
        Message::Text(s.to_owned())
    }
}

impl From<String> for Message {
    fn from(s: String) -> Message {
        Message::Text(s)
    }
}

impl From<Value> for Message {
    fn from(v: Value) -> Message {
        Message::Json(v)
    }
}

#[derive(Clone)]
pub(crate) enum Identifier {
    /// `${limit}-in-${duration}`.
    Default,
    Text(String),
    Fn(ReqResFn<String>),
}

/// The options of [`rate_limit`](crate::rate_limit()), with
/// express-rate-limit 8's defaults: 5 requests a minute per IP address
/// (IPv6 addresses by their /56 network), a 429 with `Too many requests,
/// please try again later.`, the legacy `X-RateLimit-*` headers and no
/// standard ones, a [`MemoryStore`].
///
/// ```
/// use std::time::Duration;
/// use webfw::rate_limit::{Draft, RateLimitOptions};
/// let o = RateLimitOptions::new()
///     .window(Duration::from_secs(15 * 60))
///     .limit(100)
///     .standard_headers(Draft::Draft8)
///     .legacy_headers(false);
/// assert_eq!(o.status_code_value(), 429);
/// assert_eq!(o.fixed_limit(), Some(100));
/// ```
#[derive(Clone)]
pub struct RateLimitOptions {
    pub(crate) window: Duration,
    pub(crate) limit: Limit,
    pub(crate) message: Message,
    pub(crate) status_code: u16,
    pub(crate) legacy_headers: bool,
    pub(crate) standard_headers: Option<Draft>,
    pub(crate) identifier: Identifier,
    pub(crate) retry_after: Option<u64>,
    pub(crate) skip_failed: bool,
    pub(crate) skip_successful: bool,
    pub(crate) key_generator: Option<KeyFn>,
    pub(crate) ipv6_subnet: Option<u8>,
    pub(crate) skip: Option<ReqResFn<bool>>,
    pub(crate) request_was_successful: Option<ReqResFn<bool>>,
    pub(crate) handler: Option<HandlerFn>,
    pub(crate) store: Option<Arc<dyn RateLimitStore>>,
    pub(crate) pass_on_store_error: bool,
}

impl Default for RateLimitOptions {
    fn default() -> Self {
        RateLimitOptions {
            window: Duration::from_secs(60),
            limit: Limit::Fixed(5),
            message: Message::Text("Too many requests, please try again later.".into()),
            status_code: 429,
            legacy_headers: true,
            standard_headers: None,
            identifier: Identifier::Default,
            retry_after: None,
            skip_failed: false,
            skip_successful: false,
            key_generator: None,
            ipv6_subnet: Some(56),
            skip: None,
            request_was_successful: None,
            handler: None,
            store: None,
            pass_on_store_error: false,
        }
    }
}

impl std::fmt::Debug for RateLimitOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimitOptions")
            .field("window", &self.window)
            .field("limit", &self.fixed_limit())
            .field("status_code", &self.status_code)
            .field("legacy_headers", &self.legacy_headers)
            .field("standard_headers", &self.standard_headers)
            .finish_non_exhaustive()
    }
}

impl RateLimitOptions {
    /// express-rate-limit's defaults.
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new();
    /// assert_eq!(o.fixed_limit(), Some(5));
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// `windowMs`: how long hits are remembered (one minute).
    ///
    /// ```
    /// use std::time::Duration;
    /// let o = webfw::rate_limit::RateLimitOptions::new().window(Duration::from_secs(3600));
    /// assert_eq!(o.window_duration(), Duration::from_secs(3600));
    /// ```
    pub fn window(mut self, window: Duration) -> Self {
        self.window = window;
        self
    }

    /// `limit` (`max`): requests allowed per window and client.
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new().limit(100);
    /// assert_eq!(o.fixed_limit(), Some(100));
    /// ```
    pub fn limit(mut self, limit: u64) -> Self {
        self.limit = Limit::Fixed(limit);
        self
    }

    /// `limit` as a function of the request (a user's plan, say).
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new()
    ///     .limit_fn(|req, _res| if req.get("x-api-key").is_some() { 100 } else { 10 });
    /// assert_eq!(o.fixed_limit(), None);
    /// ```
    pub fn limit_fn(
        mut self,
        f: impl Fn(&Request, &Response) -> u64 + Send + Sync + 'static,
    ) -> Self {
        self.limit = Limit::Sync(Arc::new(f));
        self
    }

    /// `limit` as an async function: it reads what it needs from the
    /// request, then returns a future (a database lookup, say).
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new().limit_async(|req, _res| {
    ///     let premium = req.get("x-plan") == Some("premium");
    ///     Box::pin(async move { if premium { 1000 } else { 10 } })
    /// });
    /// ```
    pub fn limit_async(
        mut self,
        f: impl Fn(&Request, &Response) -> BoxFuture<'static, u64> + Send + Sync + 'static,
    ) -> Self {
        self.limit = Limit::Async(Arc::new(f));
        self
    }

    /// `message`: a string (sent as HTML), JSON, or a [`Message::Fn`].
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new().message("slow down");
    /// let o = o.message(serde_json::json!({"error": "slow down"}));
    /// ```
    pub fn message(mut self, message: impl Into<Message>) -> Self {
        self.message = message.into();
        self
    }

    /// `statusCode` (429).
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new().status_code(503);
    /// assert_eq!(o.status_code_value(), 503);
    /// ```
    pub fn status_code(mut self, code: u16) -> Self {
        self.status_code = code;
        self
    }

    /// `legacyHeaders` (true): `X-RateLimit-Limit`, `X-RateLimit-Remaining`,
    /// `X-RateLimit-Reset`, and `Retry-After` when limited.
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new().legacy_headers(false);
    /// ```
    pub fn legacy_headers(mut self, on: bool) -> Self {
        self.legacy_headers = on;
        self
    }

    /// `standardHeaders`: the draft whose `RateLimit` headers to send
    /// (none by default; `true` in Express is [`Draft::Draft6`]).
    ///
    /// ```
    /// use webfw::rate_limit::{Draft, RateLimitOptions};
    /// let o = RateLimitOptions::new().standard_headers(Draft::Draft6);
    /// ```
    pub fn standard_headers(mut self, draft: Draft) -> Self {
        self.standard_headers = Some(draft);
        self
    }

    /// `identifier`: the policy's name in draft-8 headers
    /// (`<limit>-in-<window>` by default, e.g. `5-in-1min`).
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new().identifier("api");
    /// ```
    pub fn identifier(mut self, name: impl Into<String>) -> Self {
        self.identifier = Identifier::Text(name.into());
        self
    }

    /// `identifier` as a function of the request.
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new()
    ///     .identifier_fn(|req, _res| format!("{}-policy", req.method()));
    /// ```
    pub fn identifier_fn(
        mut self,
        f: impl Fn(&Request, &Response) -> String + Send + Sync + 'static,
    ) -> Self {
        self.identifier = Identifier::Fn(Arc::new(f));
        self
    }

    /// `retryAfter`: the `Retry-After` seconds to send instead of the time
    /// left in the window.
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new().retry_after(30);
    /// ```
    pub fn retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds);
        self
    }

    /// `skipFailedRequests`: a request that fails (status 400 or more, or
    /// the client leaving before the end) is not counted.
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new().skip_failed_requests(true);
    /// ```
    pub fn skip_failed_requests(mut self, on: bool) -> Self {
        self.skip_failed = on;
        self
    }

    /// `skipSuccessfulRequests`: a request that succeeds is not counted.
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new().skip_successful_requests(true);
    /// ```
    pub fn skip_successful_requests(mut self, on: bool) -> Self {
        self.skip_successful = on;
        self
    }

    /// `requestWasSuccessful` (status below 400): what "failed" and
    /// "successful" mean for the two options above.
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new()
    ///     .request_was_successful(|_req, res| res.status_code() < 500);
    /// ```
    pub fn request_was_successful(
        mut self,
        f: impl Fn(&Request, &Response) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.request_was_successful = Some(Arc::new(f));
        self
    }

    /// `keyGenerator`: which client a request counts for (its IP address
    /// by default, see [`ip_key`](super::ip_key)).
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new()
    ///     .key_generator(|req| req.get("x-api-key").unwrap_or("anonymous").to_owned());
    /// ```
    pub fn key_generator(mut self, f: impl Fn(&Request) -> String + Send + Sync + 'static) -> Self {
        self.key_generator = Some(Arc::new(f));
        self
    }

    /// `ipv6Subnet` (56): the prefix length IPv6 clients are counted by
    /// with the default key; `None` counts each address alone.
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new().ipv6_subnet(Some(64));
    /// ```
    pub fn ipv6_subnet(mut self, prefix: Option<u8>) -> Self {
        self.ipv6_subnet = prefix;
        self
    }

    /// `skip`: requests for which it returns true are not counted or
    /// limited.
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new()
    ///     .skip(|req, _res| req.get("x-admin") == Some("yes"));
    /// ```
    pub fn skip(mut self, f: impl Fn(&Request, &Response) -> bool + Send + Sync + 'static) -> Self {
        self.skip = Some(Arc::new(f));
        self
    }

    /// `handler`: answers a limited request instead of sending
    /// [`message`](Self::message) with [`status_code`](Self::status_code);
    /// it gets these options (`req.rate_limit()` is set).
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new().handler(|req, res, opts| {
    ///     let used = req.rate_limit().map_or(0, |i| i.used);
    ///     res.status(opts.status_code_value()).json(&serde_json::json!({ "used": used }))
    /// });
    /// ```
    pub fn handler(
        mut self,
        f: impl Fn(&mut Request, &mut Response, &RateLimitOptions) -> crate::Result
        + Send
        + Sync
        + 'static,
    ) -> Self {
        self.handler = Some(Arc::new(f));
        self
    }

    /// `store`: where hits are counted ([`MemoryStore`] by default, one
    /// per limiter; a `RedisStore` (feature `redis`) shares the counts
    /// between processes).
    ///
    /// ```
    /// use webfw::rate_limit::{MemoryStore, RateLimitOptions};
    /// let o = RateLimitOptions::new().store(MemoryStore::new());
    /// ```
    pub fn store(mut self, store: impl RateLimitStore) -> Self {
        self.store = Some(Arc::new(store));
        self
    }

    /// `passOnStoreError`: when the store fails, let the request through
    /// rather than fail it.
    ///
    /// ```
    /// let o = webfw::rate_limit::RateLimitOptions::new().pass_on_store_error(true);
    /// ```
    pub fn pass_on_store_error(mut self, on: bool) -> Self {
        self.pass_on_store_error = on;
        self
    }

    /// `options.statusCode`, as a handler reads it.
    ///
    /// ```
    /// assert_eq!(webfw::rate_limit::RateLimitOptions::new().status_code_value(), 429);
    /// ```
    pub fn status_code_value(&self) -> u16 {
        self.status_code
    }

    /// `options.limit` when it is a number (`None` for a function).
    ///
    /// ```
    /// assert_eq!(webfw::rate_limit::RateLimitOptions::new().fixed_limit(), Some(5));
    /// ```
    pub fn fixed_limit(&self) -> Option<u64> {
        match self.limit {
            Limit::Fixed(n) => Some(n),
            _ => None,
        }
    }

    /// `options.windowMs`.
    ///
    /// ```
    /// use std::time::Duration;
    /// assert_eq!(webfw::rate_limit::RateLimitOptions::new().window_duration(), Duration::from_secs(60));
    /// ```
    pub fn window_duration(&self) -> Duration {
        self.window
    }

    /// `options.message`.
    ///
    /// ```
    /// use webfw::rate_limit::{Message, RateLimitOptions};
    /// assert!(matches!(RateLimitOptions::new().message_value(), Message::Text(_)));
    /// ```
    pub fn message_value(&self) -> &Message {
        &self.message
    }

    pub(crate) fn store_or_default(&mut self) -> Arc<dyn RateLimitStore> {
        self.store
            .get_or_insert_with(|| Arc::new(MemoryStore::new()))
            .clone()
    }
}
