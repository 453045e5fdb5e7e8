//! The connection wrapper: what hyper reads is the connection's bytes as the
//! scanner rewrote them; writes pass straight through, except the responses
//! to a pipelined batch, which [`Coalesce`] keeps for one write.
//!
//! hyper reads exactly the bytes the scanner followed, in their order, each
//! once. A read returns what the connection gave, rewritten only where the
//! scanner says so; it never waits for more bytes to finish a line, so the
//! shim never holds back what hyper needs to answer. Rewritten bytes that
//! do not fit the caller's buffer are returned before anything new is read,
//! and once the scanner passes through, reads go to the connection directly.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::RawTargets;
use super::framing::{Scanner, State};
use crate::server::coalesce::{Batch, Coalesce};

/// A connection stream whose request targets get the bytes `http::Uri`
/// rejects percent-encoded (see the module docs). Writes pass straight
/// through, or are gathered while a pipelined batch is answered
/// ([`Self::coalescing`]).
pub(crate) struct Sanitize<I> {
    inner: I,
    scan: Scanner,
    /// The write side: here rather than in a layer of its own, which would
    /// cost every request a call per read and per write.
    coalesce: Coalesce,
    /// Rewritten bytes that did not fit the caller's buffer, and bytes read
    /// ahead while sniffing.
    pub(super) pending: Vec<u8>,
    pub(super) pending_pos: usize,
}

impl<I> Sanitize<I> {
    /// Wraps `inner`, recording rewritten targets in `raw`.
    pub(crate) fn new(inner: I, raw: Arc<RawTargets>) -> Sanitize<I> {
        Sanitize {
            inner,
            scan: Scanner::new(raw),
            coalesce: Coalesce::default(),
            pending: Vec::new(),
            pending_pos: 0,
        }
    }

    /// Gathers the responses of pipelined batches into one write from now
    /// on, sharing `batch` with the connection's
    /// [`Flushed`](crate::server::coalesce::Flushed) future.
    pub(crate) fn coalescing(&mut self, batch: Arc<Batch>) {
        self.coalesce = Coalesce::on(batch);
    }

    /// The bytes read ahead (while sniffing) or put back, not returned yet.
    pub(crate) fn read_ahead(&self) -> &[u8] {
        &self.pending[self.pending_pos..]
    }

    /// Puts back bytes a reader took but leaves to the next: they are read
    /// again, ahead of anything not read yet. The scanner has seen them
    /// already, so they go back as they were returned.
    pub(crate) fn unread(&mut self, bytes: &[u8]) {
        self.pending
            .splice(self.pending_pos..self.pending_pos, bytes.iter().copied());
    }

    fn drain_pending(&mut self, buf: &mut ReadBuf<'_>) {
        let n = buf.remaining().min(self.pending.len() - self.pending_pos);
        buf.put_slice(&self.pending[self.pending_pos..self.pending_pos + n]);
        self.pending_pos += n;
        if self.pending_pos == self.pending.len() {
            self.pending.clear();
            self.pending_pos = 0;
        }
    }
}

/// Whether the last read held more than one whole request head and nothing
/// else, on a connection still followed: hyper then has more to answer
/// before it reads again, and [`Coalesce`] keeps its writes back.
fn batched(scan: &Scanner) -> bool {
    !scan.lone && scan.state != State::PassThrough
}

impl<I: AsyncRead + Unpin> AsyncRead for Sanitize<I> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.pending.is_empty() {
            this.drain_pending(buf);
            let scan = &this.scan;
            this.coalesce.read(|| batched(scan));
            return Poll::Ready(Ok(()));
        }
        // Followed no more, no read is a batch: the read that switched to
        // pass-through already ended any holding.
        if this.scan.state == State::PassThrough {
            return Pin::new(&mut this.inner).poll_read(cx, buf);
        }
        // A read that brings no bytes (none yet, EOF or an error) ends any
        // holding: set before, so the usual path tests nothing more.
        this.coalesce.idle();
        let start = buf.filled().len();
        ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        // The bytes just read are rewritten in place only when needed: the
        // expanded form goes through `pending`, whose excess stays for the
        // next call.
        if this.scan.feed(&buf.filled()[start..], &mut this.pending) {
            buf.set_filled(start);
            this.drain_pending(buf);
        }
        let scan = &this.scan;
        this.coalesce
            .read(|| buf.filled().len() > start && batched(scan));
        Poll::Ready(Ok(()))
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Sanitize<I> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.coalesce.passes() {
            return Pin::new(&mut this.inner).poll_write(cx, buf);
        }
        this.coalesce.poll_write(&mut this.inner, cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.coalesce.vectored() {
            return Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        }
        let buf = bufs.iter().find(|b| !b.is_empty()).map_or(&[][..], |b| b);
        Pin::new(this).poll_write(cx, buf)
    }

    fn is_write_vectored(&self) -> bool {
        self.coalesce.vectored() && self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.coalesce.keeps_nothing() {
            return Pin::new(&mut this.inner).poll_flush(cx);
        }
        this.coalesce.poll_flush(&mut this.inner, cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        this.coalesce.poll_shutdown(&mut this.inner, cx)
    }
}
