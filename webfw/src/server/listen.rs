//! [`ListenOptions`]: where and how to listen, and opening that socket.

use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpSocket};

#[cfg(feature = "tls")]
use super::tls::TlsConfig;
use super::watchdog::Deadlines;

/// Where and how to listen (`app.listen(port, host, backlog)` and more).
///
/// ```
/// let opts = webfw::ListenOptions::port(0).host("127.0.0.1").single_threaded(true);
/// ```
#[derive(Clone, Debug)]
pub struct ListenOptions {
    pub(super) host: IpAddr,
    pub(super) port: u16,
    pub(super) backlog: u32,
    pub(super) unix: Option<PathBuf>,
    #[cfg(feature = "tls")]
    pub(super) tls: Option<TlsConfig>,
    pub(super) single_threaded: bool,
    pub(super) header_read_timeout: Duration,
    pub(super) keep_alive_timeout: Duration,
    pub(super) request_timeout: Duration,
    pub(super) shutdown_timeout: Option<Duration>,
    pub(super) max_connections: Option<usize>,
    pub(super) pipeline_flush: bool,
    #[cfg(feature = "http2")]
    pub(super) http2_max_concurrent_streams: u32,
    #[cfg(feature = "http2")]
    pub(super) http2_max_session_memory: usize,
    #[cfg(feature = "http2")]
    pub(super) http2_max_total_memory: Option<usize>,
    /// A socket bound by someone else ([`ListenOptions::from_listener`]).
    pub(super) given: Option<Given>,
    pub(super) reuse_port: bool,
    pub(super) workers: Option<usize>,
}

impl ListenOptions {
    /// Listen on `port` (0 lets the OS choose) on all IPv4 interfaces.
    ///
    /// ```
    /// let opts = webfw::ListenOptions::port(3000);
    /// ```
    pub fn port(port: u16) -> Self {
        ListenOptions {
            host: IpAddr::V4(Ipv4Addr::UNSPECIFIED),
            port,
            backlog: 511,
            unix: None,
            #[cfg(feature = "tls")]
            tls: None,
            single_threaded: false,
            header_read_timeout: Duration::from_secs(60),
            keep_alive_timeout: Duration::from_secs(5),
            request_timeout: Duration::from_secs(300),
            shutdown_timeout: Some(Duration::from_secs(30)),
            max_connections: None,
            pipeline_flush: true,
            #[cfg(feature = "http2")]
            http2_max_concurrent_streams: 100,
            #[cfg(feature = "http2")]
            http2_max_session_memory: 10 * 1024 * 1024,
            #[cfg(feature = "http2")]
            http2_max_total_memory: Some(256 * 1024 * 1024),
            given: None,
            reuse_port: false,
            workers: None,
        }
    }

    /// Listen on a UNIX socket path instead of TCP.
    ///
    /// ```
    /// let opts = webfw::ListenOptions::unix("/tmp/app.sock");
    /// ```
    pub fn unix(path: impl Into<PathBuf>) -> Self {
        let mut o = ListenOptions::port(0);
        o.unix = Some(path.into());
        o
    }

    /// Serve on a socket that is already bound and listening: one inherited
    /// through systemd socket activation or `listenfd`, or bound by the
    /// program itself with options webfw does not set. `host`, `port`,
    /// `backlog` and `reuse_port` do not apply to it.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> std::io::Result<()> {
    /// let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    /// let addr = listener.local_addr()?;
    /// let server = webfw::app().bind(webfw::ListenOptions::from_listener(listener)).await?;
    /// assert_eq!(server.local_addr(), Some(addr));
    /// # server.shutdown().await; Ok(()) }
    /// ```
    pub fn from_listener(listener: std::net::TcpListener) -> Self {
        let mut o = ListenOptions::port(0);
        o.given = Some(Given::Tcp(Arc::new(listener)));
        o
    }

    /// Serve on a UNIX socket that is already bound and listening (see
    /// [`ListenOptions::from_listener`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> std::io::Result<()> {
    /// let path = std::env::temp_dir().join(format!("webfw-doc-{}.sock", std::process::id()));
    /// # let _ = std::fs::remove_file(&path);
    /// let listener = std::os::unix::net::UnixListener::bind(&path)?;
    /// let server = webfw::app().bind(webfw::ListenOptions::from_unix_listener(listener)).await?;
    /// server.shutdown().await;
    /// # std::fs::remove_file(&path)?;
    /// # Ok(()) }
    /// ```
    #[cfg(unix)]
    pub fn from_unix_listener(listener: std::os::unix::net::UnixListener) -> Self {
        let mut o = ListenOptions::port(0);
        o.given = Some(Given::Unix(Arc::new(listener)));
        o
    }

    /// The address to bind (`"127.0.0.1"`, `"::1"`…). An unparsable host
    /// keeps the default.
    ///
    /// ```
    /// let opts = webfw::ListenOptions::port(0).host("127.0.0.1");
    /// ```
    pub fn host(mut self, host: &str) -> Self {
        if let Ok(ip) = host.parse() {
            self.host = ip;
        } else if host == "localhost" {
            self.host = IpAddr::V4(Ipv4Addr::LOCALHOST);
        }
        self
    }

    /// The listen backlog (default 511, as Node).
    ///
    /// ```
    /// let opts = webfw::ListenOptions::port(0).backlog(128);
    /// ```
    pub fn backlog(mut self, backlog: u32) -> Self {
        self.backlog = backlog;
        self
    }

    /// Serve HTTPS with this certificate (`req.secure` is then true).
    /// Needs the `tls` feature (on by default).
    ///
    /// ```no_run
    /// let tls = webfw::TlsConfig::from_pem_files("cert.pem", "key.pem").unwrap();
    /// let opts = webfw::ListenOptions::port(443).tls(tls);
    /// ```
    #[cfg(feature = "tls")]
    pub fn tls(mut self, tls: TlsConfig) -> Self {
        self.tls = Some(tls);
        self
    }

    /// Serve on one thread: the calling thread in
    /// [`App::listen_with`](crate::App::listen_with), the calling runtime in
    /// [`App::bind`](crate::App::bind), whatever [`workers`](Self::workers) says.
    ///
    /// ```
    /// let opts = webfw::ListenOptions::port(0).single_threaded(true);
    /// ```
    pub fn single_threaded(mut self, yes: bool) -> Self {
        self.single_threaded = yes;
        self
    }

    /// Let several processes (or several servers of one process) listen on
    /// the same address and port (`SO_REUSEPORT`); the kernel spreads new
    /// connections over them. Every one of them must set it. Default off:
    /// binding a port in use is then an `AddrInUse` error.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> std::io::Result<()> {
    /// let opts = webfw::ListenOptions::port(0).host("127.0.0.1").reuse_port(true);
    /// let first = webfw::app().bind(opts).await?;
    /// let port = first.local_addr().unwrap().port();
    /// let same = webfw::ListenOptions::port(port).host("127.0.0.1").reuse_port(true);
    /// let second = webfw::app().bind(same).await?;
    /// # second.shutdown().await; first.shutdown().await; Ok(()) }
    /// ```
    pub fn reuse_port(mut self, yes: bool) -> Self {
        self.reuse_port = yes;
        self
    }

    /// How many threads serve, each a tokio `current_thread` runtime of its
    /// own taking connections from the same socket: Node's `cluster` in one
    /// process, as actix-web's workers. A connection stays on the thread
    /// that accepted it, with the tasks its handlers spawn.
    ///
    /// [`App::listen_with`](crate::App::listen_with) defaults to one per CPU
    /// core; [`App::bind`](crate::App::bind) to one, the runtime it is called
    /// in, and with `workers(n)` starts n − 1 threads of its own besides.
    /// Ignored when [`single_threaded`](Self::single_threaded) is set; zero
    /// counts as one. Without the `multi-thread` feature (on by default)
    /// there is one thread whatever this says.
    ///
    /// Handlers therefore run on a `current_thread` runtime: block with
    /// `tokio::task::spawn_blocking`, not `block_in_place`, which needs
    /// tokio's work-stealing runtime (run [`App::bind`](crate::App::bind) in
    /// one of your own for it).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> std::io::Result<()> {
    /// let opts = webfw::ListenOptions::port(0).host("127.0.0.1").workers(4);
    /// let server = webfw::app().bind(opts).await?; // this runtime and 3 threads
    /// # server.shutdown().await; Ok(()) }
    /// ```
    pub fn workers(mut self, threads: usize) -> Self {
        self.workers = Some(threads.max(1));
        self
    }

    /// How long a client may take to send a request head (default 60 s, as Node).
    ///
    /// ```
    /// let opts = webfw::ListenOptions::port(0).header_read_timeout(std::time::Duration::from_secs(10));
    /// ```
    pub fn header_read_timeout(mut self, t: Duration) -> Self {
        self.header_read_timeout = t;
        self
    }

    /// How long an idle keep-alive connection stays open after its last
    /// response (Node's `server.keepAliveTimeout`, default 5 s); it is then
    /// closed without a word. Zero keeps idle connections open.
    ///
    /// ```
    /// let opts = webfw::ListenOptions::port(0).keep_alive_timeout(std::time::Duration::from_secs(65));
    /// ```
    pub fn keep_alive_timeout(mut self, t: Duration) -> Self {
        self.keep_alive_timeout = t;
        self
    }

    /// How long a request with a body may go unanswered (Node's
    /// `server.requestTimeout`, default 300 s): a client that sends less body
    /// than it announced, or drips it, gets `408 Request Timeout` and the
    /// connection is closed. A response already under way is cut off
    /// instead. On HTTP/2 the deadline is each stream's: a stream whose
    /// response head is not ready in time gets 408 and its handler is
    /// dropped; the connection and its other streams go on. Zero disables
    /// it.
    ///
    /// ```
    /// let opts = webfw::ListenOptions::port(0).request_timeout(std::time::Duration::from_secs(30));
    /// ```
    pub fn request_timeout(mut self, t: Duration) -> Self {
        self.request_timeout = t;
        self
    }

    /// How long a graceful shutdown waits for in-flight requests (default
    /// 30 s); connections still open then are closed. `None` waits for
    /// ever. Under [`App::listen`](crate::App::listen), a second SIGINT or SIGTERM exits at once.
    ///
    /// ```
    /// let opts = webfw::ListenOptions::port(0).shutdown_timeout(Some(std::time::Duration::from_secs(10)));
    /// ```
    pub fn shutdown_timeout(mut self, t: Option<Duration>) -> Self {
        self.shutdown_timeout = t;
        self
    }

    /// The most connections served at once (Node's `server.maxConnections`;
    /// default: no limit). Connections beyond it are closed as soon as they
    /// are accepted, not queued. Connections a handler upgraded
    /// ([`Response::upgrade`](crate::Response::upgrade), WebSockets) count
    /// until they close.
    ///
    /// ```
    /// let opts = webfw::ListenOptions::port(0).max_connections(Some(10_000));
    /// ```
    pub fn max_connections(mut self, max: Option<usize>) -> Self {
        self.max_connections = max;
        self
    }

    /// Whether the responses to a batch of pipelined HTTP/1.1 requests (a
    /// client that writes several requests before reading) leave in one
    /// write instead of one write each (default: on). A lone request is
    /// written at once either way and the bytes do not change; a response
    /// is held only while the connection has more requests of the batch at
    /// hand to answer, and at most 16 KiB is held. Off, every response is
    /// written as soon as it is complete, as Node does (docs/PERFORMANCE.md
    /// has the figures either way).
    ///
    /// ```
    /// let opts = webfw::ListenOptions::port(0).pipeline_flush(false);
    /// ```
    pub fn pipeline_flush(mut self, yes: bool) -> Self {
        self.pipeline_flush = yes;
        self
    }

    /// The most concurrent streams one HTTP/2 connection may open (default
    /// 100); further streams are refused. Needs the `http2` feature (on by
    /// default).
    ///
    /// ```
    /// let opts = webfw::ListenOptions::port(0).http2_max_concurrent_streams(50);
    /// ```
    #[cfg(feature = "http2")]
    pub fn http2_max_concurrent_streams(mut self, n: u32) -> Self {
        self.http2_max_concurrent_streams = n.max(1);
        self
    }

    /// The response bytes one HTTP/2 connection may hold for a client that
    /// does not read them (Node's `maxSessionMemory`, default 10 MiB), shared
    /// out among its [concurrent streams](Self::http2_max_concurrent_streams).
    /// Complete bodies of 16 KiB or more and streamed chunks count from the
    /// moment the handler commits them until they are written: once the
    /// connection holds this much, new streams get 503 until the client
    /// reads, and `res.write` fails for a handler that does not await
    /// [`drain`](crate::Response::drain). A connection that stops answering pings is
    /// closed. Needs the `http2` feature (on by default).
    ///
    /// ```
    /// let opts = webfw::ListenOptions::port(0).http2_max_session_memory(4 * 1024 * 1024);
    /// ```
    #[cfg(feature = "http2")]
    pub fn http2_max_session_memory(mut self, bytes: usize) -> Self {
        self.http2_max_session_memory = bytes;
        self
    }

    /// The response bytes all of this listener's HTTP/2 connections may hold
    /// together for clients that do not read them (default 256 MiB; `None`:
    /// no limit but each connection's
    /// [session memory](Self::http2_max_session_memory)). Once they hold
    /// this much, new streams on every connection get 503 (and `res.write`
    /// fails for handlers that do not await `drain`) until clients read, so
    /// many connections that stop reading cannot add up to more. Needs the `http2` feature (on by default).
    ///
    /// ```
    /// let opts = webfw::ListenOptions::port(0).http2_max_total_memory(Some(64 * 1024 * 1024));
    /// ```
    #[cfg(feature = "http2")]
    pub fn http2_max_total_memory(mut self, bytes: Option<usize>) -> Self {
        self.http2_max_total_memory = bytes;
        self
    }

    pub(super) fn deadlines(&self) -> Deadlines {
        Deadlines {
            header: self.header_read_timeout,
            keep_alive: self.keep_alive_timeout,
            request: (!self.request_timeout.is_zero()).then_some(self.request_timeout),
        }
    }
}

impl From<u16> for ListenOptions {
    fn from(port: u16) -> Self {
        ListenOptions::port(port)
    }
}

impl ListenOptions {
    /// A tokio `current_thread` runtime, the one
    /// [`App::listen_with`](crate::App::listen_with) serves its first worker
    /// on, for programs that must run async code before they serve (see
    /// [`Server::wait_with_signals`](crate::Server::wait_with_signals)):
    /// [`App::bind`](crate::App::bind) in it starts the other
    /// [`workers`](Self::workers) on threads of their own.
    ///
    /// ```
    /// let opts = webfw::ListenOptions::port(0).host("127.0.0.1").workers(2);
    /// opts.runtime()?.block_on(async {
    ///     let server = webfw::app().bind(opts).await?;
    ///     server.shutdown().await;
    ///     Ok::<(), std::io::Error>(())
    /// })?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn runtime(&self) -> io::Result<tokio::runtime::Runtime> {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    }

    /// Whether [`workers`](Self::workers) applies at all.
    fn may_have_workers(&self) -> bool {
        cfg!(feature = "multi-thread") && !self.single_threaded
    }

    /// How many threads besides the calling one serve (see [`workers`](Self::workers)).
    pub(super) fn extra_workers(&self) -> usize {
        match self.workers {
            Some(n) if self.may_have_workers() => n - 1,
            _ => 0,
        }
    }

    /// [`App::listen_with`](crate::App::listen_with)'s default: a worker per core.
    pub(super) fn default_workers(&mut self) {
        // Counting the cores reads the cgroup's quota: only when it counts.
        if self.may_have_workers() && self.workers.is_none() {
            self.workers = Some(std::thread::available_parallelism().map_or(1, |n| n.get()));
        }
    }
}

/// A socket handed to [`ListenOptions::from_listener`]. Shared, so the options
/// stay `Clone`; each bind serves on a duplicate of its descriptor.
#[derive(Clone, Debug)]
pub(super) enum Given {
    Tcp(Arc<std::net::TcpListener>),
    #[cfg(unix)]
    Unix(Arc<std::os::unix::net::UnixListener>),
}

/// The listening socket [`ListenOptions::open`] made.
pub(super) enum Bound {
    Tcp(TcpListener),
    #[cfg(unix)]
    Unix(tokio::net::UnixListener),
}

impl Bound {
    /// The socket as one every worker can serve a duplicate of (through
    /// [`ListenOptions::open`]), each registered with its own runtime.
    pub(super) fn into_given(self) -> io::Result<Given> {
        Ok(match self {
            Bound::Tcp(listener) => Given::Tcp(Arc::new(listener.into_std()?)),
            #[cfg(unix)]
            Bound::Unix(listener) => Given::Unix(Arc::new(listener.into_std()?)),
        })
    }
}

impl ListenOptions {
    /// Binds (or takes over) the socket to serve on.
    pub(super) fn open(&self) -> io::Result<Bound> {
        match &self.given {
            Some(Given::Tcp(listener)) => {
                let listener = listener.try_clone()?;
                // tokio needs it non-blocking; a socket from systemd is not.
                listener.set_nonblocking(true)?;
                return Ok(Bound::Tcp(TcpListener::from_std(listener)?));
            }
            #[cfg(unix)]
            Some(Given::Unix(listener)) => {
                let listener = listener.try_clone()?;
                listener.set_nonblocking(true)?;
                return Ok(Bound::Unix(tokio::net::UnixListener::from_std(listener)?));
            }
            None => {}
        }
        #[cfg(unix)]
        if let Some(path) = &self.unix {
            let _ = std::fs::remove_file(path);
            return Ok(Bound::Unix(tokio::net::UnixListener::bind(path)?));
        }
        let addr = SocketAddr::new(self.host, self.port);
        let socket = if addr.is_ipv4() {
            TcpSocket::new_v4()?
        } else {
            TcpSocket::new_v6()?
        };
        socket.set_reuseaddr(true)?;
        if self.reuse_port {
            set_reuseport(&socket)?;
        }
        socket
            .bind(addr)
            .map_err(|e| bind_error(e, addr, self.reuse_port))?;
        Ok(Bound::Tcp(socket.listen(self.backlog)?))
    }
}

#[cfg(all(
    unix,
    not(target_os = "solaris"),
    not(target_os = "illumos"),
    not(target_os = "cygwin")
))]
fn set_reuseport(socket: &TcpSocket) -> io::Result<()> {
    socket.set_reuseport(true)
}

#[cfg(not(all(
    unix,
    not(target_os = "solaris"),
    not(target_os = "illumos"),
    not(target_os = "cygwin")
)))]
fn set_reuseport(_: &TcpSocket) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "ListenOptions::reuse_port(true): SO_REUSEPORT is not available on this system; \
         bind one socket and hand it to each worker with ListenOptions::from_listener",
    ))
}

/// Node's `EADDRINUSE` message, plus what to write to share the port.
fn bind_error(e: io::Error, addr: SocketAddr, reuse_port: bool) -> io::Error {
    if e.kind() != io::ErrorKind::AddrInUse {
        return e;
    }
    let hint = if reuse_port {
        "the process listening there did not set reuse_port(true) too, or runs as another user"
            .to_owned()
    } else {
        format!(
            "to share the port between processes, bind each with \
             ListenOptions::port({}).reuse_port(true)",
            addr.port()
        )
    };
    io::Error::new(
        io::ErrorKind::AddrInUse,
        format!("listen EADDRINUSE: address already in use {addr} ({hint})"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runtime_is_one_thread_and_workers_count_the_rest() {
        let rt = ListenOptions::port(0).workers(3).runtime().unwrap();
        assert_eq!(rt.metrics().num_workers(), 1);
        let extra = |n| if cfg!(feature = "multi-thread") { n } else { 0 };
        assert_eq!(ListenOptions::port(0).extra_workers(), 0);
        assert_eq!(ListenOptions::port(0).workers(3).extra_workers(), extra(2));
        assert_eq!(ListenOptions::port(0).workers(0).extra_workers(), 0);
        let one = ListenOptions::port(0).workers(3).single_threaded(true);
        assert_eq!(one.extra_workers(), 0);
        let mut cores = ListenOptions::port(0);
        cores.default_workers();
        let n = std::thread::available_parallelism().unwrap().get();
        assert_eq!(cores.extra_workers(), extra(n - 1));
        let mut chosen = ListenOptions::port(0).workers(2);
        chosen.default_workers();
        assert_eq!(chosen.extra_workers(), extra(1));
    }
}
