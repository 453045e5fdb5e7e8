//! The memory HTTP/2 responses hold until they are written, counted against
//! their connection's budget ([`crate::ListenOptions::http2_max_session_memory`])
//! and their listener's ([`crate::ListenOptions::http2_max_total_memory`]).
//!
//! A body is charged when the response commits it, inside the stream's
//! service call when the handler answers at once, so the next stream's
//! admission already sees it. The charge travels with the bytes
//! ([`Bytes::from_owner`]) and is released when the last copy is gone: once
//! the HTTP/2 layer has written them, or the stream or connection is gone.
//! Handing bytes to hyper releases nothing, since hyper keeps them in its
//! send buffers for as long as the client does not read.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bytes::Bytes;

/// Complete bodies below this size are not charged: the stream limit bounds
/// them well enough, and the usual response pays nothing.
pub(crate) const CHARGED_BODY: usize = 16 * 1024;

/// Which memory limit is reached, and its size in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Full {
    /// The connection's `http2_max_session_memory`.
    Session(usize),
    /// The listener's `http2_max_total_memory`.
    Listener(usize),
}

/// What a listener's HTTP/2 connections hold together, and its limit.
pub(crate) struct ListenerMemory {
    held: AtomicUsize,
    limit: usize,
}

impl ListenerMemory {
    pub(crate) fn new(limit: Option<usize>) -> Arc<ListenerMemory> {
        Arc::new(ListenerMemory {
            held: AtomicUsize::new(0),
            limit: limit.unwrap_or(usize::MAX),
        })
    }
}

/// What one HTTP/2 connection's responses hold, and its limit.
pub(crate) struct SessionMemory {
    held: AtomicUsize,
    limit: usize,
    listener: Arc<ListenerMemory>,
}

impl SessionMemory {
    pub(crate) fn new(limit: usize, listener: Arc<ListenerMemory>) -> Arc<SessionMemory> {
        Arc::new(SessionMemory {
            held: AtomicUsize::new(0),
            limit,
            listener,
        })
    }

    /// The limit the connection or its listener holds, if any: new streams
    /// then get 503, and `res.write` fails for a writer that does not wait
    /// for `drain`, until the client reads.
    pub(crate) fn full(&self) -> Option<Full> {
        if self.held.load(Ordering::Relaxed) >= self.limit {
            Some(Full::Session(self.limit))
        } else if self.listener.held.load(Ordering::Relaxed) >= self.listener.limit {
            Some(Full::Listener(self.listener.limit))
        } else {
            None
        }
    }

    /// Counts `cost` more bytes held.
    pub(crate) fn add(&self, cost: usize) {
        self.held.fetch_add(cost, Ordering::Relaxed);
        self.listener.held.fetch_add(cost, Ordering::Relaxed);
    }

    /// `cost` bytes counted by [`SessionMemory::add`] are free again.
    pub(crate) fn release(&self, cost: usize) {
        self.held.fetch_sub(cost, Ordering::Relaxed);
        self.listener.held.fetch_sub(cost, Ordering::Relaxed);
    }

    /// `bytes`, whose `cost` is already counted, released when the last copy
    /// of them is dropped.
    pub(crate) fn attach(self: &Arc<Self>, bytes: Bytes, cost: usize) -> Bytes {
        Bytes::from_owner(Charged {
            bytes,
            cost,
            memory: self.clone(),
        })
    }

    /// A complete body: a large one is counted until its last copy is gone.
    #[inline]
    pub(crate) fn charge_body(self: &Arc<Self>, body: &mut Bytes) {
        if body.len() >= CHARGED_BODY {
            let cost = body.len();
            self.add(cost);
            *body = self.attach(std::mem::take(body), cost);
        }
    }
}

/// Bytes that count against a connection's memory until dropped.
struct Charged {
    bytes: Bytes,
    cost: usize,
    memory: Arc<SessionMemory>,
}

impl AsRef<[u8]> for Charged {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl Drop for Charged {
    fn drop(&mut self) {
        self.memory.release(self.cost);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_charge_lasts_as_long_as_any_copy_of_the_bytes() {
        let listener = ListenerMemory::new(Some(3 << 20));
        let memory = SessionMemory::new(2 << 20, listener.clone());
        let mut body = Bytes::from(vec![b'x'; 1 << 20]);
        memory.charge_body(&mut body);
        let mut small = Bytes::from_static(b"small");
        memory.charge_body(&mut small);
        assert_eq!(memory.held.load(Ordering::Relaxed), 1 << 20);
        let tail = body.slice(100..);
        drop(body);
        assert_eq!(memory.full(), None);
        let other = SessionMemory::new(2 << 20, listener.clone());
        let mut second = Bytes::from(vec![b'y'; 2 << 20]);
        other.charge_body(&mut second);
        assert_eq!(other.full(), Some(Full::Session(2 << 20)));
        assert_eq!(memory.full(), Some(Full::Listener(3 << 20)));
        drop(second);
        assert_eq!(listener.held.load(Ordering::Relaxed), 1 << 20);
        drop(tail);
        assert_eq!(listener.held.load(Ordering::Relaxed), 0);
        assert_eq!(memory.held.load(Ordering::Relaxed), 0);
    }
}
