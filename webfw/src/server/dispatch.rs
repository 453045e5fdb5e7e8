//! The connection's side of a request: runs its chain and turns what the
//! response put in its outbox into hyper's response.
//!
//! The chain runs synchronously inside hyper's service call for as long as
//! its handlers do; from the first that may await, the rest runs in one
//! boxed future that holds the request and response. When a handler sends
//! the head (`send`, `end`, first `write`), the response
//! moves status, headers and (for complete bodies) the body into its
//! outbox's [`Mailbox`]. After each poll of the chain, [`Dispatch`] looks there: once a
//! head is present it answers hyper at once, even if the chain is still
//! running; the rest of the chain is then driven by the response body
//! ([`ResponseBody`]) while it streams, so no task is spawned per request.
//! `on_finish` hooks run when the body is done or dropped (or, for hooks
//! that need no finish time, as soon as the response is complete).

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use http::HeaderMap;
use http_body::{Frame, SizeHint};

use super::pair::Pair;
use super::watchdog::InFlight;
use crate::app::ServedApp;
use crate::header_pool;
use crate::request::{RawBody, Request};
use crate::response::Response;
use crate::response::outbox::{Chunk, Head, HeadBody, Mailbox};

/// The future that runs one request's chain and returns the request and
/// response when it is done.
/// It yields the pair only when `on_finish` hooks still need them.
pub(crate) type ChainFuture = Pin<Box<dyn Future<Output = Option<Finished>> + Send>>;

/// A request's chain as the service call leaves it.
pub(crate) enum Chain {
    /// A handler may await: the rest runs in this future.
    Running(ChainFuture),
    /// Done synchronously; the pair when `on_finish` hooks still need it.
    Answered(Option<Finished>),
}

/// A finished request and response, kept for `on_finish` hooks.
pub(crate) type Finished = super::pair::Pair;

/// What the connection gets back once the head is known.
pub(crate) type HyperResponse = http::Response<ResponseBody>;

/// Builds the response sent when a chain panicked before sending a head.
pub(crate) type PanicResponder = fn() -> (u16, HeaderMap, Bytes);

/// Starts one request: builds its request and response, runs its chain as
/// far as its handlers are synchronous and returns the future that answers
/// it. The server's service call and [`App::into_service`](crate::App::into_service)
/// both come here, so a request takes the same path whichever way it came.
/// `reject`: the answer when the request must not reach the app (the
/// server's own rejections, which Node makes before Express runs).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn start(
    app: &Arc<ServedApp>,
    parts: http::request::Parts,
    raw_target: Option<String>,
    body: RawBody,
    peer: SocketAddr,
    secure: bool,
    mailbox: Arc<Mailbox>,
    in_flight: Option<InFlight>,
    reject: Option<impl FnOnce(&mut Response)>,
) -> Dispatch {
    // The pair lives in its own (recycled) box: the chain future then
    // holds a pointer instead of moving ~800 bytes into its state, stays
    // small enough to hold the top router's future inline, and hands the
    // same box to `on_finish` hooks.
    let mut pair = Pair::empty();
    let (req_slot, res_slot) = pair.slots();
    let req = Request::new_in(
        req_slot,
        parts,
        raw_target,
        body,
        peer,
        secure,
        app.app().clone(),
    );
    Response::new_in(res_slot, req, mailbox.clone());
    let (req, res) = pair.parts();
    #[cfg(feature = "tracing")]
    crate::trace::begin(req, res);
    res.outbox.hold();
    // The chain runs here, in the service call, as far as its handlers are
    // synchronous: no future is built or boxed for it.
    let resume = match reject {
        Some(reject) => {
            reject(res);
            None
        }
        None => std::panic::catch_unwind(AssertUnwindSafe(|| app.handle_root_now(req, res)))
            // Handlers' panics are caught where they run; one in the
            // router itself is answered as a panicked chain is.
            .unwrap_or(None),
    };
    let held = res.outbox.take_held();
    let chain = match resume {
        None if res.has_finish_hooks() => Chain::Answered(Some(pair)),
        None => Chain::Answered(None),
        Some(resume) => {
            let app = app.clone();
            Chain::Running(Box::pin(async move {
                let (req, res) = pair.parts();
                app.resume_root(req, res, resume).await;
                res.has_finish_hooks().then_some(pair)
            }))
        }
    };
    Dispatch::new(
        chain,
        held,
        mailbox,
        in_flight,
        crate::final_handler::panic_response,
    )
}

/// The service future: polls the chain until a head is available.
pub(crate) struct Dispatch {
    chain: Option<ChainFuture>,
    mailbox: Arc<Mailbox>,
    /// Moves into the response body: the request is in flight until hyper
    /// drops the body. None outside the server (`App::into_service`).
    in_flight: Option<InFlight>,
    on_panic: PanicResponder,
    /// Set when the chain answered during [`Dispatch::new`]: what it
    /// returned, if it finished. The head waits in the mailbox, so the
    /// future stays small for hyper to move.
    answered: Option<Option<Finished>>,
    /// A complete head the chain sent inside the service call, handed over
    /// directly: taking it from the mailbox costs a lock on each side.
    held: Option<Head>,
}

impl Dispatch {
    #[inline(always)]
    pub(crate) fn new(
        chain: Chain,
        held: Option<Head>,
        mailbox: Arc<Mailbox>,
        in_flight: Option<InFlight>,
        on_panic: PanicResponder,
    ) -> Self {
        let (chain, answered) = match chain {
            Chain::Running(future) => (Some(future), None),
            Chain::Answered(done) => (None, Some(done)),
        };
        let mut d = Dispatch {
            chain,
            mailbox,
            in_flight,
            on_panic,
            answered: None,
            held,
        };
        // A running chain is polled now, while hyper is still inside its
        // service call: one that finishes then drops its request before
        // hyper's next read, and the request's URI and header values, which
        // share hyper's read buffer, no longer keep that buffer from being
        // reused in place (else hyper allocates a new 8 KiB buffer for every
        // request). A chain that must wait is polled again by hyper at once
        // with the connection's waker, so the no-op waker is never relied on.
        let answered = answered.or_else(|| match d.step(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(done) => Some(done),
            Poll::Pending => None,
        });
        if let Some(mut done) = answered {
            if let Some(pair) = done.as_mut()
                && (d.held.is_some() || d.mailbox.is_complete())
            {
                // Hooks that need no finish time see the same request and
                // response now as after the write: run them, and the
                // request is gone before hyper's next read as well.
                let (req, res) = pair.parts();
                if res.finish_hooks_run_early() {
                    res.run_finish_hooks(req);
                    done = None;
                }
            }
            d.answered = Some(done);
        }
        d
    }

    /// Polls the chain; ready once the chain is done (with the pair when
    /// hooks still need it) or a head is waiting in the mailbox.
    fn step(&mut self, cx: &mut Context<'_>) -> Poll<Option<Finished>> {
        let Some(chain) = self.chain.as_mut() else {
            return Poll::Pending;
        };
        match std::panic::catch_unwind(AssertUnwindSafe(|| chain.as_mut().poll(cx))) {
            Ok(Poll::Ready(done)) => {
                self.chain = None;
                Poll::Ready(done)
            }
            Ok(Poll::Pending) if self.held.is_some() || self.mailbox.has_head() => {
                Poll::Ready(None)
            }
            Ok(Poll::Pending) if self.mailbox.is_gated() => self.gate_while_running(cx),
            Ok(Poll::Pending) => Poll::Pending,
            Err(_) => {
                self.chain = None;
                Poll::Ready(None)
            }
        }
    }
}

impl Future for Dispatch {
    type Output = Result<HyperResponse, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let done = match this.answered.take() {
            Some(done) => done,
            None => std::task::ready!(this.step(cx)),
        };
        let head = if this.mailbox.is_gated() {
            match this.head_after_gate(cx) {
                Poll::Pending => {
                    this.answered = Some(done);
                    return Poll::Pending;
                }
                Poll::Ready(head) => head,
            }
        } else {
            match this.held.take() {
                Some(head) => Some(head),
                None => this.mailbox.take_head(),
            }
        };
        Poll::Ready(Ok(build(head, this, done)))
    }
}

impl Dispatch {
    /// Polls a gate set before any head: a tower layer's response
    /// ([`crate::tower()`]) is made while the chain runs on (a timeout
    /// answers before the handler does). Ready once a head is there.
    #[cold]
    #[inline(never)]
    fn gate_while_running(&mut self, cx: &mut Context<'_>) -> Poll<Option<Finished>> {
        match self.mailbox.poll_gate(cx) {
            Poll::Ready(Ok(())) if self.mailbox.has_head() => Poll::Ready(None),
            Poll::Ready(Ok(())) | Poll::Pending => Poll::Pending,
            Poll::Ready(Err(err)) => {
                crate::final_handler::report_unhandled(&err);
                self.mailbox.end();
                Poll::Ready(None)
            }
        }
    }

    /// The head once the gate is through; none (the 500 page) when it
    /// failed. Kept apart so the usual path pays only for reading the flag
    /// (see docs/PERFORMANCE.md).
    #[cold]
    #[inline(never)]
    fn head_after_gate(&mut self, cx: &mut Context<'_>) -> Poll<Option<Head>> {
        let gate = std::task::ready!(self.mailbox.poll_gate(cx));
        let head = match self.held.take() {
            Some(head) => Some(head),
            None => self.mailbox.take_head(),
        };
        match gate {
            Ok(()) => Poll::Ready(head),
            Err(err) => {
                // The head never leaves: the request gets the page a failed
                // chain gets, and a streamed body is cut off.
                crate::final_handler::report_unhandled(&err);
                self.mailbox.end();
                Poll::Ready(None)
            }
        }
    }
}

impl Drop for Dispatch {
    #[inline]
    fn drop(&mut self) {
        // The usual drop, after the head went out, tests two fields.
        if self.chain.is_some() || self.mailbox.is_gated() {
            self.abandoned();
        }
    }
}

impl Dispatch {
    /// hyper drops the service future when the client goes away before a
    /// head was sent. Node lets the handler run on and on-finished fires,
    /// so finish the chain in a task and run its hooks (the logger writes
    /// its line with status `-` when nothing was sent).
    #[cold]
    #[inline(never)]
    fn abandoned(&mut self) {
        if let Some(rest) = self.chain.take() {
            spawn_rest(rest);
        }
        // A save the head was waiting for still completes, as in Node.
        if let Some(gate) = self.mailbox.take_gate()
            && let Ok(handle) = tokio::runtime::Handle::try_current()
        {
            handle.spawn(super::task::occasional(async move {
                let _ = gate.await;
            }));
        }
    }
}

/// Runs what remains of a chain to completion, then its `on_finish` hooks.
fn spawn_rest(rest: ChainFuture) {
    let Ok(handle) = tokio::runtime::Handle::try_current() else {
        return;
    };
    handle.spawn(super::task::occasional(async move {
        if let Some(mut pair) = rest.await {
            let (req, res) = pair.parts();
            res.run_finish_hooks(req);
        }
    }));
}

fn build(head: Option<Head>, d: &mut Dispatch, done: Option<Finished>) -> HyperResponse {
    let (status, mut headers, body) = match head {
        Some(h) => (h.status, h.headers, h.body),
        None => {
            // The chain finished or panicked without a head: only possible
            // after a panic (the app answers every finished chain).
            let (s, h, b) = (d.on_panic)();
            (s, Box::new(h), HeadBody::Full(b))
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
            mailbox: d.mailbox.clone(),
            chain: d.chain.take(),
        },
    };
    let mut in_flight = d.in_flight.take();
    if let Some(f) = &mut in_flight {
        f.answered();
    }
    let mut response = http::Response::new(ResponseBody {
        kind,
        finisher,
        _in_flight: in_flight,
    });
    *response.status_mut() =
        http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
    let map = std::mem::replace(&mut *headers, HeaderMap::new());
    // The map `Response::new` made owns no memory: forgetting it leaks
    // nothing and skips its drop glue on every response. The
    // emptied box holds the next request's map.
    let made = std::mem::replace(response.headers_mut(), map);
    debug_assert_eq!(made.capacity(), 0);
    std::mem::forget(made);
    header_pool::give_box(headers);
    response
}

enum Kind {
    Full(Option<Bytes>),
    Stream {
        mailbox: Arc<Mailbox>,
        chain: Option<ChainFuture>,
    },
}

/// The body hyper writes: a complete buffer, or chunks streamed through the
/// mailbox while the rest of the chain runs. An [`http_body::Body`] of
/// [`Bytes`] that never fails.
///
/// ```
/// fn is_body<B: http_body::Body<Data = bytes::Bytes, Error = std::convert::Infallible>>() {}
/// is_body::<webfw::ResponseBody>();
/// ```
pub struct ResponseBody {
    kind: Kind,
    finisher: Option<Finished>,
    _in_flight: Option<InFlight>,
}

impl ResponseBody {
    /// An empty body, for an answer the server makes itself.
    #[cfg(feature = "http2")]
    pub(crate) fn empty() -> ResponseBody {
        ResponseBody {
            kind: Kind::Full(None),
            finisher: None,
            _in_flight: None,
        }
    }

    /// The whole body of a complete response, taken out; `None` for a
    /// streamed one. Dropping the body afterwards runs what polling it to
    /// its end would.
    #[inline]
    pub(crate) fn take_full(&mut self) -> Option<Bytes> {
        match &mut self.kind {
            Kind::Full(bytes) => bytes.take(),
            Kind::Stream { .. } => None,
        }
    }

    #[inline]
    fn finish(&mut self) {
        if self.finisher.is_some() {
            self.run_finish_hooks();
        }
    }

    #[inline(never)]
    fn run_finish_hooks(&mut self) {
        // In place: moving the pair out of its box would copy ~800 bytes.
        if let Some(mut pair) = self.finisher.take() {
            let (req, res) = pair.parts();
            res.run_finish_hooks(req);
        }
    }

    /// The body of a streamed response is gone: also reached when the
    /// client goes away mid-body, when on-finished fires too and a handler
    /// still streaming runs on to its end.
    #[inline(never)]
    fn stream_dropped(&mut self) {
        if let Kind::Stream { chain, mailbox } = &mut self.kind {
            mailbox.body_dropped();
            if let Some(rest) = chain.take() {
                spawn_rest(rest);
            }
        }
    }
}

impl Drop for ResponseBody {
    #[inline]
    fn drop(&mut self) {
        if matches!(self.kind, Kind::Stream { .. }) {
            self.stream_dropped();
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
            Kind::Stream { mailbox, chain } => loop {
                match mailbox.next_chunk(cx.waker()) {
                    Chunk::Data(c) => return Poll::Ready(Some(Ok(Frame::data(c)))),
                    Chunk::Ended => {
                        if let Some(rest) = chain.take() {
                            // The response is complete; let the chain finish on its own.
                            spawn_rest(rest);
                        }
                        this.finish();
                        return Poll::Ready(None);
                    }
                    Chunk::Waiting => {}
                }
                let Some(fut) = chain.as_mut() else {
                    // The chain is gone but never ended the stream: end it here.
                    mailbox.end();
                    continue;
                };
                match std::panic::catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(cx))) {
                    Ok(Poll::Ready(done)) => {
                        *chain = None;
                        this.finisher = done;
                        mailbox.end();
                    }
                    Ok(Poll::Pending) => {
                        if !mailbox.has_news() {
                            return Poll::Pending;
                        }
                    }
                    Err(_) => {
                        *chain = None;
                        mailbox.end();
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

#[cfg(test)]
mod tests;
