//! Helpers that give a closure one expected shape, so that its argument
//! types are inferred (a trait with several shapes, as `IntoMiddleware` is,
//! gives the compiler nothing to infer them from).

use super::{AsyncHandlerFn, Result};
use crate::error::Error;
use crate::request::Request;
use crate::response::Response;

/// A closure as a handler, with its argument types inferred: `app.get`
/// and `app.use_` accept many shapes of handler, so a bare closure given to
/// them must spell out `|req: &mut Request, res: &mut Response|`; given
/// here, it needs no annotation. Returns the closure itself, so it runs
/// exactly as a `fn` item would.
///
/// ```
/// use webfw::handler_fn;
/// let mut app = webfw::app();
/// app.get("/", handler_fn(|req, res| res.send(req.path().to_owned())));
/// ```
pub fn handler_fn<F>(f: F) -> F
where
    F: Fn(&mut Request, &mut Response) -> Result + Send + Sync + 'static,
{
    f
}

/// An async closure as a handler, with its argument types inferred (see
/// [`handler_fn`]). Its future must be `Send`.
///
/// ```
/// use webfw::async_handler_fn;
/// let mut app = webfw::app();
/// app.get("/", async_handler_fn(async |_req, res| {
///     tokio::task::yield_now().await;
///     res.send("later")
/// }));
/// ```
pub fn async_handler_fn<F>(f: F) -> F
where
    F: std::ops::AsyncFn(&mut Request, &mut Response) -> Result + for<'a> AsyncHandlerFn<'a>,
{
    f
}

/// A closure as an error handler, with its argument types inferred (see
/// [`handler_fn`]).
///
/// ```
/// use webfw::error_handler_fn;
/// let mut app = webfw::app();
/// app.use_(error_handler_fn(|err, _req, res| res.status(err.status()).send(err.to_string())));
/// ```
pub fn error_handler_fn<F>(f: F) -> F
where
    F: Fn(Error, &mut Request, &mut Response) -> Result + Send + Sync + 'static,
{
    f
}

/// A closure as a parameter callback for `app.param`, with its argument
/// types inferred (see [`handler_fn`]).
///
/// ```
/// use webfw::param_fn;
/// let mut app = webfw::app();
/// app.param("id", param_fn(|req, _res, id| {
///     req.set_local("id", serde_json::json!(id));
///     webfw::next()
/// }));
/// ```
pub fn param_fn<F>(f: F) -> F
where
    F: Fn(&mut Request, &mut Response, &str) -> Result + Send + Sync + 'static,
{
    f
}

/// A closure that owns what it captures (a pool, a client) as an async
/// handler: `async_handler!(async move |req, res| { … })`, and the older
/// form `async_handler!(move |req, res| async move { … })`. Given directly
/// to `app.get`, such closures do not compile: an async closure that
/// captures values is not `Fn`, Rust cannot yet require its future to be
/// `Send`, and a closure returning an `async move` block cannot lend it its
/// arguments. The macro checks the future where the closure's type is
/// known, and each request calls the closure through a shared reference
/// (one reference-count increment, no allocation beyond the future's box
/// every async handler has). Argument types are inferred.
///
/// ```
/// use std::sync::Arc;
/// use webfw::prelude::*;
///
/// struct Pool { name: &'static str }
/// impl Pool {
///     async fn query(&self) -> String { format!("rows from {}", self.name) }
/// }
///
/// let pool = Arc::new(Pool { name: "main" });
/// let mut app = webfw::app();
/// let p = Arc::clone(&pool);
/// app.get("/rows", webfw::async_handler!(async move |_req, res| {
///     let rows = p.query().await;
///     res.send(rows)
/// }));
/// let p = Arc::clone(&pool);
/// app.get("/old-style", webfw::async_handler!(move |req, res| async move {
///     let rows = p.query().await;
///     res.send(format!("{} for {}", rows, req.path()))
/// }));
/// ```
#[macro_export]
macro_rules! async_handler {
    (move |$req:pat_param, $res:pat_param| async move $body:block) => {
        $crate::async_handler!(async move |$req, $res| $body)
    };
    (|$req:pat_param, $res:pat_param| async move $body:block) => {
        $crate::async_handler!(async move |$req, $res| $body)
    };
    ($closure:expr) => {{
        let shared = ::std::sync::Arc::new($crate::__async_handler::infer($closure));
        $crate::__async_handler::boxed(move |req, res| {
            let f = ::std::sync::Arc::clone(&shared);
            ::std::boxed::Box::pin(async move { (&*f)(req, res).await })
        })
    }};
}

/// What [`async_handler!`] expands to; not a public API.
#[doc(hidden)]
pub mod __async_handler {
    use std::sync::Arc;

    use crate::handler::Middleware;
    use crate::handler::{BoxFuture, Handler, HandlerFuture, Result};
    use crate::request::Request;
    use crate::response::Response;

    /// Gives the closure its argument types.
    pub fn infer<F>(f: F) -> F
    where
        F: std::ops::AsyncFn(&mut Request, &mut Response) -> Result + Send + Sync + 'static,
    {
        f
    }

    /// A function returning the boxed future of the shared closure.
    struct Boxed<F>(F);

    impl<F> Handler for Boxed<F>
    where
        F: for<'a> Fn(&'a mut Request, &'a mut Response) -> BoxFuture<'a, Result>
            + Send
            + Sync
            + 'static,
    {
        fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
            HandlerFuture::boxed((self.0)(req, res))
        }
    }

    /// The handler calling the shared closure.
    pub fn boxed<F>(f: F) -> Middleware
    where
        F: for<'a> Fn(&'a mut Request, &'a mut Response) -> BoxFuture<'a, Result>
            + Send
            + Sync
            + 'static,
    {
        Middleware::from_handler(Arc::new(Boxed(f)))
    }
}
