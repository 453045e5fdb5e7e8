//! Streaming with `res.write` (chunked unless a length was set; the head
//! leaves at the first write) and the `on_headers` / `on_finish` hooks.

use crate::common;

use std::sync::{Arc, Mutex};

use common::{Log, TestServer, async_handler, guard, request};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::oneshot;
use webfw::prelude::*;

#[tokio::test]
async fn write_streams_a_chunked_body() {
    let mut app = webfw::app();
    app.get("/", |_: &mut Request, res: &mut Response| {
        res.write("a")?;
        res.write("bc")?;
        res.end()
    });
    let res = TestServer::start(app).await.get("/").await;
    assert_eq!(res.status, 200);
    assert!(res.chunked);
    assert_eq!(res.header("transfer-encoding"), Some("chunked"));
    assert!(!res.has_header("content-length"));
    assert!(!res.has_header("content-type"));
    assert!(res.has_header("x-powered-by"));
    assert_eq!(res.body, b"abc");
    assert_eq!(res.raw_body, b"1\r\na\r\n2\r\nbc\r\n0\r\n\r\n");
}

#[tokio::test]
async fn end_with_data_after_write_sends_the_last_chunk() {
    let mut app = webfw::app();
    app.get("/", |_: &mut Request, res: &mut Response| {
        res.set("Content-Type", "text/plain");
        res.write("hello ")?;
        res.end_with("world")
    });
    let res = TestServer::start(app).await.get("/").await;
    assert_eq!(
        res.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
    assert_eq!(res.text(), "hello world");
}

#[tokio::test]
async fn write_with_a_content_length_is_not_chunked() {
    let mut app = webfw::app();
    app.get("/", |_: &mut Request, res: &mut Response| {
        res.set("Content-Length", "5");
        res.write("hel")?;
        res.end_with("lo")
    });
    let res = TestServer::start(app).await.get("/").await;
    assert!(!res.chunked);
    assert_eq!(res.header("content-length"), Some("5"));
    assert_eq!(res.text(), "hello");
}

#[tokio::test]
async fn write_to_head_sends_no_body() {
    let mut app = webfw::app();
    app.get("/", |_: &mut Request, res: &mut Response| {
        res.write("abc")?;
        res.end()
    });
    let res = TestServer::start(app).await.call("HEAD", "/", &[]).await;
    assert_eq!(res.status, 200);
    assert!(res.body.is_empty());
}

#[tokio::test]
async fn write_after_end_is_an_error() {
    let mut app = webfw::app();
    app.get("/", |_: &mut Request, res: &mut Response| {
        res.end_with("done")?;
        assert!(res.write("late").is_err());
        Ok(Flow::Done)
    });
    let res = TestServer::start(app).await.get("/").await;
    assert_eq!(res.text(), "done");
}

#[tokio::test]
async fn first_write_sends_the_head_before_the_handler_finishes() {
    let (release_tx, release_rx) = oneshot::channel::<()>();
    let release = Arc::new(Mutex::new(Some(release_rx)));
    let mut app = webfw::app();
    app.get(
        "/",
        async_handler(move |_req, res| {
            let release = release.clone();
            Box::pin(async move {
                res.status(202).write("first")?;
                let rx = release.lock().unwrap().take();
                if let Some(rx) = rx {
                    let _ = rx.await;
                }
                res.write(" second")?;
                res.end()
            })
        }),
    );
    let srv = TestServer::start(app).await;
    let mut stream = tokio::net::TcpStream::connect(srv.addr).await.unwrap();
    stream.write_all(&request("GET", "/", &[])).await.unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    let first_chunk = b"5\r\nfirst\r\n";
    while !seen.windows(first_chunk.len()).any(|w| w == first_chunk) {
        let n = guard("first chunk", stream.read(&mut buf)).await.unwrap();
        assert!(n > 0, "connection closed before the first chunk");
        seen.extend_from_slice(&buf[..n]);
    }
    assert!(seen.starts_with(b"HTTP/1.1 202 Accepted\r\n"));
    release_tx.send(()).unwrap();
    seen.extend(common::read_to_close(&mut stream).await);
    let res = common::parse_response(&seen, false);
    assert_eq!(res.text(), "first second");
}

// ---- hooks ----

#[tokio::test]
async fn on_headers_hook_runs_before_the_head_and_can_change_it() {
    let mut app = webfw::app();
    app.get("/", |_: &mut Request, res: &mut Response| {
        res.on_headers(|res| {
            let status = res.status_code().to_string();
            res.set("X-Status-Seen", status).set("X-Late", "added");
        });
        res.status(201).send("x")
    });
    let res = TestServer::start(app).await.get("/").await;
    assert_eq!(res.status, 201);
    assert_eq!(res.header("x-late"), Some("added"));
    assert_eq!(res.header("x-status-seen"), Some("201"));
}

#[tokio::test]
async fn on_headers_hook_runs_for_streamed_and_error_responses() {
    let mut app = webfw::app();
    app.use_(|_: &mut Request, res: &mut Response| {
        res.on_headers(|res| {
            res.set("X-Hooked", "yes");
        });
        next()
    });
    app.get("/stream", |_: &mut Request, res: &mut Response| {
        res.write("a")?;
        res.end()
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/stream").await.header("x-hooked"), Some("yes"));
    let res = srv.get("/missing").await;
    assert_eq!(res.status, 404);
    assert_eq!(res.header("x-hooked"), Some("yes"));
}

#[tokio::test]
async fn on_headers_hooks_run_last_registered_first() {
    let mut app = webfw::app();
    app.get("/", |_: &mut Request, res: &mut Response| {
        res.on_headers(|res| {
            res.append("X-Order", "first-registered");
        });
        res.on_headers(|res| {
            res.append("X-Order", "second-registered");
        });
        res.end()
    });
    let res = TestServer::start(app).await.get("/").await;
    assert_eq!(
        res.header_all("x-order"),
        ["second-registered", "first-registered"]
    );
}

#[tokio::test]
async fn on_finish_hook_runs_after_the_response_with_its_headers() {
    let log = Log::new();
    let (done_tx, done_rx) = oneshot::channel::<()>();
    let done = Arc::new(Mutex::new(Some(done_tx)));
    let l = log.clone();
    let mut app = webfw::app();
    app.get("/", move |_: &mut Request, res: &mut Response| {
        let hook_log = l.clone();
        let done = done.clone();
        res.on_finish(move |req, res| {
            hook_log.push(format!(
                "{} {} {} {:?}",
                req.method(),
                req.original_url(),
                res.status_code(),
                res.get("content-length")
            ));
            if let Some(tx) = done.lock().unwrap().take() {
                let _ = tx.send(());
            }
        });
        assert!(l.entries().is_empty());
        res.status(201).send("hello")
    });
    let res = TestServer::start(app).await.get("/?q=1").await;
    assert_eq!(res.text(), "hello");
    guard("on_finish hook", done_rx).await.unwrap();
    assert_eq!(log.entries(), ["GET /?q=1 201 Some(\"5\")"]);
}

#[tokio::test]
async fn on_finish_hook_runs_after_a_streamed_response_ends() {
    let (done_tx, done_rx) = oneshot::channel::<u16>();
    let done = Arc::new(Mutex::new(Some(done_tx)));
    let mut app = webfw::app();
    app.get("/", move |_: &mut Request, res: &mut Response| {
        let done = done.clone();
        res.on_finish(move |_, res| {
            if let Some(tx) = done.lock().unwrap().take() {
                let _ = tx.send(res.status_code());
            }
        });
        res.write("a")?;
        res.end_with("b")
    });
    let res = TestServer::start(app).await.get("/").await;
    assert_eq!(res.text(), "ab");
    assert_eq!(guard("on_finish hook", done_rx).await.unwrap(), 200);
}

#[tokio::test]
async fn on_finish_hook_runs_for_the_final_handler_response() {
    let (done_tx, done_rx) = oneshot::channel::<u16>();
    let done = Arc::new(Mutex::new(Some(done_tx)));
    let mut app = webfw::app();
    app.use_(move |_: &mut Request, res: &mut Response| {
        let done = done.clone();
        res.on_finish(move |_, res| {
            if let Some(tx) = done.lock().unwrap().take() {
                let _ = tx.send(res.status_code());
            }
        });
        next()
    });
    let res = TestServer::start(app).await.get("/missing").await;
    assert_eq!(res.status, 404);
    assert_eq!(guard("on_finish hook", done_rx).await.unwrap(), 404);
}

// ---- the chain after the head has left ----

/// The handler side of a gate the test opens.
type Parked = Arc<Mutex<Option<oneshot::Receiver<()>>>>;

/// A gate the test opens: handlers park on it after responding.
fn gate() -> (oneshot::Sender<()>, Parked) {
    let (tx, rx) = oneshot::channel::<()>();
    (tx, Arc::new(Mutex::new(Some(rx))))
}

async fn pass(gate: &Parked) {
    let rx = gate.lock().unwrap().take();
    if let Some(rx) = rx {
        let _ = rx.await;
    }
}

#[tokio::test]
async fn handler_keeps_running_after_send() {
    let (open, parked) = gate();
    let (after_tx, after_rx) = oneshot::channel::<&'static str>();
    let after = Arc::new(Mutex::new(Some(after_tx)));
    let mut app = webfw::app();
    app.get(
        "/",
        async_handler(move |_req, res| {
            let parked = parked.clone();
            let after = after.clone();
            Box::pin(async move {
                res.send("sent")?;
                pass(&parked).await;
                if let Some(tx) = after.lock().unwrap().take() {
                    let _ = tx.send("ran after send");
                }
                Ok(Flow::Done)
            })
        }),
    );
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/").await.text(), "sent");
    open.send(()).unwrap();
    assert_eq!(
        guard("code after res.send", after_rx).await.unwrap(),
        "ran after send"
    );
}

#[tokio::test]
async fn on_finish_hook_runs_when_the_handler_awaits_after_send() {
    let (open, parked) = gate();
    let (done_tx, done_rx) = oneshot::channel::<u16>();
    let done = Arc::new(Mutex::new(Some(done_tx)));
    let mut app = webfw::app();
    app.get(
        "/",
        async_handler(move |_req, res| {
            let parked = parked.clone();
            let done = done.clone();
            Box::pin(async move {
                res.on_finish(move |_, res| {
                    if let Some(tx) = done.lock().unwrap().take() {
                        let _ = tx.send(res.status_code());
                    }
                });
                res.status(201).send("sent")?;
                pass(&parked).await;
                Ok(Flow::Done)
            })
        }),
    );
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/").await.status, 201);
    open.send(()).unwrap();
    assert_eq!(guard("on_finish hook", done_rx).await.unwrap(), 201);
}

#[tokio::test]
async fn keep_alive_request_proceeds_while_an_ended_stream_handler_still_runs() {
    let (open, parked) = gate();
    let mut app = webfw::app();
    app.get(
        "/first",
        async_handler(move |_req, res| {
            let parked = parked.clone();
            Box::pin(async move {
                res.write("a")?;
                res.end()?;
                pass(&parked).await;
                Ok(Flow::Done)
            })
        }),
    );
    app.get("/second", |_: &mut Request, res: &mut Response| {
        res.send("second")
    });
    let srv = TestServer::start(app).await;
    let mut conn = common::Conn::open(srv.addr).await;
    conn.send(common::keep_alive_request("GET", "/first", &[]))
        .await;
    assert_eq!(conn.read_response(false).await.text(), "a");
    conn.send(common::keep_alive_request("GET", "/second", &[]))
        .await;
    assert_eq!(conn.read_response(false).await.text(), "second");
    open.send(()).unwrap();
    conn.send(common::keep_alive_request("GET", "/second", &[]))
        .await;
    assert_eq!(conn.read_response(false).await.text(), "second");
}

#[tokio::test]
async fn streamed_and_complete_responses_alternate_on_one_connection() {
    let mut app = webfw::app();
    // The end comes after an await: the body is read while the stream is
    // still open.
    app.get(
        "/stream/:n",
        async_handler(|req, res| {
            let n = req.param("n").unwrap_or_default().to_owned();
            Box::pin(async move {
                res.write(format!("s{n}-"))?;
                tokio::task::yield_now().await;
                res.end_with(n)?;
                Ok(Flow::Done)
            })
        }),
    );
    app.get("/whole/:n", |req: &mut Request, res: &mut Response| {
        let n = req.param("n").unwrap_or_default().to_owned();
        res.send(format!("w{n}"))
    });
    let srv = TestServer::start(app).await;
    let mut conn = common::Conn::open(srv.addr).await;
    // Each kind after each: a streamed response must leave nothing behind
    // for the next request on the connection, nor a complete one.
    for (i, path) in [
        "/stream/1",
        "/stream/2",
        "/whole/3",
        "/whole/4",
        "/stream/5",
        "/whole/6",
    ]
    .iter()
    .enumerate()
    {
        conn.send(common::keep_alive_request("GET", path, &[]))
            .await;
        let res = conn.read_response(false).await;
        let n = i + 1;
        let want = if path.starts_with("/stream") {
            format!("s{n}-{n}")
        } else {
            format!("w{n}")
        };
        assert_eq!(res.text(), want, "{path}");
        assert_eq!(res.chunked, path.starts_with("/stream"), "{path}");
    }
}
