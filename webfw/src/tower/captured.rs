//! The inner service a tower layer wraps when it is webfw middleware: the
//! rest of the webfw stack. Calling it hands the (possibly changed) request
//! back to the middleware, which continues with `next()`; its future yields
//! the response the rest of the stack then sends, captured in a mailbox of
//! its own instead of going to the client.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use http_body::{Frame, SizeHint};

use crate::error::BoxError;
use crate::request::RawBody;
use crate::response::outbox::{Chunk, Head, HeadBody, Mailbox};

/// What the middleware and the inner service share for one request.
#[derive(Default)]
pub(super) struct Link {
    state: Mutex<LinkState>,
}

#[derive(Default)]
struct LinkState {
    /// The request the layer passed on, until the middleware takes it.
    request: Option<(http::request::Parts, RawBody)>,
    /// Whether the layer called the inner service.
    called: bool,
    /// Where the rest of the stack sends its response, once it runs.
    mailbox: Option<Arc<Mailbox>>,
    /// The inner service's future, waiting for that mailbox.
    waker: Option<Waker>,
}

impl Link {
    fn lock(&self) -> MutexGuard<'_, LinkState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether the layer called the inner service.
    pub(super) fn called(&self) -> bool {
        self.lock().called
    }

    /// The request the layer passed on.
    pub(super) fn take_request(&self) -> Option<(http::request::Parts, RawBody)> {
        self.lock().request.take()
    }

    /// The rest of the stack now sends into `mailbox`.
    pub(super) fn hand_over(&self, mailbox: Arc<Mailbox>) {
        let mut st = self.lock();
        st.mailbox = Some(mailbox);
        if let Some(w) = st.waker.take() {
            w.wake();
        }
    }
}

/// The rest of the webfw stack, as the service a tower layer wraps when it
/// is used as middleware ([`crate::tower()`]). Calling it continues the
/// chain with the request the layer passes on (its headers and body; a
/// changed method or URI is not taken over); its future yields the response
/// the rest of the stack sends, with a [`NextBody`]. The rest of the stack
/// runs once: a layer that calls it again (a retry) gets an error.
///
/// ```
/// fn wraps<L: tower_layer::Layer<webfw::tower::Next>>(_layer: L) {}
/// wraps(tower_layer::Identity::new());
/// ```
#[derive(Clone)]
pub struct Next {
    link: Arc<Link>,
}

impl Next {
    pub(super) fn new(link: Arc<Link>) -> Next {
        Next { link }
    }
}

impl std::fmt::Debug for Next {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Next")
    }
}

impl<B> tower_service::Service<http::Request<B>> for Next
where
    B: http_body::Body + Send + 'static,
    B::Data: Into<Bytes>,
    B::Error: Into<BoxError>,
{
    type Response = http::Response<NextBody>;
    type Error = BoxError;
    type Future = NextFuture;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: http::Request<B>) -> NextFuture {
        let (parts, body) = req.into_parts();
        let body = if body.is_end_stream() {
            RawBody::Empty
        } else {
            RawBody::from_body(body)
        };
        let mut st = self.link.lock();
        let again = st.called;
        if !again {
            st.request = Some((parts, body));
            st.called = true;
        }
        drop(st);
        NextFuture {
            link: self.link.clone(),
            again,
        }
    }
}

/// The future of [`Next`]'s call: the response the rest of the stack sends.
pub struct NextFuture {
    link: Arc<Link>,
    /// A second call: it fails at once instead of waiting for a response
    /// that will not come.
    again: bool,
}

impl std::fmt::Debug for NextFuture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NextFuture")
    }
}

impl Future for NextFuture {
    type Output = Result<http::Response<NextBody>, BoxError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if self.again {
            return Poll::Ready(Err("the rest of the webfw stack runs only once".into()));
        }
        let mailbox = {
            let mut st = self.link.lock();
            match &st.mailbox {
                Some(m) => m.clone(),
                None => {
                    st.waker = Some(cx.waker().clone());
                    return Poll::Pending;
                }
            }
        };
        // What must finish before the head leaves (a session's save, a
        // tower layer further down) runs first, as it would in the server.
        match mailbox.poll_gate(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Err(e)) => return Poll::Ready(Err(e.to_string().into())),
            Poll::Ready(Ok(())) => {}
        }
        if let Some(head) = mailbox.poll_head(cx.waker()) {
            // The body owns the mailbox from here: dropping this future
            // must not close it.
            self.link.lock().mailbox = None;
            return Poll::Ready(Ok(response(head, mailbox)));
        }
        // Only the link's handle and this one are left: the response that
        // would send into the mailbox is gone (its chain ended or panicked).
        if Arc::strong_count(&mailbox) <= 2 {
            return Poll::Ready(Err("the rest of the stack ended without a response".into()));
        }
        Poll::Pending
    }
}

impl Drop for NextFuture {
    fn drop(&mut self) {
        // The layer gave up on the response (a timeout): whatever the rest
        // of the stack still writes is refused, and a writer waiting to
        // drain wakes.
        if self.again {
            return;
        }
        if let Some(m) = self.link.lock().mailbox.take() {
            m.body_dropped();
        }
    }
}

fn response(head: Head, mailbox: Arc<Mailbox>) -> http::Response<NextBody> {
    let body = match head.body {
        HeadBody::Full(b) => NextBody(Kind::Full(Some(b))),
        HeadBody::Empty => NextBody(Kind::Full(None)),
        HeadBody::Stream => NextBody(Kind::Stream(mailbox)),
    };
    let mut response = http::Response::new(body);
    *response.status_mut() =
        http::StatusCode::from_u16(head.status).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
    *response.headers_mut() = *head.headers;
    response
}

/// The body of the response the rest of the stack sent ([`Next`]): the
/// whole body, or its chunks as the rest of the chain writes them.
/// `Default` is the empty body (what tower-http layers answer with).
///
/// ```
/// let body = webfw::tower::NextBody::default();
/// assert!(http_body::Body::is_end_stream(&body));
/// ```
#[derive(Default)]
pub struct NextBody(Kind);

#[derive(Default)]
enum Kind {
    #[default]
    Empty,
    Full(Option<Bytes>),
    Stream(Arc<Mailbox>),
}

impl std::fmt::Debug for NextBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NextBody")
    }
}

impl Drop for NextBody {
    fn drop(&mut self) {
        if let Kind::Stream(m) = &self.0 {
            m.body_dropped();
        }
    }
}

impl http_body::Body for NextBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match &mut self.get_mut().0 {
            Kind::Empty => Poll::Ready(None),
            Kind::Full(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            Kind::Stream(m) => match m.next_chunk(cx.waker()) {
                Chunk::Data(c) => Poll::Ready(Some(Ok(Frame::data(c)))),
                Chunk::Ended => Poll::Ready(None),
                // Only we hold it: the writer is gone without ending.
                Chunk::Waiting if Arc::strong_count(m) == 1 => Poll::Ready(None),
                Chunk::Waiting => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self.0, Kind::Empty | Kind::Full(None))
    }

    fn size_hint(&self) -> SizeHint {
        match &self.0 {
            Kind::Empty | Kind::Full(None) => SizeHint::with_exact(0),
            Kind::Full(Some(b)) => SizeHint::with_exact(b.len() as u64),
            Kind::Stream(_) => SizeHint::default(),
        }
    }
}
