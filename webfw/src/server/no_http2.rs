//! Without the `http2` feature: a connection that opens with the HTTP/2
//! preface (or chose `h2` through ALPN, from a hand-built rustls config) gets
//! what a Node HTTP/1.1 server answers to it. llhttp rejects
//! `PRI * HTTP/2.0` with Node's bare 400 and the connection closes; hyper's
//! HTTP/1 parser would close it without a word.

use std::future::poll_fn;
use std::pin::Pin;

use tokio::io::AsyncWrite;

use super::http1::io::node_bare;

/// Answers the preface with Node's 400 and closes the connection. (By hand:
/// `write_all` would put tokio's `io-util` into every user's build.)
pub(super) async fn refuse(mut io: impl AsyncWrite + Unpin) {
    let mut rest = node_bare(400);
    while !rest.is_empty() {
        match poll_fn(|cx| Pin::new(&mut io).poll_write(cx, rest)).await {
            Ok(n) if n > 0 => rest = &rest[n..],
            _ => break,
        }
    }
    let _ = poll_fn(|cx| Pin::new(&mut io).poll_shutdown(cx)).await;
}

// The module only exists without `http2`.
#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    #[tokio::test]
    async fn the_preface_gets_a_bare_400_and_the_connection_closes() {
        let (mut client, server) = tokio::io::duplex(1024);
        // The preface and an empty SETTINGS frame, as curl sends them.
        let preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00";
        client.write_all(preface).await.unwrap();
        let io = server;
        refuse(io).await;
        let mut answer = Vec::new();
        client.read_to_end(&mut answer).await.unwrap();
        assert_eq!(
            answer,
            b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n"
        );
    }
}
