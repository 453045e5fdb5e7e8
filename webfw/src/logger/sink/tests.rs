use super::*;
use std::sync::mpsc;

/// A writer that records what it got, optionally slowly or failing.
#[derive(Clone, Default)]
struct Probe {
    out: Arc<Mutex<Vec<u8>>>,
    delay: Duration,
    fail: bool,
}

impl Write for Probe {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.fail {
            return Err(io::Error::other("disk on fire"));
        }
        std::thread::sleep(self.delay);
        lock(&self.out).extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn idle_stream_is_written_synchronously() {
    let p = Probe::default();
    let s = LogStream::new(p.clone());
    s.write_line("a\n");
    assert_eq!(&*lock(&p.out), b"a\n");
    assert!(!lock(&s.sink.shared.state).flusher);
}

/// A writer whose every `write` waits at a gate the test controls, so
/// the test decides how long the stream stays blocked.
struct Gated {
    out: Arc<Mutex<Vec<u8>>>,
    entered: mpsc::Sender<()>,
    pass: mpsc::Receiver<()>,
}

impl Write for Gated {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let _ = self.entered.send(());
        // Fails once the test drops its sender: the gate is then open
        // for good, also when a failing test unwinds.
        let _ = self.pass.recv();
        lock(&self.out).extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The test's side of a [`Gated`] stream.
struct Gate {
    out: Arc<Mutex<Vec<u8>>>,
    entered: mpsc::Receiver<()>,
    pass: mpsc::Sender<()>,
}

/// Only reached when a call waits for a gated stream: generous, so a
/// loaded machine cannot trip it.
const HANG: Duration = Duration::from_secs(10);

fn gated() -> (LogStream, Gate) {
    let out = Arc::default();
    let (entered_tx, entered) = mpsc::channel();
    let (pass, pass_rx) = mpsc::channel();
    let w = Gated {
        out: Arc::clone(&out),
        entered: entered_tx,
        pass: pass_rx,
    };
    (LogStream::new(w), Gate { out, entered, pass })
}

impl Gate {
    /// Waits until a `write` is held at the gate.
    fn wait_for_write(&self) {
        self.entered
            .recv_timeout(HANG)
            .expect("no write reached the stream");
    }

    /// Lets one held write through.
    fn pass_one(&self) {
        self.pass.send(()).unwrap();
    }

    /// Opens the gate for good (drops `pass`); returns what the stream
    /// receives.
    fn open(self) -> Arc<Mutex<Vec<u8>>> {
        self.out
    }
}

/// Runs `f` on another thread and fails if it has not returned within
/// `HANG`, so a call that waits for a gated stream fails the test
/// instead of hanging it.
fn assert_returns_while_stream_blocked(f: impl FnOnce() + Send + 'static) {
    let (done, finished) = mpsc::channel();
    let t = std::thread::spawn(move || {
        f();
        let _ = done.send(());
    });
    if let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(HANG) {
        panic!("write_line waited for the blocked stream instead of queueing the line");
    }
    // Fails the test if `f` panicked.
    t.join().unwrap();
}

#[test]
fn slow_stream_does_not_block_other_writers_and_loses_nothing() {
    let (s, gate) = gated();
    let s2 = s.clone();
    let first = std::thread::spawn(move || s2.write_line("first\n"));
    // `first` now holds the stream until the gate opens.
    gate.wait_for_write();
    let s2 = s.clone();
    assert_returns_while_stream_blocked(move || write_from_four_threads(&s2, 25));
    let out = gate.open();
    first.join().unwrap();
    s.flush();
    let out = String::from_utf8(lock(&out).clone()).unwrap();
    let queued = out
        .strip_prefix("first\n")
        .unwrap_or_else(|| panic!("a queued line overtook the one being written: {out}"));
    assert_four_threads_lines_in_order(queued, 25);
}

#[test]
fn a_stream_that_stays_slow_is_written_in_the_background() {
    let (s, gate) = gated();
    let s2 = s.clone();
    let direct = std::thread::spawn(move || {
        s2.write_line("1\n");
        s2.write_line("2\n");
    });
    for _ in 0..2 {
        gate.wait_for_write();
        // Slowness is measured in wall-clock time: holding the write
        // longer than SLOW_WRITE makes it slow on any machine.
        std::thread::sleep(2 * SLOW_WRITE);
        gate.pass_one();
    }
    direct.join().unwrap();
    assert_eq!(s.sink.shared.slow.load(Ordering::Relaxed), 2);
    let s2 = s.clone();
    assert_returns_while_stream_blocked(move || {
        for i in 3..6 {
            s2.write_line(&format!("{i}\n"));
        }
    });
    // The background writer, not the caller, is now held at the gate.
    gate.wait_for_write();
    assert!(lock(&s.sink.shared.state).flusher);
    let out = gate.open();
    s.flush();
    assert_eq!(&*lock(&out), b"1\n2\n3\n4\n5\n");
}

/// Four threads each write `lines` lines `"{thread} {index}"` to `s`.
fn write_from_four_threads(s: &LogStream, lines: usize) {
    let threads: Vec<_> = (0..4)
        .map(|k| {
            let s = s.clone();
            std::thread::spawn(move || {
                for i in 0..lines {
                    s.write_line(&format!("{k} {i}\n"));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}

/// Asserts that `out` is exactly what `write_from_four_threads(_, lines)`
/// wrote, each thread's lines in order.
fn assert_four_threads_lines_in_order(out: &str, lines: usize) {
    let mut next = [0; 4];
    for line in out.lines() {
        let (k, i) = line.split_once(' ').unwrap();
        let k: usize = k.parse().unwrap();
        assert_eq!(i.parse::<usize>().unwrap(), next[k], "{out}");
        next[k] += 1;
    }
    assert_eq!(next, [lines; 4], "{out}");
}

#[test]
fn dropping_the_stream_drains_the_queue() {
    let p = Probe {
        delay: Duration::from_millis(20),
        ..Probe::default()
    };
    let s = LogStream::new(p.clone());
    write_from_four_threads(&s, 10);
    drop(s);
    assert_eq!(
        lock(&p.out)
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .count(),
        40
    );
}

#[test]
fn each_threads_lines_keep_their_order() {
    let p = Probe {
        delay: Duration::from_micros(50),
        ..Probe::default()
    };
    let s = LogStream::new(p.clone());
    write_from_four_threads(&s, 200);
    s.flush();
    let out = String::from_utf8(lock(&p.out).clone()).unwrap();
    assert_four_threads_lines_in_order(&out, 200);
}

#[test]
fn errors_are_reported_once_and_do_not_panic() {
    let s = LogStream::new(Probe {
        fail: true,
        ..Probe::default()
    });
    s.write_line("a\n");
    s.write_line("b\n");
    assert!(s.sink.shared.reported.load(Ordering::Relaxed));
}
