//! Where log lines go: [`LogStream`].
//!
//! Writing strategy: a line is written straight to the stream by the thread
//! that produced it when the stream is idle and fast, so the common case
//! (a file, a pipe that is being read) costs one `write` and no hand-off
//! (on a multi-threaded runtime, only for files: see [`on_shared_worker`]);
//! it takes only the writer's lock (whether the queue is empty is an atomic
//! flag, checked again once the lock is held so no queued line is overtaken).
//! When another line is being written at that moment (several threads
//! logging), or the last two direct writes each took longer than 10 ms (a
//! slow terminal, a full pipe), the line is appended to an in-memory queue
//! instead and the caller returns at once; a background thread, started on
//! first need, drains the queue in batches, and direct writes resume once a
//! batch goes out quickly. So a slow stream costs requests at most the two
//! writes that revealed it. The queue is bounded (1 MiB): beyond it callers
//! wait for the stream, which is then all a slow stream can force. Nothing is
//! dropped.
//!
//! After each batch the writer's `flush` is called, so buffered writers show
//! lines promptly. Dropping the last handle of a stream (when the app that
//! owns the loggers is dropped after a graceful shutdown) writes whatever is
//! queued; [`LogStream::flush`] and [`flush_all`](super::flush_all) do the
//! same on demand. A write error is reported once on stderr and never fails
//! a request.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Condvar, LazyLock, Mutex, MutexGuard, TryLockError, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Queue size beyond which writers wait for the stream.
const QUEUE_LIMIT: usize = 1 << 20;

/// Two direct writes in a row slower than this switch the stream to
/// queueing (one alone may just be the thread losing its CPU).
const SLOW_WRITE: Duration = Duration::from_millis(10);

struct State {
    /// Lines waiting for the background writer.
    queue: Vec<u8>,
    /// Queued lines are being written (by the flusher or `flush`).
    busy: bool,
    /// Threads waiting in `flush` or for queue space.
    waiters: usize,
    /// The background writer exists.
    flusher: bool,
    /// The background writer has been asked to stop.
    closing: bool,
}

impl State {
    /// Whether a line may skip the queue: nothing queued is still unwritten
    /// (so it cannot overtake an earlier line).
    fn drained(&self) -> bool {
        !self.busy && self.queue.is_empty()
    }
}

struct Shared {
    state: Mutex<State>,
    /// `State::drained`, readable without the state lock (updated under it),
    /// so that a line written directly costs no lock besides the writer's.
    drained: AtomicBool,
    /// Consecutive slow direct writes; at 2, lines are queued instead of
    /// written on the caller's thread, until a batch goes out quickly again.
    slow: AtomicU32,
    /// Signals the background writer.
    work: Condvar,
    /// Signals `flush` / queue-space waiters.
    idle: Condvar,
    writer: Mutex<Writer>,
    reported: AtomicBool,
    name: &'static str,
    /// Whether direct writes are timed to detect a slow stream (not for
    /// regular files and `/dev/null`, which do not block for long).
    timed: bool,
}

/// The stream itself. A file is written without dynamic dispatch and
/// without `flush` (a no-op for files): a line usually fits one `write`.
enum Writer {
    File(File),
    Any(Box<dyn Write + Send>),
}

/// Writes all of `bytes` to a file (one `write`, unless it is cut short).
#[inline(always)]
fn write_file(f: &mut File, bytes: &[u8]) -> io::Result<()> {
    match f.write(bytes) {
        Ok(n) if n == bytes.len() => Ok(()),
        Ok(n) => f.write_all(&bytes[n..]),
        Err(e) if e.kind() == io::ErrorKind::Interrupted => f.write_all(bytes),
        Err(e) => Err(e),
    }
}

impl Writer {
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Writer::File(f) => f.flush(),
            Writer::Any(w) => w.flush(),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Shared {
    /// Writes queued lines to the stream (the caller holds `busy`).
    fn write_out(&self, bytes: &[u8]) {
        self.write_with(&mut lock(&self.writer), bytes);
    }

    /// Writes to the stream; errors and panics of the writer are reported
    /// once. The lock is held outside `catch_unwind`, so a panicking writer
    /// does not poison it.
    #[inline]
    fn write_with(&self, w: &mut Writer, bytes: &[u8]) {
        let result = match w {
            // Writing to a file does not panic.
            Writer::File(f) => Ok(write_file(f, bytes)),
            Writer::Any(w) => catch_unwind(AssertUnwindSafe(|| {
                w.write_all(bytes).and_then(|()| w.flush())
            })),
        };
        let err = match result {
            Ok(Ok(())) => return,
            Ok(Err(e)) => e.to_string(),
            Err(_) => "the writer panicked".to_owned(),
        };
        if !self.reported.swap(true, Ordering::Relaxed) {
            eprintln!(
                "webfw logger: cannot write to the log stream ({}): {err}; lines may be lost, further errors are not reported",
                self.name
            );
        }
    }

    fn notify_waiters(&self, st: &State) {
        if st.waiters > 0 {
            self.idle.notify_all();
        }
    }

    /// Records that `st` changed (call with the state lock held).
    fn update(&self, st: &State) {
        self.drained.store(st.drained(), Ordering::Release);
    }
}

/// The owner of a stream; dropping the last [`LogStream`] drops it, which
/// drains the queue and stops the background writer.
struct Sink {
    shared: Arc<Shared>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl Sink {
    #[inline]
    fn write_line(&self, line: &[u8]) {
        let sh = &self.shared;
        if sh.drained.load(Ordering::Acquire)
            && sh.slow.load(Ordering::Relaxed) < 2
            && !(sh.timed && on_shared_worker())
        {
            let writer = match sh.writer.try_lock() {
                Ok(w) => Some(w),
                Err(TryLockError::Poisoned(p)) => Some(p.into_inner()),
                Err(TryLockError::WouldBlock) => None,
            };
            // Checked again with the writer held: a line queued meanwhile
            // must not be overtaken.
            if let Some(mut w) = writer
                && sh.drained.load(Ordering::Acquire)
            {
                let t = sh.timed.then(Instant::now);
                sh.write_with(&mut w, line);
                drop(w);
                if let Some(t) = t {
                    if t.elapsed() > SLOW_WRITE {
                        sh.slow.fetch_add(1, Ordering::Relaxed);
                    } else {
                        sh.slow.store(0, Ordering::Relaxed);
                    }
                }
                return;
            }
        }
        // The stream is busy with another line, or slow: queue the line.
        let mut st = lock(&sh.state);
        while st.queue.len() >= QUEUE_LIMIT {
            self.wake_flusher(&mut st);
            st.waiters += 1;
            st = sh.idle.wait(st).unwrap_or_else(|p| p.into_inner());
            st.waiters -= 1;
        }
        st.queue.extend_from_slice(line);
        sh.update(&st);
        if !st.busy {
            self.wake_flusher(&mut st);
        }
    }

    /// Makes sure the background writer will drain the queue.
    fn wake_flusher(&self, st: &mut State) {
        if st.flusher {
            self.shared.work.notify_one();
            return;
        }
        let weak = Arc::downgrade(&self.shared);
        let spawned = std::thread::Builder::new()
            .name("webfw-logger".into())
            .spawn(move || flusher(weak));
        match spawned {
            Ok(handle) => {
                st.flusher = true;
                *lock(&self.thread) = Some(handle);
            }
            Err(_) => {
                // No thread: drain on the caller's thread instead.
                if !st.busy {
                    st.busy = true;
                    let batch = std::mem::take(&mut st.queue);
                    self.shared.write_out(&batch);
                    st.busy = false;
                    self.shared.update(st);
                }
            }
        }
    }

    /// Waits until everything queued so far was written and flushed.
    fn flush(&self) {
        let sh = &self.shared;
        let mut st = lock(&sh.state);
        while st.busy || !st.queue.is_empty() {
            if !st.busy {
                // Drain here: works with or without a background writer.
                st.busy = true;
                let batch = std::mem::take(&mut st.queue);
                drop(st);
                sh.write_out(&batch);
                st = lock(&sh.state);
                st.busy = false;
                sh.update(&st);
                sh.notify_waiters(&st);
                continue;
            }
            st.waiters += 1;
            st = sh.idle.wait(st).unwrap_or_else(|p| p.into_inner());
            st.waiters -= 1;
        }
        drop(st);
        let _ = catch_unwind(AssertUnwindSafe(|| lock(&sh.writer).flush()));
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        self.flush();
        {
            let mut st = lock(&self.shared.state);
            st.closing = true;
        }
        self.shared.work.notify_all();
        if let Some(t) = lock(&self.thread).take() {
            let _ = t.join();
        }
    }
}

/// Whether this thread is a worker of a multi-threaded tokio runtime. A
/// write that stalls there would hold the worker, and with it the tasks
/// queued on it that no other worker may take (tokio's LIFO slot): requests
/// would hang behind a stalled stream. Streams that may block are written
/// by the background writer instead on such threads.
fn on_shared_worker() -> bool {
    tokio::runtime::Handle::try_current()
        .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread)
}

/// The background writer: drains the queue in batches while the sink lives.
fn flusher(weak: Weak<Shared>) {
    let Some(sh) = weak.upgrade() else { return };
    let mut spare = Vec::new();
    let mut st = lock(&sh.state);
    loop {
        if !st.queue.is_empty() && !st.busy {
            st.busy = true;
            std::mem::swap(&mut st.queue, &mut spare);
            drop(st);
            let t = Instant::now();
            sh.write_out(&spare);
            spare.clear();
            if spare.capacity() > QUEUE_LIMIT {
                spare = Vec::new();
            }
            st = lock(&sh.state);
            st.busy = false;
            if st.queue.is_empty() && t.elapsed() <= SLOW_WRITE {
                sh.slow.store(0, Ordering::Relaxed);
            }
            sh.update(&st);
            sh.notify_waiters(&st);
            continue;
        }
        if st.closing {
            return;
        }
        st = sh.work.wait(st).unwrap_or_else(|p| p.into_inner());
    }
}

/// The stream of a logger (morgan's `stream` option): standard output by
/// default, standard error, a file, or any [`Write`]. Clones share one
/// stream, so loggers writing to the same file share its order.
///
/// A line is written straight to the stream by the thread that produced
/// it while the stream is idle and fast: one `write`, no hand-off (on a
/// multi-threaded runtime only a file is: any other stream is written by the
/// background thread there, so a stalled stream never holds a worker). When
/// another line is being written at that moment, or the last two direct
/// writes each took over 10 ms (a slow terminal, a full pipe), the line is
/// queued instead and the request goes on; a background thread, started on
/// first need, writes the queue in batches, and direct writes resume once a
/// batch goes out quickly. The queue holds up to 1 MiB; past that, callers
/// wait for the stream. No line is ever dropped: queued lines are written
/// when the last handle of the stream is dropped, when a server shuts down
/// gracefully, and by [`LogStream::flush`] / [`flush_all`](super::flush_all).
/// The writer's `flush` is called after every write, and a write error is
/// reported once on stderr without failing any request.
///
/// ```no_run
/// use webfw::logger::{LogStream, LoggerOptions, logger};
///
/// let file = LogStream::append("access.log")?;
/// let mut app = webfw::app();
/// app.use_(logger("combined", LoggerOptions::new().stream(file.clone())));
/// app.use_(logger("dev", LoggerOptions::new().stream(LogStream::stderr())));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone)]
pub struct LogStream {
    sink: Arc<Sink>,
}

impl std::fmt::Debug for LogStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("LogStream")
            .field(&self.sink.shared.name)
            .finish()
    }
}

static REGISTRY: LazyLock<Mutex<Vec<Weak<Sink>>>> = LazyLock::new(Default::default);

impl LogStream {
    fn build(w: Writer, name: &'static str, timed: bool) -> LogStream {
        let sink = Arc::new(Sink {
            shared: Arc::new(Shared {
                state: Mutex::new(State {
                    queue: Vec::new(),
                    busy: false,
                    waiters: 0,
                    flusher: false,
                    closing: false,
                }),
                drained: AtomicBool::new(true),
                slow: AtomicU32::new(0),
                work: Condvar::new(),
                idle: Condvar::new(),
                writer: Mutex::new(w),
                reported: AtomicBool::new(false),
                name,
                timed,
            }),
            thread: Mutex::new(None),
        });
        let mut reg = lock(&REGISTRY);
        reg.retain(|w| w.strong_count() > 0);
        reg.push(Arc::downgrade(&sink));
        LogStream { sink }
    }

    /// A stream writing to `w`.
    ///
    /// ```
    /// let stream = webfw::logger::LogStream::new(std::io::sink());
    /// ```
    pub fn new(w: impl Write + Send + 'static) -> LogStream {
        LogStream::build(Writer::Any(Box::new(w)), "writer", true)
    }

    /// The process's standard output (the default); one shared stream.
    ///
    /// ```
    /// let out = webfw::logger::LogStream::stdout();
    /// ```
    pub fn stdout() -> LogStream {
        static STDOUT: LazyLock<LogStream> =
            LazyLock::new(|| LogStream::build(Writer::Any(Box::new(io::stdout())), "stdout", true));
        STDOUT.clone()
    }

    /// The process's standard error; one shared stream.
    ///
    /// ```
    /// let err = webfw::logger::LogStream::stderr();
    /// ```
    pub fn stderr() -> LogStream {
        static STDERR: LazyLock<LogStream> =
            LazyLock::new(|| LogStream::build(Writer::Any(Box::new(io::stderr())), "stderr", true));
        STDERR.clone()
    }

    /// Appends to the file at `path`, creating it if missing (each line is
    /// one `write` to a file opened with `O_APPEND`).
    ///
    /// ```no_run
    /// let log = webfw::logger::LogStream::append("/var/log/app/access.log")?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn append(path: impl AsRef<Path>) -> io::Result<LogStream> {
        let file: File = OpenOptions::new().create(true).append(true).open(path)?;
        let timed = may_block(&file);
        Ok(LogStream::build(Writer::File(file), "file", timed))
    }

    /// Writes one line (the bytes must end with `\n`; the logger adds it).
    ///
    /// ```
    /// let s = webfw::logger::LogStream::new(std::io::sink());
    /// s.write_line("GET / 200\n");
    /// ```
    pub fn write_line(&self, line: &str) {
        self.sink.write_line(line.as_bytes());
    }

    /// [`write_line`](Self::write_line) for a line built as bytes.
    pub(crate) fn write_bytes(&self, line: &[u8]) {
        self.sink.write_line(line);
    }

    /// Waits until every line written so far has reached the writer, then
    /// flushes the writer.
    ///
    /// ```
    /// let s = webfw::logger::LogStream::new(Vec::new());
    /// s.write_line("x\n");
    /// s.flush();
    /// ```
    pub fn flush(&self) {
        self.sink.flush();
    }
}

impl<W: Write + Send + 'static> From<W> for LogStream {
    fn from(w: W) -> LogStream {
        LogStream::new(w)
    }
}

/// Whether writes to `file` can block for long: pipes, sockets and
/// terminals can; regular files (the page cache) and `/dev/null` do not.
fn may_block(file: &File) -> bool {
    use std::io::IsTerminal;
    let Ok(meta) = file.metadata() else {
        return true;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        t.is_fifo() || t.is_socket() || file.is_terminal()
    }
    #[cfg(not(unix))]
    {
        !meta.is_file() || file.is_terminal()
    }
}

/// Flushes every live stream (see [`LogStream::flush`]).
pub(crate) fn flush_all() {
    let sinks: Vec<Arc<Sink>> = lock(&REGISTRY).iter().filter_map(Weak::upgrade).collect();
    for s in sinks {
        s.flush();
    }
}

#[cfg(test)]
mod tests;
