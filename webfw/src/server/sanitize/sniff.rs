//! Protocol sniffing: whether a connection opens with the HTTP/2 preface
//! (a client with prior knowledge) or speaks HTTP/1.x.
//!
//! Sniffing consumes nothing. The bytes it reads go through the scanner
//! like any other and are kept, to be handed to hyper first and in order:
//! the protocol chosen parses exactly the bytes that were sniffed. HTTP/2
//! is chosen only on the whole preface; anything else is HTTP/1, whose
//! scanner then follows the connection from its first byte.

use std::io;
use std::pin::Pin;
use std::task::{Poll, ready};

use tokio::io::{AsyncRead, ReadBuf};

use super::Sanitize;

/// hyper parses up to this many header lines per head on the stack; more
/// need its heap-allocated parser (see [`Sniffed::Http1`]).
pub(crate) const MANY_HEADER_LINES: usize = 100;

/// What a connection's first bytes say about its protocol.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Sniffed {
    /// The HTTP/2 preface.
    Http2,
    /// HTTP/1.x; `many_headers` when the first read holds more than
    /// [`MANY_HEADER_LINES`] lines, as a client sending the thousands of
    /// headers Node takes does.
    Http1 { many_headers: bool },
}

impl<I> Sanitize<I> {
    /// Reads the connection's first bytes, until they either are the HTTP/2
    /// preface (a client with prior knowledge) or cannot be, and tells which
    /// protocol follows. The bytes read are kept for the next reads, so
    /// choosing this way costs nothing per request.
    pub(crate) async fn sniff(&mut self) -> io::Result<Sniffed>
    where
        I: AsyncRead + Unpin,
    {
        const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
        let mut seen: Vec<u8> = Vec::new();
        loop {
            let n = seen.len().min(PREFACE.len());
            if seen[..n] != PREFACE[..n] {
                break;
            }
            if n == PREFACE.len() {
                self.keep(seen);
                return Ok(Sniffed::Http2);
            }
            // The read goes to the stack and only what came is kept: a
            // connection waiting for its first bytes holds no buffer.
            let read = std::future::poll_fn(|cx| {
                let mut stack = [0u8; 8 * 1024];
                let mut buf = ReadBuf::new(&mut stack);
                ready!(Pin::new(&mut *self).poll_read(cx, &mut buf))?;
                seen.extend_from_slice(buf.filled());
                Poll::Ready(Ok::<_, io::Error>(buf.filled().len()))
            })
            .await?;
            if read == 0 {
                break;
            }
        }
        let lines = memchr::memchr_iter(b'\n', &seen).count();
        self.keep(seen);
        Ok(Sniffed::Http1 {
            many_headers: lines > MANY_HEADER_LINES,
        })
    }

    /// Queues bytes that were read (and scanned) ahead of the caller.
    fn keep(&mut self, mut bytes: Vec<u8>) {
        bytes.extend_from_slice(&self.pending[self.pending_pos..]);
        bytes.shrink_to_fit();
        self.pending = bytes;
        self.pending_pos = 0;
    }
}
