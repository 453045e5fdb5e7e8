//! What a `use` or route stack holds. Express's layers hold the functions
//! themselves, a router or an app among them; here registration gives a
//! [`Middleware`], and freezing turns each into an [`Entry`] that runs: a
//! mounted router or app becomes one handler, a handler taking a state
//! value gets its value.

use std::any::Any;
use std::sync::Arc;

use super::{ErrorHandler, Handler, SyncHandler};
use crate::app_ref::parent::Parent;
use crate::app_ref::state::StateMap;

/// One entry of a `use` or route stack: a handler, an error handler, a
/// router or an app, as converted by [`IntoMiddleware`](crate::IntoMiddleware).
///
/// ```
/// use webfw::prelude::*;
/// fn hi(_req: &mut Request, res: &mut Response) -> Result { res.send("hi") }
/// let entry: webfw::Middleware = webfw::IntoMiddleware::into_middleware(hi);
/// let mut app = webfw::app();
/// app.use_(entry);
/// ```
pub struct Middleware(pub(crate) Pending);

/// What a [`Middleware`] holds until its app freezes.
pub(crate) enum Pending {
    /// Ready to run as it is.
    Entry(Entry),
    /// A router or an app, mounted with `use`.
    Mount(Box<dyn Mount>),
    /// A handler taking a value of the app's state.
    Unbound(Box<dyn Unbound>),
}

/// One entry of a frozen stack.
pub(crate) enum Entry {
    /// A handler that may await: called through its future. Mounted
    /// routers and apps are such handlers once frozen.
    Handler(Arc<dyn Handler>),
    /// A handler that never awaits: called directly (the crate's fast
    /// path for plain functions; it must answer as `Handler` would).
    Sync(Arc<dyn SyncHandler>),
    /// An error handler.
    Error(Arc<dyn ErrorHandler>),
}

/// A router or an app given to `use`. Frozen under the app it is mounted
/// in, it runs as one handler, as Express mounts both as functions of
/// `(req, res, next)`.
pub(crate) trait Mount: Any + Send + Sync {
    /// The handler that runs it.
    fn freeze(self: Box<Self>, parent: &Parent) -> Arc<dyn Handler>;

    /// `"Router"` or `"App"`, for `Debug`.
    fn kind(&self) -> &'static str;
}

/// A handler waiting for its value: the freeze binds it to the value of
/// the app it is registered in.
pub(crate) trait Unbound: Send + Sync {
    /// The handler with its value, or the name of the type missing.
    fn bind(self: Box<Self>, state: &StateMap) -> Result<Entry, &'static str>;
}

impl Middleware {
    /// A handler that may await.
    pub(crate) fn from_handler(h: Arc<dyn Handler>) -> Middleware {
        Middleware(Pending::Entry(Entry::Handler(h)))
    }

    /// A handler that never awaits.
    pub(crate) fn sync(h: Arc<dyn SyncHandler>) -> Middleware {
        Middleware(Pending::Entry(Entry::Sync(h)))
    }

    /// An error handler.
    pub(crate) fn from_error_handler(h: Arc<dyn ErrorHandler>) -> Middleware {
        Middleware(Pending::Entry(Entry::Error(h)))
    }

    /// A router or an app.
    pub(crate) fn mount(m: Box<dyn Mount>) -> Middleware {
        Middleware(Pending::Mount(m))
    }

    /// The router or app this mounts, when it is a `T`.
    pub(crate) fn mounted_mut<T: Mount>(&mut self) -> Option<&mut T> {
        match &mut self.0 {
            Pending::Mount(m) => (&mut **m as &mut dyn Any).downcast_mut::<T>(),
            Pending::Entry(_) | Pending::Unbound(_) => None,
        }
    }

    /// What runs once the app `parent` freezes; `None` for a handler whose
    /// state value no app provides, which the freeze records to fail with.
    pub(crate) fn freeze(self, parent: &Parent) -> Option<Entry> {
        match self.0 {
            Pending::Entry(entry) => Some(entry),
            Pending::Mount(m) => Some(Entry::Handler(m.freeze(parent))),
            Pending::Unbound(unbound) => match unbound.bind(&parent.state) {
                Ok(entry) => Some(entry),
                Err(type_name) => {
                    parent.missing.add(type_name, parent.path());
                    None
                }
            },
        }
    }
}

impl std::fmt::Debug for Middleware {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &self.0 {
            Pending::Entry(Entry::Error(_)) => "Error",
            Pending::Entry(_) | Pending::Unbound(_) => "Handler",
            Pending::Mount(m) => m.kind(),
        };
        write!(f, "Middleware::{kind}")
    }
}
