//! The body of a request still on the connection (or read whole with its
//! head by the connection's own HTTP/1 loop), and how the server learns
//! that it has arrived whole: its request timeout runs until then, whenever
//! the app reads it (Node's `requestTimeout` covers the request up to its
//! last body byte, whatever the response does meanwhile).
//!
//! An HTTP/1 body the app never reads is read and thrown away once it is
//! dropped, as Node dumps it, so that the connection stays open for the
//! next request: hyper alone would close it unless the whole body was in
//! its buffer.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use bytes::Bytes;
use http_body::{Body as _, Frame, SizeHint};

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
/// last byte has arrived (or it is dropped), however late it is read. A
/// small body that came in the same read as its head is already whole.
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
    /// Whom to tell when the body has arrived; `None` once told, or when
    /// nobody asked (a body that came with its head).
    arrival: Option<Arc<dyn BodyArrival>>,
    /// Whether the body is read to its end if dropped: set for an HTTP/1
    /// body nobody has polled yet (Node dumps a request nobody consumed).
    dump_unread: bool,
}

/// Who has the body's bytes.
enum Source {
    /// hyper, which reads them as they are asked for.
    Hyper(hyper::body::Incoming),
    /// The connection's own HTTP/1 loop, which read all of them with the
    /// head (`None` once taken).
    Read(Option<Bytes>),
}

impl IncomingBody {
    /// hyper's `body`, the server told through `arrival` once it has
    /// arrived; `dump_unread`: read it to its end if it is dropped before
    /// anyone polled it.
    pub(crate) fn new(
        body: hyper::body::Incoming,
        arrival: Option<Arc<dyn BodyArrival>>,
        dump_unread: bool,
    ) -> IncomingBody {
        IncomingBody {
            body: Source::Hyper(body),
            arrival,
            dump_unread,
        }
    }

    /// A body that arrived whole with its head: `bytes`, not empty.
    pub(crate) fn read(bytes: Bytes) -> IncomingBody {
        IncomingBody {
            body: Source::Read(Some(bytes)),
            arrival: None,
            dump_unread: false,
        }
    }

    /// Reads the rest of an unread body in a task of its own and throws it
    /// away; its arrival is told at the end. The connection's request
    /// timeout bounds how long that may take, as it bounds a read.
    #[cold]
    fn dump(&mut self) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            self.arrived();
            return;
        };
        let Source::Hyper(mut body) = std::mem::replace(&mut self.body, Source::Read(None)) else {
            return;
        };
        let arrival = self.arrival.take();
        runtime.spawn(async move {
            let end = std::future::poll_fn(|cx| {
                loop {
                    match ready!(Pin::new(&mut body).poll_frame(cx)) {
                        Some(Ok(_)) => {}
                        Some(Err(_)) | None => return Poll::Ready(()),
                    }
                }
            });
            end.await;
            if let Some(arrival) = arrival {
                arrival.arrived();
            }
        });
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
    type Error = hyper::Error;

    #[inline]
    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let this = self.get_mut();
        this.dump_unread = false;
        let body = match &mut this.body {
            Source::Hyper(body) => body,
            Source::Read(bytes) => return Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
        };
        let frame = ready!(Pin::new(&mut *body).poll_frame(cx));
        if this.arrival.is_some() && !matches!(&frame, Some(Ok(_)) if !body.is_end_stream()) {
            this.arrived();
        }
        Poll::Ready(frame)
    }

    #[inline]
    fn is_end_stream(&self) -> bool {
        match &self.body {
            Source::Hyper(body) => body.is_end_stream(),
            Source::Read(bytes) => bytes.is_none(),
        }
    }

    #[inline]
    fn size_hint(&self) -> SizeHint {
        match &self.body {
            Source::Hyper(body) => body.size_hint(),
            Source::Read(bytes) => {
                SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64))
            }
        }
    }
}

impl Drop for IncomingBody {
    fn drop(&mut self) {
        if self.dump_unread && !self.is_end_stream() {
            self.dump();
        } else if self.arrival.is_some() {
            self.arrived();
        }
    }
}

impl std::fmt::Debug for IncomingBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("IncomingBody")
    }
}
