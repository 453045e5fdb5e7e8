//! Conversions of functions into [`ParamHandler`]s for `app.param`.

use std::future::Future;
use std::sync::Arc;

use super::markers::{AsyncFn, HandlerValue, SyncFn};
use super::{HandlerFuture, ParamHandler, Result};
use crate::request::Request;
use crate::response::Response;

/// Converts functions into a [`ParamHandler`]: `fn(&mut Request, &mut
/// Response, &str) -> Result`, its `async fn` form (with a `Send` future),
/// and [`ParamHandler`] values. A closure is accepted with annotated
/// arguments, or through [`param_fn`](crate::param_fn) without.
///
/// ```
/// use webfw::prelude::*;
/// async fn load(req: &mut Request, _res: &mut Response, id: &str) -> Result {
///     req.set_local("id", serde_json::json!(id));
///     next()
/// }
/// let mut app = webfw::app();
/// app.param("id", load);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a webfw parameter callback",
    label = "expected `fn(&mut Request, &mut Response, &str) -> Result` or its `async fn` form",
    note = "a parameter callback is `fn(req: &mut Request, res: &mut Response, value: &str) -> Result` (Express's `(req, res, next, value)`; return `next()` to go on), or `async fn` of the same arguments whose future is `Send`",
    note = "a closure needs its argument types (`|req: &mut Request, res: &mut Response, value: &str| ...`) or the helper that infers them: `webfw::param_fn(|req, res, value| ...)`"
)]
pub trait IntoParamHandler<M>: Sized {
    /// Performs the conversion.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// use webfw::IntoParamHandler;
    /// fn load(_req: &mut Request, _res: &mut Response, _id: &str) -> Result { next() }
    /// let _handler = load.into_param_handler();
    /// ```
    fn into_param_handler(self) -> Arc<dyn ParamHandler>;
}

struct SyncParam<F>(F);

impl<F> ParamHandler for SyncParam<F>
where
    F: Fn(&mut Request, &mut Response, &str) -> Result + Send + Sync + 'static,
{
    fn call<'a>(
        &'a self,
        req: &'a mut Request,
        res: &'a mut Response,
        value: &'a str,
    ) -> HandlerFuture<'a> {
        HandlerFuture::ready((self.0)(req, res, value))
    }
}

impl<F> IntoParamHandler<SyncFn> for F
where
    F: Fn(&mut Request, &mut Response, &str) -> Result + Send + Sync + 'static,
{
    fn into_param_handler(self) -> Arc<dyn ParamHandler> {
        Arc::new(SyncParam(self))
    }
}

/// An async parameter callback: `async fn(&mut Request, &mut Response, &str) -> Result`,
/// its future `Send`.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::AsyncParamFn;
/// async fn load(_req: &mut Request, _res: &mut Response, _id: &str) -> Result { next() }
/// fn check<F: for<'a> AsyncParamFn<'a>>(_: F) {}
/// check(load);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an async webfw parameter callback",
    label = "expected `async fn(&mut Request, &mut Response, &str) -> Result` with a `Send` future",
    note = "the future must be `Send`: hold no `Rc`, `RefCell` borrow or `MutexGuard` across an `.await`"
)]
pub trait AsyncParamFn<'a>: Send + Sync + 'static {
    /// The future the function returns.
    type Fut: Future<Output = Result> + Send + 'a;
    /// Calls the function.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// use webfw::AsyncParamFn;
    /// fn run<F: for<'a> AsyncParamFn<'a>>(f: &F, req: &mut Request, res: &mut Response) {
    ///     let _future = f.call_async(req, res, "42");
    /// }
    /// ```
    fn call_async(&self, req: &'a mut Request, res: &'a mut Response, value: &'a str) -> Self::Fut;
}

impl<'a, F, Fut> AsyncParamFn<'a> for F
where
    F: Fn(&'a mut Request, &'a mut Response, &'a str) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result> + Send + 'a,
{
    type Fut = Fut;
    fn call_async(&self, req: &'a mut Request, res: &'a mut Response, value: &'a str) -> Fut {
        self(req, res, value)
    }
}

struct AsyncParam<F>(F);

impl<F> ParamHandler for AsyncParam<F>
where
    F: for<'a> AsyncParamFn<'a>,
{
    fn call<'a>(
        &'a self,
        req: &'a mut Request,
        res: &'a mut Response,
        value: &'a str,
    ) -> HandlerFuture<'a> {
        HandlerFuture::boxed(Box::pin(self.0.call_async(req, res, value)))
    }
}

impl<F> IntoParamHandler<AsyncFn> for F
where
    F: for<'a> AsyncParamFn<'a>,
{
    fn into_param_handler(self) -> Arc<dyn ParamHandler> {
        Arc::new(AsyncParam(self))
    }
}

impl<P: ParamHandler> IntoParamHandler<HandlerValue> for P {
    fn into_param_handler(self) -> Arc<dyn ParamHandler> {
        Arc::new(self)
    }
}
