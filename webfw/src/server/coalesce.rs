//! One write for the responses of a pipelined batch.
//!
//! hyper writes each HTTP/1 response as soon as it is complete. When a
//! client pipelines (several requests in one read), that is one `write`
//! system call per response where one per batch would do. hyper's own switch
//! for this (`pipeline_flush`) holds every write while its read buffer is not
//! empty, without a bound: a streamed body ahead of a pipelined request would
//! be buffered whole, and a partial next head would hold the responses before
//! it until the rest arrives.
//!
//! [`Coalesce`] sits between hyper and the connection instead. After a read
//! that held more than one lone request head ([`Sanitize::batched`]), it keeps
//! what hyper writes, up to [`MAX_HELD`] bytes, and writes it in one go as
//! soon as hyper has nothing more to answer from the bytes it has: its next
//! read finds no data, or its connection future returns `Pending`
//! ([`flushed`]). A lone request is written through at once, as before.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::sanitize::Sanitize;

/// The most a connection keeps back: a batch of small responses fits many
/// times over; a larger response goes out on its own.
const MAX_HELD: usize = 16 * 1024;

/// What [`Coalesce`] and the connection's [`flushed`] future share. The
/// atomics are only touched on connections that pipeline.
#[derive(Default)]
pub(crate) struct Batch {
    /// Bytes are kept back by choice (not waiting for a full socket).
    held: AtomicBool,
    /// The connection went idle with bytes kept back: write them.
    release: AtomicBool,
}

/// An HTTP/1 connection whose writes are gathered while a pipelined batch is
/// answered (see the module docs).
pub(crate) struct Coalesce<I> {
    inner: Sanitize<I>,
    batch: Arc<Batch>,
    /// The last read held more than a lone head: keep writes back.
    hold: bool,
    out: Vec<u8>,
    /// How much of `out` is written already.
    pos: usize,
}

impl<I> Coalesce<I> {
    pub(crate) fn new(inner: Sanitize<I>, batch: Arc<Batch>) -> Coalesce<I> {
        Coalesce {
            inner,
            batch,
            hold: false,
            out: Vec::new(),
            pos: 0,
        }
    }

    /// Whether writes are kept back now; the connection going idle ends it.
    fn holding(&mut self) -> bool {
        if self.hold && self.batch.release.swap(false, Ordering::Relaxed) {
            self.hold = false;
        }
        self.hold
    }
}

impl<I: AsyncWrite + Unpin> Coalesce<I> {
    /// Writes out everything kept back.
    fn poll_write_out(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.pos < self.out.len() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.out[self.pos..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.pos += n;
        }
        self.out.clear();
        self.pos = 0;
        self.batch.held.store(false, Ordering::Relaxed);
        Poll::Ready(Ok(()))
    }
}

impl<I: AsyncRead + Unpin> AsyncRead for Coalesce<I> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let start = buf.filled().len();
        let read = Pin::new(&mut this.inner).poll_read(cx, buf);
        // No more input at hand (none yet, EOF or an error): whatever is kept
        // back goes out with the next write or flush.
        this.hold = matches!(read, Poll::Ready(Ok(()))) && buf.filled().len() > start && {
            this.inner.batched()
        };
        read
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Coalesce<I> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.out.is_empty() && !this.holding() {
            return Pin::new(&mut this.inner).poll_write(cx, buf);
        }
        if this.out.len() + buf.len() <= MAX_HELD {
            this.out.extend_from_slice(buf);
            if this.holding() {
                this.batch.held.store(true, Ordering::Relaxed);
            } else {
                // The batch's last response: one write for all of it. The
                // bytes are taken; a write that stops short goes on at the
                // next write or flush.
                if let Poll::Ready(Err(e)) = this.poll_write_out(cx) {
                    return Poll::Ready(Err(e));
                }
            }
            return Poll::Ready(Ok(buf.len()));
        }
        ready!(this.poll_write_out(cx))?;
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.out.is_empty() {
            if this.holding() {
                return Poll::Ready(Ok(()));
            }
            ready!(this.poll_write_out(cx))?;
        }
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        this.hold = false;
        ready!(this.poll_write_out(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

/// Runs a connection's future and makes its [`Coalesce`] write out what it
/// keeps back whenever the connection waits (for a handler that awaits, say)
/// instead of answering the next request of the batch at once.
pub(crate) async fn flushed<F: Future>(conn: F, batch: &Batch) -> F::Output {
    let mut conn = std::pin::pin!(conn);
    std::future::poll_fn(|cx| {
        let polled = conn.as_mut().poll(cx);
        if polled.is_pending() && batch.held.load(Ordering::Relaxed) {
            // hyper flushes on its next poll; the released bytes go then,
            // or wait for a full socket's readiness: no second wake-up.
            batch.held.store(false, Ordering::Relaxed);
            batch.release.store(true, Ordering::Relaxed);
            cx.waker().wake_by_ref();
        }
        polled
    })
    .await
}

#[cfg(test)]
mod tests;
