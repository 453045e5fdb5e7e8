//! Switching an HTTP/1.1 connection to another protocol (WebSocket and the
//! like): `101 Switching Protocols`, then the raw connection.
//!
//! Express has no API for this: Node emits `'upgrade'` on the *server*, with
//! the socket, and the app's routes never see the request. Here the request
//! goes through the app like any other (middleware, sessions, routing,
//! parameters all apply), and the handler that accepts it calls
//! [`Response::upgrade`]: the 101 goes out, and the returned [`OnUpgrade`]
//! resolves to the connection's byte stream, [`Upgraded`], for the protocol's
//! own library (`tokio-tungstenite` for WebSocket) to take over.
//!
//! The server hands each upgradable request hyper's upgrade handle in its
//! extensions; nothing here knows the server.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::{Error, Request, Response};

/// The connection of an upgraded request, once the 101 has been written:
/// read and write the new protocol's bytes. Dropping it closes the
/// connection.
///
/// Upgraded connections belong to the handler that took them: the server
/// no longer counts them against
/// [`max_connections`](crate::ListenOptions::max_connections) and a graceful
/// shutdown does not wait for them, so bound how many you keep (see
/// `examples/websocket.rs`).
pub struct Upgraded(TokioIo<hyper::upgrade::Upgraded>);

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

/// The future [`Response::upgrade`] returns: the [`Upgraded`] connection once
/// the 101 is written. It resolves to an error if the connection closes
/// first. Await it in a task of its own (`tokio::spawn`): the 101 is written
/// only after the handler returns.
#[must_use = "the upgraded connection is only reachable through this future"]
pub struct OnUpgrade(hyper::upgrade::OnUpgrade);

impl std::fmt::Debug for OnUpgrade {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OnUpgrade")
    }
}

impl Future for OnUpgrade {
    type Output = io::Result<Upgraded>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let upgraded = ready!(Pin::new(&mut self.get_mut().0).poll(cx));
        Poll::Ready(
            upgraded
                .map(|io| Upgraded(TokioIo::new(io)))
                .map_err(io::Error::other),
        )
    }
}

impl Request {
    /// Whether the client asks to switch this connection to `protocol`
    /// (`Upgrade: websocket`, case-insensitive) and the connection can:
    /// HTTP/1.1, not yet upgraded. HTTP/2 requests never can.
    ///
    /// ```
    /// let req = webfw::Request::for_test(http::Method::GET, "/");
    /// assert!(!req.wants_upgrade("websocket"));
    /// ```
    pub fn wants_upgrade(&self, protocol: &str) -> bool {
        self.extensions()
            .get::<hyper::upgrade::OnUpgrade>()
            .is_some()
            && self
                .headers()
                .get_all(http::header::UPGRADE)
                .iter()
                .any(|v| {
                    v.to_str().is_ok_and(|list| {
                        list.split(',')
                            .any(|p| p.trim().eq_ignore_ascii_case(protocol))
                    })
                })
    }
}

impl Response {
    /// Accepts the client's request to switch protocols: sends `101
    /// Switching Protocols` with `Connection: Upgrade`, `Upgrade: protocol`
    /// and the headers set so far (such as `Sec-WebSocket-Accept`), and
    /// returns the future of the [`Upgraded`] connection.
    ///
    /// A request that did not ask for `protocol` (see
    /// [`Request::wants_upgrade`]) gets an error with status 426 Upgrade
    /// Required and an `Upgrade: protocol` header: returned with `?`, the
    /// client is told what to ask for.
    ///
    /// ```no_run
    /// use webfw::prelude::*;
    /// use tokio::io::{AsyncReadExt, AsyncWriteExt};
    ///
    /// let mut app = webfw::app();
    /// // A line-echo protocol of our own on top of HTTP/1.1.
    /// app.get("/echo", |req: &mut Request, res: &mut Response| {
    ///     let upgrade = res.upgrade(req, "echo")?;
    ///     tokio::spawn(async move {
    ///         let Ok(mut io) = upgrade.await else { return };
    ///         let mut buf = [0u8; 1024];
    ///         while let Ok(n @ 1..) = io.read(&mut buf).await {
    ///             if io.write_all(&buf[..n]).await.is_err() { break }
    ///         }
    ///     });
    ///     Ok(Flow::Done)
    /// });
    /// ```
    pub fn upgrade(&mut self, req: &mut Request, protocol: &str) -> crate::Result<OnUpgrade> {
        let on_upgrade = if req.wants_upgrade(protocol) {
            req.extensions_mut().remove::<hyper::upgrade::OnUpgrade>()
        } else {
            None
        };
        let Some(on_upgrade) = on_upgrade else {
            return Err(Error::from_status(426)
                .with_header("Upgrade", protocol)
                .with_header("Connection", "Upgrade"));
        };
        self.status(101)
            .set("Connection", "Upgrade")
            .set("Upgrade", protocol);
        self.end()?;
        Ok(OnUpgrade(on_upgrade))
    }
}
