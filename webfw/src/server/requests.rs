//! A connection's requests: the one entry point for each request of a
//! connection, whether hyper parsed it or the connection's own HTTP/1 loop
//! ([`h1`](super::h1)) did, with the checks of the request head that Node
//! makes before any middleware runs.

use std::cell::Cell;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use hyper::body::Incoming;

use super::dispatch::{self, Dispatch, HyperResponse};
use super::methods;
use super::sanitize::{BodyFraming, RawTargets};
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
    raw_targets: Arc<RawTargets>,
    memory: Memory,
    shared: Arc<Mailbox>,
    /// An answer the connection's own HTTP/1 loop made but left to hyper to
    /// write ([`Requests::leave_answer`]): hyper parses that request again
    /// and gets this answer instead of running the app twice.
    left: Cell<Option<Box<HyperResponse>>>,
}

impl Requests {
    pub(super) fn new(
        app: Arc<ServedApp>,
        peer: SocketAddr,
        secure: bool,
        activity: Arc<Activity>,
        raw_targets: Arc<RawTargets>,
        memory: Memory,
    ) -> Requests {
        let shared = Arc::new(new_mailbox(&memory));
        Requests {
            app,
            peer,
            secure,
            activity,
            raw_targets,
            memory,
            shared,
            left: Cell::new(None),
        }
    }

    /// The activity the connection's deadlines watch.
    pub(super) fn activity(&self) -> &Arc<Activity> {
        &self.activity
    }

    /// Leaves `answer` for hyper to write: the connection's own loop stops
    /// at a response it does not write itself, puts the request's bytes
    /// back and hands the connection to hyper.
    pub(super) fn leave_answer(&self, answer: HyperResponse) {
        self.left.set(Some(Box::new(answer)));
    }

    /// Starts one request. `framing`: how an HTTP/1 connection frames its
    /// body, reported to the read shim.
    #[inline(always)]
    pub(super) fn start(
        &self,
        mut parts: http::request::Parts,
        body: RawBody,
        in_flight: InFlight,
        framing: BodyFraming,
    ) -> Dispatch {
        let shared = &self.shared;
        let raw_targets = &self.raw_targets;
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
        let raw_target = raw_targets.next(|| match parts.uri.scheme() {
            Some(_) => parts.uri.to_string(),
            None => parts
                .uri
                .path_and_query()
                .map_or("", |p| p.as_str())
                .to_owned(),
        });
        // Node counts the target as received, not as escaped.
        let escaped_len = raw_target.as_ref().map_or(0, |raw| {
            let target = parts.uri.path_and_query().map_or(1, |p| p.as_str().len());
            target.saturating_sub(raw.len())
        });
        // Requests Node rejects before Express runs.
        let rejected = if parts.version >= http::Version::HTTP_2 {
            // Node refuses new streams once a session holds its
            // `maxSessionMemory`: a client that stops reading gets no more.
            shared.session_full().then_some(Rejection::Busy)
        } else {
            // The read shim may have left this head to hyper: it goes on
            // from the body hyper expects.
            raw_targets.report(framing);
            let head = head_size(&parts);
            if !methods::node_accepts(&parts.method) {
                Some(Rejection::BadRequest)
            } else if head.size.saturating_sub(escaped_len) >= MAX_HEAD_SIZE {
                Some(Rejection::HeadTooLarge)
            } else if parts.version == http::Version::HTTP_11 && !head.has_host {
                Some(Rejection::BadRequest)
            } else if head.has_expect
                && parts.version == http::Version::HTTP_11
                && !methods::expects_only_continue(&parts.headers)
            {
                Some(Rejection::ExpectationFailed)
            } else {
                None
            }
        };
        // Counted in full above, as Node's parser counts them.
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
            rejected.map(|rejection| move |res: &mut Response| reject(res, rejection, raw_targets)),
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

/// hyper's entry point for each request it parses.
impl hyper::service::Service<http::Request<Incoming>> for Requests {
    type Response = HyperResponse;
    type Error = Infallible;
    type Future = Answer;

    fn call(&self, req: http::Request<Incoming>) -> Answer {
        if let Some(left) = self.left.take() {
            return Answer::Made(Some(*left));
        }
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
        let framing = if parts.version < http::Version::HTTP_2 {
            BodyFraming::of(&parts, &body)
        } else {
            BodyFraming::Opaque
        };
        // Node dumps an HTTP/1 body nobody read and keeps the connection;
        // after an unmet `Expect: 100-continue` the client may not send it.
        let dump_unread = arrival.is_some()
            && parts.version < http::Version::HTTP_2
            && !parts.headers.contains_key(http::header::EXPECT);
        let body = RawBody::Incoming(IncomingBody::new(body, arrival, dump_unread));
        Answer::Running(self.start(parts, body, in_flight, framing))
    }
}

/// What hyper awaits for a request: the app's answer, or the one the
/// connection's own loop made before handing the connection over.
pub(super) enum Answer {
    Running(Dispatch),
    Made(Option<HyperResponse>),
}

impl Future for Answer {
    type Output = Result<HyperResponse, Infallible>;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            Answer::Running(dispatch) => Pin::new(dispatch).poll(cx),
            Answer::Made(made) => match made.take() {
                Some(response) => Poll::Ready(Ok(response)),
                None => Poll::Pending,
            },
        }
    }
}

/// How many header lines of a request Node puts in `req.headers`
/// (`maxHeadersCount`, 2000 names and values): the rest are dropped, not
/// refused.
const NODE_MAX_HEADERS: usize = 1000;

/// Keeps the first [`NODE_MAX_HEADERS`] header lines, as Node does. hyper's
/// map groups the lines of one name, so a name repeated after others keeps
/// its later lines ahead of theirs.
#[cold]
fn keep_first_headers(headers: &mut http::HeaderMap) {
    let mut kept = http::HeaderMap::with_capacity(NODE_MAX_HEADERS);
    for (name, value) in headers.iter().take(NODE_MAX_HEADERS) {
        kept.append(name.clone(), value.clone());
    }
    *headers = kept;
}

/// What [`head_size`] finds in one pass over a request head.
struct HeadFacts {
    /// The size Node counts against its limit: the target and every header
    /// name and value, without separators or line ends (Node's parser
    /// counts the bytes of those fields only); a head counting 16,384 or
    /// more is refused.
    size: usize,
    has_host: bool,
    has_expect: bool,
}

/// The size of a request head as Node counts it, and whether it has `Host`
/// and `Expect` headers: one pass for all three.
#[inline(always)]
fn head_size(parts: &http::request::Parts) -> HeadFacts {
    let mut size = parts.uri.path_and_query().map_or(1, |p| p.as_str().len());
    let mut has_host = false;
    let mut has_expect = false;
    for (name, value) in &parts.headers {
        size += name.as_str().len() + value.len();
        has_host |= name == http::header::HOST;
        has_expect |= name == http::header::EXPECT;
    }
    HeadFacts {
        size,
        has_host,
        has_expect,
    }
}

/// Requests Node answers before Express runs.
#[derive(Clone, Copy)]
enum Rejection {
    /// A method outside Node's list, or HTTP/1.1 without `Host`.
    BadRequest,
    /// A head over [`MAX_HEAD_SIZE`].
    HeadTooLarge,
    /// An `Expect` other than `100-continue`.
    ExpectationFailed,
    /// A new HTTP/2 stream on a connection over its session memory.
    Busy,
}

/// Node's answer to a request its parser rejects: 400 and 431 go out as
/// Node's bare status line ([`bare`](super::bare)) and close the connection; an unmet
/// `Expect` gets Node's 417, whose empty body is chunked on a connection
/// kept open; a stream refused for its session's memory gets 503.
fn reject(res: &mut Response, rejection: Rejection, raw_targets: &RawTargets) {
    let status = match rejection {
        Rejection::BadRequest => 400,
        Rejection::HeadTooLarge => 431,
        Rejection::ExpectationFailed => 417,
        Rejection::Busy => 503,
    };
    res.status(status);
    if status == 400 || status == 431 {
        raw_targets.answer_bare(status);
        res.headers_mut().insert(
            http::header::CONNECTION,
            http::HeaderValue::from_static("close"),
        );
    }
    let _ = res.write(bytes::Bytes::new());
    let _ = res.end();
}
