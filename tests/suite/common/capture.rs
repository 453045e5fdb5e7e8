//! A writer for logger tests: lines into shared memory, optionally slow,
//! failing, or held at a gate.

use std::io::{self, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Reports "a write started" and waits for "go on".
pub type Gate = Arc<Mutex<(mpsc::Sender<()>, mpsc::Receiver<()>)>>;

/// A writer into shared memory, optionally held at a gate or failing.
#[derive(Clone, Default)]
pub struct Capture {
    pub out: Arc<Mutex<Vec<u8>>>,
    /// When set, each write first reports itself, then waits for a release.
    pub gate: Option<Gate>,
    pub delay: Duration,
    pub fail: bool,
    /// The name of the thread each write ran on.
    pub threads: Arc<Mutex<Vec<String>>>,
}

impl Capture {
    pub fn text(&self) -> String {
        String::from_utf8(self.out.lock().unwrap().clone()).unwrap()
    }
    pub fn lines(&self) -> Vec<String> {
        self.text().lines().map(str::to_owned).collect()
    }
}

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let thread = std::thread::current().name().unwrap_or("").to_owned();
        self.threads.lock().unwrap().push(thread);
        if self.fail {
            return Err(io::Error::other("no space left"));
        }
        if let Some(gate) = &self.gate {
            let g = gate.lock().unwrap();
            let _ = g.0.send(());
            let _ = g.1.recv_timeout(Duration::from_secs(20));
        }
        std::thread::sleep(self.delay);
        self.out.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
