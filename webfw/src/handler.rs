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

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use crate::error::Error;
use crate::request::Request;
use crate::response::Response;
use crate::router::Middleware;
use crate::router::flow::{Meaning, Within, meaning};

/// What a handler tells the router to do next.
///
/// ```
/// use webfw::Flow;
/// assert_eq!(webfw::next().unwrap(), Flow::Next);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// `next()`: continue with the next matching handler.
    Next,
    /// `next('route')`: skip the rest of the current route's handlers.
    Route,
    /// `next('router')`: leave the current router.
    Router,
    /// The response has been handled; stop here.
    Done,
}

/// The result of a handler: a [`Flow`] or an [`Error`] (Express: `next(err)`).
pub type Result<T = Flow, E = Error> = std::result::Result<T, E>;

/// `next()`: pass control to the next matching handler.
///
/// ```
/// use webfw::prelude::*;
/// fn pass(_req: &mut Request, _res: &mut Response) -> Result { next() }
/// ```
pub fn next() -> Result {
    Ok(Flow::Next)
}

/// `next('route')`: skip the remaining handlers of this route.
///
/// ```
/// use webfw::prelude::*;
/// fn skip(_req: &mut Request, _res: &mut Response) -> Result { next_route() }
/// ```
pub fn next_route() -> Result {
    Ok(Flow::Route)
}

/// `next('router')`: leave the current router.
///
/// ```
/// use webfw::prelude::*;
/// fn leave(_req: &mut Request, _res: &mut Response) -> Result { next_router() }
/// ```
pub fn next_router() -> Result {
    Ok(Flow::Router)
}

/// A boxed, sendable future.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The future a handler call returns: already finished for synchronous handlers
/// (no allocation), boxed for async ones.
pub enum HandlerFuture<'a> {
    /// A synchronous handler's result.
    Ready(Option<Result>),
    /// An async handler's future.
    Boxed(BoxFuture<'a, Result>),
}

impl Future for HandlerFuture<'_> {
    type Output = Result;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result> {
        match self.get_mut() {
            HandlerFuture::Ready(r) => Poll::Ready(
                r.take()
                    .unwrap_or_else(|| Err(Error::new("handler future polled after completion"))),
            ),
            HandlerFuture::Boxed(f) => f.as_mut().poll(cx),
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
///         HandlerFuture::Ready(Some(res.send(self.0)))
///     }
/// }
/// let mut app = webfw::app();
/// app.get("/", Greeter("hi"));
/// ```
pub trait Handler: Send + Sync + 'static {
    /// Handles the request.
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
pub trait ErrorHandler: Send + Sync + 'static {
    /// Handles the error.
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
pub trait ParamHandler: Send + Sync + 'static {
    /// Called with the parameter's (decoded) value.
    fn call<'a>(
        &'a self,
        req: &'a mut Request,
        res: &'a mut Response,
        value: &'a str,
    ) -> HandlerFuture<'a>;
}

/// Converts functions, routers and apps into [`Middleware`]. The type parameter
/// only tells the implementations apart (sync fn, async fn, error fn, …); it is
/// always inferred.
pub trait IntoMiddleware<M>: Sized + sealed::Plain<M> {
    /// Performs the conversion.
    fn into_middleware(self) -> Middleware;
}

/// Several middleware at once: `app.get(path, (a, b, c))` is Express's
/// `app.get(path, a, b, c)`.
pub trait IntoMiddlewares<M>: Sized + sealed::PlainAll<M> {
    /// Appends the middleware to `out` in order.
    fn into_middlewares(self, out: &mut Vec<Middleware>);
}

/// The private side of the conversions: which values are plain synchronous
/// functions, so that several given to one `use` together run as one
/// handler calling each directly ([`PlainChain`]). Sealed: the traits are
/// public but cannot be named outside the crate, so no one can claim a
/// value is plain when it is not.
pub(crate) mod sealed {
    use super::{Middleware, Request, Response, Result};

    /// Whether a value is a plain synchronous handler function.
    pub trait Plain<M> {
        /// True only for plain synchronous handler functions.
        const PLAIN: bool = false;

        /// Calls a plain function; `None` for anything else.
        fn call_plain(&self, req: &mut Request, res: &mut Response) -> Option<Result> {
            let _ = (req, res);
            None
        }
    }

    /// [`Plain`] for a group of values.
    pub trait PlainAll<M> {
        /// True when every value of the group is plain.
        const PLAIN: bool = false;

        /// Calls the plain functions in order as a `use` layer runs them:
        /// the first result that ends the run is returned; `None` when the
        /// group is not plain.
        fn call_plain(&self, req: &mut Request, res: &mut Response) -> Option<Result> {
            let _ = (req, res);
            None
        }

        /// Appends the middleware of a `use` layer to `out`: plain
        /// functions given together become one handler (only for `use`,
        /// where `next('route')` means `next()`: a route must stop there).
        fn into_use_middlewares(self, out: &mut Vec<Middleware>)
        where
            Self: super::IntoMiddlewares<M>,
        {
            self.into_middlewares(out);
        }
    }
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
use markers::*;

/// Wraps a synchronous handler function.
struct SyncFnHandler<F>(F);

impl<F> SyncHandler for SyncFnHandler<F>
where
    F: Fn(&mut Request, &mut Response) -> Result + Send + Sync + 'static,
{
    fn call_sync(&self, req: &mut Request, res: &mut Response) -> Result {
        (self.0)(req, res)
    }
}

impl<F> IntoMiddleware<SyncFn> for F
where
    F: Fn(&mut Request, &mut Response) -> Result + Send + Sync + 'static,
{
    fn into_middleware(self) -> Middleware {
        Middleware::sync(Arc::new(SyncFnHandler(self)))
    }
}

impl<F> sealed::Plain<SyncFn> for F
where
    F: Fn(&mut Request, &mut Response) -> Result + Send + Sync + 'static,
{
    const PLAIN: bool = true;

    #[inline(always)]
    fn call_plain(&self, req: &mut Request, res: &mut Response) -> Option<Result> {
        Some(self(req, res))
    }
}

/// An async function usable as a handler: `async fn(&mut Request, &mut Response) -> Result`.
///
/// This helper trait names the future type with the argument lifetime, which a
/// plain `Fn` bound cannot do.
pub trait AsyncHandlerFn<'a>: Send + Sync + 'static {
    /// The future the function returns.
    type Fut: Future<Output = Result> + Send + 'a;
    /// Calls the function.
    fn call_async(&self, req: &'a mut Request, res: &'a mut Response) -> Self::Fut;
}

impl<'a, F, Fut> AsyncHandlerFn<'a> for F
where
    F: Fn(&'a mut Request, &'a mut Response) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result> + Send + 'a,
{
    type Fut = Fut;
    fn call_async(&self, req: &'a mut Request, res: &'a mut Response) -> Fut {
        self(req, res)
    }
}

struct AsyncHandler<F>(F);

impl<F> Handler for AsyncHandler<F>
where
    F: for<'a> AsyncHandlerFn<'a>,
{
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        HandlerFuture::Boxed(Box::pin(self.0.call_async(req, res)))
    }
}

impl<F> IntoMiddleware<AsyncFn> for F
where
    F: for<'a> AsyncHandlerFn<'a>,
{
    fn into_middleware(self) -> Middleware {
        Middleware::from_handler(Arc::new(AsyncHandler(self)))
    }
}

struct SyncErrorHandler<F>(F);

impl<F> ErrorHandler for SyncErrorHandler<F>
where
    F: Fn(Error, &mut Request, &mut Response) -> Result + Send + Sync + 'static,
{
    fn call<'a>(
        &'a self,
        err: Error,
        req: &'a mut Request,
        res: &'a mut Response,
    ) -> HandlerFuture<'a> {
        HandlerFuture::Ready(Some((self.0)(err, req, res)))
    }
}

impl<F> IntoMiddleware<SyncErrorFn> for F
where
    F: Fn(Error, &mut Request, &mut Response) -> Result + Send + Sync + 'static,
{
    fn into_middleware(self) -> Middleware {
        Middleware::from_error_handler(Arc::new(SyncErrorHandler(self)))
    }
}

/// An async error-handling function: `async fn(Error, &mut Request, &mut Response) -> Result`.
pub trait AsyncErrorHandlerFn<'a>: Send + Sync + 'static {
    /// The future the function returns.
    type Fut: Future<Output = Result> + Send + 'a;
    /// Calls the function.
    fn call_async(&self, err: Error, req: &'a mut Request, res: &'a mut Response) -> Self::Fut;
}

impl<'a, F, Fut> AsyncErrorHandlerFn<'a> for F
where
    F: Fn(Error, &'a mut Request, &'a mut Response) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result> + Send + 'a,
{
    type Fut = Fut;
    fn call_async(&self, err: Error, req: &'a mut Request, res: &'a mut Response) -> Fut {
        self(err, req, res)
    }
}

struct AsyncErrorHandler<F>(F);

impl<F> ErrorHandler for AsyncErrorHandler<F>
where
    F: for<'a> AsyncErrorHandlerFn<'a>,
{
    fn call<'a>(
        &'a self,
        err: Error,
        req: &'a mut Request,
        res: &'a mut Response,
    ) -> HandlerFuture<'a> {
        HandlerFuture::Boxed(Box::pin(self.0.call_async(err, req, res)))
    }
}

impl<F> IntoMiddleware<AsyncErrorFn> for F
where
    F: for<'a> AsyncErrorHandlerFn<'a>,
{
    fn into_middleware(self) -> Middleware {
        Middleware::from_error_handler(Arc::new(AsyncErrorHandler(self)))
    }
}

/// Wraps a [`Handler`] value (a struct implementing the trait).
///
/// ```
/// use webfw::prelude::*;
/// use webfw::{handler, Handler, HandlerFuture};
/// struct Ok200;
/// impl Handler for Ok200 {
///     fn call<'a>(&'a self, _q: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
///         HandlerFuture::Ready(Some(res.send_status(200)))
///     }
/// }
/// let mut app = webfw::app();
/// app.use_(handler(Ok200));
/// ```
pub fn handler(h: impl Handler) -> Middleware {
    Middleware::from_handler(Arc::new(h))
}

/// Wraps an [`ErrorHandler`] value.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::{error_handler_value, ErrorHandler, HandlerFuture};
/// struct Plain;
/// impl ErrorHandler for Plain {
///     fn call<'a>(&'a self, e: Error, _q: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
///         HandlerFuture::Ready(Some(res.status(e.status()).send(e.to_string())))
///     }
/// }
/// let mut app = webfw::app();
/// app.use_(error_handler_value(Plain));
/// ```
pub fn error_handler_value(h: impl ErrorHandler) -> Middleware {
    Middleware::from_error_handler(Arc::new(h))
}

impl<H: Handler> IntoMiddleware<HandlerValue> for H {
    fn into_middleware(self) -> Middleware {
        Middleware::from_handler(Arc::new(self))
    }
}

impl<H: Handler> sealed::Plain<HandlerValue> for H {}
impl<F: for<'a> AsyncHandlerFn<'a>> sealed::Plain<AsyncFn> for F {}
impl<F> sealed::Plain<SyncErrorFn> for F where
    F: Fn(Error, &mut Request, &mut Response) -> Result + Send + Sync + 'static
{
}
impl<F: for<'a> AsyncErrorHandlerFn<'a>> sealed::Plain<AsyncErrorFn> for F {}

impl<M, T: IntoMiddleware<M>> IntoMiddlewares<One<M>> for T {
    fn into_middlewares(self, out: &mut Vec<Middleware>) {
        out.push(self.into_middleware());
    }
}

impl<M, T: IntoMiddleware<M>> sealed::PlainAll<One<M>> for T {
    const PLAIN: bool = <T as sealed::Plain<M>>::PLAIN;

    #[inline(always)]
    fn call_plain(&self, req: &mut Request, res: &mut Response) -> Option<Result> {
        sealed::Plain::call_plain(self, req, res)
    }
}

impl IntoMiddlewares<Many> for Vec<Middleware> {
    fn into_middlewares(self, out: &mut Vec<Middleware>) {
        out.extend(self);
    }
}

impl sealed::PlainAll<Many> for Vec<Middleware> {}

/// Plain synchronous functions registered together in one `use` layer,
/// called one after the other without a dynamic call each (see
/// [`sealed::PlainAll::into_use_middlewares`]).
struct PlainChain<T, M>(T, std::marker::PhantomData<fn() -> M>);

impl<T, M> SyncHandler for PlainChain<T, M>
where
    T: sealed::PlainAll<M> + Send + Sync + 'static,
    M: 'static,
{
    fn call_sync(&self, req: &mut Request, res: &mut Response) -> Result {
        // Built only for plain groups, whose call always answers.
        self.0.call_plain(req, res).unwrap_or_else(next)
    }
}

macro_rules! tuple_middlewares {
    ($(($($t:ident $m:ident),+))+) => {$(
        impl<$($t, $m),+> IntoMiddlewares<($($m,)+)> for ($($t,)+)
        where
            $($t: IntoMiddlewares<$m>,)+
            Self: Send + Sync + 'static,
            $($m: 'static,)+
        {
            #[allow(non_snake_case)]
            fn into_middlewares(self, out: &mut Vec<Middleware>) {
                let ($($t,)+) = self;
                $($t.into_middlewares(out);)+
            }
        }

        impl<$($t, $m),+> sealed::PlainAll<($($m,)+)> for ($($t,)+)
        where
            $($t: IntoMiddlewares<$m>,)+
            Self: Send + Sync + 'static,
            $($m: 'static,)+
        {
            #[allow(non_snake_case)]
            fn into_use_middlewares(self, out: &mut Vec<Middleware>) {
                if <Self as sealed::PlainAll<($($m,)+)>>::PLAIN {
                    out.push(Middleware::sync(Arc::new(PlainChain(
                        self,
                        std::marker::PhantomData,
                    ))));
                } else {
                    let ($($t,)+) = self;
                    $($t.into_use_middlewares(out);)+
                }
            }

            const PLAIN: bool = $(<$t as sealed::PlainAll<$m>>::PLAIN &&)+ true;

            #[allow(non_snake_case)]
            #[inline(always)]
            fn call_plain(&self, req: &mut Request, res: &mut Response) -> Option<Result> {
                let ($($t,)+) = self;
                $(match meaning($t.call_plain(req, res)?, Within::Use) {
                    Meaning::Continue => {}
                    other => return Some(other.into_result()),
                })+
                Some(Ok(Flow::Next))
            }
        }
    )+};
}

tuple_middlewares! {
    (A MA)
    (A MA, B MB)
    (A MA, B MB, C MC)
    (A MA, B MB, C MC, D MD)
    (A MA, B MB, C MC, D MD, E ME)
    (A MA, B MB, C MC, D MD, E ME, F MF)
    (A MA, B MB, C MC, D MD, E ME, F MF, G MG)
    (A MA, B MB, C MC, D MD, E ME, F MF, G MG, H MH)
    (A MA, B MB, C MC, D MD, E ME, F MF, G MG, H MH, I MI)
    (A MA, B MB, C MC, D MD, E ME, F MF, G MG, H MH, I MI, J MJ)
    (A MA, B MB, C MC, D MD, E ME, F MF, G MG, H MH, I MI, J MJ, K MK)
    (A MA, B MB, C MC, D MD, E ME, F MF, G MG, H MH, I MI, J MJ, K MK, L ML)
}

/// Converts functions into a [`ParamHandler`].
pub trait IntoParamHandler<M>: Sized {
    /// Performs the conversion.
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
        HandlerFuture::Ready(Some((self.0)(req, res, value)))
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

/// An async parameter callback: `async fn(&mut Request, &mut Response, &str) -> Result`.
pub trait AsyncParamFn<'a>: Send + Sync + 'static {
    /// The future the function returns.
    type Fut: Future<Output = Result> + Send + 'a;
    /// Calls the function.
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
        HandlerFuture::Boxed(Box::pin(self.0.call_async(req, res, value)))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(_: &mut Request, _: &mut Response) -> Result {
        next()
    }

    async fn later(_: &mut Request, _: &mut Response) -> Result {
        next()
    }

    fn count<M>(m: impl IntoMiddlewares<M>, in_use: bool) -> usize {
        let mut out = Vec::new();
        if in_use {
            sealed::PlainAll::into_use_middlewares(m, &mut out);
        } else {
            m.into_middlewares(&mut out);
        }
        out.len()
    }

    #[test]
    fn plain_functions_given_to_use_together_become_one_handler() {
        assert_eq!(count((plain, plain, plain), true), 1);
        assert_eq!(count(((plain, plain), plain), true), 1);
        // Routes keep one handler each: `next_route` must stop there.
        assert_eq!(count((plain, plain, plain), false), 3);
        // A handler that may await is not plain; its plain neighbours in a
        // nested group still join.
        assert_eq!(count((plain, later, plain), true), 3);
        assert_eq!(count(((plain, plain), later), true), 2);
    }
}
