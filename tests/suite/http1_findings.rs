//! Six findings about webfw's HTTP/1 server, each held to what Express 4
//! (4.22.1, tests/interop) does on Node 20 (20.20.2) on the same bytes, as
//! measured with a throwaway Express app of the same routes as [`app`]:
//! `GET /echo` answering its `X-Echo` header (or `?q=`), `GET /` answering
//! `ok`, `/ignore` answering `ignored` without reading the body, and
//! `POST /json` behind `express.json({ limit: 10 })`.
//!
//! Every case writes its bytes in one write and reads until the server
//! closes (a hang guard, never a timing assertion).

use crate::common;

use std::net::SocketAddr;

use common::{Conn, HttpResponse, TestServer, async_handler, guard, parse_response};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use webfw::body::JsonOptions;
use webfw::prelude::*;

const NODE_400: &[u8] = b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n";

/// The Express app of the measurements, in webfw.
fn app() -> webfw::App {
    let mut app = webfw::app();
    app.get("/echo", |req: &mut Request, res: &mut Response| {
        let echo = match req.get("x-echo") {
            Some(v) => v.to_owned(),
            None => req
                .query()
                .get("q")
                .and_then(|q| q.as_str())
                .unwrap_or_default()
                .to_owned(),
        };
        res.send(echo)
    });
    app.get("/", |_: &mut Request, res: &mut Response| res.send("ok"));
    app.all("/ignore", |_: &mut Request, res: &mut Response| {
        res.send("ignored")
    });
    // Answers after the client's close has surely reached the server.
    app.all(
        "/ignore-later",
        async_handler(|_req, res| {
            Box::pin(async move {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                res.send("ignored")
            })
        }),
    );
    app.post(
        "/json",
        (
            webfw::json(JsonOptions::new().limit(10)),
            |req: &mut Request, res: &mut Response| res.json(req.body()),
        ),
    );
    app
}

/// Writes `bytes` on a new connection, keeps the write side open, and reads
/// until the server closes (a reset counts as the close).
async fn exchange(addr: SocketAddr, bytes: &[u8]) -> Vec<u8> {
    let mut stream = guard("connect", TcpStream::connect(addr)).await.unwrap();
    let _ = stream.write_all(bytes).await;
    let mut out = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        match guard("the server to close", stream.read(&mut buf)).await {
            Ok(0) | Err(_) => return out,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
}

/// Splits an answer stream into its responses.
fn responses(data: &[u8]) -> Vec<HttpResponse> {
    let mut out = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        // A response without a length runs to the close.
        let end = parse_head_len(rest)
            .and_then(|h| framed_len(rest, h))
            .map_or(rest.len(), |n| n.min(rest.len()));
        out.push(parse_response(&rest[..end], false));
        rest = &rest[end..];
    }
    out
}

fn parse_head_len(data: &[u8]) -> Option<usize> {
    data.windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|p| p + 4)
}

/// The length of the response at the start of `data` whose head is `head`
/// bytes long, when it is framed by `Content-Length` or has no body.
fn framed_len(data: &[u8], head: usize) -> Option<usize> {
    let text = String::from_utf8_lossy(&data[..head]).to_ascii_lowercase();
    if text.starts_with("http/1.1 1") {
        return Some(head);
    }
    let len = text
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok());
    match len {
        Some(len) => Some(head + len),
        None if text.contains("transfer-encoding: chunked") => data[head..]
            .windows(5)
            .position(|w| w == b"0\r\n\r\n")
            .map(|p| head + p + 5),
        None => None,
    }
}

fn summary(data: &[u8]) -> Vec<(u16, String)> {
    responses(data)
        .iter()
        .map(|r| (r.status, String::from_utf8_lossy(&r.body).into_owned()))
        .collect()
}

// 1. A cut answer. Express, measured: `GET /echo` whose answer is
// `HTTP/1.1 400 Bad` (Content-Length: 16), in one write with
//  - `G@T / HTTP/1.1` (llhttp refuses the method): the 200 whole, then
//    nothing (Node writes no refusal while an answer is on the socket), closed;
//  - a request whose head is over 16 KiB: the same, the 200 whole, no 431, closed;
//  - `GET / HTTP/1.1` without Host: the 200 whole, then Node's own
//    `HTTP/1.1 400 Bad Request` (Connection: close, chunked, empty), closed.
// The same with the bytes in the query string (`/echo?q=HTTP/1.1%20400%20`).
#[tokio::test]
async fn a_refused_request_behind_an_answer_does_not_cut_it() {
    let server = TestServer::start(app()).await;
    let ok = "GET /echo HTTP/1.1\r\nHost: x\r\nX-Echo: HTTP/1.1 400 Bad\r\n\r\n";
    let big = format!(
        "GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "a".repeat(17000)
    );
    let query = "GET /echo?q=HTTP/1.1%20400%20 HTTP/1.1\r\nHost: x\r\n\r\n";
    let echoed = (200, "HTTP/1.1 400 Bad".to_owned());
    let queried = (200, "HTTP/1.1 400 ".to_owned());
    let no_host = (400, String::new());
    let cases = [
        (
            ok,
            "G@T / HTTP/1.1\r\nHost: x\r\n\r\n",
            vec![echoed.clone()],
        ),
        (ok, big.as_str(), vec![echoed.clone()]),
        (ok, "GET / HTTP/1.1\r\n\r\n", vec![echoed, no_host.clone()]),
        (
            query,
            "G@T / HTTP/1.1\r\nHost: x\r\n\r\n",
            vec![queried.clone()],
        ),
        (query, big.as_str(), vec![queried.clone()]),
        (query, "GET / HTTP/1.1\r\n\r\n", vec![queried, no_host]),
    ];
    // Every case is run before any is judged, so a failure shows them all.
    let mut got = Vec::new();
    let mut wanted = Vec::new();
    for (answered, refused, expected) in cases {
        let data = exchange(server.addr, format!("{answered}{refused}").as_bytes()).await;
        let shown: String = String::from_utf8_lossy(&data[..data.len().min(400)]).into();
        let refused = &refused[..refused.len().min(40)];
        got.push((refused, summary(&data), shown.clone()));
        wanted.push((refused, expected, shown));
    }
    assert_eq!(got, wanted);
    server.shutdown().await;
}

// 2. Tunnels. Express (no 'connect' or 'upgrade' listener), measured:
//  - `CONNECT example.com:443` with a `GET /` behind it: no byte at all,
//    the socket closed at once (Node destroys it), also after a GET
//    answered first;
//  - `GET /echo` with `Connection: Upgrade` + `Upgrade: foo`: answered by
//    the app as any request (200, its body), the `GET /` behind it never
//    (Node stops parsing the connection), which Node closes when its 5 s
//    keep-alive timeout ends.
#[tokio::test]
async fn nothing_behind_a_tunnel_request_is_answered() {
    let server = TestServer::start(app()).await;
    let get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    let connect = "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n";
    let data = exchange(server.addr, format!("{connect}{get}").as_bytes()).await;
    assert_eq!(String::from_utf8_lossy(&data), "");
    let data = exchange(server.addr, format!("{get}{connect}{get}").as_bytes()).await;
    assert_eq!(summary(&data), vec![(200, "ok".to_owned())]);
    let upgrade = "GET /echo HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: foo\r\nX-Echo: up\r\n\r\n";
    let data = exchange(server.addr, format!("{upgrade}{get}").as_bytes()).await;
    assert_eq!(summary(&data), vec![(200, "up".to_owned())]);
    server.shutdown().await;
}

// 3. Framing Node refuses. Express, measured: each of these, on a route
// that reads no body, gets exactly `HTTP/1.1 400 Bad Request\r\n
// Connection: close\r\n\r\n` and the socket closed, nothing else.
#[tokio::test]
async fn ambiguous_framing_is_refused_with_400_and_close() {
    let server = TestServer::start(app()).await;
    let post = "POST /ignore HTTP/1.1\r\nHost: x\r\n";
    let chunked = "5\r\nhello\r\n0\r\n\r\n";
    let cases = [
        format!("{post}Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n{chunked}"),
        format!("{post}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n{chunked}"),
        format!("{post}Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello"),
        format!("{post}Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"),
        format!("{post}Content-Length: 5\t\r\n\r\nhello"),
        "GET / HTTP/1.1\nHost: x\n\n".to_owned(),
        "GET / HTTP/1.1\r\nHost: x\nX: y\r\n\r\n".to_owned(),
    ];
    for case in cases {
        let data = exchange(server.addr, case.as_bytes()).await;
        assert_eq!(
            String::from_utf8_lossy(&data),
            String::from_utf8_lossy(NODE_400),
            "for {case:?}"
        );
    }
    server.shutdown().await;
}

// 4. Many header lines. Express, measured: a `GET /echo` of 150 header
// lines is answered 200 as the first request and as the second one on a
// keep-alive connection, whether the second comes in the same write as the
// first or after the first's answer was read, and the requests behind it
// are answered too.
#[tokio::test]
async fn a_head_of_150_lines_is_served_first_and_second() {
    let server = TestServer::start(app()).await;
    let many: String = (0..148).map(|k| format!("x-{k}: v\r\n")).collect();
    let echo = format!("GET /echo HTTP/1.1\r\nHost: x\r\nX-Echo: many\r\n{many}\r\n");
    let get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    let last = "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    let ok = (200, "ok".to_owned());
    let many = (200, "many".to_owned());
    let data = exchange(server.addr, format!("{echo}{last}").as_bytes()).await;
    assert_eq!(summary(&data), vec![many.clone(), ok.clone()]);
    let data = exchange(server.addr, format!("{get}{echo}{last}").as_bytes()).await;
    assert_eq!(summary(&data), vec![ok.clone(), many.clone(), ok.clone()]);

    let mut conn = Conn::open(server.addr).await;
    for (request, expected) in [(get, &ok), (&echo, &many), (&echo, &many), (last, &ok)] {
        conn.send(request).await;
        let res = conn.read_response(false).await;
        assert_eq!((res.status, res.text()), expected.clone(), "{res:?}");
    }
    assert_eq!(conn.read_to_close().await, b"");
    server.shutdown().await;
}

// 5. Half-close. Express, measured (40 times each): a whole request
// written and the client's write side shut: the answer arrives (200, with
// `Connection: keep-alive`), then Node closes. The same for two GETs, a
// GET of 72 header lines and a chunked POST, and a POST of 5,000 and of
// 100,000 bytes to a route that never reads them (`/ignore`), and 5,000
// to one that answers once the client's close has come (`/ignore-later`):
// hyper's HTTP/1 closed such a connection on the close and lost the
// answer (in a release build, 9 of 40 even at once).
#[tokio::test]
async fn a_half_closed_client_gets_its_answer() {
    let server = TestServer::start(app()).await;
    let post = "POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}";
    let get = "GET /echo?q=hi HTTP/1.1\r\nHost: x\r\n\r\n";
    let two = "GET /echo?q=1 HTTP/1.1\r\nHost: x\r\n\r\nGET /echo?q=2 HTTP/1.1\r\nHost: x\r\n\r\n";
    let many: String = (0..70).map(|k| format!("x-{k}: v\r\n")).collect();
    let long = format!("GET /echo?q=hi HTTP/1.1\r\nHost: x\r\n{many}\r\n");
    let chunked = "POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n{\"a\":1}\r\n0\r\n\r\n";
    let unread = |path: &str, len: usize| {
        format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {len}\r\n\r\n{}",
            "x".repeat(len)
        )
    };
    let (small, large) = (unread("/ignore", 5_000), unread("/ignore", 100_000));
    let later = unread("/ignore-later", 5_000);
    let ignored = || vec![(200, "ignored".to_owned())];
    let cases: [(&str, Vec<(u16, String)>); 8] = [
        (&later, ignored()),
        (&small, ignored()),
        (&large, ignored()),
        (&long, vec![(200, "hi".to_owned())]),
        (chunked, vec![(200, "{\"a\":1}".to_owned())]),
        (post, vec![(200, "{\"a\":1}".to_owned())]),
        (get, vec![(200, "hi".to_owned())]),
        (two, vec![(200, "1".to_owned()), (200, "2".to_owned())]),
    ];
    for (bytes, expected) in cases {
        for run in 0..40 {
            let mut stream = guard("connect", TcpStream::connect(server.addr))
                .await
                .unwrap();
            stream.write_all(bytes.as_bytes()).await.unwrap();
            stream.shutdown().await.unwrap();
            let mut data = Vec::new();
            let mut buf = [0u8; 4096];
            loop {
                match guard("the answer", stream.read(&mut buf)).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => data.extend_from_slice(&buf[..n]),
                }
            }
            assert_eq!(summary(&data), expected, "run {run} of {bytes:?}");
        }
    }
    server.shutdown().await;
}

// 6. `Expect: 100-continue`. Express (no 'checkContinue' listener), measured:
//  - Node writes `HTTP/1.1 100 Continue\r\n\r\n` as soon as the head
//    arrives, before any body byte is sent;
//  - `/ignore` (reads no body) then answers 200 `ignored` at once, before
//    the body is sent; the body sent afterwards is read and thrown away
//    (Node dumps it) and the `GET /` behind it is answered: kept;
//  - `express.json({ limit: 10 })` with `Content-Length: 100`: 100
//    Continue, then body-parser's 413 once the whole body has come
//    (body-parser reads the rest off before answering), and the `GET /`
//    behind it is answered: kept;
//  - the same with a chunked body refused part-way (a 20-byte chunk over
//    the limit, then a 5-byte one): 100 Continue, 413 after the last
//    chunk, the `GET /` behind it answered: kept.
#[tokio::test]
async fn expect_100_continue_is_answered_at_once_and_the_connection_kept() {
    let server = TestServer::start(app()).await;
    let get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";

    let mut conn = Conn::open(server.addr).await;
    conn.send(
        "POST /ignore HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n",
    )
    .await;
    let interim = conn.read_response(false).await;
    assert_eq!((interim.status, interim.reason.as_str()), (100, "Continue"));
    let res = conn.read_response(false).await;
    assert_eq!((res.status, res.text().as_str()), (200, "ignored"));
    conn.send(format!("hello{get}")).await;
    let res = conn.read_response(false).await;
    assert_eq!((res.status, res.text().as_str()), (200, "ok"));

    let json = "POST /json HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/json\r\n";
    let whole = format!("\"{}\"", "a".repeat(98));
    let bodies = [
        (format!("{json}Content-Length: 100\r\n\r\n"), whole),
        (
            format!("{json}Transfer-Encoding: chunked\r\n\r\n"),
            "14\r\n\"aaaaaaaaaaaaaaaaaa\"\r\n5\r\nbbbbb\r\n0\r\n\r\n".to_owned(),
        ),
    ];
    for (head, body) in bodies {
        let mut conn = Conn::open(server.addr).await;
        conn.send(&head).await;
        let interim = conn.read_response(false).await;
        assert_eq!(
            (interim.status, interim.reason.as_str()),
            (100, "Continue"),
            "{head:?}"
        );
        conn.send(format!("{body}{get}")).await;
        let res = conn.read_response(false).await;
        assert_eq!(res.status, 413, "{head:?}: {}", res.text());
        let res = conn.read_response(false).await;
        assert_eq!((res.status, res.text().as_str()), (200, "ok"), "{head:?}");
    }
    server.shutdown().await;
}
