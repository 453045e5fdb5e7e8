//! The limiter: counts the hit, sets the headers and `req.rateLimit`, and
//! answers past the limit.

use std::sync::Arc;
use std::task::{Context, Waker};
use std::time::SystemTime;

use super::options::{Draft, Identifier, Limit, Message, RateLimitOptions};
use super::store::RateLimitStore;
use super::{RateLimitInfo, headers, ip_key};
use crate::handler::{BoxFuture, Flow, Handler, HandlerFuture};
use crate::request::Request;
use crate::response::Response;

/// The middleware [`rate_limit`](crate::rate_limit()) returns.
///
/// ```
/// let mut app = webfw::app();
/// app.use_(webfw::rate_limit(webfw::rate_limit::RateLimitOptions::new()));
/// ```
pub struct RateLimitMiddleware {
    options: Arc<RateLimitOptions>,
    store: Arc<dyn RateLimitStore>,
}

impl std::fmt::Debug for RateLimitMiddleware {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimitMiddleware")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl RateLimitMiddleware {
    pub(crate) fn new(mut options: RateLimitOptions) -> RateLimitMiddleware {
        let store = options.store_or_default();
        store.init(options.window);
        RateLimitMiddleware {
            options: Arc::new(options),
            store,
        }
    }

    /// `limiter.resetKey(key)`: forgets a client's hits.
    ///
    /// ```
    /// # async fn run() -> webfw::Result<()> {
    /// let limiter = webfw::rate_limit(webfw::rate_limit::RateLimitOptions::new());
    /// limiter.reset_key("1.2.3.4").await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// The store's, when it cannot reach its data.
    pub async fn reset_key(&self, key: &str) -> crate::Result<()> {
        self.store.reset_key(key).await
    }

    /// `limiter.getKey(key)`: a client's count, without counting.
    ///
    /// ```
    /// # async fn run() -> webfw::Result<()> {
    /// let limiter = webfw::rate_limit(webfw::rate_limit::RateLimitOptions::new());
    /// assert!(limiter.get_key("1.2.3.4").await?.is_none());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// The store's, or that it cannot tell.
    pub async fn get_key(&self, key: &str) -> crate::Result<Option<super::ClientRateLimitInfo>> {
        self.store.get(key).await
    }

    async fn run(&self, req: &mut Request, res: &mut Response) -> crate::Result {
        let o = &*self.options;
        if o.skip.as_ref().is_some_and(|skip| skip(req, res)) {
            return Ok(Flow::Next);
        }
        let key = match &o.key_generator {
            Some(f) => f(req),
            None => ip_key(&req.ip(), o.ipv6_subnet),
        };
        let hit = match self.store.increment(&key).await {
            Ok(hit) => hit,
            Err(e) if o.pass_on_store_error => {
                eprintln!("rate limit: the store failed ({e}); the request goes through unlimited");
                return Ok(Flow::Next);
            }
            Err(e) => return Err(e),
        };
        let limit = match &o.limit {
            Limit::Fixed(n) => *n,
            Limit::Sync(f) => f(req, res),
            Limit::Async(f) => f(req, res).await,
        };
        let info = RateLimitInfo {
            limit,
            used: hit.total_hits,
            remaining: limit.saturating_sub(hit.total_hits),
            reset_time: hit.reset_time,
            key,
        };
        if o.legacy_headers && !res.headers_sent() {
            headers::legacy(res, &info);
        }
        if let Some(draft) = o.standard_headers
            && !res.headers_sent()
        {
            match draft {
                Draft::Draft6 => headers::draft6(res, &info, o.window),
                Draft::Draft7 => headers::draft7(res, &info, o.window),
                Draft::Draft8 => {
                    let name = match &o.identifier {
                        Identifier::Default => headers::default_identifier(limit, o.window),
                        Identifier::Text(s) => s.clone(),
                        Identifier::Fn(f) => f(req, res),
                    };
                    headers::draft8(res, &info, o.window, &name);
                }
            }
        }
        if o.skip_failed || o.skip_successful {
            self.uncount_later(res, &info);
        }
        let over = info.used > limit;
        req.extensions_mut().insert(info);
        if !over {
            return Ok(Flow::Next);
        }
        if (o.legacy_headers || o.standard_headers.is_some())
            && !res.headers_sent()
            && let Some(info) = req.rate_limit()
        {
            headers::retry_after(res, info, o.window, o.retry_after);
        }
        match &o.handler {
            Some(handler) => handler(req, res, o),
            None => {
                res.status(o.status_code);
                if res.finished() {
                    return Ok(Flow::Done);
                }
                send_message(&o.message, req, res)
            }
        }
    }

    /// `skipFailedRequests` / `skipSuccessfulRequests`: once the response
    /// is finished (or the client left), takes the hit back if it should
    /// not have counted.
    fn uncount_later(&self, res: &mut Response, info: &RateLimitInfo) {
        let o = self.options.clone();
        let store = self.store.clone();
        let key = info.key.clone();
        let reset_time = info.reset_time;
        res.on_finish(move |req, res| {
            let finished = res.finished();
            let success = finished.then(|| match &o.request_was_successful {
                Some(f) => f(req, res),
                None => res.status_code() < 400,
            });
            let failed_skip = o.skip_failed && (!finished || success == Some(false));
            let success_skip = o.skip_successful && success == Some(true);
            // A window already over has nothing to take back.
            let expired = reset_time.is_some_and(|at| SystemTime::now() >= at);
            if (failed_skip || success_skip) && !expired {
                run_soon(Box::pin(async move {
                    if let Err(e) = store.decrement(&key).await {
                        eprintln!("rate limit: the store failed during decrement: {e}");
                    }
                }));
            }
        });
    }
}

/// Runs a store call now when it completes at once (the memory store), so
/// the next request already sees it; else on the runtime.
fn run_soon(mut fut: BoxFuture<'static, ()>) {
    let mut cx = Context::from_waker(Waker::noop());
    if fut.as_mut().poll(&mut cx).is_pending()
        && let Ok(rt) = tokio::runtime::Handle::try_current()
    {
        rt.spawn(fut);
    }
}

/// The default handler's `res.send(message)`.
fn send_message(message: &Message, req: &Request, res: &mut Response) -> crate::Result {
    match message {
        Message::Text(s) => res.send(s.clone()),
        Message::Json(v) => res.json(v),
        Message::Fn(f) => {
            let m = f(req, res);
            send_message(&m, req, res)
        }
    }
}

impl Handler for RateLimitMiddleware {
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        HandlerFuture::boxed(Box::pin(self.run(req, res)))
    }
}
