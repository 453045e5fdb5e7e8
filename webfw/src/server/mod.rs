//! hyper/tokio glue: listening on TCP (optionally TLS, feature `tls`) or a
//! UNIX socket, HTTP/1.1 keep-alive and HTTP/2 (feature `http2`), graceful
//! shutdown.

mod accept;
mod bare;
mod coalesce;
pub(crate) mod dispatch;
mod graceful;
#[cfg(feature = "http2")]
mod http2;
#[cfg(feature = "http2")]
mod http2_deadline;
mod listen;
mod methods;
#[cfg(not(feature = "http2"))]
mod no_http2;
mod pair;
mod sanitize;
mod signals;
mod slots;
mod stream;
mod task;
#[cfg(feature = "tls")]
mod tls;
mod watchdog;
mod workers;

use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::watch;

use crate::app::{App, ServedApp};
use crate::request::{BodyArrival, IncomingBody, RawBody};
use crate::response::Response;
use crate::response::outbox::Mailbox;
use bare::Bare;
use dispatch::Dispatch;
use sanitize::{BodyFraming, RawTargets, Sanitize, Sniffed};
use stream::Stream;
use watchdog::{Activity, InFlight, Watchdog};

pub use listen::ListenOptions;
#[cfg(fuzzing)]
#[doc(hidden)]
pub use sanitize::fuzz_rewrite;
#[cfg(feature = "tls")]
pub use tls::TlsConfig;

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

/// A running server: its address, and a graceful shutdown.
///
/// ```no_run
/// # async fn run() -> std::io::Result<()> {
/// let server = webfw::app().bind(webfw::ListenOptions::port(0).host("127.0.0.1")).await?;
/// println!("listening on {}", server.local_addr().unwrap());
/// server.shutdown().await;
/// # Ok(()) }
/// ```
pub struct Server {
    addr: Option<SocketAddr>,
    shutdown: watch::Sender<bool>,
    done: tokio::task::JoinHandle<()>,
}

impl Server {
    /// The bound TCP address (None for UNIX sockets).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> std::io::Result<()> {
    /// let server = webfw::app().bind(webfw::ListenOptions::port(0).host("127.0.0.1")).await?;
    /// assert_ne!(server.local_addr().unwrap().port(), 0);
    /// # server.shutdown().await; Ok(()) }
    /// ```
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.addr
    }

    /// Closes the listening socket at once (new clients are refused, or go
    /// to another `reuse_port` server), lets in-flight requests finish, then
    /// returns.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> std::io::Result<()> {
    /// let server = webfw::app().bind(webfw::ListenOptions::port(0).host("127.0.0.1")).await?;
    /// server.shutdown().await;
    /// # Ok(()) }
    /// ```
    pub async fn shutdown(self) {
        let _ = self.shutdown.send(true);
        let _ = self.done.await;
    }

    /// Waits until the server stops (after [`Server::shutdown`] from elsewhere, or forever).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> std::io::Result<()> {
    /// let server = webfw::app().bind(webfw::ListenOptions::port(0).host("127.0.0.1")).await?;
    /// server.shutdown_handle().shutdown();
    /// server.wait().await;
    /// # Ok(()) }
    /// ```
    pub async fn wait(self) {
        let _ = self.done.await;
    }

    /// Waits until the server stops, starting its graceful shutdown on the
    /// first SIGINT (Ctrl-C) or SIGTERM, as [`App::listen`] does; a second
    /// one exits the process at once. For programs that set up in async
    /// code before serving (connecting to Redis, say), on a runtime from
    /// [`ListenOptions::runtime`].
    ///
    /// ```no_run
    /// let opts = webfw::ListenOptions::port(3000).workers(2);
    /// opts.runtime()?.block_on(async {
    ///     let app = webfw::app(); // built with async setup here
    ///     let server = app.bind(opts).await?;
    ///     server.wait_with_signals().await
    /// })?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub async fn wait_with_signals(self) -> io::Result<()> {
        let _signals = signals::shutdown_on_signal(self.shutdown_handle())?;
        self.wait().await;
        Ok(())
    }

    /// A handle that can trigger the graceful shutdown from another task.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> std::io::Result<()> {
    /// let server = webfw::app().bind(webfw::ListenOptions::port(0).host("127.0.0.1")).await?;
    /// let handle = server.shutdown_handle();
    /// tokio::spawn(async move { handle.shutdown() });
    /// server.wait().await;
    /// # Ok(()) }
    /// ```
    pub fn shutdown_handle(&self) -> ShutdownHandle {
        ShutdownHandle(self.shutdown.clone())
    }
}

/// Triggers a [`Server`]'s graceful shutdown; clone it for every task that
/// may stop the server.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> std::io::Result<()> {
/// let server = webfw::app().bind(webfw::ListenOptions::port(0).host("127.0.0.1")).await?;
/// let handle: webfw::ShutdownHandle = server.shutdown_handle();
/// handle.clone().shutdown();
/// server.wait().await;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct ShutdownHandle(watch::Sender<bool>);

impl ShutdownHandle {
    /// Starts the graceful shutdown.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> std::io::Result<()> {
    /// let server = webfw::app().bind(webfw::ListenOptions::port(0).host("127.0.0.1")).await?;
    /// server.shutdown_handle().shutdown();
    /// server.wait().await;
    /// # Ok(()) }
    /// ```
    pub fn shutdown(&self) {
        let _ = self.0.send(true);
    }
}

impl App {
    /// `app.listen(port, callback)`: serves on `0.0.0.0:port` until Ctrl-C or
    /// SIGTERM, then shuts down gracefully. Blocks the calling thread.
    ///
    /// ```no_run
    /// let app = webfw::app();
    /// app.listen(3000, |addr| println!("listening on {addr}")).unwrap();
    /// ```
    pub fn listen(self, port: u16, on_ready: impl FnOnce(SocketAddr)) -> io::Result<()> {
        self.listen_with(ListenOptions::port(port), on_ready)
    }

    /// `app.listen` with full options. Blocks until Ctrl-C or SIGTERM.
    ///
    /// ```no_run
    /// let app = webfw::app();
    /// let opts = webfw::ListenOptions::port(8080).host("127.0.0.1").single_threaded(true);
    /// app.listen_with(opts, |addr| println!("on {addr}")).unwrap();
    /// ```
    pub fn listen_with(
        self,
        opts: ListenOptions,
        on_ready: impl FnOnce(SocketAddr),
    ) -> io::Result<()> {
        let mut on_ready = Some(on_ready);
        self.serve_until_signal(opts, &mut |addr| {
            if let Some(f) = on_ready.take() {
                f(addr);
            }
        })
    }

    /// What `listen_with` does, compiled once here rather than in every app
    /// for its own callback type.
    fn serve_until_signal(
        self,
        opts: ListenOptions,
        on_ready: &mut dyn FnMut(SocketAddr),
    ) -> io::Result<()> {
        let mut opts = opts;
        opts.default_workers();
        let rt = opts.runtime()?;
        rt.block_on(async move {
            let server = self.bind_with(opts).await?;
            // Watched before `on_ready`: a signal sent once the program says
            // it is ready shuts it down gracefully, never kills it.
            let _signals = signals::shutdown_on_signal(server.shutdown_handle())?;
            on_ready(
                server
                    .local_addr()
                    .unwrap_or(SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0)),
            );
            server.wait().await;
            Ok(())
        })
    }

    /// Binds and starts serving in the current tokio runtime, and on the
    /// threads [`ListenOptions::workers`] asks for besides; returns at once.
    ///
    /// ```no_run
    /// # async fn run() -> std::io::Result<()> {
    /// let server = webfw::app().bind(0).await?;
    /// # server.shutdown().await; Ok(()) }
    /// ```
    pub async fn bind(self, opts: impl Into<ListenOptions>) -> io::Result<Server> {
        self.bind_with(opts.into()).await
    }

    /// What `bind` does: not generic, so the server is compiled once here and
    /// not again in every app that calls `bind` or `listen`.
    async fn bind_with(self, opts: ListenOptions) -> io::Result<Server> {
        // A handler's missing state value fails the start, before the socket opens.
        let app = self
            .serve_root()
            .map(Arc::new)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
        let (tx, rx) = watch::channel(false);
        let listener = opts.open()?;
        let addr = match &listener {
            listen::Bound::Tcp(listener) => Some(listener.local_addr()?),
            #[cfg(unix)]
            listen::Bound::Unix(_) => None,
        };
        let mut first = workers::Worker {
            app,
            opts,
            // One count for all the workers: `max_connections` is the server's.
            slots: slots::Slots::default(),
            shutdown: rx,
        };
        let (listener, others) = workers::start_others(listener, &mut first)?;
        let done = tokio::spawn(task::occasional(async move {
            first.serve(listener).await;
            for stopped in others {
                let _ = stopped.await;
            }
        }));
        Ok(Server {
            addr,
            shutdown: tx,
            done,
        })
    }
}

/// A listening socket: TCP or UNIX.
trait Accept: Send + 'static {
    type Stream: AsyncRead + AsyncWrite + Unpin + Send + 'static;
    fn accept_one(
        &self,
    ) -> impl Future<Output = io::Result<(Self::Stream, Option<SocketAddr>)>> + Send;
}

/// One listener type for both kinds of socket, so the accept loop and
/// everything under it are built once (see [`stream`]).
impl Accept for listen::Bound {
    type Stream = Stream;
    async fn accept_one(&self) -> io::Result<(Self::Stream, Option<SocketAddr>)> {
        match self {
            listen::Bound::Tcp(listener) => {
                let (s, peer) = listener.accept().await?;
                // Node's default; small responses must not wait for Nagle.
                let _ = s.set_nodelay(true);
                Ok((Stream::Tcp(s), Some(peer)))
            }
            #[cfg(unix)]
            listen::Bound::Unix(listener) => {
                let (s, _) = listener.accept().await?;
                Ok((Stream::Unix(s), None))
            }
        }
    }
}

async fn accept_loop<L: Accept>(
    listener: L,
    app: Arc<ServedApp>,
    opts: ListenOptions,
    slots: slots::Slots,
    mut shutdown: watch::Receiver<bool>,
) {
    let graceful = graceful::Graceful::default();
    let watchdog = Watchdog::start(opts.deadlines());
    let builders = Arc::new(Builders::new(&opts));
    #[cfg(feature = "tls")]
    let tls = opts.tls.as_ref().map(TlsConfig::acceptor);
    let mut backoff = accept::Backoff::default();
    let limit = opts.max_connections.map(|max| (max, slots));
    loop {
        let accepted = tokio::select! {
            r = listener.accept_one() => r,
            _ = shutdown.changed() => break,
        };
        let (stream, peer) = match accepted {
            Ok(a) => {
                backoff.reset();
                a
            }
            Err(e) => {
                tokio::select! {
                    () = backoff.pause(&e) => continue,
                    _ = shutdown.changed() => break,
                }
            }
        };
        let slot = match &limit {
            // Node's `maxConnections`: closed at once, never queued.
            Some((max, slots)) if slots.held() >= *max => continue,
            Some((_, slots)) => Some(slots.take()),
            None => None,
        };
        let peer = peer.unwrap_or(SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0));
        let activity = Arc::new(Activity::default());
        let listed = watchdog.watch(activity.clone());
        let id = listed.id();
        let conn = Conn {
            app: app.clone(),
            peer,
            activity,
            builders: builders.clone(),
            watcher: graceful.watcher(),
            slot,
        };
        #[cfg(feature = "tls")]
        let acceptor = tls.clone();
        let task = tokio::spawn(async move {
            // Dropped when the task ends, however it ends: the watch list
            // holds nothing of a finished connection.
            let _listed = listed;
            #[cfg(feature = "tls")]
            if let Some(acceptor) = acceptor {
                return tls::serve(conn, acceptor, stream).await;
            }
            conn.serve(stream, false, false).await
        });
        watchdog.attach(id, task.abort_handle());
    }
    // Closed as the shutdown begins, not once it ends: new clients are
    // refused by the kernel (or go to another `reuse_port` server) instead
    // of waiting in the backlog of a server that will never accept them. A
    // socket given with `from_listener` stays open while its owner (say,
    // systemd, or the other workers) holds it.
    drop(listener);
    let shutdown_timeout = opts.shutdown_timeout;
    drop(opts);
    graceful.stop();
    let finished = match shutdown_timeout {
        Some(limit) => tokio::time::timeout(limit, graceful.all_done())
            .await
            .is_ok(),
        None => {
            graceful.all_done().await;
            true
        }
    };
    if !finished {
        watchdog.abort_all();
        graceful.all_done().await;
    }
    // Every connection is done: write out log lines still queued behind a
    // slow stream before `shutdown()` / `listen` return.
    #[cfg(feature = "logger")]
    crate::logger::flush_all();
}

/// hyper's connection settings, built once per listener. HTTP/1 runs without
/// hyper's timer: the header-read timeout is the [`watchdog`]'s.
struct Builders {
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
    pipeline_flush: bool,
}

impl Builders {
    fn new(opts: &ListenOptions) -> Builders {
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
struct Conn {
    app: Arc<ServedApp>,
    peer: SocketAddr,
    activity: Arc<Activity>,
    builders: Arc<Builders>,
    watcher: graceful::Watcher,
    /// Held with the stream (see [`slots`]); `None` without `max_connections`.
    slot: Option<slots::Slot>,
}

impl Conn {
    /// Serves the connection until it closes: HTTP/2 when ALPN chose it or
    /// the client starts with the HTTP/2 preface (prior knowledge; refused
    /// without the `http2` feature), else HTTP/1.1.
    async fn serve<I>(self, stream: I, secure: bool, alpn_h2: bool)
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
/// Node's bare status line ([`bare`]) and close the connection; an unmet
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
