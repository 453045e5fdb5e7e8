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

    #[tokio::test(start_paused = true)]
    async fn a_connection_that_went_away_is_skipped_at_once() {
        let mut b = Backoff::default();
        let t = tokio::time::Instant::now();
        b.pause(&io::Error::from(io::ErrorKind::ConnectionAborted))
            .await;
        assert_eq!(t.elapsed(), Duration::ZERO);
    }
}
