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
//! [`Coalesce`] is the write side of the read shim ([`Sanitize`]), which
//! knows after each read whether it held more than one lone request head
//! (on a connection it still follows). After such a read it keeps what
//! hyper writes, up to [`MAX_HELD`] bytes, and writes it in one go as soon
//! as hyper has nothing more to answer from the bytes it has: its next read
//! finds no data, or its connection future returns `Pending` ([`Flushed`]),
//! or it shuts the connection down. A lone request is written through at
//! once, as before, and costs a flag per read and per write and one load per
//! poll of the connection: the shared [`Batch`] is written only after a
//! batched read.
//!
//! [`Sanitize`]: super::sanitize::Sanitize

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, ready};

use tokio::io::AsyncWrite;

use super::graceful::Closable;

/// The most a connection keeps back: a batch of small responses fits many
/// times over; a larger response goes out on its own.
const MAX_HELD: usize = 16 * 1024;

/// What [`Coalesce`] and the connection's [`Flushed`] future share. Only a
/// connection that pipelines writes them.
#[derive(Default)]
pub(crate) struct Batch {
    /// Bytes are kept back by choice (not waiting for a full socket).
    held: AtomicBool,
    /// The connection went idle with bytes kept back: write them.
    release: AtomicBool,
}

/// The write side of an HTTP/1 connection, gathering its writes while a
/// pipelined batch is answered (see the module docs). Off, it passes every
/// write through.
#[derive(Default)]
pub(crate) struct Coalesce {
    /// `None` when off ([`crate::ListenOptions::pipeline_flush`]).
    batch: Option<Arc<Batch>>,
    /// The last read held more than a lone head: keep writes back.
    hold: bool,
    out: Vec<u8>,
    /// How much of `out` is written already.
    pos: usize,
}

impl Coalesce {
    /// Gathers the writes of pipelined batches, sharing `batch` with the
    /// connection's [`Flushed`] future.
    pub(crate) fn on(batch: Arc<Batch>) -> Coalesce {
        Coalesce {
            batch: Some(batch),
            ..Coalesce::default()
        }
    }

    /// Whether the writes go straight to the connection now: nothing is
    /// kept, nor to be kept. The one test on a lone request's write path.
    #[inline]
    pub(crate) fn passes(&self) -> bool {
        !self.hold && self.out.is_empty()
    }

    /// Whether no bytes are kept: a flush goes straight to the connection.
    #[inline]
    pub(crate) fn keeps_nothing(&self) -> bool {
        self.out.is_empty()
    }

    /// Whether vectored writes may go straight to the connection.
    pub(crate) fn vectored(&self) -> bool {
        self.batch.is_none()
    }

    /// After a read that returned: keep the writes back when it brought a
    /// batch. `batched` is evaluated only when coalescing is on.
    #[inline]
    pub(crate) fn read(&mut self, batched: impl FnOnce() -> bool) {
        self.hold = self.batch.is_some() && batched();
    }

    /// Before a read: one that brings no bytes (none yet, EOF or an error)
    /// ends the holding, and what is kept goes out with the next write or
    /// flush.
    #[inline]
    pub(crate) fn idle(&mut self) {
        self.hold = false;
    }

    /// Whether writes are kept back now; the connection going idle ends it.
    fn holding(&mut self) -> bool {
        if self.hold
            && let Some(batch) = &self.batch
            && batch.release.swap(false, Ordering::Relaxed)
        {
            self.hold = false;
        }
        self.hold
    }

    fn set_held(&self, held: bool) {
        if let Some(batch) = &self.batch {
            batch.held.store(held, Ordering::Relaxed);
        }
    }

    /// Writes out everything kept back.
    fn poll_write_out<W: AsyncWrite + Unpin>(
        &mut self,
        io: &mut W,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<()>> {
        while self.pos < self.out.len() {
            let n = ready!(Pin::new(&mut *io).poll_write(cx, &self.out[self.pos..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.pos += n;
        }
        self.out.clear();
        self.pos = 0;
        self.set_held(false);
        Poll::Ready(Ok(()))
    }

    /// A write when [`Self::passes`] is false: kept, or written with what is
    /// kept.
    #[cold]
    pub(crate) fn poll_write<W: AsyncWrite + Unpin>(
        &mut self,
        io: &mut W,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.out.is_empty() && !self.holding() {
            return Pin::new(io).poll_write(cx, buf);
        }
        if self.out.len() + buf.len() <= MAX_HELD {
            self.out.extend_from_slice(buf);
            if self.holding() {
                self.set_held(true);
            } else {
                // The batch's last response: one write for all of it. The
                // bytes are taken; a write that stops short goes on at the
                // next write or flush.
                if let Poll::Ready(Err(e)) = self.poll_write_out(io, cx) {
                    return Poll::Ready(Err(e));
                }
            }
            return Poll::Ready(Ok(buf.len()));
        }
        ready!(self.poll_write_out(io, cx))?;
        Pin::new(io).poll_write(cx, buf)
    }

    /// A flush with bytes kept: done at once while the batch goes on, else
    /// they are written out first.
    #[cold]
    pub(crate) fn poll_flush<W: AsyncWrite + Unpin>(
        &mut self,
        io: &mut W,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<()>> {
        if self.holding() {
            return Poll::Ready(Ok(()));
        }
        ready!(self.poll_write_out(io, cx))?;
        Pin::new(io).poll_flush(cx)
    }

    /// A shutdown writes out what is kept first.
    pub(crate) fn poll_shutdown<W: AsyncWrite + Unpin>(
        &mut self,
        io: &mut W,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<()>> {
        self.hold = false;
        ready!(self.poll_write_out(io, cx))?;
        Pin::new(io).poll_shutdown(cx)
    }
}

/// A connection's future that makes its [`Coalesce`] write out what it
/// keeps back whenever the connection waits (for a handler that awaits, say)
/// instead of answering the next request of the batch at once. Without a
/// batch (coalescing off) it only polls the connection.
pub(crate) struct Flushed<C> {
    conn: C,
    batch: Option<Arc<Batch>>,
}

impl<C> Flushed<C> {
    pub(crate) fn new(conn: C, batch: Option<Arc<Batch>>) -> Flushed<C> {
        Flushed { conn, batch }
    }
}

impl<C: Future + Unpin> Future for Flushed<C> {
    type Output = C::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<C::Output> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.conn).poll(cx);
        if polled.is_pending()
            && let Some(batch) = &this.batch
            && batch.held.load(Ordering::Relaxed)
        {
            batch.release(cx);
        }
        polled
    }
}

impl<C: Closable + Unpin> Closable for Flushed<C> {
    fn graceful_shutdown(self: Pin<&mut Self>) {
        Pin::new(&mut self.get_mut().conn).graceful_shutdown();
    }
}

impl Batch {
    /// The connection waits with bytes kept back: hyper flushes on its next
    /// poll, and the released bytes go then, or wait for a full socket's
    /// readiness: no second wake-up. Apart, to keep the connection's poll
    /// small.
    #[cold]
    #[inline(never)]
    fn release(&self, cx: &mut Context<'_>) {
        self.held.store(false, Ordering::Relaxed);
        self.release.store(true, Ordering::Relaxed);
        cx.waker().wake_by_ref();
    }
}

#[cfg(test)]
mod tests;
