//! The hand-off between a request's chain and the connection.
//!
//! The chain runs inside one boxed future that owns the request and response.
//! When a handler sends the head (`send`, `end`, first `write`), the response
//! moves status, headers and (for complete bodies) the body into the
//! [`Exchange`]. After each poll of the chain, [`Dispatch`] looks there: once a
//! head is present it answers hyper at once, even if the chain is still
//! running; the rest of the chain is then driven by the response body
//! ([`ResponseBody`]) while it streams, so no task is spawned per request.
//! `on_finish` hooks run when the body is done or dropped.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use http::HeaderMap;
use http_body::{Frame, SizeHint};

use super::watchdog::InFlight;

/// The body part of a committed head.
pub(crate) enum HeadBody {
    /// The whole body.
    Full(Bytes),
    /// No body (Content-Length 0 unless set otherwise).
    Empty,
    /// Chunks follow through the exchange.
    Stream,
}

pub(crate) struct Head {
    pub(crate) status: u16,
    pub(crate) headers: HeaderMap,
    pub(crate) body: HeadBody,
}

#[derive(Default)]
struct State {
    head: Option<Head>,
    chunks: VecDeque<Bytes>,
    ended: bool,
    waker: Option<Waker>,
}

/// Shared between a [`Response`] and the connection side for one request.
#[derive(Default)]
pub(crate) struct Exchange {
    state: Mutex<State>,
}

impl Exchange {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding this lock cannot leave the state inconsistent
        // (every update is a single assignment or push), so poisoning is ignored.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn put_head(&self, status: u16, headers: HeaderMap, body: HeadBody) {
        let mut st = self.lock();
        if !matches!(body, HeadBody::Stream) {
            st.ended = true;
        }
        st.head = Some(Head {
            status,
            headers,
            body,
        });
    }

    pub(crate) fn push_chunk(&self, chunk: Bytes, end: bool) {
        let mut st = self.lock();
        if !chunk.is_empty() {
            st.chunks.push_back(chunk);
        }
        if end {
            st.ended = true;
        }
        if let Some(w) = st.waker.take() {
            w.wake();
        }
    }

    fn take_head(&self) -> Option<Head> {
        self.lock().head.take()
    }

    /// Prepares the exchange for the next request on the same connection.
    pub(crate) fn reset(&self) {
        let mut st = self.lock();
        st.head = None;
        st.chunks.clear();
        st.ended = false;
        st.waker = None;
    }
}

/// The future that runs one request's chain and returns the request and
/// response when it is done.
/// It yields the pair only when `on_finish` hooks still need them.
pub(crate) type ChainFuture = Pin<Box<dyn Future<Output = Option<Finished>> + Send>>;

/// A finished request and response, kept for `on_finish` hooks.
pub(crate) type Finished = super::pair::Pair;

/// What the connection gets back once the head is known.
pub(crate) type HyperResponse = http::Response<ResponseBody>;

/// Builds the response sent when a chain panicked before sending a head.
pub(crate) type PanicResponder = fn() -> (u16, HeaderMap, Bytes);

/// The service future: polls the chain until a head is available.
pub(crate) struct Dispatch {
    chain: Option<ChainFuture>,
    exchange: Arc<Exchange>,
    /// Moves into the response body: the request is in flight until hyper
    /// drops the body.
    in_flight: Option<InFlight>,
    on_panic: PanicResponder,
}

impl Dispatch {
    pub(crate) fn new(
        chain: ChainFuture,
        exchange: Arc<Exchange>,
        in_flight: InFlight,
        on_panic: PanicResponder,
    ) -> Self {
        Dispatch {
            chain: Some(chain),
            exchange,
            in_flight: Some(in_flight),
            on_panic,
        }
    }
}

impl Future for Dispatch {
    type Output = Result<HyperResponse, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let Some(chain) = this.chain.as_mut() else {
            return Poll::Pending;
        };
        let polled = std::panic::catch_unwind(AssertUnwindSafe(|| chain.as_mut().poll(cx)));
        match polled {
            Ok(Poll::Ready(done)) => {
                this.chain = None;
                let head = this.exchange.take_head();
                Poll::Ready(Ok(build(head, this, done)))
            }
            Ok(Poll::Pending) => match this.exchange.take_head() {
                Some(head) => Poll::Ready(Ok(build(Some(head), this, None))),
                None => Poll::Pending,
            },
            Err(_) => {
                this.chain = None;
                let head = this.exchange.take_head();
                Poll::Ready(Ok(build(head, this, None)))
            }
        }
    }
}

impl Drop for Dispatch {
    fn drop(&mut self) {
        // hyper drops the service future when the client goes away before a
        // head was sent. Node lets the handler run on and on-finished fires,
        // so finish the chain in a task and run its hooks (the logger writes
        // its line with status `-` when nothing was sent).
        if let Some(rest) = self.chain.take() {
            spawn_rest(rest);
        }
    }
}

/// Runs what remains of a chain to completion, then its `on_finish` hooks.
fn spawn_rest(rest: ChainFuture) {
    let Ok(handle) = tokio::runtime::Handle::try_current() else {
        return;
    };
    handle.spawn(async move {
        if let Some(mut pair) = rest.await {
            let (req, res) = pair.parts();
            res.run_finish_hooks(req);
        }
    });
}

fn build(head: Option<Head>, d: &mut Dispatch, done: Option<Finished>) -> HyperResponse {
    let (status, headers, body) = match head {
        Some(h) => (h.status, h.headers, h.body),
        None => {
            // The chain finished or panicked without a head: only possible
            // after a panic (the app answers every finished chain).
            let (s, h, b) = (d.on_panic)();
            (s, h, HeadBody::Full(b))
        }
    };
    let finisher = done;
    if !matches!(body, HeadBody::Stream)
        && let Some(rest) = d.chain.take()
    {
        // The response is complete but the handler is still running (code
        // after `send`): let it finish, as Node does, then run its hooks.
        spawn_rest(rest);
    }
    let kind = match body {
        HeadBody::Full(b) => Kind::Full(Some(b)),
        HeadBody::Empty => Kind::Full(None),
        HeadBody::Stream => Kind::Stream {
            exchange: d.exchange.clone(),
            chain: d.chain.take(),
        },
    };
    let mut response = http::Response::new(ResponseBody {
        kind,
        finisher,
        _in_flight: d.in_flight.take(),
    });
    *response.status_mut() =
        http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
    if response.status().canonical_reason().is_none() {
        response
            .extensions_mut()
            .insert(hyper::ext::ReasonPhrase::from_static(b"unknown"));
    }
    let made = std::mem::replace(response.headers_mut(), headers);
    if made.capacity() == 0 {
        // The map `Response::new` made owns no memory: forgetting it leaks
        // nothing and skips its drop glue (~60 instructions per response).
        std::mem::forget(made);
    }
    response
}

enum Kind {
    Full(Option<Bytes>),
    Stream {
        exchange: Arc<Exchange>,
        chain: Option<ChainFuture>,
    },
}

/// The body hyper writes: a complete buffer, or chunks streamed through the
/// exchange while the rest of the chain runs.
pub struct ResponseBody {
    kind: Kind,
    finisher: Option<Finished>,
    _in_flight: Option<InFlight>,
}

impl ResponseBody {
    fn finish(&mut self) {
        // In place: moving the pair out of its box would copy ~800 bytes.
        if let Some(mut pair) = self.finisher.take() {
            let (req, res) = pair.parts();
            res.run_finish_hooks(req);
        }
    }
}

impl Drop for ResponseBody {
    fn drop(&mut self) {
        // Also reached when the client goes away mid-body: on-finished fires
        // then too, and a handler still streaming runs on to its end.
        if let Kind::Stream { chain, .. } = &mut self.kind
            && let Some(rest) = chain.take()
        {
            spawn_rest(rest);
        }
        self.finish();
    }
}

impl http_body::Body for ResponseBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        match &mut this.kind {
            Kind::Full(b) => match b.take() {
                Some(b) => Poll::Ready(Some(Ok(Frame::data(b)))),
                None => {
                    this.finish();
                    Poll::Ready(None)
                }
            },
            Kind::Stream { exchange, chain } => loop {
                {
                    let mut st = exchange.lock();
                    if let Some(c) = st.chunks.pop_front() {
                        return Poll::Ready(Some(Ok(Frame::data(c))));
                    }
                    if st.ended {
                        drop(st);
                        if let Some(rest) = chain.take() {
                            // The response is complete; let the chain finish on its own.
                            spawn_rest(rest);
                        }
                        this.finish();
                        return Poll::Ready(None);
                    }
                    st.waker = Some(cx.waker().clone());
                }
                let Some(fut) = chain.as_mut() else {
                    // The chain is gone but never ended the stream: end it here.
                    exchange.lock().ended = true;
                    continue;
                };
                match std::panic::catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(cx))) {
                    Ok(Poll::Ready(done)) => {
                        *chain = None;
                        this.finisher = done;
                        exchange.lock().ended = true;
                    }
                    Ok(Poll::Pending) => {
                        let st = exchange.lock();
                        if st.chunks.is_empty() && !st.ended {
                            return Poll::Pending;
                        }
                    }
                    Err(_) => {
                        *chain = None;
                        exchange.lock().ended = true;
                    }
                }
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self.kind, Kind::Full(None)) && self.finisher.is_none()
    }

    fn size_hint(&self) -> SizeHint {
        match &self.kind {
            Kind::Full(Some(b)) => SizeHint::with_exact(b.len() as u64),
            Kind::Full(None) => SizeHint::with_exact(0),
            Kind::Stream { .. } => SizeHint::default(),
        }
    }
}
