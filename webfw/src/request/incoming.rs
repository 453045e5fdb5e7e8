//! The body of a request still on the connection, and how the server learns
//! that it has arrived whole: its request timeout runs until then, whenever
//! the app reads it (Node's `requestTimeout` covers the request up to its
//! last body byte, whatever the response does meanwhile).

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use bytes::Bytes;
use http_body::{Frame, SizeHint};

/// Told once when a request body has arrived whole, failed, or was dropped
/// unread (the connection then reads no more of it).
pub(crate) trait BodyArrival: Send + Sync {
    fn arrived(&self);
}

/// A request body still on the connection: what
/// [`RawBody::Incoming`](crate::RawBody::Incoming) holds. Read it as any
/// [`http_body::Body`] of [`Bytes`]; the server's
/// [`request_timeout`](crate::ListenOptions::request_timeout) runs until its
/// last byte has arrived (or it is dropped), however late it is read.
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
    body: hyper::body::Incoming,
    /// Whom to tell when the body has arrived; `None` once told, or when
    /// nobody asked (a body that came with its head).
    arrival: Option<Arc<dyn BodyArrival>>,
}

impl IncomingBody {
    /// hyper's `body`, the server told through `arrival` once it has arrived.
    pub(crate) fn new(
        body: hyper::body::Incoming,
        arrival: Option<Arc<dyn BodyArrival>>,
    ) -> IncomingBody {
        IncomingBody { body, arrival }
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
        let frame = ready!(Pin::new(&mut this.body).poll_frame(cx));
        if this.arrival.is_some() && !matches!(&frame, Some(Ok(_)) if !this.body.is_end_stream()) {
            this.arrived();
        }
        Poll::Ready(frame)
    }

    #[inline]
    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    #[inline]
    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

impl Drop for IncomingBody {
    fn drop(&mut self) {
        if self.arrival.is_some() {
            self.arrived();
        }
    }
}

impl std::fmt::Debug for IncomingBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("IncomingBody")
    }
}
