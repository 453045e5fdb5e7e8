//! What an HTTP/2 client that stops reading makes the server hold: complete
//! bodies count against the connection's `http2_max_session_memory` until
//! they are written (not merely handed to the HTTP/2 layer), whatever the
//! timing of the streams, and streamed bodies count against the same budget.

use crate::common;

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use common::guard;
use tokio::net::TcpStream;
use webfw::prelude::*;
use webfw::{ListenOptions, Server};

const MIB: usize = 1024 * 1024;

async fn bind(app: webfw::App, opts: ListenOptions) -> Server {
    app.bind(opts.host("127.0.0.1")).await.expect("bind")
}

/// An HTTP/2 client whose streams and connection start with `window` bytes
/// of flow control and that never reads a body (so never gives more).
async fn client(server: &Server, window: u32) -> h2::client::SendRequest<Bytes> {
    let tcp = TcpStream::connect(server.local_addr().unwrap())
        .await
        .unwrap();
    let (client, connection) = guard(
        "h2 handshake",
        h2::client::Builder::new()
            .initial_window_size(window)
            .handshake::<_, Bytes>(tcp),
    )
    .await
    .unwrap();
    tokio::spawn(connection);
    guard("h2 ready", client.ready()).await.unwrap()
}

fn get(path: &str) -> http::Request<()> {
    http::Request::get(format!("http://x{path}"))
        .body(())
        .unwrap()
}

/// Opens `n` streams one after another, each once the previous one's head
/// has arrived; returns their statuses and the bodies, unread.
async fn one_by_one(
    client: &mut h2::client::SendRequest<Bytes>,
    path: &str,
    n: usize,
) -> (Vec<u16>, Vec<h2::RecvStream>) {
    let (mut statuses, mut bodies) = (Vec::new(), Vec::new());
    for _ in 0..n {
        *client = guard("h2 ready", client.clone().ready()).await.unwrap();
        let (response, _) = client.send_request(get(path), true).unwrap();
        let head = guard("h2 response", response).await.unwrap();
        statuses.push(head.status().as_u16());
        bodies.push(head.into_body());
    }
    (statuses, bodies)
}

/// With the default 64 KiB windows the first body's first 64 KiB leave and
/// the rest of every body waits in the HTTP/2 layer's send buffers: the
/// bodies still count against the budget there, so the connection admits
/// exactly as many 1 MiB responses as its budget holds, however the streams
/// are spaced.
#[tokio::test]
async fn bodies_handed_to_http2_count_until_they_are_written() {
    let mut app = webfw::app();
    app.get("/big", |_: &mut Request, res: &mut Response| {
        res.send(vec![b'x'; MIB])
    });
    let opts = ListenOptions::port(0).http2_max_session_memory(4 * MIB);
    let server = bind(app, opts).await;
    let mut client = client(&server, 65_535).await;
    let (statuses, bodies) = one_by_one(&mut client, "/big", 6).await;
    assert_eq!(statuses, [200, 200, 200, 200, 503, 503]);
    drop((client, bodies));
    server.shutdown().await;
}

/// Many connections opened at once, each opening its streams at once: each
/// connection holds its own budget, whatever the interleaving of their
/// streams on the runtime's threads.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_connections_each_hold_their_budget() {
    const CONNS: usize = 8;
    const STREAMS: usize = 12;
    let mut app = webfw::app();
    app.get("/big", |_: &mut Request, res: &mut Response| {
        res.send(vec![b'x'; MIB])
    });
    let opts = ListenOptions::port(0).http2_max_session_memory(4 * MIB);
    let server = Arc::new(bind(app, opts).await);
    let tasks: Vec<_> = (0..CONNS)
        .map(|_| {
            let server = server.clone();
            tokio::spawn(async move {
                let mut client = client(&server, 65_535).await;
                let mut pending = Vec::new();
                for _ in 0..STREAMS {
                    client = client.ready().await.unwrap();
                    pending.push(client.send_request(get("/big"), true).unwrap().0);
                }
                let mut ok = 0;
                let mut bodies = Vec::new();
                for response in pending {
                    let head = response.await.unwrap();
                    ok += usize::from(head.status() == 200);
                    bodies.push(head.into_body());
                }
                (ok, client, bodies)
            })
        })
        .collect();
    let mut held = Vec::new();
    for t in tasks {
        let (ok, client, bodies) = guard("a connection's streams", t).await.unwrap();
        assert_eq!(ok, 4, "1 MiB responses answered 200 on one connection");
        held.push((client, bodies));
    }
    drop(held);
    Arc::into_inner(server).unwrap().shutdown().await;
}

/// What a streaming handler that never awaits `drain` learns, per stream.
#[derive(Default)]
struct Streamed {
    accepted: usize,
    error: String,
}

/// Streamed bodies count against the same budget: a handler that writes
/// without awaiting `res.drain()` to a client that does not read fails once
/// the connection holds its budget (not 16 MiB per stream), and further
/// streams get 503.
#[tokio::test]
async fn streamed_bodies_count_against_the_session_memory() {
    const CHUNK: usize = 64 * 1024;
    let log: Arc<Mutex<Vec<Streamed>>> = Arc::default();
    let mut app = webfw::app();
    let seen = log.clone();
    app.get("/stream", move |_: &mut Request, res: &mut Response| {
        let mut s = Streamed::default();
        loop {
            match res.write(vec![b'x'; CHUNK]) {
                Ok(()) => s.accepted += CHUNK,
                Err(e) => {
                    s.error = e.message().to_owned();
                    break;
                }
            }
        }
        seen.lock().unwrap().push(s);
        res.end()
    });
    let opts = ListenOptions::port(0).http2_max_session_memory(4 * MIB);
    let server = bind(app, opts).await;
    // Windows of 0: nothing of a body can leave.
    let mut client = client(&server, 0).await;
    let (statuses, bodies) = one_by_one(&mut client, "/stream", 4).await;
    assert_eq!(statuses, [200, 503, 503, 503]);
    let log = std::mem::take(&mut *log.lock().unwrap());
    assert_eq!(log.len(), 1);
    let s = &log[0];
    assert!(
        (4 * MIB - CHUNK..=4 * MIB).contains(&s.accepted),
        "accepted {} bytes",
        s.accepted
    );
    assert!(
        s.error.contains("HTTP/2 connection") && s.error.contains("await res.drain()"),
        "{}",
        s.error
    );
    drop((client, bodies));
    server.shutdown().await;
}

/// `http2_max_total_memory`: what all of a listener's connections hold
/// together is capped too; past it, every connection refuses new streams.
#[tokio::test]
async fn the_listener_caps_what_its_connections_hold_together() {
    let mut app = webfw::app();
    app.get("/big", |_: &mut Request, res: &mut Response| {
        res.send(vec![b'x'; MIB])
    });
    let opts = ListenOptions::port(0)
        .http2_max_session_memory(8 * MIB)
        .http2_max_total_memory(Some(2 * MIB));
    let server = bind(app, opts).await;
    let mut first = client(&server, 0).await;
    let (statuses, first_bodies) = one_by_one(&mut first, "/big", 3).await;
    assert_eq!(statuses, [200, 200, 503]);
    let mut second = client(&server, 0).await;
    let (statuses, second_bodies) = one_by_one(&mut second, "/big", 1).await;
    assert_eq!(statuses, [503], "the other connection is refused too");
    drop((first, first_bodies, second, second_bodies));
    server.shutdown().await;
}
