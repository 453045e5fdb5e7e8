//! Where a server listens: a port shared with `reuse_port`, a socket bound
//! beforehand (`from_listener`, as systemd or listenfd hand one over), and
//! the error for a port in use.

use crate::common;

use std::collections::HashSet;

use common::{guard, request, send_raw};
use webfw::ListenOptions;
use webfw::prelude::*;

/// An app that answers with its own name.
fn named(name: &'static str) -> App {
    let mut app = webfw::app();
    app.get("/", move |_: &mut Request, res: &mut Response| {
        res.send(name)
    });
    app
}

async fn body_at(addr: std::net::SocketAddr) -> String {
    let raw = guard("a response", send_raw(addr, &request("GET", "/", &[]))).await;
    common::parse_response(&raw, false).text()
}

#[tokio::test]
async fn two_servers_with_reuse_port_share_the_port_and_both_answer() {
    let opts = || ListenOptions::port(0).host("127.0.0.1").reuse_port(true);
    let first = named("first").bind(opts()).await.unwrap();
    let addr = first.local_addr().unwrap();
    let same_port = ListenOptions::port(addr.port())
        .host("127.0.0.1")
        .reuse_port(true);
    let second = named("second").bind(same_port).await.unwrap();
    assert_eq!(second.local_addr(), Some(addr));
    // The kernel spreads connections by their source port: over many
    // connections both servers are reached (all 400 landing on one has a
    // probability of 2^-399).
    let mut seen = HashSet::new();
    for _ in 0..400 {
        seen.insert(body_at(addr).await);
        if seen.len() == 2 {
            break;
        }
    }
    assert_eq!(
        seen,
        HashSet::from(["first".to_owned(), "second".to_owned()])
    );
    // One stops; the other goes on serving the port alone.
    first.shutdown().await;
    for _ in 0..20 {
        assert_eq!(body_at(addr).await, "second");
    }
    second.shutdown().await;
}

#[tokio::test]
async fn a_port_in_use_without_reuse_port_says_what_to_write() {
    let first = named("first")
        .bind(ListenOptions::port(0).host("127.0.0.1"))
        .await
        .unwrap();
    let port = first.local_addr().unwrap().port();
    let err = match named("second")
        .bind(ListenOptions::port(port).host("127.0.0.1"))
        .await
    {
        Ok(_) => panic!("a second bind of port {port} succeeded"),
        Err(e) => e,
    };
    assert_eq!(err.kind(), std::io::ErrorKind::AddrInUse);
    assert_eq!(
        err.to_string(),
        format!(
            "listen EADDRINUSE: address already in use 127.0.0.1:{port} (to share the port \
             between processes, bind each with ListenOptions::port({port}).reuse_port(true))"
        )
    );
    // Asking for reuse_port alone is not enough: the first did not.
    let err = match named("second")
        .bind(ListenOptions::port(port).host("127.0.0.1").reuse_port(true))
        .await
    {
        Ok(_) => panic!("reuse_port shared a port whose owner did not set it"),
        Err(e) => e,
    };
    assert_eq!(
        err.to_string(),
        format!(
            "listen EADDRINUSE: address already in use 127.0.0.1:{port} (the process listening \
             there did not set reuse_port(true) too, or runs as another user)"
        )
    );
    first.shutdown().await;
}

#[tokio::test]
async fn from_listener_serves_on_a_pre_bound_socket() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server = named("given")
        .bind(ListenOptions::from_listener(listener))
        .await
        .unwrap();
    assert_eq!(server.local_addr(), Some(addr));
    assert_eq!(body_at(addr).await, "given");
    server.shutdown().await;
    // The server's copy of the socket is closed with it.
    assert!(std::net::TcpStream::connect(addr).is_err());
}

#[cfg(unix)]
#[tokio::test]
async fn from_unix_listener_serves_on_a_pre_bound_unix_socket() {
    let path = std::env::temp_dir().join(format!("webfw-listen-{}.sock", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
    let server = named("unix")
        .bind(ListenOptions::from_unix_listener(listener))
        .await
        .unwrap();
    assert_eq!(server.local_addr(), None);
    let stream = tokio::net::UnixStream::connect(&path).await.unwrap();
    let raw = guard(
        "a response over the UNIX socket",
        common::exchange(stream, &request("GET", "/", &[])),
    )
    .await;
    assert_eq!(common::parse_response(&raw, false).text(), "unix");
    server.shutdown().await;
    std::fs::remove_file(&path).unwrap();
}
