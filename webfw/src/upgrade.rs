//! Switching an HTTP/1.1 connection to another protocol (WebSocket and the
//! like): `101 Switching Protocols`, then the raw connection.
//!
//! Express has no API for this: Node emits `'upgrade'` on the *server*, with
//! the socket, and the app's routes never see the request. Here the request
//! goes through the app like any other (middleware, sessions, routing,
//! parameters all apply), and the handler that accepts it calls
//! [`Response::upgrade`](crate::Response::upgrade): the 101 goes out, and the returned [`OnUpgrade`]
//! resolves to the connection's byte stream, [`Upgraded`], for the protocol's
//! own library (`tokio-tungstenite` for WebSocket) to take over.
//!
//! The server puts a handle in the extensions of each request that asks to
//! switch protocols, which `res.upgrade` takes; nothing here knows the
//! server.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};

use bytes::Bytes;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::oneshot;

use crate::rewind::Rewind;

/// A connection's byte stream, whatever the transport (TCP, UNIX, TLS).
pub(crate) trait Io: AsyncRead + AsyncWrite + Send + Unpin {}

impl<T: AsyncRead + AsyncWrite + Send + Unpin> Io for T {}

/// What the server puts in an upgradable request's extensions: where the
/// connection arrives once a 101 has been written. A clone shares it (the
/// extensions' values must be `Clone`): the first taker gets it.
#[derive(Clone)]
pub(crate) struct Upgradable(Arc<Mutex<Option<oneshot::Receiver<Upgraded>>>>);

impl Upgradable {
    /// A request's upgrade, and the sender the server keeps for it.
    pub(crate) fn new() -> (Upgradable, oneshot::Sender<Upgraded>) {
        let (tx, rx) = oneshot::channel();
        (Upgradable(Arc::new(Mutex::new(Some(rx)))), tx)
    }

    /// The future of the connection, once: `None` after the first call.
    pub(crate) fn take(&self) -> Option<OnUpgrade> {
        let mut slot = self.0.lock().unwrap_or_else(|p| p.into_inner());
        slot.take().map(OnUpgrade)
    }
}

/// The connection of an upgraded request, once the 101 has been written:
/// read and write the new protocol's bytes. Dropping it closes the
/// connection.
///
/// Upgraded connections belong to the handler that took them. They still
/// count against [`max_connections`](crate::ListenOptions::max_connections)
/// until they close, as in Node, but a graceful shutdown does not wait for
/// them: close them yourself (see `examples/websocket.rs`).
pub struct Upgraded(Rewind<Box<dyn Io>>);

impl Upgraded {
    /// The connection `io`, whose next bytes are `read_ahead` (what the
    /// server read past the upgrade request), then the socket's.
    pub(crate) fn new(io: Box<dyn Io>, read_ahead: Bytes) -> Upgraded {
        Upgraded(Rewind::new(read_ahead, io))
    }
}

impl std::fmt::Debug for Upgraded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Upgraded")
    }
}

impl AsyncRead for Upgraded {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().0).poll_read(cx, buf)
    }
}

impl AsyncWrite for Upgraded {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().0).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().0).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().0).poll_shutdown(cx)
    }
}

/// The future [`Response::upgrade`](crate::Response::upgrade) returns: the [`Upgraded`] connection once
/// the 101 is written. It resolves to an error if the connection closes
/// first. Await it in a task of its own (`tokio::spawn`): the 101 is written
/// only after the handler returns.
#[must_use = "the upgraded connection is only reachable through this future"]
pub struct OnUpgrade(oneshot::Receiver<Upgraded>);

impl std::fmt::Debug for OnUpgrade {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OnUpgrade")
    }
}

impl Future for OnUpgrade {
    type Output = io::Result<Upgraded>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let upgraded = ready!(Pin::new(&mut self.get_mut().0).poll(cx));
        Poll::Ready(upgraded.map_err(|_| {
            io::Error::new(
                io::ErrorKind::ConnectionAborted,
                "the connection closed before the upgrade",
            )
        }))
    }
}
