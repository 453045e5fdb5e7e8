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
