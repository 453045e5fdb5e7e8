//! Node's bare answers: a status line and `Connection: close`, nothing else.
//!
//! Node's parser answers a request it refuses (a method outside its list,
//! HTTP/1.1 without `Host`: 400; a head over 16 KiB: 431) and a client too
//! slow with its head or body (408) with exactly
//! `HTTP/1.1 <status> <reason>\r\nConnection: close\r\n\r\n`. hyper would
//! add `Date` and a chunked empty body. [`Bare`] sits under hyper on every
//! connection: once the service asks for a bare answer, it writes Node's
//! bytes in place of hyper's response; when the watchdog closes a connection
//! with a 408 due, it writes that as the stream is dropped (if the socket
//! takes it at once). Otherwise writes go straight through, after one load.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll, Waker, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::sanitize::RawTargets;
use super::slots::Slot;
use super::watchdog::Activity;

/// Node's bytes for each bare answer.
pub(super) fn node_bytes(status: u16) -> &'static [u8] {
    match status {
        408 => b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n",
        431 => b"HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n",
        _ => b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n",
    }
}

/// Where hyper's response that the bare answer `status` replaces starts in
/// `buf`: the service's own 400 or 431, or hyper's 414 or 431 for a request
/// line the read shim found too long. It is the last response in `buf`
/// (hyper answers nothing after it) and has no body, so the last status
/// line found is it; an earlier response in the same write (a pipelined
/// batch goes out in one) may carry those bytes in its body.
fn hyper_response_at(buf: &[u8], status: u16) -> Option<usize> {
    let find = |line: &[u8]| memchr::memmem::rfind(buf, line);
    match status {
        431 => find(b"HTTP/1.1 431 ").max(find(b"HTTP/1.1 414 ")),
        _ => find(b"HTTP/1.1 400 "),
    }
}

/// Where a connection is with a bare answer.
enum Stage {
    /// Not replacing anything.
    Off,
    /// Writing Node's bytes, this many already written.
    Writing(usize),
    /// Node's bytes are out: what hyper writes after them is dropped.
    Done,
}

/// The connection's stream under hyper (see the module docs).
pub(crate) struct Bare<I: AsyncWrite + Unpin> {
    inner: I,
    activity: Arc<Activity>,
    /// Where the service and the read shim ask for a bare answer.
    asked: Arc<RawTargets>,
    stage: Stage,
    /// The connection's place under `max_connections`: it stays taken as
    /// long as the socket is open, also once a handler has upgraded it.
    _slot: Option<Slot>,
}

impl<I: AsyncWrite + Unpin> Bare<I> {
    pub(crate) fn new(inner: I, activity: Arc<Activity>, asked: Arc<RawTargets>) -> Bare<I> {
        Bare {
            inner,
            activity,
            asked,
            stage: Stage::Off,
            _slot: None,
        }
    }

    /// Holds `slot` until the stream is dropped.
    pub(crate) fn holding(mut self, slot: Option<Slot>) -> Bare<I> {
        self._slot = slot;
        self
    }

    /// A write once a bare answer is asked for: what precedes hyper's
    /// response to replace (earlier pipelined responses) goes through, then
    /// Node's bytes go out in its place.
    #[cold]
    fn poll_write_bare(
        &mut self,
        cx: &mut Context<'_>,
        buf: &[u8],
        status: u16,
    ) -> Poll<io::Result<usize>> {
        if let Stage::Off = self.stage {
            match hyper_response_at(buf, status) {
                Some(0) => self.stage = Stage::Writing(0),
                Some(at) => return Pin::new(&mut self.inner).poll_write(cx, &buf[..at]),
                None => return Pin::new(&mut self.inner).poll_write(cx, buf),
            }
        }
        let bytes = node_bytes(status);
        while let Stage::Writing(done) = self.stage {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &bytes[done..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.stage = if done + n == bytes.len() {
                Stage::Done
            } else {
                Stage::Writing(done + n)
            };
        }
        Poll::Ready(Ok(buf.len()))
    }
}

impl<I: AsyncWrite + Unpin> Drop for Bare<I> {
    fn drop(&mut self) {
        if !self.activity.send_408.load(Ordering::Relaxed) {
            return;
        }
        let bytes = node_bytes(408);
        let mut cx = Context::from_waker(Waker::noop());
        let mut inner = Pin::new(&mut self.inner);
        if let Poll::Ready(Ok(n)) = inner.as_mut().poll_write(&mut cx, bytes)
            && n == bytes.len()
        {
            let _ = inner.as_mut().poll_flush(&mut cx);
        }
    }
}

impl<I: AsyncRead + AsyncWrite + Unpin> AsyncRead for Bare<I> {
    #[inline]
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Bare<I> {
    #[inline]
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match this.asked.bare() {
            0 => Pin::new(&mut this.inner).poll_write(cx, buf),
            status => this.poll_write_bare(cx, buf, status),
        }
    }

    #[inline]
    fn is_write_vectored(&self) -> bool {
        // Every write goes through `poll_write`, where a bare answer is
        // looked for.
        false
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

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    #[tokio::test]
    async fn hyper_s_response_is_replaced_after_earlier_ones_go_through() {
        let asked = Arc::new(RawTargets::default());
        let mut out = Bare::new(Vec::new(), Arc::default(), asked.clone());
        out.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\na")
            .await
            .unwrap();
        asked.answer_bare(431);
        out.write_all(b"HTTP/1.1 200 OK\r\n\r\nHTTP/1.1 431 Request Header Fields Too Large\r\ndate: x\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n")
            .await
            .unwrap();
        out.write_all(b"more").await.unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.inner),
            "HTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\naHTTP/1.1 200 OK\r\n\r\n\
             HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n"
        );
    }

    #[tokio::test]
    async fn a_status_line_inside_an_earlier_body_of_the_batch_is_not_hyper_s_response() {
        let asked = Arc::new(RawTargets::default());
        let mut out = Bare::new(Vec::new(), Arc::default(), asked.clone());
        asked.answer_bare(400);
        let earlier = "HTTP/1.1 200 OK\r\ncontent-length: 25\r\n\r\nHTTP/1.1 400 HTTP/1.1 414";
        out.write_all(
            format!("{earlier}HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n").as_bytes(),
        )
        .await
        .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.inner),
            format!("{earlier}HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n")
        );
    }

    #[tokio::test]
    async fn hyper_s_own_414_becomes_node_s_431() {
        let asked = Arc::new(RawTargets::default());
        let mut out = Bare::new(Vec::new(), Arc::default(), asked.clone());
        asked.answer_bare(431);
        out.write_all(
            b"HTTP/1.1 414 URI Too Long\r\nconnection: close\r\ncontent-length: 0\r\n\r\n",
        )
        .await
        .unwrap();
        assert_eq!(out.inner, node_bytes(431));
    }

    #[test]
    fn a_408_is_written_as_the_stream_is_dropped_only_when_due() {
        let activity = Arc::new(Activity::default());
        let mut sink = Vec::new();
        drop(Bare::new(&mut sink, activity.clone(), Arc::default()));
        assert!(sink.is_empty());
        activity.send_408.store(true, Ordering::Relaxed);
        drop(Bare::new(&mut sink, activity, Arc::default()));
        assert_eq!(sink, node_bytes(408));
    }
}
