//! A read-side shim that lets request targets Node accepts get past hyper.
//!
//! Node's parser accepts `"` `<` `>` `\` `^` `` ` `` `{` `|` `}` in a request
//! target; hyper hands the target to `http::Uri`, which rejects them, and
//! answers a bare 400 before webfw runs. [`Sanitize`] wraps the connection
//! and percent-encodes exactly those bytes inside the request-target of every
//! HTTP/1.x request, following the message framing (head, then a body framed
//! by `Content-Length` or chunked encoding, then the next request). The raw
//! target is recorded in [`RawTargets`] so `req.originalUrl` shows what the
//! client sent, as in Express.
//!
//! Anything it cannot follow (the HTTP/2 preface, `CONNECT`, `Upgrade`, an
//! unparsable length, over-long lines) switches it to pass-through for the
//! rest of the connection: it never waits for bytes, never drops or reorders
//! them, and buffers at most the expansion of one read.
//!
//! A clean head that ends where its read ends (the usual request: one per
//! read) is not followed line by line: hyper parses it before it reads
//! again, and the service reports how hyper frames its body
//! ([`RawTargets::report`]), which the next read starts from.
//!
//! Three parts, each keeping one invariant against request smuggling (the
//! shim and hyper disagreeing on where a request starts or ends):
//! [`sniff`] tells the protocol from the first bytes, [`framing`] follows
//! the HTTP/1 framing and decides what to rewrite, [`io`] hands hyper the
//! result. This file holds what the reader and the service pass each other.
//!
//! A raw target is given only to the request it was read from: the reader
//! records it with the request's index on the connection, the service takes
//! one per request in order, and uses it only if escaping it gives exactly
//! the target hyper parsed. A body framing the service reports is used only
//! for the request it was reported for; for any other the framing is
//! unknown and the scanner stops following the connection.

mod framing;
mod io;
mod sniff;

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, Ordering};

use framing::escape;

#[cfg(fuzzing)]
pub use framing::fuzz_rewrite;
pub(crate) use io::Sanitize;
pub(crate) use sniff::{MANY_HEADER_LINES, Sniffed};

/// How hyper frames a request's body, as the service reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BodyFraming {
    /// No body.
    None,
    /// `Content-Length` bytes.
    Length(u64),
    /// Chunked transfer coding.
    Chunked,
    /// Not HTTP/1 after the head (an upgrade), or not known.
    Opaque,
}

impl BodyFraming {
    /// What hyper made of a request head: the body it will read, or an
    /// upgrade (hyper hands those an `OnUpgrade`).
    pub(crate) fn of(parts: &http::request::Parts, body: &hyper::body::Incoming) -> BodyFraming {
        if parts
            .extensions
            .get::<hyper::upgrade::OnUpgrade>()
            .is_some()
        {
            return BodyFraming::Opaque;
        }
        match http_body::Body::size_hint(body).exact() {
            Some(0) => BodyFraming::None,
            Some(n) => BodyFraming::Length(n),
            None => BodyFraming::Chunked,
        }
    }

    // hyper's longest body length is `u64::MAX - 2`: the two values above
    // are free for the other kinds.
    const CHUNKED: u64 = u64::MAX - 1;
    const OPAQUE: u64 = u64::MAX;

    fn encode(self) -> u64 {
        match self {
            BodyFraming::None => 0,
            BodyFraming::Length(n) => n.min(Self::CHUNKED - 1),
            BodyFraming::Chunked => Self::CHUNKED,
            BodyFraming::Opaque => Self::OPAQUE,
        }
    }

    fn decode(code: u64) -> BodyFraming {
        match code {
            0 => BodyFraming::None,
            Self::CHUNKED => BodyFraming::Chunked,
            Self::OPAQUE => BodyFraming::Opaque,
            n => BodyFraming::Length(n),
        }
    }
}

/// The raw targets of a connection's rewritten requests, shared between the
/// [`Sanitize`] reader (which records them) and the service (which takes them,
/// one call per request, in order); and the body framing of the last request
/// the service saw.
#[derive(Default)]
pub(crate) struct RawTargets {
    /// Set while `queue` is non-empty: the common case is one atomic load.
    any: AtomicBool,
    queue: Mutex<VecDeque<(u64, String)>>,
    /// How many requests the service has taken so far.
    served: AtomicU64,
    /// The request count `framing` belongs to (see [`RawTargets::report`]).
    framed: AtomicU64,
    /// A [`BodyFraming`], encoded.
    framing: AtomicU64,
    /// The status of a bare answer Node would give in place of the next
    /// response hyper writes (see `server/bare.rs`); 0 for none.
    bare: AtomicU16,
}

impl RawTargets {
    /// Asks for Node's bare answer with `status` (400 or 431) in place of
    /// the response hyper writes next; the connection closes after it.
    pub(crate) fn answer_bare(&self, status: u16) {
        self.bare.store(status, Ordering::Relaxed);
    }

    /// The bare answer asked for, or 0.
    #[inline]
    pub(crate) fn bare(&self) -> u16 {
        self.bare.load(Ordering::Relaxed)
    }

    fn push(&self, index: u64, raw: String) {
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        q.push_back((index, raw));
        self.any.store(true, Ordering::Release);
    }

    /// Called once per request, in order: the raw target of this request if
    /// the shim rewrote it into `target` (the target hyper parsed).
    pub(crate) fn next(&self, target: impl FnOnce() -> String) -> Option<String> {
        let index = self.served.fetch_add(1, Ordering::Relaxed);
        if !self.any.load(Ordering::Acquire) {
            return None;
        }
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        while q.front().is_some_and(|(i, _)| *i < index) {
            q.pop_front();
        }
        let raw = match q.front() {
            Some((i, _)) if *i == index => q.pop_front().map(|(_, raw)| raw),
            _ => None,
        };
        self.any.store(!q.is_empty(), Ordering::Release);
        drop(q);
        // Should the counts ever disagree, the raw target of another request
        // must not leak in: it is used only if it is what hyper parsed.
        raw.filter(|raw| escape(raw) == target())
    }

    /// Called by the service after [`RawTargets::next`]: how hyper frames
    /// the body of the request just taken.
    pub(crate) fn report(&self, framing: BodyFraming) {
        self.report_for(self.served.load(Ordering::Relaxed), framing);
    }

    /// The framing of the `count`th request (counting from 1).
    fn report_for(&self, count: u64, framing: BodyFraming) {
        self.framing.store(framing.encode(), Ordering::Relaxed);
        self.framed.store(count, Ordering::Release);
    }

    /// The reported framing of the `count`th request; `Opaque` when the
    /// report is of another request (counts out of step: stop rewriting).
    fn framing_of(&self, count: u64) -> BodyFraming {
        if self.framed.load(Ordering::Acquire) != count {
            return BodyFraming::Opaque;
        }
        BodyFraming::decode(self.framing.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests;
