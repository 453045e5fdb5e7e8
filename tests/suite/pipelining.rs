//! Pipelined HTTP/1.1 requests: the responses of a batch leave together, are
//! byte for byte what the same requests get one at a time, and none of them
//! waits for a later request (one that awaits, streams, or is not all there).

use crate::common;

use std::sync::{Arc, Mutex};

use common::{Conn, HttpResponse, TestServer, async_handler, guard, keep_alive_request};
use tokio::io::AsyncReadExt;
use tokio::sync::oneshot;
use webfw::ListenOptions;
use webfw::prelude::*;

/// Text, JSON, a parameter and a body of any size (also the base of
/// `http1_loop`'s app).
pub(crate) fn app() -> webfw::App {
    let mut app = webfw::app();
    app.get("/text", |_: &mut Request, res: &mut Response| {
        res.type_("text/plain").send("Hello, World!")
    });
    app.get("/json", |_: &mut Request, res: &mut Response| {
        res.json(&serde_json::json!({ "message": "Hello, World!" }))
    });
    app.get("/r/:id", |req: &mut Request, res: &mut Response| {
        let id = req.params().get("id").unwrap_or_default().to_owned();
        res.send(id)
    });
    app.get("/big/:n", |req: &mut Request, res: &mut Response| {
        let n: usize = req
            .params()
            .get("n")
            .unwrap_or_default()
            .parse()
            .unwrap_or(0);
        res.send("x".repeat(n))
    });
    app
}

/// A response without its `Date` (the clock may tick between two runs).
fn comparable(res: &HttpResponse) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let headers = res
        .headers
        .iter()
        .filter(|(k, _)| k != "date")
        .cloned()
        .collect();
    (res.status, headers, res.body.clone())
}

fn targets() -> Vec<String> {
    let mut targets = Vec::new();
    for i in 0..40 {
        targets.push(match i % 5 {
            0 => "/text".to_owned(),
            1 => "/json".to_owned(),
            2 => format!("/r/{i}"),
            3 => "/missing".to_owned(),
            // Past what a connection keeps back: the batch goes out in parts.
            _ => format!("/big/{}", 3000 * i),
        });
    }
    targets
}

#[tokio::test]
async fn a_pipelined_batch_gets_the_bytes_requests_one_at_a_time_get() {
    for opts in [pipelined(), ListenOptions::port(0).pipeline_flush(false)] {
        same_bytes_pipelined(opts).await;
    }
}

async fn same_bytes_pipelined(opts: ListenOptions) {
    let srv = TestServer::start_with(app(), opts).await;
    let targets = targets();

    let mut one_at_a_time = Vec::new();
    let mut conn = Conn::open(srv.addr).await;
    for t in &targets {
        conn.send(keep_alive_request("GET", t, &[])).await;
        one_at_a_time.push(comparable(&conn.read_response(false).await));
    }

    let mut conn = Conn::open(srv.addr).await;
    let batch: Vec<u8> = targets
        .iter()
        .flat_map(|t| keep_alive_request("GET", t, &[]))
        .collect();
    conn.send(batch).await;
    for (t, expected) in targets.iter().zip(&one_at_a_time) {
        let res = conn.read_response(false).await;
        assert_eq!(&comparable(&res), expected, "pipelined GET {t}");
    }
    srv.shutdown().await;
}

/// A handler that waits for the test to say so.
fn waiting(app: &mut webfw::App, path: &str) -> oneshot::Sender<()> {
    let (tx, rx) = oneshot::channel::<()>();
    let rx = Arc::new(Mutex::new(Some(rx)));
    app.get(
        path,
        async_handler(move |_req, res| {
            let rx = rx.clone();
            Box::pin(async move {
                let rx = rx.lock().unwrap().take();
                if let Some(rx) = rx {
                    let _ = rx.await;
                }
                res.send("waited")
            })
        }),
    );
    tx
}

#[tokio::test]
async fn a_response_does_not_wait_for_the_next_request_s_handler() {
    let mut app = app();
    let release = waiting(&mut app, "/wait");
    let srv = TestServer::start_with(app, pipelined()).await;
    let mut conn = Conn::open(srv.addr).await;
    // A third request stays read and unanswered while `/wait` waits.
    let batch = [
        keep_alive_request("GET", "/text", &[]),
        keep_alive_request("GET", "/wait", &[]),
        keep_alive_request("GET", "/r/3", &[]),
    ]
    .concat();
    conn.send(batch).await;
    // Only if `/text`'s response left while `/wait` is still waiting.
    assert_eq!(conn.read_response(false).await.text(), "Hello, World!");
    release.send(()).unwrap();
    assert_eq!(conn.read_response(false).await.text(), "waited");
    assert_eq!(conn.read_response(false).await.text(), "3");
    srv.shutdown().await;
}

#[tokio::test]
async fn a_response_does_not_wait_for_the_rest_of_the_next_request() {
    let srv = TestServer::start_with(app(), pipelined()).await;
    let mut conn = Conn::open(srv.addr).await;
    let second = keep_alive_request("GET", "/json", &[]);
    let (start, rest) = second.split_at(10);
    conn.send([keep_alive_request("GET", "/text", &[]), start.to_vec()].concat())
        .await;
    assert_eq!(conn.read_response(false).await.text(), "Hello, World!");
    conn.send(rest).await;
    assert_eq!(
        conn.read_response(false).await.text(),
        r#"{"message":"Hello, World!"}"#
    );
    srv.shutdown().await;
}

#[tokio::test]
async fn a_streamed_response_ahead_of_a_pipelined_request_is_not_held() {
    let (tx, rx) = oneshot::channel::<()>();
    let rx = Arc::new(Mutex::new(Some(rx)));
    let mut app = app();
    app.get(
        "/stream",
        async_handler(move |_req, res| {
            let rx = rx.clone();
            Box::pin(async move {
                res.write("first")?;
                let rx = rx.lock().unwrap().take();
                if let Some(rx) = rx {
                    let _ = rx.await;
                }
                res.end_with("second")
            })
        }),
    );
    let srv = TestServer::start_with(app, pipelined()).await;
    let mut stream = tokio::net::TcpStream::connect(srv.addr).await.unwrap();
    let batch = [
        keep_alive_request("GET", "/stream", &[]),
        keep_alive_request("GET", "/text", &[]),
    ]
    .concat();
    tokio::io::AsyncWriteExt::write_all(&mut stream, &batch)
        .await
        .unwrap();
    let first_chunk = b"5\r\nfirst\r\n";
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !seen.windows(first_chunk.len()).any(|w| w == first_chunk) {
        let n = guard("the first chunk", stream.read(&mut buf))
            .await
            .unwrap();
        assert_ne!(n, 0, "closed before the first chunk");
        seen.extend_from_slice(&buf[..n]);
    }
    tx.send(()).unwrap();
    while !seen.ends_with(b"Hello, World!") {
        let n = guard("the rest", stream.read(&mut buf)).await.unwrap();
        assert_ne!(n, 0, "closed before the second response");
        seen.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8_lossy(&seen);
    let end = text.find("6\r\nsecond\r\n0\r\n\r\nHTTP/1.1 200 OK\r\n");
    assert!(end.is_some(), "{text}");
    srv.shutdown().await;
}

/// The default listen options, which write a pipelined batch's responses
/// at once.
fn pipelined() -> ListenOptions {
    ListenOptions::port(0)
}
