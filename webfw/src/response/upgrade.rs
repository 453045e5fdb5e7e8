//! `res.upgrade`: `101 Switching Protocols` and the connection it hands
//! over (see [`crate::upgrade`]).

use crate::error::Error;
use crate::request::Request;
use crate::response::Response;
use crate::upgrade::OnUpgrade;

impl Response {
    /// Accepts the client's request to switch protocols: sends `101
    /// Switching Protocols` with `Connection: Upgrade`, `Upgrade: protocol`
    /// and the headers set so far (such as `Sec-WebSocket-Accept`), and
    /// returns the future of the [`Upgraded`](crate::upgrade::Upgraded) connection.
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
            req.extensions_mut()
                .remove::<crate::upgrade::Upgradable>()
                .and_then(|upgradable| upgradable.take())
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
        Ok(on_upgrade)
    }
}
