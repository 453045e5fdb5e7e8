//! A panicking handler answers 500 for its own request only, and a handler
//! that returns `Flow::Done` without responding gets a 500 instead of a hung
//! request.

use crate::common;

use common::{Conn, TestServer, error_page, keep_alive_request};
use webfw::prelude::*;

fn panicking_app(env: &str) -> App {
    let mut app = webfw::app();
    app.set("env", env);
    app.get("/panic", |_: &mut Request, _: &mut Response| -> Result {
        panic!("handler exploded")
    });
    app.get("/ok", |_: &mut Request, res: &mut Response| {
        res.send("still serving")
    });
    app
}

#[tokio::test]
async fn panicking_handler_gives_500_and_the_server_keeps_serving() {
    let srv = TestServer::start(panicking_app("production")).await;
    for _ in 0..3 {
        let res = srv.get("/panic").await;
        assert_eq!(res.status, 500);
        assert_eq!(res.reason, "Internal Server Error");
        assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
        assert_eq!(res.text(), error_page("Internal Server Error"));
    }
    let res = srv.get("/ok").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "still serving");
}

#[tokio::test]
async fn a_panic_in_mounted_middleware_is_an_error_for_the_next_error_handler() {
    let mut app = webfw::app();
    app.use_at(
        "/m",
        (
            |_: &mut Request, _: &mut Response| -> Result { panic!("middleware exploded") },
            |_: &mut Request, res: &mut Response| res.send("skipped while an error travels"),
        ),
    );
    app.use_(|err: Error, req: &mut Request, res: &mut Response| {
        let body = format!("{} {} at {}", err.status(), err, req.url());
        res.status(err.status()).send(body)
    });
    let srv = TestServer::start(app).await;
    let res = srv.get("/m/x").await;
    assert_eq!(res.status, 500);
    assert_eq!(res.text(), "500 middleware exploded at /m/x");
}

#[tokio::test]
async fn panic_does_not_break_a_keep_alive_connection() {
    let srv = TestServer::start(panicking_app("production")).await;
    let mut conn = Conn::open(srv.addr).await;
    conn.send(keep_alive_request("GET", "/panic", &[])).await;
    assert_eq!(conn.read_response(false).await.status, 500);
    conn.send(keep_alive_request("GET", "/ok", &[])).await;
    let res = conn.read_response(false).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "still serving");
}

#[tokio::test]
async fn concurrent_requests_are_unaffected_by_a_panic() {
    let srv = TestServer::start(panicking_app("production")).await;
    let (a, b, c) = tokio::join!(srv.get("/ok"), srv.get("/panic"), srv.get("/ok"));
    assert_eq!(a.text(), "still serving");
    assert_eq!(b.status, 500);
    assert_eq!(c.text(), "still serving");
}

#[tokio::test]
async fn panic_message_is_shown_in_development() {
    let srv = TestServer::start(panicking_app("development")).await;
    let res = srv.get("/panic").await;
    assert_eq!(res.status, 500);
    assert!(res.text().contains("handler exploded"), "{}", res.text());
}

#[tokio::test]
async fn async_panic_message_is_shown_in_development() {
    let mut app = webfw::app();
    app.set("env", "development");
    app.get("/panic", panics_after_await);
    let srv = TestServer::start(app).await;
    let res = srv.get("/panic").await;
    assert_eq!(res.status, 500);
    assert!(
        res.text().contains("async handler exploded"),
        "{}",
        res.text()
    );
}

async fn panics_after_await(_: &mut Request, _: &mut Response) -> Result {
    tokio::task::yield_now().await;
    panic!("async handler exploded")
}

#[tokio::test]
async fn panicking_async_handler_gives_500() {
    let mut app = webfw::app();
    app.set("env", "production");
    app.get("/panic", panics_after_await);
    app.get("/ok", |_: &mut Request, res: &mut Response| res.send("ok"));
    let srv = TestServer::start(app).await;
    let res = srv.get("/panic").await;
    assert_eq!(res.status, 500);
    assert_eq!(res.text(), error_page("Internal Server Error"));
    assert_eq!(srv.get("/ok").await.text(), "ok");
}

fn caught(err: Error, _: &mut Request, res: &mut Response) -> Result {
    let body = format!("caught {} {}", err.status(), err);
    res.status(err.status()).send(body)
}

#[tokio::test]
async fn panic_travels_to_error_handlers_as_a_500_error() {
    let mut router = webfw::router();
    router.get("/panic", |_: &mut Request, _: &mut Response| -> Result {
        panic!("inside a router")
    });
    let mut app = webfw::app();
    app.use_at("/r", router);
    app.use_(caught);
    let srv = TestServer::start(app).await;
    let res = srv.get("/r/panic").await;
    assert_eq!(res.status, 500);
    assert_eq!(res.text(), "caught 500 inside a router");
}

#[tokio::test]
async fn async_panic_travels_to_error_handlers_as_a_500_error() {
    let mut app = webfw::app();
    app.get("/panic", panics_after_await);
    app.use_(caught);
    let srv = TestServer::start(app).await;
    let res = srv.get("/panic").await;
    assert_eq!(res.status, 500);
    assert_eq!(res.text(), "caught 500 async handler exploded");
}

#[tokio::test]
async fn panicking_param_callback_and_error_handler_give_500() {
    let mut app = webfw::app();
    app.set("env", "production");
    app.param(
        "id",
        |_: &mut Request, _: &mut Response, _: &str| -> Result { panic!("param exploded") },
    );
    app.get("/p/:id", |_: &mut Request, res: &mut Response| {
        res.send("never")
    });
    app.get("/e", |_: &mut Request, _: &mut Response| -> Result {
        Err(Error::new("first"))
    });
    app.use_(|_: Error, _: &mut Request, _: &mut Response| -> Result {
        panic!("error handler exploded")
    });
    let srv = TestServer::start(app).await;
    let res = srv.get("/p/1").await;
    assert_eq!(res.status, 500);
    assert_eq!(res.text(), error_page("Internal Server Error"));
    let res = srv.get("/e").await;
    assert_eq!(res.status, 500);
    assert_eq!(res.text(), error_page("Internal Server Error"));
}

#[tokio::test]
async fn done_without_a_response_gives_500_instead_of_hanging() {
    let mut app = webfw::app();
    app.set("env", "production");
    app.get("/silent", |_: &mut Request, _: &mut Response| {
        Ok(Flow::Done)
    });
    app.get("/ok", |_: &mut Request, res: &mut Response| res.send("ok"));
    let srv = TestServer::start(app).await;
    let res = srv.get("/silent").await;
    assert_eq!(res.status, 500);
    assert_eq!(res.text(), error_page("Internal Server Error"));
    assert_eq!(srv.get("/ok").await.text(), "ok");
}

#[tokio::test]
async fn done_without_a_response_names_the_request_in_development() {
    let mut app = webfw::app();
    app.set("env", "development");
    app.get("/silent", |_: &mut Request, _: &mut Response| {
        Ok(Flow::Done)
    });
    let srv = TestServer::start(app).await;
    let res = srv.get("/silent?x=1").await;
    assert_eq!(res.status, 500);
    let text = res.text();
    assert!(text.contains("GET /silent?x=1"), "{text}");
    assert!(text.contains("Flow::Done"), "{text}");
}

async fn silent_async(_: &mut Request, _: &mut Response) -> Result {
    tokio::task::yield_now().await;
    Ok(Flow::Done)
}

#[tokio::test]
async fn async_done_without_a_response_gives_500() {
    let mut app = webfw::app();
    app.set("env", "production");
    app.get("/silent", silent_async);
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/silent").await.status, 500);
}

/// The client hangs up while the handler is still waiting: as in Node, the
/// handler runs to its end and the `on_finish` hooks (the logger's) fire with
/// the response as it was left.
#[tokio::test]
async fn handler_finishes_and_hooks_fire_after_the_client_disconnects() {
    use std::sync::{Arc, Mutex};
    use tokio::io::AsyncWriteExt;

    let (release_tx, release_rx) = tokio::sync::oneshot::channel::<()>();
    let release_rx = Arc::new(Mutex::new(Some(release_rx)));
    let (done_tx, mut done_rx) = tokio::sync::mpsc::unbounded_channel::<String>();

    let mut app = webfw::app();
    let hook_tx = done_tx.clone();
    app.use_(move |_: &mut Request, res: &mut Response| {
        let tx = hook_tx.clone();
        res.on_finish(move |_req, res| {
            let _ = tx.send(format!("finished sent={}", res.headers_sent()));
        });
        next()
    });
    let handler_tx = done_tx.clone();
    app.use_(common::async_handler(move |_req, res| {
        let rx = release_rx.lock().unwrap().take();
        let tx = handler_tx.clone();
        Box::pin(async move {
            if let Some(rx) = rx {
                let _ = rx.await;
            }
            let _ = tx.send("handler ran on".to_owned());
            res.send("too late")
        })
    }));
    let server = TestServer::start(app).await;

    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    stream
        .write_all(b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    // Give the server the request, then hang up before any answer.
    tokio::task::yield_now().await;
    drop(stream);
    release_tx.send(()).unwrap();

    let mut seen = Vec::new();
    while seen.len() < 2 {
        let line = common::guard("the handler and the hook", done_rx.recv())
            .await
            .expect("channel open");
        seen.push(line);
    }
    assert_eq!(seen[0], "handler ran on");
    assert!(seen[1].starts_with("finished sent="), "{seen:?}");
}
