use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use tokio::io::{AsyncRead, ReadBuf};

use super::*;
use crate::server::sanitize::{RawTargets, Sanitize};

/// A connection that hands out queued reads (then `Pending`) and records
/// each write call.
#[derive(Default)]
struct Wire {
    reads: VecDeque<Vec<u8>>,
    writes: Arc<Mutex<Vec<Vec<u8>>>>,
    /// The socket's send buffer is full: writes return `Pending`.
    full: bool,
}

impl AsyncRead for Wire {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.reads.pop_front() {
            Some(bytes) => {
                buf.put_slice(&bytes);
                Poll::Ready(Ok(()))
            }
            None => Poll::Pending,
        }
    }
}

impl AsyncWrite for Wire {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.full {
            return Poll::Pending;
        }
        self.writes.lock().unwrap().push(buf.to_vec());
        Poll::Ready(Ok(buf.len()))
    }
    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

const GET: &[u8] = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";

type Writes = Arc<Mutex<Vec<Vec<u8>>>>;

/// A connection read through the shim, coalescing as a served one does.
fn conn(reads: &[&[u8]]) -> (Sanitize<Wire>, Arc<Batch>, Writes) {
    let wire = Wire {
        reads: reads.iter().map(|r| r.to_vec()).collect(),
        ..Wire::default()
    };
    let writes = wire.writes.clone();
    let batch = Arc::new(Batch::default());
    let mut io = Sanitize::new(wire, Arc::new(RawTargets::default()));
    io.coalescing(batch.clone());
    (io, batch, writes)
}

fn cx() -> Context<'static> {
    Context::from_waker(Waker::noop())
}

fn read(io: &mut Sanitize<Wire>) -> Poll<usize> {
    let mut mem = [0u8; 1024];
    let mut buf = ReadBuf::new(&mut mem);
    Pin::new(io)
        .poll_read(&mut cx(), &mut buf)
        .map(|r| r.map(|()| buf.filled().len()).unwrap())
}

/// What hyper does per response: one write of the whole response, then a flush.
fn respond(io: &mut Sanitize<Wire>, bytes: &[u8]) {
    let written = Pin::new(&mut *io).poll_write(&mut cx(), bytes);
    assert!(matches!(written, Poll::Ready(Ok(n)) if n == bytes.len()));
    assert!(Pin::new(&mut *io).poll_flush(&mut cx()).is_ready());
}

fn writes(w: &Writes) -> Vec<Vec<u8>> {
    w.lock().unwrap().clone()
}

#[test]
fn a_lone_request_is_answered_at_once() {
    let (mut io, _, w) = conn(&[GET, GET]);
    assert_eq!(read(&mut io), Poll::Ready(GET.len()));
    respond(&mut io, b"one");
    assert_eq!(writes(&w), [b"one".to_vec()]);
    assert_eq!(read(&mut io), Poll::Ready(GET.len()));
    respond(&mut io, b"two");
    assert_eq!(writes(&w), [b"one".to_vec(), b"two".to_vec()]);
}

#[test]
fn a_pipelined_batch_is_answered_in_one_write() {
    let batch_of_three = [GET, GET, GET].concat();
    let (mut io, _, w) = conn(&[&batch_of_three]);
    assert_eq!(read(&mut io), Poll::Ready(batch_of_three.len()));
    respond(&mut io, b"1 ");
    respond(&mut io, b"2 ");
    assert!(writes(&w).is_empty());
    // hyper has answered what it had and reads again: nothing there.
    assert_eq!(read(&mut io), Poll::Pending);
    respond(&mut io, b"3");
    assert_eq!(writes(&w), [b"1 2 3".to_vec()]);
}

/// Not observable over a socket without timing: one write of 16 responses
/// and 16 writes read late by the client look the same to it.
#[test]
fn the_default_options_coalesce() {
    let opts = crate::ListenOptions::port(0);
    assert!(crate::server::conn::Builders::new(&opts).pipeline_flush);
    let off = opts.pipeline_flush(false);
    assert!(!crate::server::conn::Builders::new(&off).pipeline_flush);
}

#[test]
fn a_batch_of_sixteen_is_answered_in_one_write() {
    let batch = GET.repeat(16);
    let (mut io, _, w) = conn(&[&batch]);
    assert_eq!(read(&mut io), Poll::Ready(batch.len()));
    for _ in 0..16 {
        respond(&mut io, b"ok ");
    }
    assert!(writes(&w).is_empty());
    assert_eq!(read(&mut io), Poll::Pending);
    assert!(Pin::new(&mut io).poll_flush(&mut cx()).is_ready());
    assert_eq!(writes(&w), [b"ok ".repeat(16)]);
}

#[test]
fn off_each_response_is_written_at_once() {
    let batch_of_two = [GET, GET].concat();
    let wire = Wire {
        reads: VecDeque::from([batch_of_two.clone()]),
        ..Wire::default()
    };
    let w = wire.writes.clone();
    let mut io = Sanitize::new(wire, Arc::default());
    assert_eq!(read(&mut io), Poll::Ready(batch_of_two.len()));
    respond(&mut io, b"1");
    assert_eq!(writes(&w), [b"1".to_vec()]);
}

#[test]
fn kept_bytes_leave_at_the_flush_after_a_read_that_finds_nothing() {
    let batch_of_two = [GET, GET].concat();
    let (mut io, _, w) = conn(&[&batch_of_two]);
    assert_eq!(read(&mut io), Poll::Ready(batch_of_two.len()));
    respond(&mut io, b"1");
    assert_eq!(read(&mut io), Poll::Pending);
    assert!(Pin::new(&mut io).poll_flush(&mut cx()).is_ready());
    assert_eq!(writes(&w), [b"1".to_vec()]);
}

#[test]
fn kept_bytes_leave_once_the_connection_waits() {
    let batch_of_two = [GET, GET].concat();
    let (mut io, batch, w) = conn(&[&batch_of_two]);
    assert_eq!(read(&mut io), Poll::Ready(batch_of_two.len()));
    respond(&mut io, b"1");
    assert!(batch.held.load(Ordering::Relaxed));
    // What `Flushed` does when hyper returns `Pending` (the second
    // request's handler awaits): hyper's next poll flushes.
    let mut conn = Flushed::new(std::future::pending::<()>(), Some(batch.clone()));
    assert!(Pin::new(&mut conn).poll(&mut cx()).is_pending());
    assert!(Pin::new(&mut io).poll_flush(&mut cx()).is_ready());
    assert_eq!(writes(&w), [b"1".to_vec()]);
}

#[test]
fn at_most_max_held_bytes_are_kept() {
    let batch_of_two = [GET, GET].concat();
    let (mut io, _, w) = conn(&[&batch_of_two]);
    assert_eq!(read(&mut io), Poll::Ready(batch_of_two.len()));
    let big = vec![b'x'; MAX_HELD];
    respond(&mut io, b"1");
    respond(&mut io, &big);
    assert_eq!(writes(&w), [b"1".to_vec(), big.clone()]);
    // Nothing is left kept: the batch's next response is kept on its own.
    respond(&mut io, b"2");
    assert_eq!(read(&mut io), Poll::Pending);
    assert!(Pin::new(&mut io).poll_flush(&mut cx()).is_ready());
    assert_eq!(writes(&w), [b"1".to_vec(), big, b"2".to_vec()]);
}

#[test]
fn shutdown_writes_out_what_is_kept() {
    let batch_of_two = [GET, GET].concat();
    let (mut io, _, w) = conn(&[&batch_of_two]);
    assert_eq!(read(&mut io), Poll::Ready(batch_of_two.len()));
    respond(&mut io, b"1");
    assert!(Pin::new(&mut io).poll_shutdown(&mut cx()).is_ready());
    assert_eq!(writes(&w), [b"1".to_vec()]);
}

#[test]
fn a_full_socket_does_not_make_the_connection_spin() {
    struct CountWakes(std::sync::atomic::AtomicUsize);
    impl std::task::Wake for CountWakes {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }
    let wakes = Arc::new(CountWakes(Default::default()));
    let waker = Waker::from(wakes.clone());
    let mut cx = Context::from_waker(&waker);

    let batch_of_two = [GET, GET].concat();
    let wire = Wire {
        reads: VecDeque::from([batch_of_two.clone()]),
        full: true,
        ..Wire::default()
    };
    let batch = Arc::new(Batch::default());
    let mut io = Sanitize::new(wire, Arc::default());
    io.coalescing(batch.clone());
    assert_eq!(read(&mut io), Poll::Ready(batch_of_two.len()));
    respond(&mut io, b"1");
    let mut conn = Flushed::new(std::future::pending::<()>(), Some(batch.clone()));
    assert!(Pin::new(&mut conn).poll(&mut cx).is_pending());
    assert_eq!(wakes.0.load(Ordering::Relaxed), 1);
    // hyper's next poll tries to write them; the socket is full.
    assert!(Pin::new(&mut io).poll_flush(&mut cx).is_pending());
    assert!(Pin::new(&mut conn).poll(&mut cx).is_pending());
    assert_eq!(
        wakes.0.load(Ordering::Relaxed),
        1,
        "woken again while the socket is full"
    );
}
