//! A request body the connection reads while the app consumes it: the
//! server's HTTP/1 codec pushes the bytes it decodes, the request's
//! [`IncomingBody`](super::IncomingBody) takes them.
//!
//! The channel is bounded: the connection reads from the socket only while
//! fewer than [`WINDOW`] bytes wait, so a client that sends faster than the
//! app reads is held back by TCP, as Node pauses a request stream past its
//! high-water mark. Once the reader is gone, the connection reads the rest
//! of the body and throws it away (Node dumps a request nobody consumed),
//! so the connection serves its next request.

use std::collections::VecDeque;
use std::io;
use std::sync::{Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use http_body::Frame;

/// The most body bytes that wait in the channel before the connection stops
/// reading.
pub(crate) const WINDOW: usize = 64 * 1024;

/// What each waiting chunk counts on top of its bytes, so that a body sent
/// in many tiny chunks is held to the window too.
const CHUNK_COST: usize = 64;

/// What the connection may do with the next body bytes it decodes.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Want {
    /// Push them: the reader has room.
    Data,
    /// Wait: [`WINDOW`] bytes wait; the connection's waker is kept and woken
    /// when the reader takes some.
    Full,
    /// The reader is gone: read the rest and throw it away.
    Gone,
}

/// Why a body ended before its last byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Broken {
    /// The client closed the connection (or stopped sending) mid-body.
    Aborted,
    /// The chunked framing was malformed.
    Invalid,
}

#[derive(Default)]
struct State {
    chunks: VecDeque<Bytes>,
    /// A chunked body's trailers, given after its last chunk.
    trailers: Option<http::HeaderMap>,
    waiting: usize,
    ended: bool,
    broken: Option<Broken>,
    reader_gone: bool,
    reader: Option<Waker>,
    conn: Option<Waker>,
}

/// One request body in flight; shared by the connection and the reader.
#[derive(Default)]
pub(crate) struct BodyChannel {
    state: Mutex<State>,
}

impl BodyChannel {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Each update leaves the state whole: poisoning is ignored.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The connection asks whether it may read and push more.
    pub(crate) fn want(&self, cx: &Context<'_>) -> Want {
        let mut state = self.lock();
        if state.reader_gone {
            Want::Gone
        } else if state.waiting >= WINDOW {
            state.conn = Some(cx.waker().clone());
            Want::Full
        } else {
            Want::Data
        }
    }

    /// The connection decoded `bytes` of the body.
    pub(crate) fn push(&self, bytes: Bytes) {
        let mut state = self.lock();
        if state.reader_gone || bytes.is_empty() {
            return;
        }
        state.waiting += bytes.len() + CHUNK_COST;
        state.chunks.push_back(bytes);
        if let Some(reader) = state.reader.take() {
            reader.wake();
        }
    }

    /// A chunked body's trailers (none when the map is empty), read after
    /// its data.
    pub(crate) fn trailers(&self, map: http::HeaderMap) {
        if !map.is_empty() {
            self.lock().trailers = Some(map);
        }
    }

    /// The body's last byte has been pushed.
    pub(crate) fn finish(&self) {
        self.end(None);
    }

    /// The body cannot be read to its end.
    pub(crate) fn break_off(&self, why: Broken) {
        self.end(Some(why));
    }

    fn end(&self, broken: Option<Broken>) {
        let mut state = self.lock();
        state.ended = true;
        state.broken = broken;
        if let Some(reader) = state.reader.take() {
            reader.wake();
        }
    }

    /// The reader's next frame: data, then trailers if any; `None` at the end.
    pub(crate) fn poll_next(&self, cx: &Context<'_>) -> Poll<Option<io::Result<Frame<Bytes>>>> {
        let mut state = self.lock();
        if let Some(chunk) = state.chunks.pop_front() {
            let was_full = state.waiting >= WINDOW;
            state.waiting -= chunk.len() + CHUNK_COST;
            if was_full
                && state.waiting < WINDOW
                && let Some(conn) = state.conn.take()
            {
                conn.wake();
            }
            return Poll::Ready(Some(Ok(Frame::data(chunk))));
        }
        if !state.ended {
            state.reader = Some(cx.waker().clone());
            return Poll::Pending;
        }
        if let Some(trailers) = state.trailers.take() {
            return Poll::Ready(Some(Ok(Frame::trailers(trailers))));
        }
        Poll::Ready(state.broken.take().map(|why| {
            Err(match why {
                Broken::Aborted => io::Error::new(io::ErrorKind::UnexpectedEof, "request aborted"),
                Broken::Invalid => {
                    io::Error::new(io::ErrorKind::InvalidData, "invalid chunked body")
                }
            })
        }))
    }

    /// Whether the reader has seen (or will see next) the end.
    pub(crate) fn is_end_stream(&self) -> bool {
        let state = self.lock();
        state.ended && state.chunks.is_empty() && state.broken.is_none() && state.trailers.is_none()
    }

    /// The reader is dropped: what waits is freed, and the connection reads
    /// the rest only to throw it away.
    pub(crate) fn reader_dropped(&self) {
        let mut state = self.lock();
        state.reader_gone = true;
        state.chunks.clear();
        state.waiting = 0;
        if let Some(conn) = state.conn.take() {
            conn.wake();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cx() -> Context<'static> {
        Context::from_waker(Waker::noop())
    }

    #[test]
    fn the_connection_waits_once_a_window_of_bytes_waits_and_goes_on_when_one_is_taken() {
        let channel = BodyChannel::default();
        assert_eq!(channel.want(&cx()), Want::Data);
        channel.push(Bytes::from(vec![0; WINDOW - CHUNK_COST - 1]));
        assert_eq!(channel.want(&cx()), Want::Data);
        channel.push(Bytes::from_static(b"ab"));
        assert_eq!(channel.want(&cx()), Want::Full);
        assert!(matches!(
            channel.poll_next(&cx()),
            Poll::Ready(Some(Ok(b))) if b.data_ref().is_some_and(|b| b.len() == WINDOW - CHUNK_COST - 1)
        ));
        assert_eq!(channel.want(&cx()), Want::Data);
    }

    #[test]
    fn the_reader_sees_the_bytes_then_the_end_or_why_it_broke() {
        let channel = BodyChannel::default();
        assert!(channel.poll_next(&cx()).is_pending());
        channel.push(Bytes::from_static(b"hi"));
        channel.finish();
        assert!(!channel.is_end_stream());
        assert!(matches!(
            channel.poll_next(&cx()),
            Poll::Ready(Some(Ok(b))) if b.data_ref().is_some_and(|b| b == "hi")
        ));
        assert!(channel.is_end_stream());
        assert!(matches!(channel.poll_next(&cx()), Poll::Ready(None)));

        let channel = BodyChannel::default();
        channel.break_off(Broken::Aborted);
        let Poll::Ready(Some(Err(e))) = channel.poll_next(&cx()) else {
            panic!("an aborted body ends in an error");
        };
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
    }

    #[test]
    fn once_the_reader_is_gone_the_connection_discards_and_nothing_is_held() {
        let channel = BodyChannel::default();
        channel.push(Bytes::from(vec![0; WINDOW]));
        assert_eq!(channel.want(&cx()), Want::Full);
        channel.reader_dropped();
        assert_eq!(channel.want(&cx()), Want::Gone);
        channel.push(Bytes::from_static(b"more"));
        assert_eq!(channel.lock().waiting, 0);
    }
}
