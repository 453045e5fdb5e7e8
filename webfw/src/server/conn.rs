//! One accepted connection: which protocol it speaks, hyper's connection
//! serving it, and the per-request entry point hyper calls, with the checks
//! of the request head that Node makes before any middleware runs.

use std::net::SocketAddr;
use std::sync::Arc;

use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};

use super::bare::Bare;
use super::dispatch::{self, Dispatch};
use super::listen::ListenOptions;
#[cfg(not(feature = "http2"))]
use super::no_http2;
use super::sanitize::{self, BodyFraming, RawTargets, Sanitize, Sniffed};
use super::watchdog::{Activity, InFlight};
use super::{coalesce, graceful, methods, slots};
#[cfg(feature = "http2")]
use super::{http2, http2_deadline};
use crate::app::ServedApp;
use crate::request::{BodyArrival, IncomingBody, RawBody};
use crate::response::Response;
use crate::response::outbox::Mailbox;

/// Node's limit on the size of a request head: a head whose target and
/// header names and values come to this many bytes or more gets 431 (Node
/// counts neither the method, the separators nor the line ends).
///
/// ```
/// assert_eq!(webfw::MAX_HEAD_SIZE, 16 * 1024);
/// ```
pub const MAX_HEAD_SIZE: usize = 16 * 1024;

/// hyper's own read-buffer limit. It is set above [`MAX_HEAD_SIZE`] so that
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
        let service = |memory| {
            service(
                self.app,
                self.peer,
                secure,
                self.activity.clone(),
                raw_targets,
                memory,
            )
        };
        let h1 = match sniffed {
            #[cfg(feature = "http2")]
            Sniffed::Http2 => {
                let h2 = &self.builders.h2;
                self.activity.set_h2();
                let service = http2_deadline::StreamDeadline::new(
                    service(Some(h2.session_memory())),
                    self.builders.request_timeout,
                );
                let conn = h2.hyper.serve_connection(TokioIo::new(io), service);
                let _ = self.watcher.watch(conn).await;
                return;
            }
            #[cfg(not(feature = "http2"))]
            Sniffed::Http2 => return no_http2::refuse(io).await,
            Sniffed::Http1 { many_headers: true } => &self.builders.h1_many_headers,
            Sniffed::Http1 {
                many_headers: false,
            } => &self.builders.h1,
        };
        let service = service(None);
        // The responses of a pipelined batch leave in one write, unless
        // turned off. One connection type either way: its poll, with one
        // caller, is inlined whole.
        let batch = self
            .builders
            .pipeline_flush
            .then(Arc::<coalesce::Batch>::default);
        if let Some(batch) = &batch {
            io.coalescing(batch.clone());
        }
        let conn = h1
            .serve_connection(TokioIo::new(io), service)
            .with_upgrades();
        let conn = coalesce::Flushed::new(graceful::Upgradable(conn), batch);
        let _ = self.watcher.watch(conn).await;
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

/// What an HTTP/2 connection's responses count against (none on HTTP/1).
#[cfg(feature = "http2")]
type Memory = Option<Arc<crate::response::session_memory::SessionMemory>>;
#[cfg(not(feature = "http2"))]
type Memory = Option<std::convert::Infallible>;

/// The per-request entry point hyper calls for each request of a connection.
fn service(
    app: Arc<ServedApp>,
    peer: SocketAddr,
    secure: bool,
    activity: Arc<Activity>,
    raw_targets: Arc<RawTargets>,
    memory: Memory,
) -> impl hyper::service::Service<
    http::Request<Incoming>,
    Response = dispatch::HyperResponse,
    Error = std::convert::Infallible,
    Future = Dispatch,
> + Send
+ 'static {
    #[cfg(not(feature = "http2"))]
    let _ = memory;
    let new_mailbox = move || -> Mailbox {
        #[cfg(feature = "http2")]
        if let Some(memory) = &memory {
            return Mailbox::http2(memory.clone());
        }
        Mailbox::default()
    };
    let shared = Arc::new(new_mailbox());
    hyper::service::service_fn(move |req: http::Request<Incoming>| {
        // A request whose body is still to come is held to the request
        // timeout until the body has arrived.
        let (in_flight, arrival) = if http_body::Body::is_end_stream(req.body()) {
            (InFlight::new(&activity), None)
        } else {
            let arrival: Arc<dyn BodyArrival> = activity.clone();
            (InFlight::with_body(&activity), Some(arrival))
        };
        // Reuse the connection's mailbox when no earlier request still holds it.
        let mailbox = if Arc::strong_count(&shared) == 1 {
            // Pairs with the release of the last other handle's drop: what
            // the earlier request's response did to the mailbox is seen.
            std::sync::atomic::fence(std::sync::atomic::Ordering::Acquire);
            shared.reset();
            shared.clone()
        } else {
            Arc::new(new_mailbox())
        };
        let (mut parts, body) = req.into_parts();
        let raw_target = raw_targets.next(|| match parts.uri.scheme() {
            Some(_) => parts.uri.to_string(),
            None => parts
                .uri
                .path_and_query()
                .map_or("", |p| p.as_str())
                .to_owned(),
        });
        // Node counts the target as received, not as escaped.
        let escaped_len = raw_target.as_ref().map_or(0, |raw| {
            let target = parts.uri.path_and_query().map_or(1, |p| p.as_str().len());
            target.saturating_sub(raw.len())
        });
        // Requests Node rejects before Express runs.
        let rejected = if parts.version >= http::Version::HTTP_2 {
            // Node refuses new streams once a session holds its
            // `maxSessionMemory`: a client that stops reading gets no more.
            shared.session_full().then_some(Rejection::Busy)
        } else {
            // The read shim may have left this head to hyper: it goes on
            // from the body hyper expects.
            raw_targets.report(BodyFraming::of(&parts, &body));
            let head = head_size(&parts);
            if !methods::node_accepts(&parts.method) {
                Some(Rejection::BadRequest)
            } else if head.size.saturating_sub(escaped_len) >= MAX_HEAD_SIZE {
                Some(Rejection::HeadTooLarge)
            } else if parts.version == http::Version::HTTP_11 && !head.has_host {
                Some(Rejection::BadRequest)
            } else if head.has_expect
                && parts.version == http::Version::HTTP_11
                && !methods::expects_only_continue(&parts.headers)
            {
                Some(Rejection::ExpectationFailed)
            } else {
                None
            }
        };
        // Counted in full above, as Node's parser counts them.
        if parts.headers.len() > NODE_MAX_HEADERS {
            keep_first_headers(&mut parts.headers);
        }
        let raw_targets = &raw_targets;
        dispatch::start(
            &app,
            parts,
            raw_target,
            RawBody::Incoming(IncomingBody::new(body, arrival)),
            peer,
            secure,
            mailbox,
            Some(in_flight),
            rejected.map(|rejection| move |res: &mut Response| reject(res, rejection, raw_targets)),
        )
    })
}

/// How many header lines of a request Node puts in `req.headers`
/// (`maxHeadersCount`, 2000 names and values): the rest are dropped, not
/// refused.
const NODE_MAX_HEADERS: usize = 1000;

/// Keeps the first [`NODE_MAX_HEADERS`] header lines, as Node does. hyper's
/// map groups the lines of one name, so a name repeated after others keeps
/// its later lines ahead of theirs.
#[cold]
fn keep_first_headers(headers: &mut http::HeaderMap) {
    let mut kept = http::HeaderMap::with_capacity(NODE_MAX_HEADERS);
    for (name, value) in headers.iter().take(NODE_MAX_HEADERS) {
        kept.append(name.clone(), value.clone());
    }
    *headers = kept;
}

/// What [`head_size`] finds in one pass over a request head.
struct HeadFacts {
    /// The size Node counts against its limit: the target and every header
    /// name and value, without separators or line ends (Node's parser
    /// counts the bytes of those fields only); a head counting 16,384 or
    /// more is refused.
    size: usize,
    has_host: bool,
    has_expect: bool,
}

/// The size of a request head as Node counts it, and whether it has `Host`
/// and `Expect` headers: one pass for all three.
#[inline(always)]
fn head_size(parts: &http::request::Parts) -> HeadFacts {
    let mut size = parts.uri.path_and_query().map_or(1, |p| p.as_str().len());
    let mut has_host = false;
    let mut has_expect = false;
    for (name, value) in &parts.headers {
        size += name.as_str().len() + value.len();
        has_host |= name == http::header::HOST;
        has_expect |= name == http::header::EXPECT;
    }
    HeadFacts {
        size,
        has_host,
        has_expect,
    }
}

/// Requests Node answers before Express runs.
#[derive(Clone, Copy)]
enum Rejection {
    /// A method outside Node's list, or HTTP/1.1 without `Host`.
    BadRequest,
    /// A head over [`MAX_HEAD_SIZE`].
    HeadTooLarge,
    /// An `Expect` other than `100-continue`.
    ExpectationFailed,
    /// A new HTTP/2 stream on a connection over its session memory.
    Busy,
}

/// Node's answer to a request its parser rejects: 400 and 431 go out as
/// Node's bare status line ([`bare`](super::bare)) and close the connection; an unmet
/// `Expect` gets Node's 417, whose empty body is chunked on a connection
/// kept open; a stream refused for its session's memory gets 503.
fn reject(res: &mut Response, rejection: Rejection, raw_targets: &RawTargets) {
    let status = match rejection {
        Rejection::BadRequest => 400,
        Rejection::HeadTooLarge => 431,
        Rejection::ExpectationFailed => 417,
        Rejection::Busy => 503,
    };
    res.status(status);
    if status == 400 || status == 431 {
        raw_targets.answer_bare(status);
        res.headers_mut().insert(
            http::header::CONNECTION,
            http::HeaderValue::from_static("close"),
        );
    }
    let _ = res.write(bytes::Bytes::new());
    let _ = res.end();
}
