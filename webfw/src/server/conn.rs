//! One accepted connection: which protocol it speaks, and what serves it:
//! hyper for HTTP/2, webfw's own loop ([`h1`](super::h1)) and then hyper
//! for HTTP/1.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};

use super::bare::Bare;
use super::listen::ListenOptions;
#[cfg(not(feature = "http2"))]
use super::no_http2;
use super::requests::{MAX_HEAD_SIZE, Requests};
use super::sanitize::{self, RawTargets, Sanitize, Sniffed};
use super::watchdog::Activity;
use super::{coalesce, graceful, h1, slots};
#[cfg(feature = "http2")]
use super::{http2, http2_deadline};
use crate::app::ServedApp;

/// hyper's own read-buffer limit. It is set above [`MAX_HEAD_SIZE`](super::MAX_HEAD_SIZE) so that
/// heads between the two reach webfw, which answers 431 exactly as Node does
/// (no body, no Content-Length); only larger heads get hyper's own 431.
const HYPER_MAX_BUF: usize = 64 * 1024;

/// hyper's connection settings, built once per listener. HTTP/1 runs without
/// hyper's timer: the header-read timeout is the [`watchdog`](super::watchdog)'s.
pub(super) struct Builders {
    h1: http1::Builder,
    /// For connections that start with more header lines than hyper parses
    /// on the stack: Node takes as many as fit its 16 KiB count (one byte
    /// each at least), and hyper's parser for that many allocates (without
    /// touching) 1 MiB per request.
    h1_many_headers: http1::Builder,
    #[cfg(feature = "http2")]
    h2: http2::Builder,
    /// [`ListenOptions::request_timeout`], which HTTP/2 streams keep one by
    /// one ([`http2_deadline`]).
    #[cfg(feature = "http2")]
    request_timeout: Option<std::time::Duration>,
    /// [`ListenOptions::pipeline_flush`].
    pub(super) pipeline_flush: bool,
}

impl Builders {
    pub(super) fn new(opts: &ListenOptions) -> Builders {
        let mut h1 = http1::Builder::new();
        // One buffer per response (head and body copied together, one
        // `write`) instead of hyper's queue of buffers for `writev`: the
        // queue's bookkeeping costs more than copying a typical body. Large bodies are still flushed in
        // `max_buf_size` pieces.
        h1.max_buf_size(HYPER_MAX_BUF)
            .writev(false)
            .max_headers(sanitize::MANY_HEADER_LINES);
        let mut h1_many_headers = h1.clone();
        h1_many_headers.max_headers(MAX_HEAD_SIZE);
        Builders {
            h1,
            h1_many_headers,
            #[cfg(feature = "http2")]
            h2: http2::Builder::new(opts),
            #[cfg(feature = "http2")]
            request_timeout: (!opts.request_timeout.is_zero()).then_some(opts.request_timeout),
            pipeline_flush: opts.pipeline_flush,
        }
    }
}

/// One accepted connection, before its protocol is known.
pub(super) struct Conn {
    pub(super) app: Arc<ServedApp>,
    pub(super) peer: SocketAddr,
    pub(super) activity: Arc<Activity>,
    pub(super) builders: Arc<Builders>,
    pub(super) watcher: graceful::Watcher,
    /// Held with the stream (see [`slots`]); `None` without `max_connections`.
    pub(super) slot: Option<slots::Slot>,
}

impl Conn {
    /// Serves the connection until it closes: HTTP/2 when ALPN chose it or
    /// the client starts with the HTTP/2 preface (prior knowledge; refused
    /// without the `http2` feature), else HTTP/1.1.
    pub(super) async fn serve<I>(self, stream: I, secure: bool, alpn_h2: bool)
    where
        I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        // Targets with bytes hyper rejects are escaped on the way in; the raw
        // ones come back to the service so `req.originalUrl` is what the
        // client sent.
        let raw_targets = Arc::new(RawTargets::default());
        let stream =
            Bare::new(stream, self.activity.clone(), raw_targets.clone()).holding(self.slot);
        let mut io = Sanitize::new(stream, raw_targets.clone());
        let sniffed = if alpn_h2 {
            Sniffed::Http2
        } else {
            match self.watcher.unless_stopping(io.sniff()).await {
                Some(Ok(sniffed)) => sniffed,
                _ => return,
            }
        };
        let requests = |memory| {
            Requests::new(
                self.app,
                self.peer,
                secure,
                self.activity.clone(),
                raw_targets,
                memory,
            )
        };
        let many_headers = match sniffed {
            #[cfg(feature = "http2")]
            Sniffed::Http2 => {
                let h2 = &self.builders.h2;
                self.activity.set_h2();
                let service = http2_deadline::StreamDeadline::new(
                    requests(Some(h2.session_memory())),
                    self.builders.request_timeout,
                );
                let conn = h2.hyper.serve_connection(TokioIo::new(io), service);
                let _ = self.watcher.watch(conn).await;
                return;
            }
            #[cfg(not(feature = "http2"))]
            Sniffed::Http2 => return no_http2::refuse(io).await,
            Sniffed::Http1 { many_headers } => many_headers,
        };
        let requests = requests(None);
        let builders = self.builders;
        let pipeline_flush = builders.pipeline_flush;
        let closing = Arc::new(AtomicBool::new(false));
        // A connection that starts with more header lines than the loop
        // takes is hyper's from the start, with the larger parser; so is
        // one whose first request the loop does not take.
        let hand_over = move |io, requests| {
            let h1 = match many_headers {
                true => &builders.h1_many_headers,
                false => &builders.h1,
            };
            serve_hyper(io, requests, h1, pipeline_flush)
        };
        let conn = if many_headers || !h1::takes(io.read_ahead()) {
            h1::Http1::hyper(closing, hand_over(io, requests))
        } else {
            let run = h1::serve(io, requests, pipeline_flush, closing.clone());
            h1::Http1::own(closing, run, hand_over)
        };
        self.watcher.watch(conn).await;
    }
}

/// hyper's connection for the rest of an HTTP/1 connection.
fn serve_hyper<I>(
    mut io: Sanitize<I>,
    requests: Requests,
    h1: &http1::Builder,
    pipeline_flush: bool,
) -> impl graceful::Closable<Output = hyper::Result<()>> + use<I>
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    // The responses of a pipelined batch leave in one write, unless
    // turned off. One connection type either way: its poll, with one
    // caller, is inlined whole.
    let batch = pipeline_flush.then(Arc::<coalesce::Batch>::default);
    if let Some(batch) = &batch {
        io.coalescing(batch.clone());
    }
    let conn = h1
        .serve_connection(TokioIo::new(io), requests)
        .with_upgrades();
    coalesce::Flushed::new(graceful::Upgradable(conn), batch)
}

#[cfg(feature = "tls")]
impl Conn {
    /// Serves a connection to a TLS listener: the handshake, then HTTP/2 when
    /// ALPN chose it, else HTTP/1.1. Boxed: the handshake's and the TLS
    /// stream's state would otherwise size every connection's task (~5 KiB
    /// more each).
    pub(super) fn serve_tls<I>(
        self,
        acceptor: tokio_rustls::TlsAcceptor,
        stream: I,
    ) -> std::pin::Pin<Box<impl std::future::Future<Output = ()> + Send>>
    where
        I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        Box::pin(async move {
            let handshake = self.watcher.unless_stopping(acceptor.accept(stream));
            if let Some(Ok(stream)) = handshake.await {
                let h2 = stream.get_ref().1.alpn_protocol() == Some(b"h2");
                self.serve(stream, true, h2).await;
            }
        })
    }
}
