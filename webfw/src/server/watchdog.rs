//! The header-read timeout, kept off the per-request path.
//!
//! hyper's own header-read timeout arms a timer for every request head, which
//! cost about a tenth of a small request. Here each connection gets one
//! watchdog task instead: it wakes a few times per timeout period and closes
//! the connection once no request has been in flight and none has started for
//! a whole period. That covers what hyper's timer covered (a head that never
//! completes, an idle keep-alive connection) and a stalled TLS handshake too.
//! A request costs two counter increments.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::task::AbortHandle;

/// How many watchdog ticks make up one timeout period: the connection is
/// closed between one and `1 + 1/TICKS` periods after it went quiet.
const TICKS: u32 = 4;

/// Request counts of one connection.
#[derive(Default)]
pub(crate) struct Activity {
    started: AtomicU64,
    finished: AtomicU64,
}

/// One request in flight on a connection: counted when made, counted as
/// finished when dropped (hyper drops the response body once it is written,
/// or when the connection goes away).
pub(crate) struct InFlight(Arc<Activity>);

impl InFlight {
    pub(crate) fn new(activity: &Arc<Activity>) -> InFlight {
        activity.started.fetch_add(1, Ordering::Relaxed);
        InFlight(activity.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.finished.fetch_add(1, Ordering::Relaxed);
    }
}

/// Watches the connection task `conn` until it ends, aborting it (which
/// closes the socket) once it has been quiet for `timeout`.
pub(crate) async fn watch(activity: Arc<Activity>, conn: AbortHandle, timeout: Duration) {
    let tick = (timeout / TICKS).max(Duration::from_millis(1));
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + tick, tick);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut seen = u64::MAX;
    let mut quiet = 0;
    loop {
        ticks.tick().await;
        if conn.is_finished() {
            return;
        }
        let started = activity.started.load(Ordering::Relaxed);
        let idle = started == activity.finished.load(Ordering::Relaxed);
        // The quiet spell may have begun just before the tick that first saw
        // it, so that tick does not count.
        if idle && started == seen {
            quiet += 1;
            if quiet >= TICKS {
                conn.abort();
                return;
            }
        } else {
            quiet = 0;
        }
        seen = started;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_quiet_connection_is_aborted_after_the_timeout() {
        let activity = Arc::new(Activity::default());
        let conn = tokio::spawn(std::future::pending::<()>());
        let start = tokio::time::Instant::now();
        watch(activity, conn.abort_handle(), Duration::from_secs(60)).await;
        let waited = start.elapsed();
        assert!(conn.await.unwrap_err().is_cancelled());
        assert!(waited >= Duration::from_secs(60), "{waited:?}");
        assert!(waited <= Duration::from_secs(75), "{waited:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_in_flight_keeps_the_connection() {
        let activity = Arc::new(Activity::default());
        let conn = tokio::spawn(std::future::pending::<()>());
        let request = InFlight::new(&activity);
        let watcher = tokio::spawn(watch(
            activity.clone(),
            conn.abort_handle(),
            Duration::from_secs(60),
        ));
        tokio::time::sleep(Duration::from_secs(600)).await;
        assert!(!conn.is_finished());
        drop(request);
        tokio::time::sleep(Duration::from_secs(76)).await;
        assert!(conn.is_finished());
        watcher.await.unwrap();
    }

    #[tokio::test(start_paused = true)]
    async fn requests_that_keep_coming_keep_the_connection() {
        let activity = Arc::new(Activity::default());
        let conn = tokio::spawn(std::future::pending::<()>());
        let watcher = tokio::spawn(watch(
            activity.clone(),
            conn.abort_handle(),
            Duration::from_secs(60),
        ));
        for _ in 0..20 {
            tokio::time::sleep(Duration::from_secs(50)).await;
            drop(InFlight::new(&activity));
        }
        assert!(!conn.is_finished());
        conn.abort();
        watcher.await.unwrap();
    }
}
