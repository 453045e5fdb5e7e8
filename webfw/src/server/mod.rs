//! hyper/tokio glue: listening on TCP (optionally TLS, feature `tls`) or a
//! UNIX socket, HTTP/1.1 keep-alive and HTTP/2 (feature `http2`), graceful
//! shutdown.

mod accept;
mod conn;
pub(crate) mod dispatch;
mod graceful;
mod http1;
#[cfg(feature = "http2")]
mod http2;
#[cfg(feature = "http2")]
mod http2_deadline;
mod listen;
#[cfg(not(feature = "http2"))]
mod no_http2;
mod pair;
mod requests;
mod shutdown_handle;
mod signals;
mod slots;
mod stream;
mod task;
#[cfg(feature = "tls")]
mod tls;
mod watchdog;
mod workers;

use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use tokio::sync::watch;

use crate::app::App;

pub use listen::ListenOptions;
pub use requests::MAX_HEAD_SIZE;
pub use shutdown_handle::ShutdownHandle;
#[cfg(feature = "tls")]
pub use tls::TlsConfig;

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
