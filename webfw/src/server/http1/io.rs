//! The connection's bytes: the stream with what it holds for the server
//! (its `max_connections` slot, Node's 408 at a deadline), one read buffer
//! and the writes, on tokio's two traits alone (its `io-util` extensions
//! would enter every user's build).
//!
//! [`ReadBuffer`] reads into memory that is always initialised, so no read
//! needs `unsafe`: its bytes past the filled part are zeros or old bytes,
//! and room is zeroed as reads use it up, a byte per byte read.

use std::future::poll_fn;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll, Waker};

use bytes::{Bytes, BytesMut};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::server::slots::Slot;
use crate::server::watchdog::Activity;

/// Room made for a read, which every open connection keeps (zeroed, so
/// resident): a browser's head fits, a longer one takes more reads.
const READ_ROOM: usize = 4 * 1024;

/// Node's bare answers: a status line and `Connection: close`, nothing
/// else, for a request its parser refuses (400, 431) and a client too slow
/// with its head or body (408).
pub(crate) fn node_bare(status: u16) -> &'static [u8] {
    match status {
        408 => b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n",
        431 => b"HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n",
        _ => b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n",
    }
}

/// A connection's stream: it holds the connection's place under
/// `max_connections` as long as the socket is open (an upgraded connection
/// included), and writes Node's 408 as it is dropped when the watchdog
/// closes the connection for a deadline Node answers so.
pub(crate) struct Stream<I: AsyncWrite + Unpin> {
    inner: I,
    activity: Arc<Activity>,
    _slot: Option<Slot>,
}

impl<I: AsyncWrite + Unpin> Stream<I> {
    pub(crate) fn new(inner: I, activity: Arc<Activity>, slot: Option<Slot>) -> Stream<I> {
        Stream {
            inner,
            activity,
            _slot: slot,
        }
    }
}

impl<I: AsyncWrite + Unpin> Drop for Stream<I> {
    fn drop(&mut self) {
        if !self.activity.send_408.swap(false, Ordering::Relaxed) {
            return;
        }
        // Written only if the socket takes it at once: the connection is
        // being closed.
        let bytes = node_bare(408);
        let mut cx = Context::from_waker(Waker::noop());
        let mut inner = Pin::new(&mut self.inner);
        if let Poll::Ready(Ok(n)) = inner.as_mut().poll_write(&mut cx, bytes)
            && n == bytes.len()
        {
            let _ = inner.as_mut().poll_flush(&mut cx);
        }
    }
}

impl<I: AsyncRead + AsyncWrite + Unpin> AsyncRead for Stream<I> {
    #[inline]
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Stream<I> {
    #[inline]
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    #[inline]
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    #[inline]
    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    #[inline]
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    #[inline]
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// A connection's read buffer: `bytes[..filled]` was read and not yet
/// taken; the rest is initialised room for the next read.
pub(crate) struct ReadBuffer {
    bytes: BytesMut,
    filled: usize,
    /// Bursts of bytes so far: reads that brought bytes after the socket
    /// had none (Node reads all there is at once, so a burst is one of its
    /// reads).
    bursts: u64,
    /// The socket had nothing at the last read.
    dry: bool,
}

impl ReadBuffer {
    pub(crate) fn new() -> ReadBuffer {
        ReadBuffer {
            bytes: BytesMut::new(),
            filled: 0,
            bursts: 0,
            dry: true,
        }
    }

    /// What was read and not yet taken.
    #[inline]
    pub(crate) fn filled(&self) -> &[u8] {
        &self.bytes[..self.filled]
    }

    /// Takes the first `len` read bytes, to share with what is made of them.
    #[inline]
    pub(crate) fn take(&mut self, len: usize) -> Bytes {
        debug_assert!(len <= self.filled);
        self.filled -= len;
        self.bytes.split_to(len).freeze()
    }

    /// Which burst of bytes the last read was in (see [`ReadBuffer`]).
    pub(crate) fn burst(&self) -> u64 {
        self.bursts
    }

    /// Drops the first `len` read bytes.
    pub(crate) fn skip(&mut self, len: usize) {
        let _ = self.take(len);
    }

    /// Everything read and not yet taken, leaving the buffer empty.
    pub(crate) fn take_all(&mut self) -> Bytes {
        self.take(self.filled)
    }

    /// Polls one read of what the connection has; `Ok(0)` at its end.
    pub(crate) fn poll_read<I: AsyncRead + Unpin>(
        &mut self,
        cx: &mut Context<'_>,
        io: &mut I,
    ) -> Poll<io::Result<usize>> {
        if self.bytes.len() - self.filled < READ_ROOM / 2 {
            // Only the bytes past the old room are zeroed: one per byte read.
            self.bytes.resize(self.filled + READ_ROOM, 0);
        }
        let mut buf = ReadBuf::new(&mut self.bytes[self.filled..]);
        let done = Pin::new(&mut *io).poll_read(cx, &mut buf);
        let n = buf.filled().len();
        match done {
            Poll::Ready(Ok(())) if n > 0 => {
                self.filled += n;
                self.bursts += u64::from(self.dry);
                self.dry = false;
            }
            Poll::Pending => self.dry = true,
            _ => {}
        }
        done.map(|r| r.map(|()| n))
    }

    /// Reads what the connection has; `Ok(0)` at its end. `stop` is asked
    /// before each poll: `None` once it says so.
    pub(crate) async fn read<I: AsyncRead + Unpin>(
        &mut self,
        io: &mut I,
        stop: impl Fn() -> bool,
    ) -> Option<io::Result<usize>> {
        poll_fn(|cx| {
            if stop() {
                return Poll::Ready(None);
            }
            self.poll_read(cx, io).map(Some)
        })
        .await
    }
}

/// Polls writing the start of `out`, dropping what was written; ready once
/// all of it is written and flushed.
pub(crate) fn poll_flush<I: AsyncWrite + Unpin>(
    cx: &mut Context<'_>,
    io: &mut I,
    out: &mut Vec<u8>,
) -> Poll<io::Result<()>> {
    if out.is_empty() {
        return Poll::Ready(Ok(()));
    }
    let mut written = 0;
    let result = loop {
        if written == out.len() {
            break Pin::new(&mut *io).poll_flush(cx);
        }
        match Pin::new(&mut *io).poll_write(cx, &out[written..]) {
            Poll::Ready(Ok(0)) => break Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
            Poll::Ready(Ok(n)) => written += n,
            Poll::Ready(Err(e)) => break Poll::Ready(Err(e)),
            Poll::Pending => break Poll::Pending,
        }
    };
    out.drain(..written);
    result
}

/// Writes `out` and empties it, then flushes: a stream may keep what it
/// was given until then (tokio-rustls writes eagerly, but need not).
pub(crate) async fn flush<I: AsyncWrite + Unpin>(io: &mut I, out: &mut Vec<u8>) -> io::Result<()> {
    poll_fn(|cx| poll_flush(cx, io, out)).await
}

/// Writes all of `bytes`.
pub(crate) async fn write_all<I: AsyncWrite + Unpin>(
    io: &mut I,
    mut bytes: &[u8],
) -> io::Result<()> {
    while !bytes.is_empty() {
        let n = poll_fn(|cx| Pin::new(&mut *io).poll_write(cx, bytes)).await?;
        if n == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        bytes = &bytes[n..];
    }
    Ok(())
}

/// Ends the connection's writing side.
pub(crate) async fn shutdown<I: AsyncWrite + Unpin>(io: &mut I) -> io::Result<()> {
    poll_fn(|cx| Pin::new(&mut *io).poll_shutdown(cx)).await
}
