//! The accept loop: each connection it takes gets a task of its own, and
//! once the shutdown starts the loop closes the socket and waits for the
//! connections to finish.
//!
//! When `accept` fails: most failures concern one connection that was
//! already gone (`ECONNABORTED`…), and the next is accepted at once.
//! Running out of file descriptors (`EMFILE`, `ENFILE`) or kernel memory
//! (`ENOBUFS`, `ENOMEM`) fails every call until something closes, so
//! retrying at once would spin a core: the loop sleeps instead, 10 ms at
//! first and twice as long after each failure in a row, up to one second,
//! as libuv backs off. Clients wait in the listen backlog meanwhile (and get
//! refused once it is full).

use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::watch;

use super::conn::{Builders, Conn};
use super::listen::{self, ListenOptions};
use super::stream::Stream;
#[cfg(feature = "tls")]
use super::tls::TlsConfig;
use super::watchdog::{Activity, Watchdog};
use super::{graceful, slots};
use crate::app::ServedApp;

const FIRST: Duration = Duration::from_millis(10);
const LONGEST: Duration = Duration::from_secs(1);

/// The accept loop's pause after failures, growing while they last.
#[derive(Default)]
pub(super) struct Backoff {
    next: Option<Duration>,
}

impl Backoff {
    /// An accept succeeded: the next failure pauses briefly again.
    #[inline]
    pub(super) fn reset(&mut self) {
        self.next = None;
    }

    /// Waits as long as `err` calls for before the next accept.
    pub(super) async fn pause(&mut self, err: &io::Error) {
        if !exhausts_resources(err) {
            return;
        }
        let wait = self.next.unwrap_or(FIRST);
        self.next = Some((wait * 2).min(LONGEST));
        tokio::time::sleep(wait).await;
    }
}

/// Whether `err` says the process or system is out of a resource, so that
/// accepting again at once would fail the same way.
fn exhausts_resources(err: &io::Error) -> bool {
    const EMFILE: i32 = 24;
    const ENFILE: i32 = 23;
    const ENOMEM: i32 = 12;
    const ENOBUFS: i32 = 105;
    matches!(err.raw_os_error(), Some(EMFILE | ENFILE | ENOMEM | ENOBUFS))
        || err.kind() == io::ErrorKind::OutOfMemory
}

/// A listening socket: TCP or UNIX.
pub(super) trait Accept: Send + 'static {
    type Stream: AsyncRead + AsyncWrite + Unpin + Send + 'static;
    fn accept_one(
        &self,
    ) -> impl Future<Output = io::Result<(Self::Stream, Option<SocketAddr>)>> + Send;
}

/// One listener type for both kinds of socket, so the accept loop and
/// everything under it are built once (see [`stream`](super::stream)).
impl Accept for listen::Bound {
    type Stream = Stream;
    async fn accept_one(&self) -> io::Result<(Self::Stream, Option<SocketAddr>)> {
        match self {
            listen::Bound::Tcp(listener) => {
                let (s, peer) = listener.accept().await?;
                // Node's default; small responses must not wait for Nagle.
                let _ = s.set_nodelay(true);
                Ok((Stream::Tcp(s), Some(peer)))
            }
            #[cfg(unix)]
            listen::Bound::Unix(listener) => {
                let (s, _) = listener.accept().await?;
                Ok((Stream::Unix(s), None))
            }
        }
    }
}

pub(super) async fn accept_loop<L: Accept>(
    listener: L,
    app: Arc<ServedApp>,
    opts: ListenOptions,
    slots: slots::Slots,
    mut shutdown: watch::Receiver<bool>,
) {
    let graceful = graceful::Graceful::default();
    let watchdog = Watchdog::start(opts.deadlines());
    let builders = Arc::new(Builders::new(&opts));
    #[cfg(feature = "tls")]
    let tls = opts.tls.as_ref().map(TlsConfig::acceptor);
    let mut backoff = Backoff::default();
    let limit = opts.max_connections.map(|max| (max, slots));
    loop {
        let accepted = tokio::select! {
            r = listener.accept_one() => r,
            _ = shutdown.changed() => break,
        };
        let (stream, peer) = match accepted {
            Ok(a) => {
                backoff.reset();
                a
            }
            Err(e) => {
                tokio::select! {
                    () = backoff.pause(&e) => continue,
                    _ = shutdown.changed() => break,
                }
            }
        };
        let slot = match &limit {
            // Node's `maxConnections`: closed at once, never queued.
            Some((max, slots)) if slots.held() >= *max => continue,
            Some((_, slots)) => Some(slots.take()),
            None => None,
        };
        let peer = peer.unwrap_or(SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0));
        let activity = Arc::new(Activity::default());
        let listed = watchdog.watch(activity.clone());
        let id = listed.id();
        let conn = Conn {
            app: app.clone(),
            peer,
            activity,
            builders: builders.clone(),
            watcher: graceful.watcher(),
            slot,
        };
        #[cfg(feature = "tls")]
        let acceptor = tls.clone();
        let task = tokio::spawn(async move {
            // Dropped when the task ends, however it ends: the watch list
            // holds nothing of a finished connection.
            let _listed = listed;
            #[cfg(feature = "tls")]
            if let Some(acceptor) = acceptor {
                return conn.serve_tls(acceptor, stream).await;
            }
            conn.serve(stream, false, false).await
        });
        watchdog.attach(id, task.abort_handle());
    }
    // Closed as the shutdown begins, not once it ends: new clients are
    // refused by the kernel (or go to another `reuse_port` server) instead
    // of waiting in the backlog of a server that will never accept them. A
    // socket given with `from_listener` stays open while its owner (say,
    // systemd, or the other workers) holds it.
    drop(listener);
    let shutdown_timeout = opts.shutdown_timeout;
    drop(opts);
    graceful.stop();
    let finished = match shutdown_timeout {
        Some(limit) => tokio::time::timeout(limit, graceful.all_done())
            .await
            .is_ok(),
        None => {
            graceful.all_done().await;
            true
        }
    };
    if !finished {
        watchdog.abort_all();
        graceful.all_done().await;
    }
    // Every connection is done: write out log lines still queued behind a
    // slow stream before `shutdown()` / `listen` return.
    #[cfg(feature = "logger")]
    crate::logger::flush_all();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn running_out_of_descriptors_pauses_longer_each_time_up_to_a_second() {
        let mut b = Backoff::default();
        let emfile = io::Error::from_raw_os_error(24);
        let mut waits = Vec::new();
        for _ in 0..10 {
            let t = tokio::time::Instant::now();
            b.pause(&emfile).await;
            waits.push(t.elapsed().as_millis());
        }
        assert_eq!(waits, [10, 20, 40, 80, 160, 320, 640, 1000, 1000, 1000]);
        b.reset();
        let t = tokio::time::Instant::now();
        b.pause(&emfile).await;
        assert_eq!(t.elapsed().as_millis(), 10);
    }

    /// A listener out of descriptors: every accept fails with EMFILE.
    struct OutOfFiles(std::sync::Arc<std::sync::atomic::AtomicUsize>);

    impl super::Accept for OutOfFiles {
        type Stream = tokio::io::DuplexStream;
        async fn accept_one(&self) -> io::Result<(Self::Stream, Option<std::net::SocketAddr>)> {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            tokio::task::yield_now().await;
            Err(io::Error::from_raw_os_error(24))
        }
    }

    #[tokio::test(start_paused = true)]
    async fn the_accept_loop_does_not_spin_when_out_of_descriptors() {
        let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (stop, rx) = tokio::sync::watch::channel(false);
        let server = tokio::spawn(super::accept_loop(
            OutOfFiles(calls.clone()),
            std::sync::Arc::new(crate::app().serve_root().unwrap()),
            crate::ListenOptions::port(0),
            super::slots::Slots::default(),
            rx,
        ));
        // The clock stands still while this task keeps the runtime busy: a
        // loop that backs off waits, one that spins fails each time again.
        for _ in 0..200 {
            tokio::task::yield_now().await;
        }
        assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 1);
        stop.send(true).unwrap();
        server.await.unwrap();
    }

    #[tokio::test(start_paused = true)]
    async fn a_connection_that_went_away_is_skipped_at_once() {
        let mut b = Backoff::default();
        let t = tokio::time::Instant::now();
        b.pause(&io::Error::from(io::ErrorKind::ConnectionAborted))
            .await;
        assert_eq!(t.elapsed(), Duration::ZERO);
    }
}
