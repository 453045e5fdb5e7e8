//! The header-read timeout, kept off the per-request path and off the
//! runtime's timer.
//!
//! hyper's own header-read timeout arms a timer for every request head, a
//! large share of a small request. A timer per connection costs less, but
//! while any timer is pending every park of the runtime walks the timer
//! wheel and reads the clock again, on every request when requests arrive
//! one at a time (docs/PERFORMANCE.md). A thread of our own would cost as much,
//! since libc's socket calls take a slower path once a process has a second
//! thread. So one task per listener watches all its connections, woken a few
//! times per timeout period by a timerfd through the I/O driver (elsewhere
//! than Linux, by a tokio interval). It closes a connection once no request
//! has been in flight and none has started for a whole period. That covers
//! what hyper's timer covered (a head that never completes, an idle
//! keep-alive connection) and a stalled TLS handshake too. A request costs
//! two counter increments.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
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

/// One watched connection task.
struct Watched {
    activity: Arc<Activity>,
    conn: AbortHandle,
    /// Requests started as of the last tick.
    seen: u64,
    /// Ticks in a row that found the connection quiet.
    quiet: u32,
}

impl Watched {
    /// One tick: aborts the connection once it has been quiet for `TICKS`
    /// ticks. Returns whether to keep watching it.
    fn tick(&mut self) -> bool {
        if self.conn.is_finished() {
            return false;
        }
        let started = self.activity.started.load(Ordering::Relaxed);
        let idle = started == self.activity.finished.load(Ordering::Relaxed);
        // The quiet spell may have begun just before the tick that first saw
        // it, so that tick does not count.
        if idle && started == self.seen {
            self.quiet += 1;
            if self.quiet >= TICKS {
                self.conn.abort();
                return false;
            }
        } else {
            self.quiet = 0;
        }
        self.seen = started;
        true
    }
}

/// The watchdog of one listener; its task ends when this is dropped.
pub(crate) struct Watchdog {
    conns: Arc<Mutex<Vec<Watched>>>,
    task: AbortHandle,
}

/// Every update is a push or a retain: a panic cannot leave the list
/// half-changed, so poisoning is ignored.
fn lock(conns: &Mutex<Vec<Watched>>) -> MutexGuard<'_, Vec<Watched>> {
    conns.lock().unwrap_or_else(|p| p.into_inner())
}

impl Watchdog {
    /// Starts the watchdog task (on the current runtime) for connections
    /// that must not stay quiet for longer than `timeout`.
    pub(crate) fn start(timeout: Duration) -> std::io::Result<Watchdog> {
        let mut ticker = Ticker::new((timeout / TICKS).max(Duration::from_millis(1)))?;
        let conns = Arc::new(Mutex::new(Vec::new()));
        let watched = conns.clone();
        let task = tokio::spawn(async move {
            while ticker.tick().await {
                lock(&watched).retain_mut(Watched::tick);
            }
        });
        Ok(Watchdog {
            conns,
            task: task.abort_handle(),
        })
    }

    /// Watches the connection task `conn`, whose requests `activity` counts,
    /// until it ends, aborting it (which closes the socket) once it has been
    /// quiet for the timeout.
    pub(crate) fn watch(&self, activity: Arc<Activity>, conn: AbortHandle) {
        lock(&self.conns).push(Watched {
            activity,
            conn,
            seen: u64::MAX,
            quiet: 0,
        });
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The watchdog's clock: a timerfd that the I/O driver watches.
#[cfg(target_os = "linux")]
struct Ticker(tokio::io::unix::AsyncFd<std::os::fd::OwnedFd>);

#[cfg(target_os = "linux")]
impl Ticker {
    fn new(period: Duration) -> std::io::Result<Ticker> {
        use rustix::time::{
            Itimerspec, TimerfdClockId, TimerfdFlags, TimerfdTimerFlags, Timespec, timerfd_create,
            timerfd_settime,
        };
        let fd = timerfd_create(
            TimerfdClockId::Monotonic,
            TimerfdFlags::NONBLOCK | TimerfdFlags::CLOEXEC,
        )?;
        let every = Timespec {
            tv_sec: i64::try_from(period.as_secs()).unwrap_or(i64::MAX),
            tv_nsec: period.subsec_nanos().into(),
        };
        let spec = Itimerspec {
            it_interval: every,
            it_value: every,
        };
        timerfd_settime(&fd, TimerfdTimerFlags::empty(), &spec)?;
        // SAFETY: `register` needs the descriptor to stay open and the same
        // for the life of the `AsyncFd`. An `OwnedFd` always reports the
        // descriptor it owns and closes it only when dropped, which happens
        // when the `AsyncFd` that owns it is dropped.
        #[allow(unsafe_code)]
        let registered = unsafe { tokio::io::unix::AsyncFd::register(fd) };
        Ok(Ticker(registered.map_err(std::io::Error::from)?))
    }

    /// Waits for the next tick; `false` once the runtime is shutting down.
    async fn tick(&mut self) -> bool {
        loop {
            let Ok(mut ready) = self.0.readable().await else {
                return false;
            };
            let mut expirations = [0u8; 8];
            let read = ready.try_io(|fd| {
                rustix::io::read(fd.get_ref(), &mut expirations).map_err(std::io::Error::from)
            });
            if let Ok(result) = read {
                return result.is_ok();
            }
        }
    }
}

/// The watchdog's clock where there is no timerfd.
#[cfg(not(target_os = "linux"))]
struct Ticker(tokio::time::Interval);

#[cfg(not(target_os = "linux"))]
impl Ticker {
    fn new(period: Duration) -> std::io::Result<Ticker> {
        let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Ok(Ticker(ticks))
    }

    async fn tick(&mut self) -> bool {
        self.0.tick().await;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn watched(activity: &Arc<Activity>, conn: &tokio::task::JoinHandle<()>) -> Watched {
        Watched {
            activity: activity.clone(),
            conn: conn.abort_handle(),
            seen: u64::MAX,
            quiet: 0,
        }
    }

    #[tokio::test]
    async fn a_quiet_connection_is_aborted_on_the_tick_after_a_whole_period() {
        let activity = Arc::new(Activity::default());
        let conn = tokio::spawn(std::future::pending::<()>());
        let mut w = watched(&activity, &conn);
        // The first tick only notes the count; the next TICKS find it quiet.
        for _ in 0..TICKS {
            assert!(w.tick());
        }
        assert!(!w.tick());
        assert!(conn.await.unwrap_err().is_cancelled());
    }

    #[tokio::test]
    async fn a_request_in_flight_keeps_the_connection() {
        let activity = Arc::new(Activity::default());
        let conn = tokio::spawn(std::future::pending::<()>());
        let mut w = watched(&activity, &conn);
        let request = InFlight::new(&activity);
        for _ in 0..10 * TICKS {
            assert!(w.tick());
        }
        drop(request);
        // The tick that saw it in flight already noted the count.
        for _ in 0..TICKS - 1 {
            assert!(w.tick());
        }
        assert!(!w.tick());
        assert!(conn.await.unwrap_err().is_cancelled());
    }

    #[tokio::test]
    async fn requests_that_keep_coming_keep_the_connection() {
        let activity = Arc::new(Activity::default());
        let conn = tokio::spawn(std::future::pending::<()>());
        let mut w = watched(&activity, &conn);
        for _ in 0..20 {
            for _ in 0..TICKS - 1 {
                assert!(w.tick());
            }
            drop(InFlight::new(&activity));
        }
        assert!(w.tick());
        assert!(!conn.is_finished());
        conn.abort();
    }

    #[tokio::test]
    async fn a_finished_connection_is_let_go() {
        let activity = Arc::new(Activity::default());
        let conn = tokio::spawn(async {});
        let mut w = watched(&activity, &conn);
        conn.await.unwrap();
        assert!(!w.tick());
    }

    #[tokio::test]
    async fn the_watchdog_task_aborts_a_quiet_connection() {
        let watchdog = Watchdog::start(Duration::from_millis(40)).unwrap();
        let conn = tokio::spawn(std::future::pending::<()>());
        watchdog.watch(Arc::new(Activity::default()), conn.abort_handle());
        let ended = tokio::time::timeout(Duration::from_secs(30), conn).await;
        assert!(
            ended
                .expect("the watchdog aborts the task")
                .unwrap_err()
                .is_cancelled()
        );
    }
}
