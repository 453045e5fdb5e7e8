//! Handlers and flow control.
//!
//! Express passes `next` into every middleware; webfw makes flow control the
//! return value instead (design decision 3): a handler returns [`Result`], where
//! `Ok(Flow::Next)` is `next()`, `Ok(Flow::Route)` is `next('route')`,
//! `Ok(Flow::Router)` is `next('router')`, `Ok(Flow::Done)` means the response is
//! handled, and `Err(e)` is `next(err)`.
//!
//! A handler is a plain function, sync or async:
//!
//! ```
//! use webfw::prelude::*;
//!
//! fn hello(_req: &mut Request, res: &mut Response) -> Result {
//!     res.send("hello")
//! }
//!
//! async fn later(_req: &mut Request, res: &mut Response) -> Result {
//!     res.send("later")
//! }
//!
//! let mut app = webfw::app();
//! app.get("/", hello);
//! app.get("/later", later);
//! ```

mod closures;
mod entry;
mod middleware;
mod param;
mod state;

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::error::Error;
use crate::request::Request;
use crate::response::Response;

pub use closures::{__async_handler, async_handler_fn, error_handler_fn, handler_fn, param_fn};
pub use entry::Middleware;
pub(crate) use entry::{Entry, Mount};
pub(crate) use middleware::sealed;
pub use middleware::{
    AsyncErrorHandlerFn, AsyncHandlerFn, IntoMiddleware, IntoMiddlewares, error_handler_value,
    handler,
};
pub use param::{AsyncParamFn, IntoParamHandler};
pub use state::{AsyncStateFn, with_state, with_state_async};

pub use crate::outcome::{Flow, Result, next, next_route, next_router};

/// A boxed, sendable future.
///
/// ```
/// use webfw::BoxFuture;
/// let f: BoxFuture<'static, u8> = Box::pin(async { 1 });
/// # drop(f);
/// ```
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The future a handler call returns: already finished for synchronous handlers
/// (no allocation), boxed for async ones.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::{Handler, HandlerFuture};
///
/// struct Slow;
/// impl Handler for Slow {
///     fn call<'a>(&'a self, _req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
///         HandlerFuture::boxed(Box::pin(async move {
///             tokio::task::yield_now().await;
///             res.send("done")
///         }))
///     }
/// }
/// let mut app = webfw::app();
/// app.get("/", Slow);
/// ```
pub struct HandlerFuture<'a>(Fut<'a>);

enum Fut<'a> {
    /// A synchronous handler's result.
    Ready(Option<Result>),
    /// An async handler's future.
    Boxed(BoxFuture<'a, Result>),
}

impl<'a> HandlerFuture<'a> {
    /// A handler that has finished: its result, with no allocation.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// use webfw::{Handler, HandlerFuture};
    ///
    /// struct Hello;
    /// impl Handler for Hello {
    ///     fn call<'a>(&'a self, _req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
    ///         HandlerFuture::ready(res.send("hello"))
    ///     }
    /// }
    /// ```
    pub fn ready(result: Result) -> HandlerFuture<'a> {
        HandlerFuture(Fut::Ready(Some(result)))
    }

    /// A handler still at work: the future that finishes it.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// use webfw::HandlerFuture;
    ///
    /// fn later(res: &mut Response) -> HandlerFuture<'_> {
    ///     HandlerFuture::boxed(Box::pin(async move { res.send("later") }))
    /// }
    /// ```
    pub fn boxed(fut: BoxFuture<'a, Result>) -> HandlerFuture<'a> {
        HandlerFuture(Fut::Boxed(fut))
    }

    /// The result of a handler that has finished, taken without polling:
    /// the flow engine's fast path for synchronous handlers.
    pub(crate) fn take_ready(&mut self) -> Option<Result> {
        match &mut self.0 {
            Fut::Ready(r) => r.take(),
            Fut::Boxed(_) => None,
        }
    }
}

impl Future for HandlerFuture<'_> {
    type Output = Result;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result> {
        match &mut self.get_mut().0 {
            Fut::Ready(r) => Poll::Ready(
                r.take()
                    .unwrap_or_else(|| Err(Error::new("handler future polled after completion"))),
            ),
            Fut::Boxed(f) => f.as_mut().poll(cx),
        }
    }
}

/// A request handler or middleware: `(req, res, next)` in Express.
///
/// Implemented for `fn(&mut Request, &mut Response) -> Result` and for
/// `async fn(&mut Request, &mut Response) -> Result` through [`IntoMiddleware`];
/// implement it directly for handler types with state.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::{Handler, HandlerFuture};
///
/// struct Greeter(&'static str);
/// impl Handler for Greeter {
///     fn call<'a>(&'a self, _req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
///         HandlerFuture::ready(res.send(self.0))
///     }
/// }
/// let mut app = webfw::app();
/// app.get("/", Greeter("hi"));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a webfw `Handler`",
    label = "expected a type implementing `webfw::Handler`",
    note = "implement `fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a>`; the type must be `Send + Sync + 'static`",
    note = "a plain `fn(&mut Request, &mut Response) -> Result` needs no wrapper: pass it to `app.get`/`app.use_` directly"
)]
pub trait Handler: Send + Sync + 'static {
    /// Handles the request; a synchronous answer is
    /// `HandlerFuture::ready(result)`.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// use webfw::{Handler, HandlerFuture};
    /// struct Hello;
    /// impl Handler for Hello {
    ///     fn call<'a>(&'a self, _req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
    ///         HandlerFuture::ready(res.send("hello"))
    ///     }
    /// }
    /// ```
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a>;
}

/// Error-handling middleware: `(err, req, res, next)` in Express. Return
/// `Err(err)` to pass the error on, `next()` to recover and continue.
///
/// ```
/// use webfw::prelude::*;
/// fn oops(err: Error, _req: &mut Request, res: &mut Response) -> Result {
///     res.status(err.status()).send(err.to_string())
/// }
/// let mut app = webfw::app();
/// app.use_(oops);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a webfw `ErrorHandler`",
    label = "expected a type implementing `webfw::ErrorHandler`",
    note = "implement `fn call<'a>(&'a self, err: Error, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a>`; the type must be `Send + Sync + 'static`",
    note = "a plain `fn(Error, &mut Request, &mut Response) -> Result` needs no wrapper: pass it to `app.use_` directly"
)]
pub trait ErrorHandler: Send + Sync + 'static {
    /// Handles the error: `Err(err)` passes it on, `next()` recovers.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// use webfw::{ErrorHandler, HandlerFuture};
    /// struct Status;
    /// impl ErrorHandler for Status {
    ///     fn call<'a>(&'a self, e: Error, _q: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
    ///         HandlerFuture::ready(res.send_status(e.status()))
    ///     }
    /// }
    /// ```
    fn call<'a>(
        &'a self,
        err: Error,
        req: &'a mut Request,
        res: &'a mut Response,
    ) -> HandlerFuture<'a>;
}

/// A parameter callback: `app.param(name, (req, res, next, value) => …)`.
///
/// ```
/// use webfw::prelude::*;
/// fn load(req: &mut Request, _res: &mut Response, id: &str) -> Result {
///     req.set_local("user", serde_json::json!(id));
///     next()
/// }
/// let mut app = webfw::app();
/// app.param("id", load);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a webfw `ParamHandler`",
    label = "expected a type implementing `webfw::ParamHandler`",
    note = "implement `fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response, value: &'a str) -> HandlerFuture<'a>`; the type must be `Send + Sync + 'static`",
    note = "a plain `fn(&mut Request, &mut Response, &str) -> Result` needs no wrapper: pass it to `app.param` directly"
)]
pub trait ParamHandler: Send + Sync + 'static {
    /// Called with the parameter's (decoded) value.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// use webfw::{HandlerFuture, ParamHandler};
    /// struct Numeric;
    /// impl ParamHandler for Numeric {
    ///     fn call<'a>(&'a self, _q: &'a mut Request, _s: &'a mut Response, v: &'a str) -> HandlerFuture<'a> {
    ///         let ok = v.bytes().all(|b| b.is_ascii_digit());
    ///         HandlerFuture::ready(if ok { next() } else { next_route() })
    ///     }
    /// }
    /// let mut app = webfw::app();
    /// app.param("id", Numeric);
    /// ```
    fn call<'a>(
        &'a self,
        req: &'a mut Request,
        res: &'a mut Response,
        value: &'a str,
    ) -> HandlerFuture<'a>;
}

/// A handler known never to await: the router calls it without a future.
/// Crate-private, so the fast path is only taken for values the crate
/// built (plain functions, their `use` groups, the logger).
pub(crate) trait SyncHandler: Send + Sync + 'static {
    /// Handles the request.
    fn call_sync(&self, req: &mut Request, res: &mut Response) -> Result;
}

#[doc(hidden)]
pub mod markers {
    //! Types that only disambiguate [`super::IntoMiddleware`] implementations.
    /// A `Handler` value.
    pub struct HandlerValue;
    /// An `ErrorHandler` value.
    pub struct ErrorHandlerValue;
    /// A synchronous function.
    pub struct SyncFn;
    /// An async function.
    pub struct AsyncFn;
    /// A synchronous error function.
    pub struct SyncErrorFn;
    /// An async error function.
    pub struct AsyncErrorFn;
    /// A router.
    pub struct RouterValue;
    /// An application.
    pub struct AppValue;
    /// Already a middleware.
    pub struct MiddlewareValue;
    /// The request logger.
    pub struct LoggerValue;
    /// A single item (for `IntoMiddlewares`).
    pub struct One<M>(M);
    /// A vector of middleware.
    pub struct Many;
}
