//! Graceful shutdown of open connections.
//!
//! hyper-util's watcher polls a shutdown channel every time a connection is
//! polled, which is at least once per request. Here a
//! connection registers its task's waker once, and each poll costs one
//! atomic load; shutting down wakes every registered connection, which then
//! asks hyper to finish its in-flight request and close.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use tokio::sync::Notify;

/// A connection that can be asked to finish its in-flight request and close:
/// the HTTP/1 codec's, and hyper's HTTP/2 connections (through hyper-util's
/// trait).
pub(crate) trait Closable: Future {
    fn graceful_shutdown(self: Pin<&mut Self>);
}

impl<C: hyper_util::server::graceful::GracefulConnection> Closable for C {
    fn graceful_shutdown(self: Pin<&mut Self>) {
        hyper_util::server::graceful::GracefulConnection::graceful_shutdown(self);
    }
}

#[derive(Default)]
struct Shared {
    stopping: AtomicBool,
    /// Connections (and handshakes) not yet finished.
    live: AtomicUsize,
    next_id: AtomicU64,
    /// The task waker of each watched connection, to wake it on shutdown.
    wakers: Mutex<HashMap<u64, Waker>>,
    all_done: Notify,
}

impl Shared {
    fn wakers(&self) -> MutexGuard<'_, HashMap<u64, Waker>> {
        // Every update is a single insert or remove: a panic cannot leave
        // the map half-changed, so poisoning is ignored.
        self.wakers.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The server side: hands out a [`Watcher`] per accepted connection and
/// shuts them all down.
#[derive(Default)]
pub(crate) struct Graceful(Arc<Shared>);

impl Graceful {
    /// A token for one accepted connection; it counts as live until the
    /// token (or the connection it watches) is dropped.
    pub(crate) fn watcher(&self) -> Watcher {
        self.0.live.fetch_add(1, Ordering::AcqRel);
        Watcher {
            shared: self.0.clone(),
            id: self.0.next_id.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// Asks every connection to close after its in-flight request.
    pub(crate) fn stop(&self) {
        let shared = &self.0;
        shared.stopping.store(true, Ordering::SeqCst);
        for waker in shared.wakers().values() {
            waker.wake_by_ref();
        }
    }

    /// Waits until every connection is gone.
    pub(crate) async fn all_done(&self) {
        let shared = &self.0;
        loop {
            let done = shared.all_done.notified();
            if shared.live.load(Ordering::SeqCst) == 0 {
                return;
            }
            done.await;
        }
    }
}

/// One connection's membership in the server's shutdown.
pub(crate) struct Watcher {
    shared: Arc<Shared>,
    id: u64,
}

impl Watcher {
    /// Runs `conn`, shutting it down gracefully when the server stops.
    pub(crate) fn watch<C: Closable>(self, conn: C) -> Watched<C> {
        Watched {
            conn: Box::pin(conn),
            watcher: self,
            waker: None,
            shut: false,
        }
    }

    /// Runs `fut`, the part of a connection before hyper has it (the TLS
    /// handshake, the protocol sniffing), unless the server starts stopping
    /// first: then `None`. Nothing is in flight yet, so the connection is
    /// dropped, as Node closes idle connections when it stops; else a client
    /// that connects and sends nothing would hold the shutdown until the
    /// header-read timeout.
    pub(crate) async fn unless_stopping<F: Future>(&self, fut: F) -> Option<F::Output> {
        let mut fut = std::pin::pin!(fut);
        let mut registered = None;
        std::future::poll_fn(|cx| {
            if self.stopping(&mut registered, cx) {
                return Poll::Ready(None);
            }
            fut.as_mut().poll(cx).map(Some)
        })
        .await
    }

    /// Whether the server is stopping. Registers the task's waker (again
    /// only when it changes, kept in `registered`) so that a shutdown wakes it.
    #[inline]
    fn stopping(&self, registered: &mut Option<Waker>, cx: &Context<'_>) -> bool {
        if self.shared.stopping.load(Ordering::SeqCst) {
            return true;
        }
        if registered.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
            return false;
        }
        self.register(registered, cx)
    }

    /// [`Self::stopping`] for a waker not registered yet (out of line: once
    /// per connection).
    #[inline(never)]
    fn register(&self, registered: &mut Option<Waker>, cx: &Context<'_>) -> bool {
        let stopping = || self.shared.stopping.load(Ordering::SeqCst);
        let waker = cx.waker().clone();
        self.shared.wakers().insert(self.id, waker.clone());
        *registered = Some(waker);
        // A shutdown that began before the waker was in the map would not
        // wake it: look again.
        stopping()
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.shared.wakers().remove(&self.id);
        if self.shared.live.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.shared.all_done.notify_waiters();
        }
    }
}

/// A connection future that honours the server's graceful shutdown.
pub(crate) struct Watched<C> {
    /// Boxed so the wrapper needs no pin projection (one allocation per
    /// connection).
    conn: Pin<Box<C>>,
    watcher: Watcher,
    /// The waker registered for this connection, re-registered only if the
    /// task's waker changes.
    waker: Option<Waker>,
    shut: bool,
}

impl<C: Closable> Future for Watched<C> {
    type Output = C::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<C::Output> {
        let this = self.get_mut();
        if !this.shut && this.watcher.stopping(&mut this.waker, cx) {
            this.shut = true;
            this.conn.as_mut().graceful_shutdown();
        }
        this.conn.as_mut().poll(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::task::Wake;

    /// Stands in for a hyper connection: pending until shut down.
    struct FakeConn {
        shut: bool,
    }

    impl Closable for FakeConn {
        fn graceful_shutdown(mut self: Pin<&mut Self>) {
            self.shut = true;
        }
    }

    impl Future for FakeConn {
        type Output = ();
        fn poll(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Self::Output> {
            if self.shut {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        }
    }

    struct CountWakes(AtomicUsize);

    impl Wake for CountWakes {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn shutdown_waits_for_tokens_that_never_watched_a_connection() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let g = Graceful::default();
            let token = g.watcher();
            g.stop();
            let stop = tokio::spawn(async move { g.all_done().await });
            tokio::task::yield_now().await;
            assert!(!stop.is_finished(), "a live connection must hold shutdown");
            drop(token);
            stop.await.unwrap();
        });
    }

    #[test]
    fn what_comes_before_the_connection_is_dropped_on_shutdown() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(async {
            let g = Graceful::default();
            let watcher = g.watcher();
            assert_eq!(watcher.unless_stopping(async { 7 }).await, Some(7));
            let (tx, rx) = tokio::sync::oneshot::channel::<()>();
            let waiting = tokio::spawn(async move {
                let out = watcher.unless_stopping(rx).await;
                (out.is_none(), watcher)
            });
            tokio::task::yield_now().await;
            g.stop();
            let stop = tokio::spawn(async move { g.all_done().await });
            let (abandoned, watcher) = waiting.await.unwrap();
            assert!(abandoned, "a shutdown ends the wait");
            drop(tx);
            drop(watcher);
            stop.await.unwrap();
        });
    }

    #[test]
    fn a_registered_connection_is_woken_once_and_not_polled_for_the_signal() {
        let shared = Arc::new(Shared::default());
        let g = Graceful(shared.clone());
        let counter = Arc::new(CountWakes(AtomicUsize::new(0)));
        let waker = Waker::from(counter.clone());
        let mut cx = Context::from_waker(&waker);
        let mut watched = Box::pin(g.watcher().watch(FakeConn { shut: false }));
        for _ in 0..3 {
            assert!(watched.as_mut().poll(&mut cx).is_pending());
        }
        assert_eq!(shared.wakers().len(), 1);
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        g.stop();
        let stop = rt.spawn(async move { g.all_done().await });
        rt.block_on(tokio::task::yield_now());
        assert_eq!(counter.0.load(Ordering::SeqCst), 1);
        assert!(watched.as_mut().poll(&mut cx).is_ready());
        assert!(
            watched.shut,
            "the poll after the wake shuts the connection down"
        );
        drop(watched);
        assert!(shared.wakers().is_empty());
        rt.block_on(stop).unwrap();
    }
}
