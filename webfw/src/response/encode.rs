//! The body encoder an `on_headers` hook may install (the compression
//! middleware's), and `res.flush()`: the one place a response's body is
//! transformed on its way to the connection.
//!
//! The encoder lives with the hooks (boxed, absent on most responses), so a
//! response without one pays nothing: a complete body passes through it in
//! `commit`, inside the branch that runs the hooks; a streamed one in
//! `write` and `end`, which already differ from `send`.

use bytes::{Bytes, BytesMut};

use super::Response;
use super::outbox::{HeadBody, Pushed};

/// Transforms a body as it is written (gzip, deflate, br). The methods
/// append what comes out to `out`; an encoder that fails stops producing
/// output rather than panicking (the client then sees a truncated
/// encoding, as it would from a compressor that died).
pub(crate) trait BodyEncoder: Send {
    /// Encodes `chunk`; the encoder may keep some of it back.
    fn write(&mut self, chunk: &[u8], out: &mut BytesMut);
    /// Gives out everything written so far, decodable on its own.
    fn flush(&mut self, out: &mut BytesMut);
    /// Ends the encoding; nothing may be written after.
    fn finish(&mut self, out: &mut BytesMut);
    /// A whole body: [`BodyEncoder::write`] then [`BodyEncoder::finish`].
    fn encode_all(&mut self, body: &[u8]) -> Bytes {
        let mut out = BytesMut::new();
        self.write(body, &mut out);
        self.finish(&mut out);
        out.freeze()
    }
}

impl Response {
    /// Encodes the body from the moment the head is committed: called by
    /// an `on_headers` hook, which has set `Content-Encoding` itself.
    #[cfg(feature = "compression")]
    pub(crate) fn set_encoder(&mut self, encoder: Box<dyn BodyEncoder>) {
        self.more_hooks().encoder = Some(encoder);
    }

    /// The length of the complete body being committed, for the
    /// `on_headers` hooks: `Some(0)` for an empty one, `None` for a
    /// streamed one (what Node's compression measures of `res.end(chunk)`).
    #[cfg(feature = "compression")]
    pub(crate) fn committing_length(&self) -> Option<usize> {
        self.more_hooks.as_ref().and_then(|m| m.committing_length)
    }

    /// A complete body through the encoder the hooks installed, if any; a
    /// streamed one keeps the encoder for `write` and `end`.
    pub(super) fn encode_head_body(&mut self, body: HeadBody) -> HeadBody {
        let Some(more) = self.more_hooks.as_mut() else {
            return body;
        };
        if matches!(body, HeadBody::Stream) {
            return body;
        }
        let Some(mut encoder) = more.encoder.take() else {
            return body;
        };
        // Node writes nothing of these bodies, the encoded empty one included.
        if matches!(self.status, 204 | 304) {
            return HeadBody::Empty;
        }
        let encoded = match &body {
            HeadBody::Full(b) => encoder.encode_all(b),
            _ => encoder.encode_all(&[]),
        };
        if encoded.is_empty() {
            HeadBody::Empty
        } else {
            HeadBody::Full(encoded)
        }
    }

    /// A chunk of a streamed body, encoded first when an encoder is set;
    /// `end` also ends the encoding.
    pub(super) fn push_body(&mut self, chunk: Bytes, end: bool) -> Pushed {
        let encoder = self.more_hooks.as_mut().and_then(|m| m.encoder.as_mut());
        let Some(encoder) = encoder else {
            return self.outbox.push_chunk(chunk, end);
        };
        let mut out = BytesMut::new();
        if !chunk.is_empty() {
            encoder.write(&chunk, &mut out);
        }
        if end {
            encoder.finish(&mut out);
            if let Some(more) = self.more_hooks.as_mut() {
                more.encoder = None;
            }
        }
        self.outbox.push_chunk(out.freeze(), end)
    }

    /// `res.flush()`, which the `compression` middleware adds: sends what
    /// the compressor holds back, so the client can decode everything
    /// written so far (a server-sent event, a progress line). Without
    /// compression there is nothing to flush: written chunks go out as they
    /// are. Fails as [`Response::write`] does once the client has gone.
    ///
    /// ```
    /// # #[cfg(feature = "compression")] {
    /// use webfw::prelude::*;
    /// async fn events(_req: &mut Request, res: &mut Response) -> Result {
    ///     res.type_("text/event-stream");
    ///     for n in 0..3 {
    ///         res.write(format!("data: {n}\n\n"))?;
    ///         res.flush()?;
    ///         res.drain().await?;
    ///     }
    ///     res.end()
    /// }
    /// let mut app = webfw::app();
    /// app.get("/events", (webfw::compression(()), events));
    /// # }
    /// ```
    pub fn flush(&mut self) -> crate::outcome::Result<()> {
        if self.finished {
            return Ok(());
        }
        let encoder = self.more_hooks.as_mut().and_then(|m| m.encoder.as_mut());
        let Some(encoder) = encoder else {
            return Ok(());
        };
        let mut out = BytesMut::new();
        encoder.flush(&mut out);
        super::backpressure::pushed(self.outbox.push_chunk(out.freeze(), false))
    }
}
