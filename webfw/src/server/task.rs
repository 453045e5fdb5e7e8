//! The server's occasional tasks, spawned as one task type.
//!
//! tokio builds its task machinery (poll, completion, cancellation, join)
//! for every future type it spawns: about 3 KB of code each, twice when the
//! multi-thread scheduler is linked. The tasks that run once per server or
//! seldom (the accept loop, the watchdog's ticker, the signal watcher, a
//! chain still running after its response, a save a gone client left
//! behind) are boxed into this one type. Connections, one task per client,
//! are not boxed.

use std::future::Future;
use std::pin::Pin;

/// A boxed task that returns nothing.
pub(crate) type Occasional = Pin<Box<dyn Future<Output = ()> + Send>>;

/// `fut` as an [`Occasional`] task, for `tokio::spawn` or `Handle::spawn`.
pub(crate) fn occasional(fut: impl Future<Output = ()> + Send + 'static) -> Occasional {
    Box::pin(fut)
}
