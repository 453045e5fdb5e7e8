//! The server's HTTP/1 codec (`server/http1`) keeps nothing of one request
//! for the next: every case is asked once on a new connection and once
//! after an earlier request (one of 64 header lines) on a kept connection,
//! and the two answers must match; a pipelined batch gets the answers of
//! its requests asked one at a time, in order, whatever their shapes.

use crate::common;

use std::sync::{Arc, Mutex};

use common::{Conn, HttpResponse, TestServer, async_handler, guard, keep_alive_request};
use tokio::sync::{Semaphore, mpsc};
use webfw::ListenOptions;
use webfw::body::JsonOptions;
use webfw::prelude::*;

const DATED: &str = "Thu, 01 Jan 1970 00:00:00 GMT";

/// `pipelining`'s app (`/text`, `/json`, `/big/:n`) and the other shapes
/// of answer.
fn app() -> webfw::App {
    let mut app = crate::pipelining::app();
    app.get("/status/:n", |req: &mut Request, res: &mut Response| {
        let n = req.param("n").unwrap_or("200").parse().unwrap_or(200);
        res.status(n).send("status")
    });
    app.get("/empty", |_: &mut Request, res: &mut Response| res.end());
    app.get("/no-content", |_: &mut Request, res: &mut Response| {
        res.send_status(204)
    });
    app.get("/stream", |_: &mut Request, res: &mut Response| {
        res.write("a")?;
        res.write("b")?;
        res.end()
    });
    app.get("/dated", |_: &mut Request, res: &mut Response| {
        res.set("Date", DATED).send("dated")
    });
    app.get(
        "/later",
        async_handler(|_req, res| {
            Box::pin(async move {
                tokio::task::yield_now().await;
                res.send("later")
            })
        }),
    );
    app.get("/panic", |_: &mut Request, _: &mut Response| -> Result {
        panic!("a handler that panics")
    });
    app.get("/bye", |_: &mut Request, res: &mut Response| {
        res.set("Connection", "close").send("bye")
    });
    app.all(
        "/echo",
        (
            webfw::json(JsonOptions::new()),
            |req: &mut Request, res: &mut Response| {
                let method = req.method().to_string();
                res.json(&serde_json::json!({ "method": method, "body": req.body() }))
            },
        ),
    );
    app
}

/// A request that comes first on a kept connection: a head of many lines.
fn earlier() -> Vec<u8> {
    let lines: Vec<_> = (0..64).map(|k| (format!("x-{k}"), "v")).collect();
    let lines: Vec<(&str, &str)> = lines.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    keep_alive_request("GET", "/text", &lines)
}

/// A request with `body` as its JSON body.
fn with_body(method: &str, target: &str, body: &str) -> Vec<u8> {
    let length = body.len().to_string();
    let headers = [
        ("Content-Type", "application/json"),
        ("Content-Length", length.as_str()),
    ];
    let mut request = keep_alive_request(method, target, &headers);
    request.extend_from_slice(body.as_bytes());
    request
}

/// A response without its `Date` (the clock may tick between two runs),
/// which must be there unless the app set one.
fn comparable(res: &HttpResponse) -> String {
    let dates = res.header_all("date");
    assert_eq!(dates.len(), 1, "one date header: {res:?}");
    let headers: Vec<_> = res
        .headers
        .iter()
        .map(|(k, v)| match k.as_str() {
            "date" if v != DATED => format!("{k}: (now)"),
            _ => format!("{k}: {v}"),
        })
        .collect();
    format!(
        "{} {} {}\n{}\n\n{}{}",
        res.version,
        res.status,
        res.reason,
        headers.join("\n"),
        String::from_utf8_lossy(&res.body),
        if res.chunked { " (chunked)" } else { "" },
    )
}

/// The requests of the differential cases; `etag` is `/text`'s.
fn cases(etag: &str) -> Vec<(Vec<u8>, bool)> {
    let get = |target: &str| (keep_alive_request("GET", target, &[]), false);
    let mut many = Vec::new();
    for k in 0..40 {
        many.push((format!("x-{k}"), "v".to_owned()));
    }
    let many: Vec<(&str, &str)> = many.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    vec![
        get("/text"),
        get("/json"),
        get("/status/201"),
        get("/status/404"),
        get("/status/500"),
        get("/status/599"),
        get("/missing"),
        get("/empty"),
        get("/no-content"),
        (
            keep_alive_request("GET", "/text", &[("If-None-Match", etag)]),
            false,
        ),
        get("/stream"),
        get("/dated"),
        get("/big/100"),
        get("/big/40000"),
        get("/later"),
        get("/panic"),
        get("/search?q=%22a%22&b=<c>"),
        (keep_alive_request("HEAD", "/text", &[]), true),
        (keep_alive_request("OPTIONS", "/text", &[]), false),
        (
            keep_alive_request("GET", "/text", &[("Connection", "keep-alive")]),
            false,
        ),
        (keep_alive_request("GET", "/json", &many), false),
        (
            b"GET /text HTTP/1.0\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n".to_vec(),
            false,
        ),
        (with_body("POST", "/echo", r#"{"a":[1,2,"x"]}"#), false),
        (with_body("PUT", "/echo", r#"{"put":true}"#), false),
        (with_body("PATCH", "/echo", "{}"), false),
        (with_body("DELETE", "/echo", r#"{"gone":1}"#), false),
        (with_body("POST", "/echo", ""), false),
        (with_body("POST", "/echo", r#"{"a":"#), false),
        (with_body("POST", "/missing", r#"{"unread":true}"#), false),
        (with_body("GET", "/text", "ignored"), false),
        (with_body("POST", "/echo", &big_json(7000)), false),
        (with_body("POST", "/echo", &big_json(9000)), false),
        (
            keep_alive_request(
                "POST",
                "/echo",
                &[
                    ("Content-Type", "application/json"),
                    ("Transfer-Encoding", "chunked"),
                ],
            )
            .into_iter()
            .chain(*b"2\r\n{}\r\n0\r\n\r\n")
            .collect(),
            false,
        ),
    ]
}

/// A JSON object of about `len` bytes: within one read, or over it.
fn big_json(len: usize) -> String {
    format!(r#"{{"pad":"{}"}}"#, "p".repeat(len - 10))
}

async fn etag(srv: &TestServer) -> String {
    let text = srv.get("/text").await;
    text.header("etag").expect("/text has an ETag").to_owned()
}

#[tokio::test]
async fn each_answer_is_the_same_first_and_after_an_earlier_request() {
    let srv = TestServer::start(app()).await;
    let etag = etag(&srv).await;
    for (request, head) in cases(&etag) {
        let mut own = Conn::open(srv.addr).await;
        own.send(&request).await;
        let own = comparable(&own.read_response(head).await);

        let mut kept = Conn::open(srv.addr).await;
        kept.send(earlier()).await;
        kept.read_response(false).await;
        kept.send(&request).await;
        let kept = comparable(&kept.read_response(head).await);
        assert_eq!(own, kept, "{}", String::from_utf8_lossy(&request));
    }
}

/// Every case in one write, after `lead` and before `/text` and `/bye`:
/// the answers are those of the requests one at a time, in order.
#[tokio::test]
async fn a_batch_gets_every_answer_in_order() {
    let srv = TestServer::start(app()).await;
    let etag = etag(&srv).await;
    let cases = cases(&etag);
    let lead = [
        keep_alive_request("GET", "/json", &[]),
        keep_alive_request("GET", "/later", &[]),
    ];
    for (k, (case, head)) in cases.iter().enumerate() {
        let mut batch: Vec<(Vec<u8>, bool)> = lead.iter().map(|r| (r.clone(), false)).collect();
        batch.push((case.clone(), *head));
        batch.push((keep_alive_request("GET", "/text", &[]), false));
        batch.push((keep_alive_request("GET", "/bye", &[]), false));

        let mut one_at_a_time = Vec::new();
        let mut kept = Conn::open(srv.addr).await;
        kept.send(earlier()).await;
        kept.read_response(false).await;
        for (request, head) in &batch {
            kept.send(request).await;
            one_at_a_time.push(comparable(&kept.read_response(*head).await));
        }

        let mut conn = Conn::open(srv.addr).await;
        conn.send(
            batch
                .iter()
                .flat_map(|(r, _)| r.clone())
                .collect::<Vec<u8>>(),
        )
        .await;
        for (n, (_, head)) in batch.iter().enumerate() {
            let got = comparable(&conn.read_response(*head).await);
            assert_eq!(got, one_at_a_time[n], "case {k}, answer {n}");
        }
        // `/bye` closed the connection: nothing more.
        assert!(conn.read_to_close().await.is_empty(), "case {k}");
    }
}

/// The answer to `request` after an earlier one on a kept connection.
async fn kept_answer(srv: &TestServer, request: &[u8]) -> String {
    let mut kept = Conn::open(srv.addr).await;
    kept.send(earlier()).await;
    kept.read_response(false).await;
    kept.send(request).await;
    comparable(&kept.read_response(false).await)
}

/// A head that arrives a few bytes at a time, and a long one, get the
/// answers they get whole.
#[tokio::test]
async fn heads_in_pieces_and_long_heads_get_the_same_answers() {
    let srv = TestServer::start(app()).await;
    let request = keep_alive_request("GET", "/json", &[]);
    let stream = tokio::net::TcpStream::connect(srv.addr).await.unwrap();
    let mut conn = Conn::new(stream);
    for piece in request.chunks(7) {
        conn.send(piece).await;
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    let pieces = comparable(&conn.read_response(false).await);
    assert_eq!(pieces, kept_answer(&srv, &request).await);

    let long = "l".repeat(9000);
    let request = keep_alive_request("GET", "/json", &[("X-Long", &long)]);
    let mut conn = Conn::open(srv.addr).await;
    conn.send(&request).await;
    let long = comparable(&conn.read_response(false).await);
    assert_eq!(long, kept_answer(&srv, &request).await);
}

/// A request with a streamed answer reaches the app once, and the
/// connection serves the next request after it.
#[tokio::test]
async fn a_request_with_a_streamed_answer_runs_once() {
    let calls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut app = app();
    let counted = calls.clone();
    app.all(
        "/once",
        (
            webfw::json(JsonOptions::new()),
            move |req: &mut Request, res: &mut Response| {
                counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let body = serde_json::to_string(req.body()).unwrap();
                res.write(body)?;
                res.end()
            },
        ),
    );
    let srv = TestServer::start(app).await;
    for (request, body) in [
        (keep_alive_request("GET", "/once", &[]), "{}"),
        (with_body("POST", "/once", r#"{"n":1}"#), r#"{"n":1}"#),
    ] {
        let mut conn = Conn::open(srv.addr).await;
        conn.send(request).await;
        let res = conn.read_response(false).await;
        assert!(res.chunked, "a streamed answer");
        assert_eq!(res.text(), body);
        conn.send(keep_alive_request("GET", "/text", &[])).await;
        assert_eq!(conn.read_response(false).await.text(), "Hello, World!");
    }
    assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 2);
}

/// An app whose `/hold` answers once the test lets it, telling the test
/// when it has started.
fn holding() -> (webfw::App, mpsc::UnboundedReceiver<()>, Arc<Semaphore>) {
    let (started_tx, started_rx) = mpsc::unbounded_channel();
    let release = Arc::new(Semaphore::new(0));
    let started = Arc::new(Mutex::new(started_tx));
    let held = release.clone();
    let mut app = app();
    app.get(
        "/hold",
        async_handler(move |_req, res| {
            let started = started.clone();
            let release = held.clone();
            Box::pin(async move {
                let _ = started.lock().unwrap().send(());
                let _ = release.acquire().await.unwrap();
                res.send("drained")
            })
        }),
    );
    (app, started_rx, release)
}

/// A graceful shutdown with requests in flight: each is answered with
/// `connection: close`, then its connection closes; a connection with
/// nothing in flight closes at once.
#[tokio::test]
async fn a_shutdown_closes_after_the_answer_in_flight() {
    let (app, mut started, release) = holding();
    let server = app
        .bind(ListenOptions::port(0).host("127.0.0.1"))
        .await
        .unwrap();
    let addr = server.local_addr().unwrap();
    let mut own = Conn::open(addr).await;
    let mut kept = Conn::open(addr).await;
    let mut idle = Conn::open(addr).await;
    kept.send(earlier()).await;
    kept.read_response(false).await;
    idle.send(keep_alive_request("GET", "/text", &[])).await;
    idle.read_response(false).await;
    own.send(keep_alive_request("GET", "/hold", &[])).await;
    kept.send(keep_alive_request("GET", "/hold", &[])).await;
    for _ in 0..2 {
        guard("both holds to start", started.recv()).await.unwrap();
    }
    server.shutdown_handle().shutdown();
    let stopped = tokio::spawn(server.wait());
    assert!(idle.read_to_close().await.is_empty());
    release.add_permits(2);
    let own = own.read_response(false).await;
    let kept = kept.read_response(false).await;
    assert_eq!(own.header("connection"), Some("close"));
    assert_eq!(comparable(&own), comparable(&kept));
    guard("the server to stop", stopped).await.unwrap();
}
