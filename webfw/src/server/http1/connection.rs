//! One HTTP/1 connection's loop, from its first byte to its close: read a
//! head, start the request, feed its body to the app while the app runs,
//! write the answer, and go on to the next request, the answers of a
//! pipelined batch leaving in one write.

use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, ready};

use http_body::Body as _;
use tokio::io::{AsyncRead, AsyncWrite};

use webfw_http::h1::{Expect, Framing, RequestHead};

use super::body::{Fed, Incoming};
use super::head;
use super::io::{ReadBuffer, Stream, flush, node_bare, poll_flush, shutdown, write_all};
use super::write::{self, Asked, BodyFraming, Clock, LAST_CHUNK};
use crate::request::channel::BodyChannel;
use crate::request::{BodyArrival, IncomingBody, RawBody};
use crate::server::dispatch::HyperResponse;
use crate::server::requests::Requests;
use crate::server::watchdog::InFlight;
use crate::upgrade::{Upgradable, Upgraded};

/// The most the loop keeps unwritten while it answers a pipelined batch.
const MAX_HELD: usize = 16 * 1024;

/// A body longer than this is written from its own buffer rather than
/// copied behind the head.
const COPY_LIMIT: usize = 16 * 1024;

/// The largest body handed to the app whole when it came with its head.
const WHOLE_LIMIT: u64 = 64 * 1024;

/// How the request body stands once the app has its answer.
enum BodyEnd {
    /// Read to its end (or there was none).
    Done,
    /// The client stopped sending mid-body, or framed it wrong: Node
    /// answers this status and closes.
    Broken(u16),
}

/// The connection: its stream, buffers and requests.
pub(crate) struct Connection<I: AsyncWrite + Unpin> {
    pub(crate) io: Stream<I>,
    pub(crate) buf: ReadBuffer,
    pub(crate) requests: Requests,
    /// The answers of a pipelined batch leave in one write.
    pub(crate) pipeline_flush: bool,
    /// Set when the server shuts down gracefully.
    pub(crate) closing: Arc<AtomicBool>,
}

impl<I> Connection<I>
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    /// Serves the connection until it closes or is upgraded.
    pub(crate) async fn serve(self) {
        let Connection {
            mut io,
            mut buf,
            requests,
            pipeline_flush,
            closing,
        } = self;
        let stop = || closing.load(Ordering::Acquire);
        let mut spans = Vec::new();
        let mut out: Vec<u8> = Vec::new();
        let mut spare = http::HeaderMap::new();
        let mut clock = Clock::new();
        // The next head, when the last request looked ahead and found it.
        let mut ahead: Option<RequestHead> = None;
        let mut ahead_spans = Vec::new();
        // The read the last answer was made in: Node parses a whole read
        // before its answers leave (see `doomed`).
        let mut answered_in = None;
        loop {
            let mut closing_after = false;
            // The next whole head. The parser starts from the head's first
            // byte each time: it runs again only once the bytes come to an
            // empty line or grew by an eighth, so a head dripped a byte at a
            // time costs a bounded multiple of its length.
            let mut scanned = 0;
            let parsed = loop {
                if stop() {
                    let _ = flush(&mut io, &mut out).await;
                    return;
                }
                if let Some(parsed) = ahead.take() {
                    std::mem::swap(&mut spans, &mut ahead_spans);
                    break parsed;
                }
                if worth_parsing(buf.filled(), scanned) {
                    scanned = buf.filled().len();
                    match webfw_http::h1::parse_head(buf.filled(), &mut spans) {
                        Ok(Some(parsed)) => break parsed,
                        Ok(None) => {}
                        Err(_) if answered_in == Some(buf.burst()) => {
                            // Node refuses while an answer of the same read
                            // is still on its way: it closes without one.
                            return close(io, out).await;
                        }
                        Err(refused) => return refuse(io, out, refused.status).await,
                    }
                }
                if flush(&mut io, &mut out).await.is_err() {
                    return;
                }
                match buf.read(&mut io, stop).await {
                    Some(Ok(0)) => {
                        // A head cut short by the client's close is Node's 400.
                        if buf.filled().iter().any(|&b| b != b'\r' && b != b'\n') {
                            return refuse(io, out, 400).await;
                        }
                        return;
                    }
                    Some(Ok(_)) => clock.tick(),
                    Some(Err(_)) | None => return,
                }
            };
            if parsed.method(buf.filled()) == b"CONNECT" {
                // Express listens for no 'connect': Node destroys the socket.
                let _ = flush(&mut io, &mut out).await;
                return;
            }
            let bytes = buf.take(parsed.len);
            let Some((mut parts, raw_target)) =
                head::parts(&parsed, &bytes, &spans, std::mem::take(&mut spare))
            else {
                return refuse(io, out, 400).await;
            };
            drop(bytes);
            let asked = Asked {
                head: parts.method == http::Method::HEAD,
                http11: parts.version == http::Version::HTTP_11,
                keep_alive: parsed.keep_alive,
            };
            let (body, mut incoming) = match parsed.body {
                Framing::None => (RawBody::Empty, None),
                Framing::Length(n) if n <= WHOLE_LIMIT && n as usize <= buf.filled().len() => (
                    RawBody::Incoming(IncomingBody::read(buf.take(n as usize))),
                    None,
                ),
                Framing::Length(n) => {
                    let channel = Arc::new(BodyChannel::default());
                    let body = IncomingBody::channel(channel.clone(), Some(n));
                    (RawBody::Incoming(body), Some(Incoming::length(channel, n)))
                }
                Framing::Chunked => {
                    let channel = Arc::new(BodyChannel::default());
                    let body = IncomingBody::channel(channel.clone(), None);
                    let incoming = Incoming::chunked(channel, &parsed);
                    (RawBody::Incoming(body), Some(incoming))
                }
            };
            if incoming.is_none()
                && let Some(refused) = doomed(buf.filled(), &parsed, &mut ahead, &mut ahead_spans)
            {
                // Node parses the whole read before its answers leave, and
                // closes at what it refuses: this answer is lost if it is
                // not the read's first or waits for a body (as a body
                // parser's does), and the refusal is written only if no
                // answer is on its way.
                let first = answered_in != Some(buf.burst());
                if first && parsed.body == Framing::None {
                    ahead = None;
                    closing_after = true;
                } else if first {
                    return refuse(io, out, refused).await;
                } else {
                    return close(io, out).await;
                }
            }
            if parsed.expect == Expect::Continue {
                // Node answers the expectation as soon as the head is in.
                out.extend_from_slice(b"HTTP/1.1 100 Continue\r\n\r\n");
                if flush(&mut io, &mut out).await.is_err() {
                    return;
                }
            }
            let upgrade = parsed.upgrade.then(|| {
                let (upgradable, sender) = Upgradable::new();
                parts.extensions.insert(upgradable);
                sender
            });
            let activity = requests.activity().clone();
            let in_flight = match incoming {
                Some(_) => InFlight::with_body(&activity),
                None => InFlight::new(&activity),
            };
            let expect_unmet = parsed.expect == Expect::Unsupported;
            let mut dispatch = requests.start(parts, raw_target, body, in_flight, expect_unmet);
            // The app runs while its body comes in; answers already made
            // leave before a chain that must wait.
            let mut flushed = out.is_empty();
            let answer = poll_fn(|cx| {
                if let Poll::Ready(Ok(answer)) = Pin::new(&mut dispatch).poll(cx) {
                    return Poll::Ready(Ok(answer));
                }
                if !flushed {
                    match poll_flush(cx, &mut io, &mut out) {
                        Poll::Ready(Ok(())) => flushed = true,
                        Poll::Ready(Err(_)) => return Poll::Ready(Err(None)),
                        Poll::Pending => {}
                    }
                }
                match feed(cx, &mut incoming, &mut buf, &mut io, &activity) {
                    Poll::Ready(BodyEnd::Broken(status)) => Poll::Ready(Err(Some(status))),
                    _ => Poll::Pending,
                }
            })
            .await;
            drop(dispatch);
            let mut answer = match answer {
                Ok(answer) => answer,
                Err(Some(status)) => return refuse(io, out, status).await,
                Err(None) => return,
            };
            let asked = Asked {
                keep_alive: asked.keep_alive && !stop() && !closing_after,
                ..asked
            };
            answered_in = Some(buf.burst());
            let switched = answer.status() == http::StatusCode::SWITCHING_PROTOCOLS;
            let written = write::head(&mut out, &mut answer, asked, &mut clock, &mut spare);
            let whole = send_body(
                &mut answer,
                written.framing,
                &mut out,
                &mut io,
                &mut incoming,
                &mut buf,
                &activity,
            )
            .await;
            // The end of the body: `on_finish` hooks run, the request is
            // dropped and with it the app's end of its body.
            drop(answer);
            let Ok(whole) = whole else { return };
            // What the app left of its body is read and thrown away, once
            // its answer is out.
            if incoming.is_some() {
                if flush(&mut io, &mut out).await.is_err() {
                    return;
                }
                let end = poll_fn(|cx| feed(cx, &mut incoming, &mut buf, &mut io, &activity)).await;
                if let BodyEnd::Broken(_) = end {
                    let _ = flush(&mut io, &mut out).await;
                    return;
                }
            }
            if let Some(sender) = upgrade {
                let _ = flush(&mut io, &mut out).await;
                if switched && !sender.is_closed() {
                    let read_ahead = buf.take_all();
                    let _ = sender.send(Upgraded::new(Box::new(io), read_ahead));
                    return;
                }
                // Not upgraded: Node hands the bytes after an upgrade
                // request to its 'upgrade' listeners, and Express has
                // none, so nothing more is answered.
                drop(sender);
                return ignore_rest(io, buf, stop).await;
            }
            if !written.keep_alive || !whole {
                return close(io, out).await;
            }
            if (!pipeline_flush || out.len() >= MAX_HELD) && flush(&mut io, &mut out).await.is_err()
            {
                return;
            }
        }
    }
}

/// Feeds the request body in flight from the buffer and the socket; ready
/// once it has all come (or cannot), pending while the app holds a window
/// of it or the socket has no more yet.
fn feed<I: AsyncRead + Unpin>(
    cx: &mut Context<'_>,
    incoming: &mut Option<Incoming>,
    buf: &mut ReadBuffer,
    io: &mut I,
    activity: &Arc<crate::server::watchdog::Activity>,
) -> Poll<BodyEnd> {
    let Some(body) = incoming else {
        return Poll::Ready(BodyEnd::Done);
    };
    loop {
        match body.feed(buf, cx) {
            Fed::Done => {
                *incoming = None;
                activity.arrived();
                return Poll::Ready(BodyEnd::Done);
            }
            Fed::Full => return Poll::Pending,
            Fed::Malformed(status) => return Poll::Ready(BodyEnd::Broken(status)),
            Fed::More => {}
        }
        match ready!(buf.poll_read(cx, io)) {
            Ok(0) | Err(_) => {
                body.aborted();
                return Poll::Ready(BodyEnd::Broken(400));
            }
            Ok(_) => {}
        }
    }
}

/// Writes the body of `answer` as `framing` says, the request body fed
/// meanwhile (an app may answer while it reads); `Ok(false)` when the
/// body did not end where its framing said, so the connection must close;
/// `Err` when the client is gone.
async fn send_body<I: AsyncRead + AsyncWrite + Unpin>(
    answer: &mut HyperResponse,
    framing: BodyFraming,
    out: &mut Vec<u8>,
    io: &mut I,
    incoming: &mut Option<Incoming>,
    buf: &mut ReadBuffer,
    activity: &Arc<crate::server::watchdog::Activity>,
) -> std::io::Result<bool> {
    if let Some(body) = answer.body_mut().take_full() {
        return match framing {
            BodyFraming::Nothing => Ok(true),
            BodyFraming::Length(n) if n != body.len() as u64 => {
                let n = body.len().min(n as usize);
                put(out, io, &body[..n]).await?;
                Ok(false)
            }
            BodyFraming::Chunked => {
                write::chunk(out, &body);
                out.extend_from_slice(LAST_CHUNK);
                Ok(true)
            }
            BodyFraming::Length(_) => {
                put(out, io, &body).await?;
                Ok(true)
            }
            BodyFraming::Close => {
                put(out, io, &body).await?;
                Ok(false)
            }
        };
    }
    let mut sent: u64 = 0;
    let mut broken = false;
    poll_fn(|cx| {
        loop {
            if out.len() >= MAX_HELD {
                ready!(poll_flush(cx, io, out))?;
            }
            match Pin::new(answer.body_mut()).poll_frame(cx) {
                Poll::Ready(Some(Ok(frame))) => {
                    let Ok(data) = frame.into_data() else {
                        continue;
                    };
                    match framing {
                        BodyFraming::Nothing => {}
                        BodyFraming::Chunked => write::chunk(out, &data),
                        BodyFraming::Close => out.extend_from_slice(&data),
                        BodyFraming::Length(n) => {
                            let room = n.saturating_sub(sent).min(data.len() as u64) as usize;
                            out.extend_from_slice(&data[..room]);
                            sent += data.len() as u64;
                            broken |= sent > n;
                        }
                    }
                }
                Poll::Ready(None) => {
                    match framing {
                        BodyFraming::Chunked => out.extend_from_slice(LAST_CHUNK),
                        BodyFraming::Length(n) => broken |= sent != n,
                        BodyFraming::Close => broken = true,
                        BodyFraming::Nothing => {}
                    }
                    return Poll::Ready(Ok(!broken));
                }
                Poll::Pending => {
                    // What the app streamed so far goes out before it waits.
                    if let Poll::Ready(BodyEnd::Broken(_)) = feed(cx, incoming, buf, io, activity) {
                        return Poll::Ready(Err(std::io::ErrorKind::UnexpectedEof.into()));
                    }
                    ready!(poll_flush(cx, io, out))?;
                    return Poll::Pending;
                }
                Poll::Ready(Some(Err(never))) => match never {},
            }
        }
    })
    .await
}

/// Appends `bytes` to `out`, or writes both when `bytes` is large.
async fn put<I: AsyncWrite + Unpin>(
    out: &mut Vec<u8>,
    io: &mut I,
    bytes: &[u8],
) -> std::io::Result<()> {
    if bytes.len() > COPY_LIMIT {
        flush(io, out).await?;
        write_all(io, bytes).await
    } else {
        out.extend_from_slice(bytes);
        Ok(())
    }
}

/// Node's bare refusal of a request its parser refused, after the answers
/// already made; the connection closes.
async fn refuse<I: AsyncWrite + Unpin>(io: Stream<I>, mut out: Vec<u8>, status: u16) {
    out.extend_from_slice(node_bare(status));
    close(io, out).await;
}

/// Reads and drops what the client sends until it closes (or the server
/// stops, or the watchdog closes the idle connection).
async fn ignore_rest<I: AsyncRead + AsyncWrite + Unpin>(
    mut io: Stream<I>,
    mut buf: ReadBuffer,
    stop: impl Fn() -> bool,
) {
    loop {
        buf.take_all();
        match buf.read(&mut io, &stop).await {
            Some(Ok(1..)) => {}
            _ => return,
        }
    }
}

/// Whether the bytes read since the parser last ran (`scanned` of them
/// then) may change its answer: they end an empty line, or the head grew
/// by an eighth (a refusal for size or syntax comes then at the latest).
fn worth_parsing(buf: &[u8], scanned: usize) -> bool {
    if scanned == 0 || buf.len() >= scanned + scanned / 8 {
        return true;
    }
    let new = &buf[scanned.saturating_sub(3)..];
    memchr::memmem::find(new, b"\n\r\n").is_some() || memchr::memmem::find(new, b"\n\n").is_some()
}

/// What Node refuses right behind a request whose body is all in `rest`
/// (the buffer after it): the status, or `None` when what follows is fine
/// or not yet whole; a head that follows is kept in `ahead` (its spans in
/// `spans`), so it is parsed once.
fn doomed(
    rest: &[u8],
    parsed: &RequestHead,
    ahead: &mut Option<RequestHead>,
    spans: &mut Vec<webfw_http::h1::HeaderSpan>,
) -> Option<u16> {
    if rest.iter().all(|&b| b == b'\r' || b == b'\n') || parsed.upgrade {
        return None;
    }
    if !parsed.keep_alive {
        // llhttp's HPE_CLOSED_CONNECTION: bytes after a closing request.
        return Some(400);
    }
    match webfw_http::h1::parse_head(rest, spans) {
        Ok(head) => {
            *ahead = head;
            None
        }
        Err(refused) => Some(refused.status),
    }
}

/// Closes after the answers made, without a word more.
async fn close<I: AsyncWrite + Unpin>(mut io: Stream<I>, mut out: Vec<u8>) {
    let _ = flush(&mut io, &mut out).await;
    let _ = shutdown(&mut io).await;
}
