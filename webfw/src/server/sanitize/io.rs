//! The connection wrapper: what hyper reads is the connection's bytes as the
//! scanner rewrote them; writes pass straight through.
//!
//! hyper reads exactly the bytes the scanner followed, in their order, each
//! once. A read returns what the connection gave, rewritten only where the
//! scanner says so; it never waits for more bytes to finish a line, so the
//! shim never holds back what hyper needs to answer. Rewritten bytes that
//! do not fit the caller's buffer are returned before anything new is read,
//! and once the scanner passes through, reads go to the connection directly.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::RawTargets;
use super::framing::{Scanner, State};

/// A connection stream whose request targets get the bytes `http::Uri`
/// rejects percent-encoded (see the module docs). Writes pass straight through.
pub(crate) struct Sanitize<I> {
    inner: I,
    scan: Scanner,
    /// Rewritten bytes that did not fit the caller's buffer, and bytes read
    /// ahead while sniffing.
    pub(super) pending: Vec<u8>,
    pub(super) pending_pos: usize,
}

impl<I> Sanitize<I> {
    /// Wraps `inner`, recording rewritten targets in `raw`.
    pub(crate) fn new(inner: I, raw: std::sync::Arc<RawTargets>) -> Sanitize<I> {
        Sanitize {
            inner,
            scan: Scanner::new(raw),
            pending: Vec::new(),
            pending_pos: 0,
        }
    }

    /// Whether the last read held more than one whole request head and
    /// nothing else, on a connection still followed: hyper then has more to
    /// answer before it reads again ([`crate::server::coalesce`]).
    pub(crate) fn batched(&self) -> bool {
        !self.scan.lone && self.scan.state != State::PassThrough
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

impl<I: AsyncRead + Unpin> AsyncRead for Sanitize<I> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.pending.is_empty() {
            this.drain_pending(buf);
            return Poll::Ready(Ok(()));
        }
        if this.scan.state == State::PassThrough {
            return Pin::new(&mut this.inner).poll_read(cx, buf);
        }
        let start = buf.filled().len();
        ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        // The bytes just read are rewritten in place only when needed: the
        // expanded form goes through `pending`, whose excess stays for the
        // next call.
        if this.scan.feed(&buf.filled()[start..], &mut this.pending) {
            buf.set_filled(start);
            this.drain_pending(buf);
        }
        Poll::Ready(Ok(()))
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Sanitize<I> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}
