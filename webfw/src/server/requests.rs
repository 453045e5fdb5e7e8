//! A connection's requests: the one entry point for each request of a
//! connection, whether webfw's HTTP/1 codec ([`http1`](super::http1)) or
//! hyper's HTTP/2 parsed it, with the checks Node makes before any
//! middleware runs that the codec leaves to it.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use hyper::body::Incoming;

use super::dispatch::{self, Dispatch, HyperResponse};
use super::watchdog::{Activity, InFlight};
use crate::app::ServedApp;
use crate::request::{BodyArrival, IncomingBody, RawBody};
use crate::response::Response;
use crate::response::outbox::Mailbox;

/// Node's limit on the size of a request head: a head whose target and
/// header names and values come to this many bytes or more gets 431 (Node
/// counts neither the method, the separators nor the line ends).
///
/// ```
/// assert_eq!(webfw::MAX_HEAD_SIZE, 16 * 1024);
/// ```
pub const MAX_HEAD_SIZE: usize = 16 * 1024;

/// What an HTTP/2 connection's responses count against (none on HTTP/1).
#[cfg(feature = "http2")]
pub(super) type Memory = Option<Arc<crate::response::session_memory::SessionMemory>>;
#[cfg(not(feature = "http2"))]
pub(super) type Memory = Option<Infallible>;

/// The requests of one connection: what each needs from the connection,
/// and the mailbox they take turns with.
pub(super) struct Requests {
    app: Arc<ServedApp>,
    peer: SocketAddr,
    secure: bool,
    activity: Arc<Activity>,
    memory: Memory,
    shared: Arc<Mailbox>,
}

impl Requests {
    pub(super) fn new(
        app: Arc<ServedApp>,
        peer: SocketAddr,
        secure: bool,
        activity: Arc<Activity>,
        memory: Memory,
    ) -> Requests {
        let shared = Arc::new(new_mailbox(&memory));
        Requests {
            app,
            peer,
            secure,
            activity,
            memory,
            shared,
        }
    }

    /// The activity the connection's deadlines watch.
    pub(super) fn activity(&self) -> &Arc<Activity> {
        &self.activity
    }

    /// Starts one request. `raw_target`: the target as received, when the
    /// `Uri` had to escape it; `expect_unmet`: an HTTP/1.1 `Expect` other
    /// than `100-continue` (the codec reads it as Node does), Node's 417.
    #[inline(always)]
    pub(super) fn start(
        &self,
        mut parts: http::request::Parts,
        raw_target: Option<String>,
        body: RawBody,
        in_flight: InFlight,
        expect_unmet: bool,
    ) -> Dispatch {
        let shared = &self.shared;
        // Reuse the connection's mailbox when no earlier request still holds it.
        let mailbox = if Arc::strong_count(shared) == 1 {
            // Pairs with the release of the last other handle's drop: what
            // the earlier request's response did to the mailbox is seen.
            std::sync::atomic::fence(std::sync::atomic::Ordering::Acquire);
            shared.reset();
            shared.clone()
        } else {
            Arc::new(new_mailbox(&self.memory))
        };
        // Requests Node answers before Express runs (the codec refused what
        // its parser refuses).
        let rejected = if parts.version >= http::Version::HTTP_2 {
            // Node refuses new streams once a session holds its
            // `maxSessionMemory`: a client that stops reading gets no more.
            shared.session_full().then_some(Rejection::Busy)
        } else {
            expect_unmet.then_some(Rejection::ExpectationFailed)
        };
        if parts.headers.len() > NODE_MAX_HEADERS {
            keep_first_headers(&mut parts.headers);
        }
        dispatch::start(
            &self.app,
            parts,
            raw_target,
            body,
            self.peer,
            self.secure,
            mailbox,
            Some(in_flight),
            rejected.map(|rejection| move |res: &mut Response| reject(res, rejection)),
        )
    }
}

/// A mailbox for a request's response: on HTTP/2, one that counts against
/// the session's memory.
fn new_mailbox(memory: &Memory) -> Mailbox {
    #[cfg(feature = "http2")]
    if let Some(memory) = memory {
        return Mailbox::http2(memory.clone());
    }
    #[cfg(not(feature = "http2"))]
    let _ = memory;
    Mailbox::default()
}

/// hyper's entry point for each HTTP/2 request it parses.
impl hyper::service::Service<http::Request<Incoming>> for Requests {
    type Response = HyperResponse;
    type Error = Infallible;
    type Future = Dispatch;

    fn call(&self, req: http::Request<Incoming>) -> Dispatch {
        let activity = &self.activity;
        // A request whose body is still to come is held to the request
        // timeout until the body has arrived.
        let (in_flight, arrival) = if http_body::Body::is_end_stream(req.body()) {
            (InFlight::new(activity), None)
        } else {
            let arrival: Arc<dyn BodyArrival> = activity.clone();
            (InFlight::with_body(activity), Some(arrival))
        };
        let (parts, body) = req.into_parts();
        let body = RawBody::Incoming(IncomingBody::new(body, arrival));
        self.start(parts, None, body, in_flight, false)
    }
}

/// How many header lines of a request Node puts in `req.headers`
/// (`maxHeadersCount`, 2000 names and values): the rest are dropped, not
/// refused.
pub(super) const NODE_MAX_HEADERS: usize = 1000;

/// Keeps the first [`NODE_MAX_HEADERS`] header lines of an HTTP/2 request
/// (the HTTP/1 codec keeps exactly the first lines). The map groups the
/// lines of one name, so a name repeated after others keeps its later
/// lines ahead of theirs.
#[cold]
fn keep_first_headers(headers: &mut http::HeaderMap) {
    let mut kept = http::HeaderMap::with_capacity(NODE_MAX_HEADERS);
    for (name, value) in headers.iter().take(NODE_MAX_HEADERS) {
        kept.append(name.clone(), value.clone());
    }
    *headers = kept;
}

/// Requests Node answers before Express runs.
#[derive(Clone, Copy)]
enum Rejection {
    /// An `Expect` other than `100-continue`.
    ExpectationFailed,
    /// A new HTTP/2 stream on a connection over its session memory.
    Busy,
}

/// Node's answer to a request it refuses before Express runs: an unmet
/// `Expect` gets Node's 417, whose empty body is chunked on a connection
/// kept open; a stream refused for its session's memory gets 503.
fn reject(res: &mut Response, rejection: Rejection) {
    let status = match rejection {
        Rejection::ExpectationFailed => 417,
        Rejection::Busy => 503,
    };
    res.status(status);
    let _ = res.write(bytes::Bytes::new());
    let _ = res.end();
}
