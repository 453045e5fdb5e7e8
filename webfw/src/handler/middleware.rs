//! Conversions of functions, routers and apps into [`Middleware`], and the
//! groups (tuples, vectors) `app.get(path, …)` and `app.use_` take.

use std::future::Future;
use std::sync::Arc;

use super::entry::Middleware;
use super::markers::*;
use super::{ErrorHandler, Flow, Handler, HandlerFuture, Result, SyncHandler, next};
use crate::error::Error;
use crate::outcome::{Meaning, Within, meaning};
use crate::request::Request;
use crate::response::Response;

/// Converts functions, routers and apps into [`Middleware`]. The type parameter
/// only tells the implementations apart (sync fn, async fn, error fn, …); it is
/// always inferred.
///
/// Implemented for `fn(&mut Request, &mut Response) -> Result`, `async fn` of
/// the same arguments (with a `Send` future), the error-handler forms taking
/// an [`Error`] first, [`Handler`] values, [`Router`](crate::Router),
/// [`App`](crate::App), [`Middleware`] and the logger. A closure is accepted
/// with annotated arguments, or through [`handler_fn`](crate::handler_fn) without.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::{IntoMiddleware, Middleware};
/// fn ok(_req: &mut Request, res: &mut Response) -> Result { res.send("ok") }
/// let layers: Vec<Middleware> = vec![ok.into_middleware(), webfw::router().into_middleware()];
/// let mut app = webfw::app();
/// app.use_(layers);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a webfw handler",
    label = "expected `fn(&mut Request, &mut Response) -> Result` or its `async fn` form",
    note = "a handler is `fn(req: &mut Request, res: &mut Response) -> Result`, or `async fn(req: &mut Request, res: &mut Response) -> Result` whose future is `Send`; `webfw::async_handler_fn(f)` shows which value held across an `.await` is not",
    note = "an error handler is `fn(err: Error, req: &mut Request, res: &mut Response) -> Result`, or its `async fn` form",
    note = "a closure needs its argument types (`|req: &mut Request, res: &mut Response| ...`) or the helper that infers them: `webfw::handler_fn(|req, res| ...)`",
    note = "several handlers are a tuple `(a, b, c)` of at most 16 (nest tuples for more); a `Router`, an `App`, a `Middleware` and a `Handler` value are accepted too",
    note = "to mount on a path, write `app.use_at(\"/path\", handler)`: Express's `app.use(\"/path\", handler)`"
)]
pub trait IntoMiddleware<M>: Sized + sealed::Plain<M> {
    /// Performs the conversion.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// use webfw::IntoMiddleware;
    /// async fn later(_req: &mut Request, res: &mut Response) -> Result { res.send("later") }
    /// let m = later.into_middleware();
    /// let mut app = webfw::app();
    /// app.get("/", m);
    /// ```
    fn into_middleware(self) -> Middleware;
}

/// Several middleware at once: `app.get(path, (a, b, c))` is Express's
/// `app.get(path, a, b, c)`. Implemented for everything [`IntoMiddleware`]
/// accepts, for tuples of up to 16 of them (nest tuples for more) and for
/// `Vec<Middleware>`.
///
/// ```
/// use webfw::prelude::*;
/// fn auth(_req: &mut Request, _res: &mut Response) -> Result { next() }
/// fn show(_req: &mut Request, res: &mut Response) -> Result { res.send("secret") }
/// let mut app = webfw::app();
/// app.get("/secret", (auth, show));
/// ```
// The notes of `IntoMiddleware` again: rustc names this trait for a tuple
// and that one for a single value.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a webfw handler",
    label = "expected `fn(&mut Request, &mut Response) -> Result`, its `async fn` form, or a tuple of handlers",
    note = "a handler is `fn(req: &mut Request, res: &mut Response) -> Result`, or `async fn(req: &mut Request, res: &mut Response) -> Result` whose future is `Send`; `webfw::async_handler_fn(f)` shows which value held across an `.await` is not",
    note = "an error handler is `fn(err: Error, req: &mut Request, res: &mut Response) -> Result`, or its `async fn` form",
    note = "a closure needs its argument types (`|req: &mut Request, res: &mut Response| ...`) or the helper that infers them: `webfw::handler_fn(|req, res| ...)`",
    note = "several handlers are a tuple `(a, b, c)` of at most 16 (nest tuples for more); a `Router`, an `App`, a `Middleware` and a `Handler` value are accepted too",
    note = "to mount on a path, write `app.use_at(\"/path\", handler)`: Express's `app.use(\"/path\", handler)`"
)]
pub trait IntoMiddlewares<M>: Sized + sealed::PlainAll<M> {
    /// Appends the middleware to `out` in order.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// use webfw::IntoMiddlewares;
    /// fn a(_req: &mut Request, _res: &mut Response) -> Result { next() }
    /// let mut out = Vec::new();
    /// (a, a, a).into_middlewares(&mut out);
    /// assert_eq!(out.len(), 3);
    /// ```
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
/// plain `Fn` bound cannot do. Implemented for every such function whose
/// future is `Send`.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::AsyncHandlerFn;
/// async fn later(_req: &mut Request, res: &mut Response) -> Result { res.send("later") }
/// fn check<F: for<'a> AsyncHandlerFn<'a>>(_: F) {}
/// check(later);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an async webfw handler",
    label = "expected `async fn(&mut Request, &mut Response) -> Result` with a `Send` future",
    note = "the future must be `Send`: hold no `Rc`, `RefCell` borrow or `MutexGuard` across an `.await`"
)]
pub trait AsyncHandlerFn<'a>: Send + Sync + 'static {
    /// The future the function returns.
    type Fut: Future<Output = Result> + Send + 'a;
    /// Calls the function.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// use webfw::AsyncHandlerFn;
    /// async fn later(_req: &mut Request, res: &mut Response) -> Result { res.send("later") }
    /// fn run<F: for<'a> AsyncHandlerFn<'a>>(f: &F, req: &mut Request, res: &mut Response) {
    ///     let _future = f.call_async(req, res);
    /// }
    /// ```
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
        HandlerFuture::boxed(Box::pin(self.0.call_async(req, res)))
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
        HandlerFuture::ready((self.0)(err, req, res))
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

/// An async error-handling function: `async fn(Error, &mut Request, &mut Response) -> Result`,
/// its future `Send`.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::AsyncErrorHandlerFn;
/// async fn report(err: Error, _req: &mut Request, res: &mut Response) -> Result {
///     res.status(err.status()).send(err.to_string())
/// }
/// fn check<F: for<'a> AsyncErrorHandlerFn<'a>>(_: F) {}
/// check(report);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an async webfw error handler",
    label = "expected `async fn(Error, &mut Request, &mut Response) -> Result` with a `Send` future",
    note = "the future must be `Send`: hold no `Rc`, `RefCell` borrow or `MutexGuard` across an `.await`"
)]
pub trait AsyncErrorHandlerFn<'a>: Send + Sync + 'static {
    /// The future the function returns.
    type Fut: Future<Output = Result> + Send + 'a;
    /// Calls the function.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// use webfw::AsyncErrorHandlerFn;
    /// fn run<F: for<'a> AsyncErrorHandlerFn<'a>>(f: &F, req: &mut Request, res: &mut Response) {
    ///     let _future = f.call_async(Error::new("boom"), req, res);
    /// }
    /// ```
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
        HandlerFuture::boxed(Box::pin(self.0.call_async(err, req, res)))
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

#[diagnostic::do_not_recommend]
impl IntoMiddleware<MiddlewareValue> for Middleware {
    fn into_middleware(self) -> Middleware {
        self
    }
}

impl sealed::Plain<MiddlewareValue> for Middleware {}

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

#[diagnostic::do_not_recommend]
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
        #[diagnostic::do_not_recommend]
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
    (A MA, B MB, C MC, D MD, E ME, F MF, G MG, H MH, I MI, J MJ, K MK, L ML, N MN)
    (A MA, B MB, C MC, D MD, E ME, F MF, G MG, H MH, I MI, J MJ, K MK, L ML, N MN, O MO)
    (A MA, B MB, C MC, D MD, E ME, F MF, G MG, H MH, I MI, J MJ, K MK, L ML, N MN, O MO, P MP)
    (A MA, B MB, C MC, D MD, E ME, F MF, G MG, H MH, I MI, J MJ, K MK, L ML, N MN, O MO, P MP, Q MQ)
}

/// Wraps a [`Handler`] value (a struct implementing the trait).
///
/// ```
/// use webfw::prelude::*;
/// use webfw::{handler, Handler, HandlerFuture};
/// struct Ok200;
/// impl Handler for Ok200 {
///     fn call<'a>(&'a self, _q: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
///         HandlerFuture::ready(res.send_status(200))
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
///         HandlerFuture::ready(res.status(e.status()).send(e.to_string()))
///     }
/// }
/// let mut app = webfw::app();
/// app.use_(error_handler_value(Plain));
/// ```
pub fn error_handler_value(h: impl ErrorHandler) -> Middleware {
    Middleware::from_error_handler(Arc::new(h))
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

    #[test]
    fn closures_given_through_handler_fn_stay_plain() {
        let closure = crate::handler_fn(|_req, _res| next());
        assert_eq!(count((closure, plain), true), 1);
        let later = crate::async_handler_fn(async |_req, _res| next());
        assert_eq!(count((plain, later), true), 2);
    }
}
