//! The connection's own HTTP/1.1 loop, for the usual requests.
//!
//! hyper serves HTTP/1 through a general state machine. Under pipelined load
//! its code and webfw's together no longer fit the CPU's instruction cache,
//! and hyper's parse ran at half its speed (docs/PERFORMANCE.md, lever 24).
//! This loop answers the common case in a fraction of that code: it reads
//! into one buffer, answers every whole request the buffer holds ([`head`]),
//! writes the answers of a batch in one write ([`write`]), and reads again.
//!
//! Anything else is hyper's: a request [`head`] leaves to it, or an answer
//! [`write`] does not write (streamed, 204, 304, `Connection` headers…). The
//! loop then flushes what it wrote, puts the bytes it has not answered back
//! into the read shim ([`Sanitize::unread`]), leaves the answer it holds with
//! the connection's [`Requests`] and returns them; hyper serves the rest of
//! the connection, parsing that request again and writing the answer left
//! to it. Each request reaches the app once, through [`Requests::start`],
//! either way.

mod buffer;
mod head;
mod write;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use bytes::Bytes;
use tokio::io::{AsyncRead, AsyncWrite};

use super::graceful::Closable;
use super::requests::Requests;
use super::sanitize::{BodyFraming, Sanitize};
use super::watchdog::InFlight;
use crate::request::{IncomingBody, RawBody};
use buffer::{ReadBuffer, flush, shutdown, write_all};
use head::Parsed;
use write::{Clock, Written};

/// The most the loop keeps unwritten while it answers a pipelined batch.
const MAX_HELD: usize = 16 * 1024;

pin_project_lite::pin_project! {
    #[project = PhaseProj]
    enum Phase<F, C> {
        // Boxed: a connection hyper serves from the start is then the size
        // of hyper's connection alone.
        Own { run: Pin<Box<F>> },
        Hyper { #[pin] conn: C },
    }
}

pin_project_lite::pin_project! {
    /// An HTTP/1 connection: the loop's future until it hands the
    /// connection over, then hyper's connection. A graceful shutdown sets
    /// the flag the loop looks at, or shuts hyper's connection down.
    pub(super) struct Http1<F, C, M> {
        closing: Arc<AtomicBool>,
        // Makes hyper's connection of what the loop hands over.
        hand_over: Option<M>,
        #[pin]
        phase: Phase<F, C>,
    }
}

impl<F, C, M> Http1<F, C, M> {
    /// A connection the loop serves first: `run` is [`serve`]'s future,
    /// given `closing`.
    pub(super) fn own(closing: Arc<AtomicBool>, run: F, hand_over: M) -> Http1<F, C, M> {
        Http1 {
            closing,
            hand_over: Some(hand_over),
            phase: Phase::Own { run: Box::pin(run) },
        }
    }

    /// A connection hyper serves from the start.
    pub(super) fn hyper(closing: Arc<AtomicBool>, conn: C) -> Http1<F, C, M> {
        Http1 {
            closing,
            hand_over: None,
            phase: Phase::Hyper { conn },
        }
    }
}

impl<F, C, M, I> Future for Http1<F, C, M>
where
    F: Future<Output = Option<(Sanitize<I>, Requests)>>,
    C: Closable,
    M: FnOnce(Sanitize<I>, Requests) -> C,
{
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        loop {
            let this = self.as_mut().project();
            let conn = match this.phase.project() {
                PhaseProj::Hyper { conn } => return conn.poll(cx).map(|_| ()),
                PhaseProj::Own { run } => match std::task::ready!(run.as_mut().poll(cx)) {
                    Some((io, requests)) => match this.hand_over.take() {
                        Some(hand_over) => hand_over(io, requests),
                        None => return Poll::Ready(()),
                    },
                    None => return Poll::Ready(()),
                },
            };
            let closing = this.closing.load(Ordering::Acquire);
            self.as_mut().project().phase.set(Phase::Hyper { conn });
            if closing {
                self.as_mut().graceful_shutdown();
            }
        }
    }
}

impl<F, C, M, I> Closable for Http1<F, C, M>
where
    F: Future<Output = Option<(Sanitize<I>, Requests)>>,
    C: Closable,
    M: FnOnce(Sanitize<I>, Requests) -> C,
{
    fn graceful_shutdown(self: Pin<&mut Self>) {
        let this = self.project();
        this.closing.store(true, Ordering::Release);
        if let PhaseProj::Hyper { conn } = this.phase.project() {
            conn.graceful_shutdown();
        }
    }
}

/// Whether the loop takes the connection whose first bytes are `first`:
/// one whose first request is hyper's goes to hyper before the loop holds
/// anything.
pub(super) fn takes(first: &[u8]) -> bool {
    !matches!(head::parse(first, &mut head::Head::new()), Parsed::Other)
}

/// Serves the connection's usual requests; `Some` when the rest is
/// hyper's (see the module docs), `None` when the connection is done.
/// `pipeline_flush`: the answers of a batch leave in one write.
pub(super) async fn serve<I>(
    mut io: Sanitize<I>,
    requests: Requests,
    pipeline_flush: bool,
    closing: Arc<AtomicBool>,
) -> Option<(Sanitize<I>, Requests)>
where
    I: AsyncRead + AsyncWrite + Unpin,
{
    let mut head = head::Head::new();
    let mut buf = ReadBuffer::new();
    let mut out = Vec::new();
    let mut spare = http::HeaderMap::new();
    let mut clock = Clock::new();
    loop {
        while !buf.filled().is_empty() {
            if closing.load(Ordering::Acquire) {
                let _ = flush(&mut io, &mut out).await;
                return None;
            }
            match head::parse(buf.filled(), &mut head) {
                Parsed::Whole => {}
                Parsed::Partial => break,
                Parsed::Other => return hand_over(io, out, None, buf, requests).await,
            }
            let bytes = buf.take(head.len() + head.body_len());
            let Some(parts) = head.parts(&bytes, std::mem::take(&mut spare)) else {
                return hand_over(io, out, Some(bytes), buf, requests).await;
            };
            let (body, framing) = match head.body_len() {
                0 => (RawBody::Empty, BodyFraming::None),
                n => (
                    RawBody::Incoming(IncomingBody::read(bytes.slice(head.len()..))),
                    BodyFraming::Length(n as u64),
                ),
            };
            let in_flight = InFlight::new(requests.activity());
            let mut dispatch = requests.start(parts, body, in_flight, framing);
            // A chain that must wait first lets the answers already made go
            // out, so they do not wait with it.
            let now = std::future::poll_fn(|cx| Poll::Ready(Pin::new(&mut dispatch).poll(cx)));
            let Ok(mut answer) = match now.await {
                Poll::Ready(answer) => answer,
                Poll::Pending => {
                    flush(&mut io, &mut out).await.ok()?;
                    (&mut dispatch).await
                }
            };
            drop(dispatch);
            let close = closing.load(Ordering::Acquire);
            match write::usual(&mut out, &mut answer, close, &mut clock, &mut spare) {
                Written::Whole => {}
                Written::Head(body) => {
                    flush(&mut io, &mut out).await.ok()?;
                    write_all(&mut io, &body).await.ok()?;
                }
                Written::Not => {
                    requests.leave_answer(answer);
                    return hand_over(io, out, Some(bytes), buf, requests).await;
                }
            }
            // The end of the body: `on_finish` hooks run.
            drop(answer);
            if close {
                flush(&mut io, &mut out).await.ok()?;
                let _ = shutdown(&mut io).await;
                return None;
            }
            if !pipeline_flush || out.len() >= MAX_HELD {
                flush(&mut io, &mut out).await.ok()?;
            }
        }
        flush(&mut io, &mut out).await.ok()?;
        if buf.filled().len() >= head::OWN_HEAD_LIMIT {
            return hand_over(io, out, None, buf, requests).await;
        }
        let read = buf.read(&mut io, || closing.load(Ordering::Acquire)).await;
        clock.tick();
        match read {
            Some(Ok(0)) if !buf.filled().is_empty() => {
                // A head cut short: hyper says what that is.
                return hand_over(io, out, None, buf, requests).await;
            }
            Some(Ok(0) | Err(_)) | None => return None,
            Some(Ok(_)) => {}
        }
    }
}

/// Writes what the loop answered, puts back the bytes it did not answer
/// (`request`, the request whose answer is left to hyper or that `http`
/// refused, then `rest`) and gives the connection to hyper.
async fn hand_over<I>(
    mut io: Sanitize<I>,
    mut out: Vec<u8>,
    request: Option<Bytes>,
    rest: ReadBuffer,
    requests: Requests,
) -> Option<(Sanitize<I>, Requests)>
where
    I: AsyncRead + AsyncWrite + Unpin,
{
    flush(&mut io, &mut out).await.ok()?;
    // Each goes back ahead of what is there: the later bytes first.
    io.unread(rest.filled());
    if let Some(request) = request {
        io.unread(&request);
    }
    Some((io, requests))
}
