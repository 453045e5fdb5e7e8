//! One stream type for every kind of listening socket.
//!
//! The HTTP/1 codec, hyper's HTTP/2 connection and everything around them
//! are generic over the stream. Handing them a TCP
//! stream from one listener and a UNIX one from another would build all of it
//! twice into every app; one enum builds it once, for a branch per read and
//! write.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
#[cfg(unix)]
use tokio::net::UnixStream;

/// An accepted connection of a TCP or UNIX listener.
pub(super) enum Stream {
    Tcp(TcpStream),
    #[cfg(unix)]
    Unix(UnixStream),
}

/// Runs `$e` on whichever stream `$s` holds, pinned as `$io`.
macro_rules! each {
    ($s:expr, $io:ident => $e:expr) => {
        match $s.get_mut() {
            Stream::Tcp(s) => {
                let $io = Pin::new(s);
                $e
            }
            #[cfg(unix)]
            Stream::Unix(s) => {
                let $io = Pin::new(s);
                $e
            }
        }
    };
}

impl AsyncRead for Stream {
    #[inline]
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        each!(self, io => io.poll_read(cx, buf))
    }
}

impl AsyncWrite for Stream {
    #[inline]
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        each!(self, io => io.poll_write(cx, buf))
    }

    #[inline]
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        each!(self, io => io.poll_flush(cx))
    }

    #[inline]
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        each!(self, io => io.poll_shutdown(cx))
    }

    #[inline]
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        each!(self, io => io.poll_write_vectored(cx, bufs))
    }

    #[inline]
    fn is_write_vectored(&self) -> bool {
        match self {
            Stream::Tcp(s) => s.is_write_vectored(),
            #[cfg(unix)]
            Stream::Unix(s) => s.is_write_vectored(),
        }
    }
}
