//! Handlers that take a value of the app's state as an argument
//! ([`with_state`], [`with_state_async`]). The value is looked up once,
//! when the app freezes: a value no app provides is an error at start-up,
//! and a request pays nothing to reach it.

use std::future::Future;
use std::marker::PhantomData;
use std::sync::Arc;

use super::entry::{Entry, Middleware, Pending, Unbound};
use super::{Handler, HandlerFuture, Result, SyncHandler};
use crate::app_ref::state::StateMap;
use crate::request::Request;
use crate::response::Response;

/// `f` and the type of value it takes, until the freeze finds the value.
struct Waiting<T, F, K> {
    f: F,
    kind: PhantomData<fn() -> (T, K)>,
}

/// A synchronous function of a request, a response and a value.
struct SyncKind;
/// An async one.
struct AsyncKind;

/// `f` with its value.
struct Bound<T, F> {
    f: F,
    value: Arc<T>,
}

impl<T, F> SyncHandler for Bound<T, F>
where
    T: Send + Sync + 'static,
    F: Fn(&mut Request, &mut Response, &T) -> Result + Send + Sync + 'static,
{
    fn call_sync(&self, req: &mut Request, res: &mut Response) -> Result {
        (self.f)(req, res, &self.value)
    }
}

impl<T, F> Unbound for Waiting<T, F, SyncKind>
where
    T: Send + Sync + 'static,
    F: Fn(&mut Request, &mut Response, &T) -> Result + Send + Sync + 'static,
{
    fn bind(self: Box<Self>, state: &StateMap) -> std::result::Result<Entry, &'static str> {
        let value = state.get_arc::<T>().ok_or_else(std::any::type_name::<T>)?;
        Ok(Entry::Sync(Arc::new(Bound { f: self.f, value })))
    }
}

/// A handler taking a value of the app's state: `f(req, res, &value)`,
/// where the value is the one of type `T` given to the app (or a parent
/// app) with [`App::state`](crate::App::state). The app checks when it
/// starts (`listen`, `bind`, [`App::try_freeze_root`](crate::App::try_freeze_root))
/// that the value is there, and fails naming its type if not; a request
/// reaches it with no lookup and no allocation. The closure's argument
/// types are inferred but the value's.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::with_state;
/// use std::sync::Mutex;
///
/// struct Visits(Mutex<u64>);
/// fn count(_req: &mut Request, res: &mut Response, visits: &Visits) -> Result {
///     let mut n = visits.0.lock().unwrap();
///     *n += 1;
///     res.send(format!("visit {n}"))
/// }
/// let mut app = webfw::app();
/// app.state(Visits(Mutex::new(0)));
/// app.get("/count", with_state(count));
/// app.get("/peek", with_state(|_req, res, visits: &Visits| {
///     let n = *visits.0.lock().unwrap();
///     res.send(n.to_string())
/// }));
/// ```
pub fn with_state<T, F>(f: F) -> Middleware
where
    T: Send + Sync + 'static,
    F: Fn(&mut Request, &mut Response, &T) -> Result + Send + Sync + 'static,
{
    Middleware(Pending::Unbound(Box::new(Waiting::<T, F, SyncKind> {
        f,
        kind: PhantomData,
    })))
}

/// An async function of a request, a response and a value of the app's
/// state, its future `Send`: what [`with_state_async`] takes.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::AsyncStateFn;
/// struct Db;
/// async fn list(_req: &mut Request, res: &mut Response, _db: &Db) -> Result { res.send("[]") }
/// fn check<F: for<'a> AsyncStateFn<'a, Db>>(_: F) {}
/// check(list);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an async webfw handler taking a `{T}`",
    label = "expected `async fn(&mut Request, &mut Response, &{T}) -> Result` with a `Send` future",
    note = "the future must be `Send`: hold no `Rc`, `RefCell` borrow or `MutexGuard` across an `.await`",
    note = "an async closure must capture nothing: take what it would capture as its third argument (`async |req, res, value: &T| ...`), given to the app with `app.state(value)`"
)]
pub trait AsyncStateFn<'a, T: 'a>: Send + Sync + 'static {
    /// The future the function returns.
    type Fut: Future<Output = Result> + Send + 'a;
    /// Calls the function.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// use webfw::AsyncStateFn;
    /// async fn show(_req: &mut Request, res: &mut Response, n: &u32) -> Result { res.send(n.to_string()) }
    /// fn run<F: for<'a> AsyncStateFn<'a, u32>>(f: &F, req: &mut Request, res: &mut Response) {
    ///     let _future = f.call_async(req, res, &7);
    /// }
    /// ```
    fn call_async(&self, req: &'a mut Request, res: &'a mut Response, value: &'a T) -> Self::Fut;
}

impl<'a, T: 'a, F, Fut> AsyncStateFn<'a, T> for F
where
    F: Fn(&'a mut Request, &'a mut Response, &'a T) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result> + Send + 'a,
{
    type Fut = Fut;
    fn call_async(&self, req: &'a mut Request, res: &'a mut Response, value: &'a T) -> Fut {
        self(req, res, value)
    }
}

impl<T, F> Handler for Bound<T, (F, AsyncKind)>
where
    T: Send + Sync + 'static,
    F: for<'a> AsyncStateFn<'a, T>,
{
    fn call<'a>(&'a self, req: &'a mut Request, res: &'a mut Response) -> HandlerFuture<'a> {
        HandlerFuture::boxed(Box::pin(self.f.0.call_async(req, res, &self.value)))
    }
}

impl<T, F> Unbound for Waiting<T, F, AsyncKind>
where
    T: Send + Sync + 'static,
    F: for<'a> AsyncStateFn<'a, T>,
{
    fn bind(self: Box<Self>, state: &StateMap) -> std::result::Result<Entry, &'static str> {
        let value = state.get_arc::<T>().ok_or_else(std::any::type_name::<T>)?;
        let f = (self.f, AsyncKind);
        Ok(Entry::Handler(Arc::new(Bound { f, value })))
    }
}

/// [`with_state`] for an `async fn` or an async closure: `f(req, res,
/// &value)` returns a `Send` future. An async closure that captures
/// nothing is accepted, with its argument types inferred but the value's;
/// what it would capture goes in the app's state instead.
///
/// ```
/// use webfw::prelude::*;
/// use webfw::with_state_async;
///
/// #[derive(Clone)]
/// struct Pool { name: &'static str }
/// async fn who(_req: &mut Request, res: &mut Response, pool: &Pool) -> Result {
///     tokio::task::yield_now().await;
///     res.send(pool.name)
/// }
/// let mut app = webfw::app();
/// app.state(Pool { name: "main" });
/// app.get("/who", with_state_async(who));
/// app.get("/later", with_state_async(async |_req, res, pool: &Pool| {
///     tokio::task::yield_now().await;
///     res.send(format!("{} later", pool.name))
/// }));
/// ```
pub fn with_state_async<T, F>(f: F) -> Middleware
where
    T: Send + Sync + 'static,
    F: std::ops::AsyncFn(&mut Request, &mut Response, &T) -> Result + for<'a> AsyncStateFn<'a, T>,
{
    Middleware(Pending::Unbound(Box::new(Waiting::<T, F, AsyncKind> {
        f,
        kind: PhantomData,
    })))
}
