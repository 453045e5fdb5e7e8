//! The request body as an [`http_body::Body`], whichever way it came: the
//! seam that lets bodies other than hyper's feed the same chain.

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Frame, SizeHint};
use http_body_util::BodyExt;

use super::RawBody;
use crate::error::BoxError;

/// A request body of any type, boxed: what [`RawBody::Boxed`] holds.
pub type BoxBody = http_body_util::combinators::UnsyncBoxBody<Bytes, BoxError>;

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
        RawBody::Boxed(
            body.map_frame(|f| f.map_data(Into::into))
                .map_err(Into::into)
                .boxed_unsync(),
        )
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
