//! The body of a request still on the connection, and how the server learns
//! that it has arrived whole: its request timeout runs until then, whenever
//! the app reads it (Node's `requestTimeout` covers the request up to its
//! last body byte, whatever the response does meanwhile).
//!
//! An HTTP/1 body comes from the server's own codec, through a bounded
//! [`BodyChannel`] (or whole, when it came in the same read as its head);
//! an HTTP/2 body is hyper's.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use bytes::Bytes;
use http_body::{Frame, SizeHint};

use super::channel::BodyChannel;

/// Told once when a request body has arrived whole (read or thrown away),
/// failed, or was dropped part-read (the connection then reads no more of
/// it).
pub(crate) trait BodyArrival: Send + Sync {
    fn arrived(&self);
}

/// A request body from the connection: what
/// [`RawBody::Incoming`](crate::RawBody::Incoming) holds. Read it as any
/// [`http_body::Body`] of [`Bytes`]; the server's
/// [`request_timeout`](crate::ListenOptions::request_timeout) runs until its
/// last byte has arrived, however late it is read. Dropped before its end,
/// an HTTP/1 body is read to its end and thrown away, as Node dumps it, so
/// the connection serves the next request. Its error is an
/// [`std::io::Error`]: `UnexpectedEof` when the client stopped mid-body.
///
/// ```
/// use http_body_util::BodyExt;
/// use webfw::prelude::*;
///
/// let mut app = webfw::app();
/// app.post("/len", |req: &mut Request, res: &mut Response| {
///     let webfw::RawBody::Incoming(body) = req.take_body() else {
///         return res.send("no body");
///     };
///     tokio::spawn(async move {
///         let bytes = body.collect().await.map(|b| b.to_bytes().len());
///         println!("{bytes:?} bytes");
///     });
///     res.send("reading")
/// });
/// ```
pub struct IncomingBody {
    body: Source,
    /// Whom to tell when an HTTP/2 body has arrived; `None` once told, or
    /// when nobody asked. (The HTTP/1 codec tells the connection itself.)
    arrival: Option<Arc<dyn BodyArrival>>,
}

/// Who has the body's bytes.
enum Source {
    /// hyper (HTTP/2), which reads them as they are asked for.
    Hyper(hyper::body::Incoming),
    /// The HTTP/1 codec, as it reads them; `len` is the `Content-Length`.
    Channel {
        channel: Arc<BodyChannel>,
        len: Option<u64>,
    },
    /// Read whole with the head (`None` once taken).
    Read(Option<Bytes>),
}

impl IncomingBody {
    /// hyper's `body`, the server told through `arrival` once it has
    /// arrived.
    pub(crate) fn new(
        body: hyper::body::Incoming,
        arrival: Option<Arc<dyn BodyArrival>>,
    ) -> IncomingBody {
        IncomingBody {
            body: Source::Hyper(body),
            arrival,
        }
    }

    /// A body the HTTP/1 codec is reading into `channel`; `len`: its
    /// `Content-Length`, if it has one.
    pub(crate) fn channel(channel: Arc<BodyChannel>, len: Option<u64>) -> IncomingBody {
        IncomingBody {
            body: Source::Channel { channel, len },
            arrival: None,
        }
    }

    /// A body that arrived whole with its head: `bytes`, not empty.
    pub(crate) fn read(bytes: Bytes) -> IncomingBody {
        IncomingBody {
            body: Source::Read(Some(bytes)),
            arrival: None,
        }
    }

    #[inline(never)]
    fn arrived(&mut self) {
        if let Some(arrival) = self.arrival.take() {
            arrival.arrived();
        }
    }
}

impl http_body::Body for IncomingBody {
    type Data = Bytes;
    type Error = io::Error;

    #[inline]
    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        let this = self.get_mut();
        let body = match &mut this.body {
            Source::Hyper(body) => body,
            Source::Channel { channel, .. } => {
                return channel.poll_next(cx);
            }
            Source::Read(bytes) => return Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
        };
        let frame = ready!(Pin::new(&mut *body).poll_frame(cx));
        if this.arrival.is_some() && !matches!(&frame, Some(Ok(_)) if !body.is_end_stream()) {
            this.arrived();
        }
        Poll::Ready(frame.map(|r| r.map_err(io::Error::other)))
    }

    #[inline]
    fn is_end_stream(&self) -> bool {
        match &self.body {
            Source::Hyper(body) => body.is_end_stream(),
            Source::Channel { channel, .. } => channel.is_end_stream(),
            Source::Read(bytes) => bytes.is_none(),
        }
    }

    #[inline]
    fn size_hint(&self) -> SizeHint {
        match &self.body {
            Source::Hyper(body) => body.size_hint(),
            Source::Channel { len: Some(n), .. } => SizeHint::with_exact(*n),
            Source::Channel { len: None, .. } => SizeHint::default(),
            Source::Read(bytes) => {
                SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64))
            }
        }
    }
}

impl Drop for IncomingBody {
    fn drop(&mut self) {
        match &self.body {
            Source::Channel { channel, .. } => channel.reader_dropped(),
            _ if self.arrival.is_some() => self.arrived(),
            _ => {}
        }
    }
}

impl std::fmt::Debug for IncomingBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("IncomingBody")
    }
}
