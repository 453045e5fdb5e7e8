//! HTTP/1.x, served by webfw's own codec from a connection's first byte to
//! its close: one parser and one writer per connection, with Node's http
//! module (llhttp) as the oracle for every framing decision.
//!
//! - `webfw_http::h1`: the pure parser, a port of llhttp's grammar: a
//!   request head as Node reads it (refusals, body framing, keep-alive,
//!   upgrade) and the chunked coding, with its differential test against
//!   Node and its fuzz target.
//! - [`head`]: the request parts made of a head.
//! - [`body`]: a request body decoded as it arrives and fed to the app
//!   through a bounded channel, or dumped when the app drops it.
//! - [`write`]: a response head and its body's framing.
//! - [`connection`]: the loop that ties them together.
//! - [`io`]: the stream, the read buffer and the writes.

mod body;
mod connection;
mod head;
pub(crate) mod io;
mod write;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

pub(crate) use connection::Connection;

use super::graceful::Closable;

pin_project_lite::pin_project! {
    /// An HTTP/1 connection's future; a graceful shutdown sets the flag the
    /// loop looks at between requests and while it waits for bytes.
    pub(crate) struct Http1<F> {
        closing: Arc<AtomicBool>,
        #[pin]
        run: F,
    }
}

impl<F> Http1<F> {
    /// `run` is the loop's future, given `closing`.
    pub(crate) fn new(closing: Arc<AtomicBool>, run: F) -> Http1<F> {
        Http1 { closing, run }
    }
}

impl<F: Future<Output = ()>> Future for Http1<F> {
    type Output = ();

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.project().run.poll(cx)
    }
}

impl<F: Future<Output = ()>> Closable for Http1<F> {
    fn graceful_shutdown(self: Pin<&mut Self>) {
        self.closing.store(true, Ordering::Release);
    }
}
