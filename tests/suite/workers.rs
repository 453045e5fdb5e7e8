//! `ListenOptions::workers`: threads of their own, each a current-thread
//! runtime, accepting from one socket. A handler that blocks its thread
//! makes the next connection land on another worker, so every test here
//! knows which thread serves what.

use crate::common;

use std::net::SocketAddr;
use std::sync::mpsc;
use std::sync::{Arc, Barrier, Mutex};

use common::{Conn, guard, keep_alive_request, request};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{mpsc as async_mpsc, oneshot};
use webfw::ListenOptions;
use webfw::prelude::*;

/// A server running `app` with `opts` on a thread of its own named
/// `server-main` (the first worker), until `stop` is sent; `stopped`
/// completes once its shutdown returned.
struct Running {
    addr: SocketAddr,
    stop: oneshot::Sender<()>,
    stopped: oneshot::Receiver<()>,
}

fn run(app: App, opts: ListenOptions) -> Running {
    let (addr_tx, addr_rx) = mpsc::channel();
    let (stop, stop_rx) = oneshot::channel::<()>();
    let (stopped_tx, stopped) = oneshot::channel();
    let opts = opts.host("127.0.0.1");
    std::thread::Builder::new()
        .name("server-main".into())
        .spawn(move || {
            opts.runtime().unwrap().block_on(async move {
                let server = app.bind(opts).await.expect("bind");
                addr_tx.send(server.local_addr().unwrap()).unwrap();
                let _ = stop_rx.await;
                server.shutdown().await;
            });
            let _ = stopped_tx.send(());
        })
        .unwrap();
    let addr = addr_rx.recv().expect("the server's address");
    Running {
        addr,
        stop,
        stopped,
    }
}

/// A handler that says it has started (with its thread's name), then
/// blocks its thread until `release` lets it go.
fn blocking(
    arrived: async_mpsc::UnboundedSender<String>,
    release: impl Fn() + Send + Sync + 'static,
) -> impl Fn(&mut Request, &mut Response) -> Result + Send + Sync + 'static {
    move |_: &mut Request, res: &mut Response| {
        let me = std::thread::current().name().unwrap_or("?").to_owned();
        let _ = arrived.send(me.clone());
        release();
        res.send(me)
    }
}

/// An app whose `GET /hold` blocks its worker's thread until the returned
/// sender releases it; the receiver says when (and on which thread) it has
/// started.
fn holding_app() -> (App, async_mpsc::UnboundedReceiver<String>, mpsc::Sender<()>) {
    let (arrived, arrivals) = async_mpsc::unbounded_channel();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let release_rx = Mutex::new(release_rx);
    let mut app = webfw::app();
    app.get(
        "/hold",
        blocking(arrived, move || {
            let _ = release_rx.lock().unwrap().recv();
        }),
    );
    (app, arrivals, release_tx)
}

#[tokio::test]
async fn two_workers_serve_side_by_side_each_on_its_own_thread() {
    // Each request waits for the other: only two threads can answer both.
    let meet = Arc::new(Barrier::new(2));
    let (arrived, mut arrivals) = async_mpsc::unbounded_channel();
    let mut app = webfw::app();
    app.get(
        "/meet",
        blocking(arrived, move || {
            meet.wait();
        }),
    );
    let server = run(app, ListenOptions::port(0).workers(2));

    let mut first = Conn::open(server.addr).await;
    first.send(request("GET", "/meet", &[])).await;
    let first_thread = guard("the first request", arrivals.recv()).await.unwrap();
    // The first worker is now blocked: the second connection can only be
    // accepted by the other one.
    let mut second = Conn::open(server.addr).await;
    second.send(request("GET", "/meet", &[])).await;
    let a = guard("the first response", first.read_response(false)).await;
    let b = guard("the second response", second.read_response(false)).await;
    assert_eq!(a.text(), first_thread);
    let mut threads = [a.text(), b.text()];
    threads.sort();
    assert_eq!(threads, ["server-main", "webfw-worker-1"]);

    server.stop.send(()).unwrap();
    guard("the shutdown", server.stopped).await.unwrap();
}

#[tokio::test]
async fn max_connections_counts_the_connections_of_every_worker() {
    let (mut app, mut arrivals, release_tx) = holding_app();
    app.get("/", |_: &mut Request, res: &mut Response| res.send("ok"));
    let opts = ListenOptions::port(0).workers(2).max_connections(Some(1));
    let server = run(app, opts);

    let mut held = Conn::open(server.addr).await;
    held.send(keep_alive_request("GET", "/hold", &[])).await;
    guard("the held request", arrivals.recv()).await.unwrap();
    // Accepted by the other worker, which counts the held connection too.
    let mut beyond = TcpStream::connect(server.addr).await.unwrap();
    let _ = beyond.write_all(&request("GET", "/", &[])).await;
    let mut refused = Vec::new();
    let _ = guard("the refusal", beyond.read_to_end(&mut refused)).await;
    assert!(
        refused.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&refused)
    );

    release_tx.send(()).unwrap();
    let res = guard("the held response", held.read_response(false)).await;
    assert_eq!(res.status, 200);
    server.stop.send(()).unwrap();
    guard("the shutdown", server.stopped).await.unwrap();
}

#[tokio::test]
async fn shutdown_drains_every_worker_and_closes_the_socket() {
    let (app, mut arrivals, release_tx) = holding_app();
    let server = run(app, ListenOptions::port(0).workers(3));
    let addr = server.addr;

    let mut held = Conn::open(addr).await;
    held.send(request("GET", "/hold", &[])).await;
    let thread = guard("the held request", arrivals.recv()).await.unwrap();
    server.stop.send(()).unwrap();
    release_tx.send(()).unwrap();
    let res = guard("the held response", held.read_response(false)).await;
    assert_eq!((res.status, res.text()), (200, thread));
    guard("the shutdown", server.stopped).await.unwrap();
    let refused = TcpStream::connect(addr).await.unwrap_err();
    assert_eq!(refused.kind(), std::io::ErrorKind::ConnectionRefused);
}
