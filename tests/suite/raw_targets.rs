//! Targets Node accepts and `http::Uri` refuses, after bodies that arrive
//! apart from their heads: a body is never taken for a request, and the
//! next request's target reaches the app as the client sent it.

use crate::common;

use common::{Conn, TestServer, keep_alive_request};
use webfw::prelude::*;

/// Echoes the body it reads.
async fn echo(req: &mut Request, res: &mut Response) -> Result {
    let body = webfw::body::read_limited(req, 1024).await?;
    res.send(body.to_vec())
}

fn url(req: &mut Request, res: &mut Response) -> Result {
    let url = req.original_url().to_owned();
    res.send(url)
}

fn app() -> App {
    let mut app = webfw::app();
    app.post("/echo", echo);
    app.get("/*", url);
    app
}

/// Sends a head alone (`Expect: 100-continue` holds the body back until
/// the server asks for it), then `body`, then a request whose target hyper
/// alone would reject; both answers must be intact.
async fn body_then_request(framing: (&str, &str), body: &[u8], echoed: &str) {
    let srv = TestServer::start(app()).await;
    let mut conn = Conn::open(srv.addr).await;
    conn.send(keep_alive_request(
        "POST",
        "/echo",
        &[framing, ("Expect", "100-continue")],
    ))
    .await;
    assert_eq!(conn.read_response(false).await.status, 100);
    conn.send(body).await;
    let res = conn.read_response(false).await;
    assert_eq!((res.status, res.text()), (200, echoed.to_owned()));
    conn.send(keep_alive_request("GET", "/<x>?q={y}|`", &[]))
        .await;
    let res = conn.read_response(false).await;
    assert_eq!((res.status, res.text()), (200, "/<x>?q={y}|`".to_owned()));
}

#[tokio::test]
async fn a_length_framed_body_after_a_lone_head_is_not_a_request() {
    let body = "GET /<b> HTTP/1.1\r\n\r\n";
    let length = body.len().to_string();
    body_then_request(("Content-Length", &length), body.as_bytes(), body).await;
}

#[tokio::test]
async fn a_chunked_body_after_a_lone_head_is_not_a_request() {
    let body = b"15\r\nGET /<b> HTTP/1.1\r\n\r\n\r\n0\r\n\r\n";
    body_then_request(
        ("Transfer-Encoding", "chunked"),
        body,
        "GET /<b> HTTP/1.1\r\n\r\n",
    )
    .await;
}

#[tokio::test]
async fn lone_heads_one_after_another_keep_their_targets() {
    let srv = TestServer::start(app()).await;
    let mut conn = Conn::open(srv.addr).await;
    for target in ["/plain", "/<a>", "/b", "/{c}", "/d"] {
        conn.send(keep_alive_request("GET", target, &[])).await;
        let res = conn.read_response(false).await;
        assert_eq!((res.status, res.text()), (200, target.to_owned()));
    }
}
