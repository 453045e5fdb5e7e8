//! Connection deadlines, kept off the per-request path and off the
//! runtime's timer.
//!
//! hyper's own header-read timeout arms a timer for every request head, a
//! large share of a small request. A timer per connection costs less, but
//! while any timer is pending every park of the runtime walks the timer
//! wheel and reads the clock again, on every request when requests arrive
//! one at a time (docs/PERFORMANCE.md). A thread of our own would cost as much,
//! since libc's socket calls take a slower path once a process has a second
//! thread. So one task per listener watches all its connections, woken a few
//! times per shortest deadline by a timerfd through the I/O driver (elsewhere
//! than Linux, by a tokio interval). It closes a connection that
//!
//! - has sent no complete request head for the header-read timeout since it
//!   opened (Node's `headersTimeout`: answered `408`),
//! - has been idle after a response for the keep-alive timeout (Node's
//!   `keepAliveTimeout`: closed without a word),
//! - has had a request whose body has not all arrived for the request
//!   timeout, however late the app reads it (Node's `requestTimeout`:
//!   `408` unless a response has begun, then closed without a word); an
//!   HTTP/2 stream gets its 408 alone (`http2_deadline`).
//!
//! A request costs two counter increments (five when it has a body). A
//! connection leaves the watch list the moment it ends, so nothing of a
//! finished connection outlives it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::task::AbortHandle;

use crate::request::BodyArrival;

/// How many watchdog ticks make up the shortest deadline: a connection is
/// closed between one and `1 + 1/TICKS` deadlines after it went quiet.
const TICKS: u32 = 4;

/// Request counts of one connection.
#[derive(Default)]
pub(crate) struct Activity {
    started: AtomicU64,
    finished: AtomicU64,
    /// Requests that came with a body, those of them whose response head is
    /// out (or that are gone), and those whose body has arrived whole (or
    /// was dropped).
    bodied: AtomicU64,
    bodied_answered: AtomicU64,
    bodies_arrived: AtomicU64,
    /// Set by the watchdog before it closes the connection for a deadline
    /// Node answers with 408; the connection's stream writes it as it is dropped
    /// ([`super::http1::io::Stream`]).
    pub(super) send_408: AtomicBool,
    /// HTTP/2: idle connections are held to the header-read timeout only,
    /// and nothing is written on closing.
    #[cfg(feature = "http2")]
    h2: AtomicBool,
}

impl Activity {
    /// Marks the connection as HTTP/2.
    #[cfg(feature = "http2")]
    pub(crate) fn set_h2(&self) {
        self.h2.store(true, Ordering::Relaxed);
    }

    /// Whether the connection speaks HTTP/2 (never without the feature).
    fn is_h2(&self) -> bool {
        #[cfg(feature = "http2")]
        return self.h2.load(Ordering::Relaxed);
        #[cfg(not(feature = "http2"))]
        false
    }
}

impl BodyArrival for Activity {
    fn arrived(&self) {
        self.bodies_arrived.fetch_add(1, Ordering::Relaxed);
    }
}

/// One request in flight on a connection: counted when made, counted as
/// finished when dropped (hyper drops the response body once it is written,
/// or when the connection goes away).
pub(crate) struct InFlight {
    activity: Arc<Activity>,
    /// A request with a body whose response head has not been handed over.
    awaiting_head: bool,
}

impl InFlight {
    pub(crate) fn new(activity: &Arc<Activity>) -> InFlight {
        activity.started.fetch_add(1, Ordering::Relaxed);
        InFlight {
            activity: activity.clone(),
            awaiting_head: false,
        }
    }

    /// A request whose body is still to come: held to the request timeout
    /// until the body has arrived, which its [`crate::request::IncomingBody`]
    /// reports to `activity` (as a [`BodyArrival`]).
    pub(crate) fn with_body(activity: &Arc<Activity>) -> InFlight {
        activity.bodied.fetch_add(1, Ordering::Relaxed);
        let mut f = InFlight::new(activity);
        f.awaiting_head = true;
        f
    }

    /// The response head is handed to the connection.
    #[inline]
    pub(crate) fn answered(&mut self) {
        if self.awaiting_head {
            self.answer();
        }
    }

    #[inline(never)]
    fn answer(&mut self) {
        self.awaiting_head = false;
        self.activity
            .bodied_answered
            .fetch_add(1, Ordering::Relaxed);
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.answered();
        self.activity.finished.fetch_add(1, Ordering::Relaxed);
    }
}

/// The deadlines, in watchdog ticks.
#[derive(Clone, Copy)]
struct Limits {
    header: u32,
    keep_alive: u32,
    request: u32,
}

/// The connection deadlines of a listener ([`crate::ListenOptions`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadlines {
    pub(crate) header: Duration,
    pub(crate) keep_alive: Duration,
    /// `None`: no request timeout.
    pub(crate) request: Option<Duration>,
}

impl Deadlines {
    /// The tick period and each deadline as a count of ticks.
    fn ticks(self) -> (Duration, Limits) {
        let shortest = [Some(self.header), Some(self.keep_alive), self.request]
            .into_iter()
            .flatten()
            .filter(|d| !d.is_zero())
            .min()
            .unwrap_or(Duration::from_secs(60));
        let period = (shortest / TICKS).max(Duration::from_millis(1));
        let count = |d: Duration| -> u32 {
            if d.is_zero() {
                return u32::MAX;
            }
            let n = d.as_nanos().div_ceil(period.as_nanos());
            u32::try_from(n).unwrap_or(u32::MAX).max(1)
        };
        let limits = Limits {
            header: count(self.header),
            keep_alive: count(self.keep_alive),
            request: self.request.map_or(u32::MAX, count),
        };
        (period, limits)
    }
}

/// One watched connection.
struct Watched {
    activity: Arc<Activity>,
    /// The connection's task, once spawned.
    conn: Option<AbortHandle>,
    /// Requests started as of the last tick.
    seen: u64,
    /// Ticks in a row that found the connection quiet.
    quiet: u32,
    /// Requests with a body started as of the last tick.
    seen_bodied: u64,
    /// Ticks in a row that found the same request's body not all arrived.
    waiting: u32,
}

impl Watched {
    fn new(activity: Arc<Activity>) -> Watched {
        Watched {
            activity,
            conn: None,
            seen: u64::MAX,
            quiet: 0,
            seen_bodied: u64::MAX,
            waiting: 0,
        }
    }

    /// One tick: closes the connection once a deadline has passed. Returns
    /// whether to keep watching it.
    fn tick(&mut self, limits: Limits) -> bool {
        let a = &self.activity;
        let started = a.started.load(Ordering::Relaxed);
        let idle = started == a.finished.load(Ordering::Relaxed);
        // The quiet spell may have begun just before the tick that first saw
        // it, so that tick does not count.
        if idle && started == self.seen {
            self.quiet += 1;
            let h2 = a.is_h2();
            let limit = if started == 0 || h2 {
                limits.header
            } else {
                limits.keep_alive
            };
            if self.quiet >= limit {
                return self.close(started == 0 && !h2);
            }
        } else {
            self.quiet = 0;
        }
        self.seen = started;
        let bodied = a.bodied.load(Ordering::Relaxed);
        // HTTP/2 streams keep their request timeout one by one
        // (`http2_deadline`): the connection's other streams go on.
        if bodied != a.bodies_arrived.load(Ordering::Relaxed)
            && bodied == self.seen_bodied
            && !a.is_h2()
        {
            self.waiting += 1;
            if self.waiting >= limits.request {
                // Node's 408 only while no response has begun.
                let unanswered = bodied != a.bodied_answered.load(Ordering::Relaxed);
                return self.close(unanswered);
            }
        } else {
            self.waiting = 0;
        }
        self.seen_bodied = bodied;
        true
    }

    /// Closes the connection, first asking for a 408 when `answer`.
    fn close(&mut self, answer: bool) -> bool {
        if answer {
            self.activity.send_408.store(true, Ordering::Relaxed);
        }
        if let Some(conn) = &self.conn {
            conn.abort();
        }
        false
    }
}

type Registry = Mutex<HashMap<u64, Watched>>;

/// Every update is one insert, remove or retain: a panic cannot leave the
/// map half-changed, so poisoning is ignored.
fn lock(conns: &Registry) -> MutexGuard<'_, HashMap<u64, Watched>> {
    conns.lock().unwrap_or_else(|p| p.into_inner())
}

/// The watchdog of one listener: every live connection, and the task that
/// enforces their deadlines (which ends when this is dropped).
pub(crate) struct Watchdog {
    conns: Arc<Registry>,
    next_id: AtomicU64,
    task: Option<AbortHandle>,
}

impl Watchdog {
    /// Starts the watchdog task (on the current runtime). Without a clock
    /// (it could not be made) connections are still listed, for
    /// [`Watchdog::abort_all`], but no deadline is enforced.
    pub(crate) fn start(deadlines: Deadlines) -> Watchdog {
        let conns: Arc<Registry> = Arc::default();
        let (period, limits) = deadlines.ticks();
        let task = match Ticker::new(period) {
            Ok(mut ticker) => {
                let watched = conns.clone();
                let task = tokio::spawn(super::task::occasional(async move {
                    while ticker.tick().await {
                        lock(&watched).retain(|_, w| w.tick(limits));
                    }
                }));
                Some(task.abort_handle())
            }
            Err(e) => {
                eprintln!(
                    "webfw: cannot start the connection deadlines' clock ({e}); \
                     connections will not be closed for going quiet"
                );
                None
            }
        };
        Watchdog {
            conns,
            next_id: AtomicU64::new(0),
            task,
        }
    }

    /// Lists a new connection, whose requests `activity` counts. It leaves
    /// the list when the returned [`Listed`] is dropped (when its task ends).
    pub(crate) fn watch(&self, activity: Arc<Activity>) -> Listed {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        lock(&self.conns).insert(id, Watched::new(activity));
        Listed {
            conns: self.conns.clone(),
            id,
        }
    }

    /// Gives the watchdog the task serving connection `id`, so that it can
    /// close it. A task that already ended is not listed any more.
    pub(crate) fn attach(&self, id: u64, conn: AbortHandle) {
        if let Some(w) = lock(&self.conns).get_mut(&id) {
            w.conn = Some(conn);
        }
    }

    /// Closes every listed connection at once (the shutdown's deadline).
    pub(crate) fn abort_all(&self) {
        for w in lock(&self.conns).values() {
            if let Some(conn) = &w.conn {
                conn.abort();
            }
        }
    }

    /// How many connections are listed.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        lock(&self.conns).len()
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}

/// A connection's place in the watch list; dropping it (with the task that
/// owns it) takes the connection off the list and lets go of its task.
pub(crate) struct Listed {
    conns: Arc<Registry>,
    id: u64,
}

impl Listed {
    pub(crate) fn id(&self) -> u64 {
        self.id
    }
}

impl Drop for Listed {
    fn drop(&mut self) {
        lock(&self.conns).remove(&self.id);
    }
}

/// The watchdog's clock: a timerfd that the I/O driver watches.
#[cfg(target_os = "linux")]
struct Ticker(tokio::io::unix::AsyncFd<std::fs::File>);

#[cfg(target_os = "linux")]
impl Ticker {
    #[allow(unsafe_code)]
    fn new(period: Duration) -> std::io::Result<Ticker> {
        use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
        // Two plain system calls through libc, which every build has
        // already: a wrapper crate for them was a large share of an app's
        // build (docs/PERFORMANCE.md, issue #35).
        // SAFETY: `timerfd_create` takes no pointers.
        let raw = unsafe {
            libc::timerfd_create(
                libc::CLOCK_MONOTONIC,
                libc::TFD_NONBLOCK | libc::TFD_CLOEXEC,
            )
        };
        if raw < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: `raw` is the descriptor just made, owned by nothing else.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        let every = libc::timespec {
            tv_sec: libc::time_t::try_from(period.as_secs()).unwrap_or(libc::time_t::MAX),
            tv_nsec: period.subsec_nanos().into(),
        };
        let spec = libc::itimerspec {
            it_interval: every,
            it_value: every,
        };
        // SAFETY: `spec` outlives the call, which only reads it; a null old
        // value asks for none back.
        let set = unsafe { libc::timerfd_settime(fd.as_raw_fd(), 0, &spec, std::ptr::null_mut()) };
        if set < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: `register` needs the descriptor to stay open and the same
        // for the life of the `AsyncFd`. A `File` always reports the
        // descriptor it owns and closes it only when dropped, which happens
        // when the `AsyncFd` that owns it is dropped.
        let registered = unsafe { tokio::io::unix::AsyncFd::register(std::fs::File::from(fd)) };
        Ok(Ticker(registered.map_err(std::io::Error::from)?))
    }

    /// Waits for the next tick; `false` once the runtime is shutting down.
    async fn tick(&mut self) -> bool {
        use std::io::Read;
        loop {
            let Ok(mut ready) = self.0.readable().await else {
                return false;
            };
            let mut expirations = [0u8; 8];
            let read = ready.try_io(|fd| fd.get_ref().read(&mut expirations));
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
mod tests;
