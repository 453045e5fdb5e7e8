//! The loop's reads and writes, on tokio's two traits alone (its `io-util`
//! extensions would enter every user's build).
//!
//! [`ReadBuffer`] reads into memory that is always initialised, so no read
//! needs `unsafe`: its bytes past the filled part are zeros or old bytes,
//! and room is zeroed as reads use it up, a byte per byte read.

use std::future::poll_fn;
use std::io;
use std::pin::Pin;
use std::task::Poll;

use bytes::{Bytes, BytesMut};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// Room made for a read, which every open connection keeps (zeroed, so
/// resident): a browser's head fits, a longer one takes more reads.
const READ_ROOM: usize = 4 * 1024;

/// A connection's read buffer: `bytes[..filled]` was read and not yet
/// taken; the rest is initialised room for the next read.
pub(super) struct ReadBuffer {
    bytes: BytesMut,
    filled: usize,
}

impl ReadBuffer {
    pub(super) fn new() -> ReadBuffer {
        ReadBuffer {
            bytes: BytesMut::new(),
            filled: 0,
        }
    }

    /// What was read and not yet taken.
    pub(super) fn filled(&self) -> &[u8] {
        &self.bytes[..self.filled]
    }

    /// Takes the first `len` read bytes, to share with what is made of them.
    pub(super) fn take(&mut self, len: usize) -> Bytes {
        debug_assert!(len <= self.filled);
        self.filled -= len;
        self.bytes.split_to(len).freeze()
    }

    /// Reads what the connection has; `Ok(0)` at its end. `stop` is asked
    /// before each poll: `None` once it says so.
    pub(super) async fn read<I: AsyncRead + Unpin>(
        &mut self,
        io: &mut I,
        stop: impl Fn() -> bool,
    ) -> Option<io::Result<usize>> {
        if self.bytes.len() - self.filled < READ_ROOM / 2 {
            // Only the bytes past the old room are zeroed: one per byte read.
            self.bytes.resize(self.filled + READ_ROOM, 0);
        }
        let room = &mut self.bytes[self.filled..];
        let n = poll_fn(|cx| {
            if stop() {
                return Poll::Ready(None);
            }
            let mut buf = ReadBuf::new(room);
            Pin::new(&mut *io)
                .poll_read(cx, &mut buf)
                .map(|done| Some(done.map(|()| buf.filled().len())))
        })
        .await;
        if let Some(Ok(n)) = n {
            self.filled += n;
        }
        n
    }
}

/// Writes all of `bytes`.
pub(super) async fn write_all<I: AsyncWrite + Unpin>(
    io: &mut I,
    mut bytes: &[u8],
) -> io::Result<()> {
    while !bytes.is_empty() {
        let n = poll_fn(|cx| Pin::new(&mut *io).poll_write(cx, bytes)).await?;
        if n == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        bytes = &bytes[n..];
    }
    Ok(())
}

/// Writes `out` and empties it, then flushes: a stream may keep what it
/// was given until then (tokio-rustls writes eagerly, but need not).
pub(super) async fn flush<I: AsyncWrite + Unpin>(io: &mut I, out: &mut Vec<u8>) -> io::Result<()> {
    if !out.is_empty() {
        write_all(io, out).await?;
        out.clear();
        poll_fn(|cx| Pin::new(&mut *io).poll_flush(cx)).await?;
    }
    Ok(())
}

/// Ends the connection's writing side.
pub(super) async fn shutdown<I: AsyncWrite + Unpin>(io: &mut I) -> io::Result<()> {
    poll_fn(|cx| Pin::new(&mut *io).poll_shutdown(cx)).await
}
