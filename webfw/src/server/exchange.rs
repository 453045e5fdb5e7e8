//! The hand-off between a request's chain and the connection.
//!
//! The chain runs synchronously inside hyper's service call for as long as
//! its handlers do; from the first that may await, the rest runs in one
//! boxed future that holds the request and response. When a handler sends
//! the head (`send`, `end`, first `write`), the response
//! moves status, headers and (for complete bodies) the body into the
//! [`Exchange`]. After each poll of the chain, [`Dispatch`] looks there: once a
//! head is present it answers hyper at once, even if the chain is still
//! running; the rest of the chain is then driven by the response body
//! ([`ResponseBody`]) while it streams, so no task is spawned per request.
//! `on_finish` hooks run when the body is done or dropped (or, for hooks
//! that need no finish time, as soon as the response is complete).

use std::collections::VecDeque;
use std::convert::Infallible;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// Boxed from the response's first header to the hand-off to hyper.
    pub(crate) headers: Box<HeaderMap>,
    pub(crate) body: HeadBody,
}

#[derive(Default)]
struct State {
    head: Option<Head>,
    chunks: VecDeque<Bytes>,
    ended: bool,
    waker: Option<Waker>,
    /// Bytes in `chunks`.
    buffered: usize,
    /// The connection let go of the streamed body: it was written to the
    /// end, or the client went away.
    closed: bool,
    /// A handler waiting in `res.drain()`.
    drain: Option<Waker>,
}

/// Buffered bytes from which `res.write` asks the handler to wait for
/// `res.drain()` (Node's `writableHighWaterMark` is 16 KiB; a larger mark
/// costs nothing here and takes fewer wake-ups).
pub(crate) const HIGH_WATER: usize = 64 * 1024;

/// Buffered bytes beyond which `res.write` fails: a handler that never
/// waits cannot make a slow client's response hold more than this.
pub(crate) const MAX_BUFFERED: usize = 16 * 1024 * 1024;

/// What became of a streamed chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pushed {
    Queued,
    /// The connection is gone: the chunk was dropped.
    Closed,
    /// [`MAX_BUFFERED`] is reached: the chunk was dropped.
    Full,
}

/// Shared between a [`Response`] and the connection side for one request.
#[derive(Default)]
pub(crate) struct Exchange {
    state: Mutex<State>,
    /// Whether the state needs [`Exchange::reset`] before the next request:
    /// only a streamed response leaves anything behind (a complete one is
    /// cleared as its head is taken).
    streamed: AtomicBool,
}

impl Exchange {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding this lock cannot leave the state inconsistent
        // (every update is a single assignment or push), so poisoning is ignored.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(crate) fn put_head(&self, status: u16, headers: Box<HeaderMap>, body: HeadBody) {
        let mut st = self.lock();
        if matches!(body, HeadBody::Stream) {
            self.streamed.store(true, Ordering::Relaxed);
        } else {
            st.ended = true;
        }
        st.head = Some(Head {
            status,
            headers,
            body,
        });
    }

    pub(crate) fn push_chunk(&self, chunk: Bytes, end: bool) -> Pushed {
        self.streamed.store(true, Ordering::Relaxed);
        let mut st = self.lock();
        if st.closed {
            return Pushed::Closed;
        }
        let mut pushed = Pushed::Queued;
        if st.buffered >= MAX_BUFFERED {
            pushed = Pushed::Full;
        } else if !chunk.is_empty() {
            st.buffered += chunk.len();
            st.chunks.push_back(chunk);
        }
        if end {
            st.ended = true;
        }
        if let Some(w) = st.waker.take() {
            w.wake();
        }
        pushed
    }

    /// Whether the connection let go of the streamed body.
    pub(crate) fn is_closed(&self) -> bool {
        self.lock().closed
    }

    /// Whether as many bytes wait as a handler should let drain first.
    pub(crate) fn needs_drain(&self) -> bool {
        self.lock().buffered >= HIGH_WATER
    }

    /// Ready (with whether the connection is still there) once fewer than
    /// [`HIGH_WATER`] bytes wait.
    pub(crate) fn poll_drain(&self, cx: &Context<'_>) -> Poll<bool> {
        let mut st = self.lock();
        if st.closed {
            return Poll::Ready(false);
        }
        if st.buffered < HIGH_WATER {
            return Poll::Ready(true);
        }
        st.drain = Some(cx.waker().clone());
        Poll::Pending
    }

    /// The connection lets go of the streamed body: what waits is dropped,
    /// and later chunks are refused.
    fn close(&self) {
        let mut st = self.lock();
        st.closed = true;
        st.chunks.clear();
        st.buffered = 0;
        if let Some(w) = st.drain.take() {
            w.wake();
        }
    }

    /// The head, once; taking a complete response's leaves the state as new.
    fn take_head(&self) -> Option<Head> {
        let mut st = self.lock();
        let head = st.head.take();
        if head
            .as_ref()
            .is_some_and(|h| !matches!(h.body, HeadBody::Stream))
        {
            st.ended = false;
        }
        head
    }

    fn has_head(&self) -> bool {
        self.lock().head.is_some()
    }

    /// Whether the whole response (head and body) is here.
    fn is_complete(&self) -> bool {
        let st = self.lock();
        st.head.is_some() && st.ended
    }

    /// Prepares the exchange for the next request on the same connection.
    pub(crate) fn reset(&self) {
        if !self.streamed.swap(false, Ordering::Relaxed) {
            return;
        }
        let mut st = self.lock();
        st.head = None;
        st.chunks.clear();
        st.ended = false;
        st.waker = None;
        st.buffered = 0;
        st.closed = false;
        st.drain = None;
    }
}

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

/// The service future: polls the chain until a head is available.
pub(crate) struct Dispatch {
    chain: Option<ChainFuture>,
    exchange: Arc<Exchange>,
    /// Moves into the response body: the request is in flight until hyper
    /// drops the body.
    in_flight: Option<InFlight>,
    on_panic: PanicResponder,
    /// Set when the chain answered during [`Dispatch::new`]: what it
    /// returned, if it finished. The head waits in the exchange, so the
    /// future stays small for hyper to move.
    answered: Option<Option<Finished>>,
    /// A complete head the chain sent inside the service call, handed over
    /// directly: taking it from the exchange costs a lock on each side.
    held: Option<Head>,
}

impl Dispatch {
    pub(crate) fn new(
        chain: Chain,
        held: Option<Head>,
        exchange: Arc<Exchange>,
        in_flight: InFlight,
        on_panic: PanicResponder,
    ) -> Self {
        let (chain, answered) = match chain {
            Chain::Running(future) => (Some(future), None),
            Chain::Answered(done) => (None, Some(done)),
        };
        let mut d = Dispatch {
            chain,
            exchange,
            in_flight: Some(in_flight),
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
                && (d.held.is_some() || d.exchange.is_complete())
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
    /// hooks still need it) or a head is waiting in the exchange.
    fn step(&mut self, cx: &mut Context<'_>) -> Poll<Option<Finished>> {
        let Some(chain) = self.chain.as_mut() else {
            return Poll::Pending;
        };
        match std::panic::catch_unwind(AssertUnwindSafe(|| chain.as_mut().poll(cx))) {
            Ok(Poll::Ready(done)) => {
                self.chain = None;
                Poll::Ready(done)
            }
            Ok(Poll::Pending) if self.held.is_some() || self.exchange.has_head() => {
                Poll::Ready(None)
            }
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
        let head = match this.held.take() {
            Some(head) => Some(head),
            None => this.exchange.take_head(),
        };
        Poll::Ready(Ok(build(head, this, done)))
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
            exchange: d.exchange.clone(),
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
    if response.status().canonical_reason().is_none() {
        response
            .extensions_mut()
            .insert(hyper::ext::ReasonPhrase::from_static(b"unknown"));
    }
    let map = std::mem::replace(&mut *headers, HeaderMap::new());
    // The map `Response::new` made owns no memory: forgetting it leaks
    // nothing and skips its drop glue (~60 instructions per response). The
    // emptied box holds the next request's map.
    let made = std::mem::replace(response.headers_mut(), map);
    debug_assert_eq!(made.capacity(), 0);
    std::mem::forget(made);
    super::header_pool::give_box(headers);
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
        if let Kind::Stream { chain, exchange } = &mut self.kind {
            // Before the chain runs on: its writes from now on fail.
            exchange.close();
            if let Some(rest) = chain.take() {
                spawn_rest(rest);
            }
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
                        st.buffered -= c.len();
                        if st.buffered < HIGH_WATER
                            && let Some(w) = st.drain.take()
                        {
                            w.wake();
                        }
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Instant;

    use http::{HeaderName, Method};

    use super::super::pair::Pair;
    use super::super::watchdog::Activity;
    use super::*;
    use crate::request::Request;
    use crate::response::{Response, SharedFinish};

    struct Hook {
        early: bool,
        ran: Arc<AtomicUsize>,
    }

    impl SharedFinish for Hook {
        fn reads(&self) -> Option<&[HeaderName]> {
            Some(&[])
        }
        fn runs_early(&self) -> bool {
            self.early
        }
        fn finish(&self, _req: &Request, _res: &Response, _since: Option<Instant>) {
            self.ran.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// Pending at its first poll (waking its waker), ready at the next.
    struct YieldOnce(bool);

    impl Future for YieldOnce {
        type Output = ();
        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
            if std::mem::replace(&mut self.0, true) {
                return Poll::Ready(());
            }
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }

    /// A dispatch whose chain registers a finish hook (when `hook` is
    /// given), optionally yields once, then sends.
    fn dispatch(hook: Option<Hook>, yields: bool) -> Dispatch {
        let exchange = Arc::new(Exchange::default());
        let mut pair = Pair::empty();
        let (req, res) = pair.slots();
        let req = req.fill(Request::for_test(Method::GET, "/"));
        res.fill(Response::new(req, exchange.clone()));
        let chain: ChainFuture = Box::pin(async move {
            if yields {
                YieldOnce(false).await;
            }
            let (_, res) = pair.parts();
            if let Some(hook) = hook {
                res.on_finish_shared(Arc::new(hook), None);
            }
            res.send("done").unwrap();
            res.has_finish_hooks().then_some(pair)
        });
        let activity = Arc::new(Activity::default());
        Dispatch::new(
            Chain::Running(chain),
            None,
            exchange,
            InFlight::new(&activity),
            crate::final_handler::panic_response,
        )
    }

    fn poll(d: &mut Dispatch, waker: &Waker) -> Poll<HyperResponse> {
        let polled = Pin::new(d).poll(&mut Context::from_waker(waker));
        polled.map(|r| r.unwrap_or_else(|never| match never {}))
    }

    #[test]
    fn the_map_a_new_http_response_makes_owns_no_memory() {
        // `build` forgets it rather than dropping it.
        assert_eq!(http::Response::new(()).headers().capacity(), 0);
    }

    #[test]
    fn a_synchronous_chain_is_answered_while_the_dispatch_is_made() {
        let d = dispatch(None, false);
        assert!(d.answered.is_some());
        assert!(d.chain.is_none(), "the chain is done, its request dropped");
    }

    #[test]
    fn a_chain_that_waits_is_polled_again_by_the_connection() {
        let mut d = dispatch(None, true);
        assert!(d.answered.is_none(), "the first poll only started it");
        let Poll::Ready(response) = poll(&mut d, Waker::noop()) else {
            panic!("the second poll finishes the chain");
        };
        assert_eq!(response.status(), 200);
    }

    /// A dispatch whose chain registers a hook, and the hook's run count.
    fn with_hook(early: bool, yields: bool) -> (Dispatch, Arc<AtomicUsize>) {
        let ran = Arc::new(AtomicUsize::new(0));
        let hook = Hook {
            early,
            ran: ran.clone(),
        };
        (dispatch(Some(hook), yields), ran)
    }

    /// Polls until the dispatch answers.
    fn response(d: &mut Dispatch) -> HyperResponse {
        loop {
            if let Poll::Ready(r) = poll(d, Waker::noop()) {
                return r;
            }
        }
    }

    #[test]
    fn a_hook_that_may_run_early_runs_before_the_response_is_written() {
        let (mut d, ran) = with_hook(true, false);
        assert_eq!(ran.load(Ordering::SeqCst), 1);
        let response = response(&mut d);
        assert!(
            response.body().finisher.is_none(),
            "nothing is left to run when the body is done"
        );
        drop(response);
        assert_eq!(ran.load(Ordering::SeqCst), 1, "and only once");
    }

    #[test]
    fn other_hooks_run_once_the_body_is_done() {
        for yields in [false, true] {
            let (mut d, ran) = with_hook(false, yields);
            let response = response(&mut d);
            assert_eq!(ran.load(Ordering::SeqCst), 0, "not before the write");
            drop(response);
            assert_eq!(ran.load(Ordering::SeqCst), 1);
        }
    }

    #[test]
    fn a_hook_of_a_waiting_chain_runs_once_the_body_is_done() {
        let (mut d, ran) = with_hook(true, true);
        let response = response(&mut d);
        assert_eq!(ran.load(Ordering::SeqCst), 0);
        drop(response);
        assert_eq!(ran.load(Ordering::SeqCst), 1);
    }
}
