//! The request body as an [`http_body::Body`], whichever way it came: the
//! seam that lets bodies other than hyper's feed the same chain.

use std::pin::Pin;
use std::sync::{Mutex, MutexGuard};
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Frame, SizeHint};
use http_body_util::BodyExt;

use super::RawBody;
use crate::error::BoxError;

type Unsync = http_body_util::combinators::UnsyncBoxBody<Bytes, BoxError>;

/// A request body of any type, boxed: what [`RawBody::Boxed`] holds.
///
/// The body need only be `Send`; the box is `Sync` as well, so a
/// [`Request`](crate::Request) stays `Sync` (a handler's future may hold
/// `&Request` across an await). Reading it takes no lock.
///
/// ```
/// let body = webfw::BoxBody::new(String::from("hi"));
/// assert_eq!(http_body::Body::size_hint(&body).exact(), Some(2));
/// ```
pub struct BoxBody(Mutex<Unsync>);

impl BoxBody {
    /// Boxes `body`.
    ///
    /// ```
    /// let body = webfw::BoxBody::new(http_body_util::Empty::<bytes::Bytes>::new());
    /// ```
    pub fn new<B>(body: B) -> BoxBody
    where
        B: http_body::Body + Send + 'static,
        B::Data: Into<Bytes>,
        B::Error: Into<BoxError>,
    {
        BoxBody(Mutex::new(IntoBytes { body }.boxed_unsync()))
    }

    fn inner(&self) -> MutexGuard<'_, Unsync> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl http_body::Body for BoxBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let inner = self
            .get_mut()
            .0
            .get_mut()
            .unwrap_or_else(|p| p.into_inner());
        Pin::new(inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner().is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner().size_hint()
    }
}

pin_project_lite::pin_project! {
    /// A body with its data as `Bytes` and its error boxed. Unlike
    /// `BodyExt::map_frame`, it keeps the body's size hint (a complete
    /// body's exact length).
    struct IntoBytes<B> {
        #[pin]
        body: B,
    }
}

impl<B> http_body::Body for IntoBytes<B>
where
    B: http_body::Body,
    B::Data: Into<Bytes>,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        self.project()
            .body
            .poll_frame(cx)
            .map(|f| f.map(|f| f.map(|f| f.map_data(Into::into)).map_err(Into::into)))
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

impl std::fmt::Debug for BoxBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BoxBody")
    }
}

impl RawBody {
    /// Boxes any body as a request body.
    ///
    /// ```
    /// let body = webfw::RawBody::from_body(http_body_util::Full::new(bytes::Bytes::from("hi")));
    /// assert!(matches!(body, webfw::RawBody::Boxed(_)));
    /// ```
    pub fn from_body<B>(body: B) -> RawBody
    where
        B: http_body::Body + Send + 'static,
        B::Data: Into<Bytes>,
        B::Error: Into<BoxError>,
    {
        RawBody::Boxed(BoxBody::new(body))
    }
}

impl http_body::Body for RawBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match self.get_mut() {
            RawBody::Incoming(b) => Pin::new(b).poll_frame(cx).map_err(Into::into),
            RawBody::Boxed(b) => Pin::new(b).poll_frame(cx),
            RawBody::Empty => Poll::Ready(None),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            RawBody::Incoming(b) => b.is_end_stream(),
            RawBody::Boxed(b) => b.is_end_stream(),
            RawBody::Empty => true,
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            RawBody::Incoming(b) => b.size_hint(),
            RawBody::Boxed(b) => b.size_hint(),
            RawBody::Empty => SizeHint::with_exact(0),
        }
    }
}

impl std::fmt::Debug for RawBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RawBody::Incoming(_) => "RawBody::Incoming",
            RawBody::Boxed(_) => "RawBody::Boxed",
            RawBody::Empty => "RawBody::Empty",
        })
    }
}
