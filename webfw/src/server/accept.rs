//! What the accept loop does when `accept` fails.
//!
//! Most failures concern one connection that was already gone
//! (`ECONNABORTED`…): the next is accepted at once. Running out of file
//! descriptors (`EMFILE`, `ENFILE`) or kernel memory (`ENOBUFS`, `ENOMEM`)
//! fails every call until something closes, so retrying at once would spin
//! a core: the loop sleeps instead, 10 ms at first and twice as long after
//! each failure in a row, up to one second, as libuv backs off. Clients
//! wait in the listen backlog meanwhile (and get refused once it is full).

use std::io;
use std::time::Duration;

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

    impl super::super::Accept for OutOfFiles {
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
        let server = tokio::spawn(super::super::accept_loop(
            OutOfFiles(calls.clone()),
            std::sync::Arc::new(crate::app().serve_root().unwrap()),
            crate::ListenOptions::port(0),
            super::super::slots::Slots::default(),
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
