//! The request timeout of an HTTP/2 stream (feature `http2`).
//!
//! On HTTP/1.1 the [`watchdog`](super::watchdog) closes a connection whose
//! request with a body goes unanswered past the request timeout, after a
//! 408. An HTTP/2 connection carries other streams that are doing fine, so
//! the deadline is the stream's own: a request with a body that has no
//! response head when it passes gets a 408 on its stream, its handler is
//! dropped (with the request body), and the connection goes on. Node's
//! HTTP/2 server has no request timeout; this keeps the bound HTTP/1.1 has.
//! Only HTTP/2 requests with a body pay for the timer.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::Incoming;
use tokio::time::Sleep;

use super::dispatch::{HyperResponse, ResponseBody};

/// Wraps a connection's service: requests with a body answer 408 when
/// their head is not ready within `timeout` (`None`: no deadline).
pub(super) struct StreamDeadline<S> {
    inner: S,
    timeout: Option<Duration>,
}

impl<S> StreamDeadline<S> {
    pub(super) fn new(inner: S, timeout: Option<Duration>) -> StreamDeadline<S> {
        StreamDeadline { inner, timeout }
    }
}

impl<S> hyper::service::Service<http::Request<Incoming>> for StreamDeadline<S>
where
    S: hyper::service::Service<
            http::Request<Incoming>,
            Response = HyperResponse,
            Error = Infallible,
        >,
    S::Future: Unpin,
{
    type Response = HyperResponse;
    type Error = Infallible;
    type Future = Timed<S::Future>;

    fn call(&self, req: http::Request<Incoming>) -> Self::Future {
        let deadline = match self.timeout {
            Some(t) if !http_body::Body::is_end_stream(req.body()) => {
                Some(Box::pin(tokio::time::sleep(t)))
            }
            _ => None,
        };
        Timed {
            inner: Some(self.inner.call(req)),
            deadline,
        }
    }
}

/// A stream's response, or its 408 once the deadline passes first.
pub(super) struct Timed<F> {
    /// `None` once timed out: the handler and the request body are dropped.
    inner: Option<F>,
    deadline: Option<Pin<Box<Sleep>>>,
}

impl<F> Future for Timed<F>
where
    F: Future<Output = Result<HyperResponse, Infallible>> + Unpin,
{
    type Output = Result<HyperResponse, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        if let Some(inner) = this.inner.as_mut()
            && let Poll::Ready(res) = Pin::new(inner).poll(cx)
        {
            return Poll::Ready(res);
        }
        let Some(deadline) = this.deadline.as_mut() else {
            return Poll::Pending;
        };
        std::task::ready!(deadline.as_mut().poll(cx));
        this.inner = None;
        let mut res = http::Response::new(ResponseBody::empty());
        *res.status_mut() = http::StatusCode::REQUEST_TIMEOUT;
        Poll::Ready(Ok(res))
    }
}
