//! A streamed response's flow control: `res.drain()`, `res.needs_drain()`,
//! `res.closed()` (Node's `'drain'`, `writableNeedDrain`, `'close'`).

use super::outbox::Pushed;
use crate::error::Error;

use super::Response;

/// `res.write`'s outcome for a chunk the connection refused.
pub(super) fn pushed(p: Pushed) -> crate::outcome::Result<()> {
    match p {
        Pushed::Queued => Ok(()),
        Pushed::Closed => Err(Error::plain(
            "Cannot call write after the client closed the connection",
        )),
        Pushed::Full => Err(Error::plain(
            "res.write: 16 MiB wait for a client that is not reading; \
             await res.drain() between writes",
        )),
        #[cfg(feature = "http2")]
        Pushed::SessionFull(full) => {
            use super::session_memory::Full;
            let (whose, limit, option) = match full {
                Full::Session(n) => ("the HTTP/2 connection holds", n, "session"),
                Full::Listener(n) => ("the server's HTTP/2 connections hold", n, "total"),
            };
            Err(Error::plain(format!(
                "res.write: {whose} {} of responses for clients that are not \
                 reading (ListenOptions::http2_max_{option}_memory); \
                 await res.drain() between writes",
                human(limit)
            )))
        }
    }
}

/// A byte count as a person writes it: `10 MiB`, `512 KiB`, `100 bytes`.
#[cfg(feature = "http2")]
fn human(bytes: usize) -> String {
    const KIB: usize = 1024;
    if bytes >= KIB * KIB && bytes.is_multiple_of(KIB * KIB) {
        format!("{} MiB", bytes / (KIB * KIB))
    } else if bytes >= KIB && bytes.is_multiple_of(KIB) {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

impl Response {
    /// Whether the connection has let go of this streamed response: the
    /// client went away, or the response was written to its end (Node's
    /// `'close'` event, `res.closed`). A handler that streams stops when it
    /// turns true; `write` fails from then on.
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.write("tick\n").unwrap();
    /// assert!(!res.closed());
    /// ```
    pub fn closed(&self) -> bool {
        self.headers_sent && self.outbox.mailbox().is_closed()
    }

    /// Whether enough written bytes wait for the client that the handler
    /// should await [`Response::drain`] before writing more (Node's
    /// `res.writableNeedDrain`, or `write()` returning `false`).
    ///
    /// ```
    /// let req = webfw::testing::request(http::Method::GET, "/");
    /// let mut res = webfw::testing::response(&req);
    /// res.write("small").unwrap();
    /// assert!(!res.needs_drain());
    /// ```
    pub fn needs_drain(&self) -> bool {
        self.headers_sent && self.outbox.mailbox().needs_drain()
    }

    /// Waits until the client has taken most of what was written (Node's
    /// `'drain'`): a handler that streams awaits it between writes, so a
    /// slow client slows the handler instead of filling memory. Fails once
    /// the client has gone.
    ///
    /// ```
    /// use webfw::prelude::*;
    /// async fn ticks(_req: &mut Request, res: &mut Response) -> Result {
    ///     res.type_("text/event-stream");
    ///     for n in 0.. {
    ///         res.write(format!("data: {n}\n\n"))?;
    ///         res.drain().await?;
    ///         tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    ///     }
    ///     res.end()
    /// }
    /// ```
    pub async fn drain(&mut self) -> crate::outcome::Result<()> {
        if !self.headers_sent {
            return Ok(());
        }
        let mailbox = self.outbox.mailbox();
        if std::future::poll_fn(|cx| mailbox.poll_drain(cx)).await {
            Ok(())
        } else {
            pushed(Pushed::Closed).map(|_| ())
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn writes_ask_for_a_drain_past_the_high_water_mark_and_fail_past_the_bound() {
        let req = crate::testing::request(http::Method::GET, "/");
        let mut res = crate::testing::response(&req);
        res.write(vec![0u8; 1000]).unwrap();
        assert!(!res.needs_drain());
        res.write(vec![0u8; crate::response::outbox::HIGH_WATER])
            .unwrap();
        assert!(res.needs_drain());
        let chunk = bytes::Bytes::from(vec![0u8; 1 << 20]);
        let mut taken = 0;
        let err = loop {
            match res.write(chunk.clone()) {
                Ok(()) => taken += 1,
                Err(e) => break e,
            }
        };
        assert_eq!(taken, 16, "up to 16 MiB wait, not more");
        assert!(err.message().contains("await res.drain()"), "{err:?}");
        assert!(!res.closed());
    }
}
