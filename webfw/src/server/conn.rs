//! One accepted connection: which protocol it speaks, and what serves it:
//! hyper for HTTP/2, webfw's own codec ([`http1`](super::http1)) for HTTP/1.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

#[cfg(feature = "http2")]
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};

use super::http1::io::{ReadBuffer, Stream};
use super::http1::{Connection, Http1};
use super::listen::ListenOptions;
#[cfg(not(feature = "http2"))]
use super::no_http2;
use super::requests::Requests;
use super::watchdog::Activity;
use super::{graceful, slots};
#[cfg(feature = "http2")]
use super::{http2, http2_deadline};
use crate::app::ServedApp;
#[cfg(feature = "http2")]
use crate::rewind::Rewind;

/// The first bytes of a client that speaks HTTP/2 with prior knowledge.
const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// The connection settings, built once per listener.
pub(super) struct Builders {
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
        Builders {
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
    /// without the `http2` feature), else HTTP/1.x.
    pub(super) async fn serve<I>(self, stream: I, secure: bool, alpn_h2: bool)
    where
        I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        let mut io = Stream::new(stream, self.activity.clone(), self.slot);
        let mut buf = ReadBuffer::new();
        // Reading goes on while what came could still be the preface: the
        // bytes read stay in the buffer for the protocol chosen.
        let h2 = alpn_h2 || {
            let sniff = async {
                loop {
                    let seen = buf.filled();
                    let n = seen.len().min(PREFACE.len());
                    if seen[..n] != PREFACE[..n] {
                        return Some(false);
                    }
                    if n == PREFACE.len() {
                        return Some(true);
                    }
                    match buf.read(&mut io, || false).await {
                        Some(Ok(1..)) => {}
                        _ => return None,
                    }
                }
            };
            match self.watcher.unless_stopping(sniff).await {
                Some(Some(h2)) => h2,
                _ => return,
            }
        };
        let requests =
            |memory| Requests::new(self.app, self.peer, secure, self.activity.clone(), memory);
        if h2 {
            #[cfg(feature = "http2")]
            {
                let h2 = &self.builders.h2;
                self.activity.set_h2();
                let service = http2_deadline::StreamDeadline::new(
                    requests(Some(h2.session_memory())),
                    self.builders.request_timeout,
                );
                let io = Rewind::new(buf.take_all(), io);
                let conn = h2.hyper.serve_connection(TokioIo::new(io), service);
                let _ = self.watcher.watch(conn).await;
                return;
            }
            #[cfg(not(feature = "http2"))]
            return no_http2::refuse(io).await;
        }
        let closing = Arc::new(AtomicBool::new(false));
        let connection = Connection {
            io,
            buf,
            requests: requests(None),
            pipeline_flush: self.builders.pipeline_flush,
            closing: closing.clone(),
        };
        self.watcher
            .watch(Http1::new(closing, connection.serve()))
            .await;
    }
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
