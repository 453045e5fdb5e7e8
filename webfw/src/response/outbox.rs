//! What a response has sent: the head, the body chunks, and whether the body
//! has ended. The response writes into its [`Outbox`]; the connection side
//! reads the shared [`Mailbox`] behind it (the server depends on this file,
//! never the reverse).
//!
//! A complete head committed while the chain still runs inside the service
//! call is *held* in the outbox instead of going through the mailbox: the
//! service call hands it on itself, and no lock is taken on either side.

use std::collections::VecDeque;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use bytes::{Bytes, BytesMut};
use http::HeaderMap;

#[cfg(feature = "http2")]
use super::session_memory::SessionMemory;

/// The body part of a committed head.
pub(crate) enum HeadBody {
    /// The whole body.
    Full(Bytes),
    /// No body (Content-Length 0 unless set otherwise).
    Empty,
    /// Chunks follow through the mailbox.
    Stream,
}

/// A committed status line and headers, with what follows them.
pub(crate) struct Head {
    pub(crate) status: u16,
    /// Boxed from the response's first header to the hand-off to hyper.
    pub(crate) headers: Box<HeaderMap>,
    pub(crate) body: HeadBody,
}

#[derive(Default)]
struct State {
    head: Option<Head>,
    /// Chunks waiting for the connection, each with what it costs.
    chunks: VecDeque<(Bytes, usize)>,
    /// Small chunks written while others wait, gathered in one buffer of
    /// [`GATHER`] bytes that follows `chunks`.
    gathered: BytesMut,
    ended: bool,
    waker: Option<Waker>,
    /// What `chunks` and `gathered` cost ([`cost`]).
    buffered: usize,
    /// The connection let go of the streamed body: it was written to the
    /// end, or the client went away.
    closed: bool,
    /// A handler waiting in `res.drain()`.
    drain: Option<Waker>,
    gate: Option<Gate>,
}

/// Buffered memory from which `res.write` asks the handler to wait for
/// `res.drain()` (Node's `writableHighWaterMark` is 16 KiB; a larger mark
/// costs nothing here and takes fewer wake-ups).
pub(crate) const HIGH_WATER: usize = 64 * 1024;

/// Buffered memory beyond which `res.write` fails: a handler that never
/// waits cannot make a slow client's response hold more than this.
pub(crate) const MAX_BUFFERED: usize = 16 * 1024 * 1024;

/// What a queued chunk holds besides its bytes: its place in the queue, its
/// allocation's header and rounding, its shared header once cloned.
pub(crate) const CHUNK_COST: usize = 64;

/// Chunks smaller than this, written while others wait, are copied into
/// one buffer instead of queued each on its own.
const SMALL_CHUNK: usize = 1024;

/// The size of the buffer small chunks are gathered in.
const GATHER: usize = 16 * 1024;

/// What a chunk of `len` bytes costs while it waits.
fn cost(len: usize) -> usize {
    len + CHUNK_COST
}

impl State {
    /// Queues a non-empty chunk; returns what it added to `buffered`.
    fn queue(&mut self, chunk: Bytes) -> usize {
        let before = self.buffered;
        let waiting = !self.chunks.is_empty() || !self.gathered.is_empty();
        if chunk.len() < SMALL_CHUNK && waiting {
            if self.gathered.len() + chunk.len() > GATHER {
                self.flush_gathered();
            }
            if self.gathered.is_empty() {
                self.gathered.reserve(GATHER);
                self.buffered += cost(self.gathered.capacity());
            }
            self.gathered.extend_from_slice(&chunk);
        } else {
            self.flush_gathered();
            let c = cost(chunk.len());
            self.buffered += c;
            self.chunks.push_back((chunk, c));
        }
        self.buffered - before
    }

    /// Moves the gathered small chunks to the queue, as one chunk.
    fn flush_gathered(&mut self) {
        if let Some(entry) = self.take_gathered() {
            self.chunks.push_back(entry);
        }
    }

    /// The gathered small chunks as one, with what it costs.
    fn take_gathered(&mut self) -> Option<(Bytes, usize)> {
        if self.gathered.is_empty() {
            return None;
        }
        let c = cost(self.gathered.capacity());
        Some((std::mem::take(&mut self.gathered).freeze(), c))
    }

    /// The next chunk for the connection, with what it cost.
    fn pop(&mut self) -> Option<(Bytes, usize)> {
        let entry = self.chunks.pop_front().or_else(|| self.take_gathered())?;
        self.buffered -= entry.1;
        Some(entry)
    }

    fn has_chunks(&self) -> bool {
        !self.chunks.is_empty() || !self.gathered.is_empty()
    }

    /// Drops every waiting chunk; returns what they cost.
    fn clear_chunks(&mut self) -> usize {
        self.chunks.clear();
        self.gathered = BytesMut::new();
        std::mem::take(&mut self.buffered)
    }
}

/// What became of a streamed chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pushed {
    Queued,
    /// The connection is gone: the chunk was dropped.
    Closed,
    /// [`MAX_BUFFERED`] is reached: the chunk was dropped.
    Full,
    /// The HTTP/2 connection (or its listener) holds its memory limit: the
    /// chunk was dropped.
    #[cfg(feature = "http2")]
    SessionFull(super::session_memory::Full),
}

/// Work that must finish before the head leaves (a session's save, a tower
/// layer's response); an error answers the request with a 500 page instead
/// of the head.
pub(crate) type Gate = Pin<Box<dyn Future<Output = Result<(), crate::Error>> + Send>>;

/// The part of an outbox the connection reads, shared with the response.
#[derive(Default)]
pub(crate) struct Mailbox {
    state: Mutex<State>,
    /// Whether the state needs [`Mailbox::reset`] before the next request:
    /// only a streamed response leaves anything behind (a complete one is
    /// cleared as its head is taken).
    streamed: AtomicBool,
    /// Whether a [`Gate`] waits in the state: one flag read per request
    /// instead of a lock.
    gated: AtomicBool,
    /// The HTTP/2 connection's memory, which queued chunks and large
    /// complete bodies count against (none on HTTP/1).
    #[cfg(feature = "http2")]
    memory: Option<Arc<SessionMemory>>,
}

/// What [`Mailbox::next_chunk`] found.
pub(crate) enum Chunk {
    /// A chunk to write.
    Data(Bytes),
    /// The body has ended and every chunk was taken.
    Ended,
    /// Nothing yet; the waker is woken when a chunk arrives.
    Waiting,
}

impl Mailbox {
    /// A mailbox of an HTTP/2 connection, whose responses count against
    /// `memory`.
    #[cfg(feature = "http2")]
    pub(crate) fn http2(memory: Arc<SessionMemory>) -> Mailbox {
        Mailbox {
            state: Mutex::default(),
            streamed: AtomicBool::new(false),
            gated: AtomicBool::new(false),
            memory: Some(memory),
        }
    }

    /// Counts `cost` more bytes against the connection's memory.
    #[inline]
    fn charge(&self, cost: usize) {
        #[cfg(feature = "http2")]
        if let Some(m) = &self.memory {
            m.add(cost);
        }
        #[cfg(not(feature = "http2"))]
        let _ = cost;
    }

    /// `cost` bytes counted by [`Mailbox::charge`] are gone.
    #[inline]
    fn uncharge(&self, cost: usize) {
        #[cfg(feature = "http2")]
        if let Some(m) = &self.memory {
            m.release(cost);
        }
        #[cfg(not(feature = "http2"))]
        let _ = cost;
    }

    /// Whether the HTTP/2 connection, or its listener, holds its memory
    /// limit: new streams are refused (never on HTTP/1).
    pub(crate) fn session_full(&self) -> bool {
        self.memory_full().is_some()
    }

    /// What a chunk pushed now would meet from the HTTP/2 connection's
    /// memory limits.
    #[inline]
    fn memory_full(&self) -> Option<Pushed> {
        #[cfg(feature = "http2")]
        if let Some(m) = &self.memory {
            return m.full().map(Pushed::SessionFull);
        }
        None
    }

    /// The chunk the connection takes: on HTTP/2 it goes on counting against
    /// the connection's memory until written.
    #[inline]
    fn hand_over(&self, chunk: Bytes, cost: usize) -> Bytes {
        #[cfg(feature = "http2")]
        if let Some(m) = &self.memory {
            return m.attach(chunk, cost);
        }
        let _ = cost;
        chunk
    }

    /// Counts a large complete body against the HTTP/2 connection's memory
    /// from the moment it is committed: inside the stream's service call
    /// when the handler answers at once, before the next stream is admitted.
    #[inline]
    fn charge_head(&self, head: &mut Head) {
        #[cfg(feature = "http2")]
        if let Some(m) = &self.memory
            && let HeadBody::Full(body) = &mut head.body
        {
            m.charge_body(body);
        }
        #[cfg(not(feature = "http2"))]
        let _ = head;
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding this lock cannot leave the state inconsistent
        // (every update is a single assignment or push), so poisoning is ignored.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn put_head(&self, head: Head) {
        let mut st = self.lock();
        if matches!(head.body, HeadBody::Stream) {
            self.streamed.store(true, Ordering::Relaxed);
        } else {
            st.ended = true;
        }
        st.head = Some(head);
        // A tower layer's middleware may wait for the head (`poll_head`).
        if let Some(w) = st.waker.take() {
            w.wake();
        }
    }

    fn push_chunk(&self, chunk: Bytes, end: bool) -> Pushed {
        self.streamed.store(true, Ordering::Relaxed);
        let mut st = self.lock();
        if st.closed {
            return Pushed::Closed;
        }
        let mut pushed = Pushed::Queued;
        if st.buffered >= MAX_BUFFERED {
            pushed = Pushed::Full;
        } else if let Some(full) = self.memory_full()
            && st.buffered >= HIGH_WATER
        {
            // Only a writer that does not wait for `drain` is refused: one
            // that does holds less than the high-water mark, and its
            // streams, fewer than the limit on streams, bound it.
            pushed = full;
        } else if !chunk.is_empty() {
            let added = st.queue(chunk);
            self.charge(added);
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

    /// Makes the head wait for `gate` (after any gate set before).
    #[cfg_attr(not(any(feature = "session", feature = "tower")), allow(dead_code))]
    pub(crate) fn set_gate(&self, gate: Gate) {
        let mut st = self.lock();
        st.gate = Some(match st.gate.take() {
            None => gate,
            Some(first) => Box::pin(async move {
                first.await?;
                gate.await
            }),
        });
        self.gated.store(true, Ordering::Relaxed);
    }

    /// Whether a gate waits: one flag read, the usual path's only cost.
    #[inline]
    pub(crate) fn is_gated(&self) -> bool {
        self.gated.load(Ordering::Relaxed)
    }

    /// Polls the gate, if any; a panic in it counts as an error.
    pub(crate) fn poll_gate(&self, cx: &mut Context<'_>) -> Poll<Result<(), crate::Error>> {
        if !self.gated.load(Ordering::Relaxed) {
            return Poll::Ready(Ok(()));
        }
        let Some(mut gate) = self.lock().gate.take() else {
            self.gated.store(false, Ordering::Relaxed);
            return Poll::Ready(Ok(()));
        };
        let polled = std::panic::catch_unwind(AssertUnwindSafe(|| gate.as_mut().poll(cx)))
            .unwrap_or_else(|_| Poll::Ready(Err(crate::Error::new("a head gate panicked"))));
        if polled.is_pending() {
            self.lock().gate = Some(gate);
        } else {
            self.gated.store(false, Ordering::Relaxed);
        }
        polled
    }

    /// A gate nobody polled any more (the client left before the head).
    pub(crate) fn take_gate(&self) -> Option<Gate> {
        if !self.gated.swap(false, Ordering::Relaxed) {
            return None;
        }
        self.lock().gate.take()
    }

    /// Ready once the connection has taken every chunk pushed so far
    /// (`true`) or the client went away (`false`): a streaming writer waits
    /// here so that at most one chunk is queued. The body polls the chain
    /// only once its queue is empty, so no wake-up is needed for that; the
    /// chain runs on in a task of its own once the body is gone, and its
    /// next poll sees `gone`.
    pub(crate) fn poll_drained(&self) -> Poll<bool> {
        let st = self.lock();
        if st.closed {
            Poll::Ready(false)
        } else if !st.has_chunks() {
            Poll::Ready(true)
        } else {
            Poll::Pending
        }
    }

    /// The connection lets go of the streamed body (written to its end, or
    /// the client went away): what waits is dropped, later chunks are
    /// refused, and a handler waiting to drain wakes.
    pub(crate) fn body_dropped(&self) {
        let mut st = self.lock();
        st.closed = true;
        let freed = st.clear_chunks();
        self.uncharge(freed);
        if let Some(w) = st.drain.take() {
            w.wake();
        }
    }

    /// The head, once; taking a complete response's leaves the state as new.
    pub(crate) fn take_head(&self) -> Option<Head> {
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

    /// The head once it is sent; until then `waker` is woken when it is.
    #[cfg(feature = "tower")]
    pub(crate) fn poll_head(&self, waker: &Waker) -> Option<Head> {
        let mut st = self.lock();
        match st.head.take() {
            Some(head) => {
                if !matches!(head.body, HeadBody::Stream) {
                    st.ended = false;
                }
                Some(head)
            }
            None => {
                st.waker = Some(waker.clone());
                None
            }
        }
    }

    /// Whether a head is waiting.
    pub(crate) fn has_head(&self) -> bool {
        self.lock().head.is_some()
    }

    /// Whether the whole response (head and body) is here.
    pub(crate) fn is_complete(&self) -> bool {
        let st = self.lock();
        st.head.is_some() && st.ended
    }

    /// The next chunk of a streamed body; when there is none yet, `waker`
    /// is kept to be woken by the next.
    pub(crate) fn next_chunk(&self, waker: &Waker) -> Chunk {
        let mut st = self.lock();
        if let Some((c, cost)) = st.pop() {
            if st.buffered < HIGH_WATER
                && let Some(w) = st.drain.take()
            {
                w.wake();
            }
            drop(st);
            return Chunk::Data(self.hand_over(c, cost));
        }
        if st.ended {
            return Chunk::Ended;
        }
        st.waker = Some(waker.clone());
        Chunk::Waiting
    }

    /// Whether a chunk or the end arrived since [`Mailbox::next_chunk`]
    /// found none.
    pub(crate) fn has_news(&self) -> bool {
        let st = self.lock();
        st.has_chunks() || st.ended
    }

    /// Ends the body: the writer is gone without ending it.
    pub(crate) fn end(&self) {
        self.lock().ended = true;
    }

    /// Prepares the mailbox for the next request on the same connection.
    /// Only a streamed response left anything to clear: the test is inlined,
    /// the clearing is not.
    #[inline(always)]
    pub(crate) fn reset(&self) {
        if self.streamed.swap(false, Ordering::Relaxed) {
            self.clear_streamed();
        }
    }

    #[cold]
    fn clear_streamed(&self) {
        let mut st = self.lock();
        st.head = None;
        let freed = st.clear_chunks();
        self.uncharge(freed);
        st.ended = false;
        st.waker = None;
        st.closed = false;
        st.drain = None;
    }
}

#[cfg(feature = "http2")]
impl Drop for Mailbox {
    fn drop(&mut self) {
        // Chunks of a response whose head never left (the client went away
        // first) are still counted.
        if self.memory.is_some() {
            let freed = self.lock().clear_chunks();
            self.uncharge(freed);
        }
    }
}

/// A response's side of the hand-off: the shared mailbox, and the head held
/// back while the chain runs inside the service call.
pub(crate) struct Outbox {
    mailbox: Arc<Mailbox>,
    /// Whether a complete head is kept in `held` rather than put in the
    /// mailbox (see the module's documentation).
    hold: bool,
    held: Option<Head>,
}

impl Outbox {
    pub(crate) fn new(mailbox: Arc<Mailbox>) -> Outbox {
        Outbox {
            mailbox,
            hold: false,
            held: None,
        }
    }

    /// Sends a head: held when holding and complete, else to the mailbox.
    pub(crate) fn put_head(&mut self, mut head: Head) {
        self.mailbox.charge_head(&mut head);
        if self.hold && !matches!(head.body, HeadBody::Stream) {
            self.held = Some(head);
        } else {
            self.mailbox.put_head(head);
        }
    }

    /// Sends a chunk of a streamed body, and ends the body when `end`.
    pub(crate) fn push_chunk(&self, chunk: Bytes, end: bool) -> Pushed {
        self.mailbox.push_chunk(chunk, end)
    }

    /// Makes the head wait for `gate` (after any gate set before).
    #[cfg_attr(not(feature = "session"), allow(dead_code))]
    pub(crate) fn set_gate(&self, gate: Gate) {
        self.mailbox.set_gate(gate);
    }

    /// The shared mailbox, for waiting on the connection to drain it.
    pub(crate) fn mailbox(&self) -> &Arc<Mailbox> {
        &self.mailbox
    }

    /// Keeps a complete head for [`Outbox::take_held`] from now on.
    pub(crate) fn hold(&mut self) {
        self.hold = true;
    }

    /// Stops keeping heads, and gives the one kept, if any.
    pub(crate) fn take_held(&mut self) -> Option<Head> {
        self.hold = false;
        self.held.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(body: HeadBody) -> Head {
        Head {
            status: 200,
            headers: Box::default(),
            body,
        }
    }

    #[test]
    fn a_held_complete_head_skips_the_mailbox_and_a_streamed_one_does_not() {
        let mailbox = Arc::new(Mailbox::default());
        let mut outbox = Outbox::new(mailbox.clone());
        outbox.hold();
        outbox.put_head(head(HeadBody::Empty));
        assert!(!mailbox.has_head());
        assert!(outbox.take_held().is_some());
        outbox.hold();
        outbox.put_head(head(HeadBody::Stream));
        assert!(outbox.take_held().is_none());
        assert!(mailbox.has_head() && !mailbox.is_complete());
    }

    #[test]
    fn chunks_come_out_in_order_then_the_end() {
        let mailbox = Arc::new(Mailbox::default());
        let outbox = Outbox::new(mailbox.clone());
        outbox.push_chunk(Bytes::from_static(b"a"), false);
        outbox.push_chunk(Bytes::from_static(b"b"), true);
        let waker = Waker::noop();
        assert!(matches!(mailbox.next_chunk(waker), Chunk::Data(c) if c == "a"));
        assert!(matches!(mailbox.next_chunk(waker), Chunk::Data(c) if c == "b"));
        assert!(matches!(mailbox.next_chunk(waker), Chunk::Ended));
        mailbox.reset();
        assert!(matches!(mailbox.next_chunk(waker), Chunk::Waiting));
        assert!(!mailbox.has_news());
    }

    #[cfg(feature = "http2")]
    #[test]
    fn on_a_full_http2_connection_only_writers_that_ignore_drain_are_refused() {
        use super::super::session_memory::{Full, ListenerMemory, SessionMemory};
        let memory = SessionMemory::new(HIGH_WATER, ListenerMemory::new(None));
        let mut body = Bytes::from(vec![0u8; HIGH_WATER]);
        memory.charge_body(&mut body);
        let mailbox = Arc::new(Mailbox::http2(memory));
        let outbox = Outbox::new(mailbox.clone());
        let chunk = Bytes::from(vec![0u8; HIGH_WATER / 2]);
        assert_eq!(outbox.push_chunk(chunk.clone(), false), Pushed::Queued);
        assert_eq!(outbox.push_chunk(chunk.clone(), false), Pushed::Queued);
        assert_eq!(
            outbox.push_chunk(chunk.clone(), false),
            Pushed::SessionFull(Full::Session(HIGH_WATER))
        );
        // The connection takes what waits: the writer may go on.
        assert!(matches!(mailbox.next_chunk(Waker::noop()), Chunk::Data(_)));
        assert_eq!(outbox.push_chunk(chunk, false), Pushed::Queued);
        drop(body);
    }

    fn take_all(mailbox: &Mailbox) -> Vec<Bytes> {
        let mut out = Vec::new();
        while let Chunk::Data(c) = mailbox.next_chunk(Waker::noop()) {
            out.push(c);
        }
        out
    }

    #[test]
    fn small_chunks_written_while_others_wait_are_gathered_in_order() {
        let mailbox = Arc::new(Mailbox::default());
        let outbox = Outbox::new(mailbox.clone());
        outbox.push_chunk(Bytes::from_static(b"first"), false);
        for _ in 0..3 {
            outbox.push_chunk(Bytes::from_static(b"ab"), false);
        }
        let large = Bytes::from(vec![b'L'; SMALL_CHUNK]);
        outbox.push_chunk(large.clone(), false);
        outbox.push_chunk(Bytes::from_static(b"z"), true);
        let chunks = take_all(&mailbox);
        let expected: [&[u8]; 4] = [b"first", b"ababab", &large, b"z"];
        assert_eq!(chunks, expected);
        assert!(matches!(mailbox.next_chunk(Waker::noop()), Chunk::Ended));
        assert_eq!(mailbox.lock().buffered, 0);
    }

    #[test]
    fn a_waiting_chunk_costs_its_bytes_and_a_fixed_overhead() {
        let mailbox = Arc::new(Mailbox::default());
        let outbox = Outbox::new(mailbox.clone());
        let chunk = Bytes::from(vec![0u8; SMALL_CHUNK]);
        let mut taken = 0;
        while outbox.push_chunk(chunk.clone(), false) == Pushed::Queued {
            taken += 1;
        }
        assert_eq!(taken, MAX_BUFFERED.div_ceil(SMALL_CHUNK + CHUNK_COST));
        // Gathered small chunks cost their buffer: far more of them fit.
        mailbox.body_dropped();
        mailbox.reset();
        let mut taken = 0;
        while outbox.push_chunk(Bytes::from_static(b"12345678"), false) == Pushed::Queued {
            taken += 1;
        }
        let buffers = MAX_BUFFERED.div_ceil(GATHER + CHUNK_COST);
        assert!(taken > (buffers - 1) * GATHER / 8, "{taken}");
        assert!(taken <= buffers * GATHER / 8, "{taken}");
    }
}
