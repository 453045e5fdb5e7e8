//! The server layer: binding, keep-alive, HTTP/2, HTTPS, UNIX sockets, the
//! single-threaded runtime, graceful shutdown and the request-head limit.

use crate::common;

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use common::{Conn, TestServer, async_handler, guard, keep_alive_request, request};
use tokio::sync::oneshot;
use tokio_rustls::rustls;
use webfw::prelude::*;
use webfw::{ListenOptions, MAX_HEAD_SIZE, TlsConfig};

fn hello_app() -> App {
    let mut app = webfw::app();
    app.get("/", |_: &mut Request, res: &mut Response| res.send("hello"));
    app.get("/info", |req: &mut Request, res: &mut Response| {
        let body = format!(
            "{} {} {} {}",
            req.protocol(),
            req.secure(),
            req.http_version(),
            req.hostname().unwrap_or("-")
        );
        res.send(body)
    });
    app
}

#[tokio::test]
async fn port_zero_binds_an_ephemeral_port_that_serves() {
    let srv = TestServer::start(hello_app()).await;
    assert_eq!(srv.addr.ip().to_string(), "127.0.0.1");
    assert_ne!(srv.addr.port(), 0);
    let res = srv.get("/").await;
    assert_eq!(res.version, "HTTP/1.1");
    assert_eq!(res.status, 200);
    assert_eq!(res.reason, "OK");
    assert_eq!(res.text(), "hello");
}

#[tokio::test]
async fn two_servers_on_port_zero_get_different_ports() {
    let a = TestServer::start(hello_app()).await;
    let b = TestServer::start(hello_app()).await;
    assert_ne!(a.addr.port(), b.addr.port());
}

#[tokio::test]
async fn keep_alive_serves_two_requests_on_one_connection() {
    let srv = TestServer::start(hello_app()).await;
    let mut conn = Conn::open(srv.addr).await;
    conn.send(keep_alive_request("GET", "/", &[])).await;
    let first = conn.read_response(false).await;
    assert_eq!(first.status, 200);
    assert_eq!(first.text(), "hello");
    assert_ne!(first.header("connection"), Some("close"));

    conn.send(keep_alive_request("GET", "/info", &[])).await;
    let second = conn.read_response(false).await;
    assert_eq!(second.status, 200);
    assert_eq!(second.text(), "http false 1.1 localhost");
}

#[tokio::test]
async fn pipelined_requests_are_answered_in_order() {
    let srv = TestServer::start(hello_app()).await;
    let mut conn = Conn::open(srv.addr).await;
    let mut both = keep_alive_request("GET", "/info", &[]);
    both.extend(keep_alive_request("GET", "/", &[]));
    conn.send(both).await;
    assert_eq!(
        conn.read_response(false).await.text(),
        "http false 1.1 localhost"
    );
    assert_eq!(conn.read_response(false).await.text(), "hello");
}

#[tokio::test]
async fn unread_request_body_does_not_break_keep_alive() {
    let mut app = hello_app();
    app.post("/ignore-body", |_: &mut Request, res: &mut Response| {
        res.send("ignored")
    });
    let srv = TestServer::start(app).await;
    let mut conn = Conn::open(srv.addr).await;
    conn.send("POST /ignore-body HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello")
        .await;
    assert_eq!(conn.read_response(false).await.text(), "ignored");
    conn.send(keep_alive_request("GET", "/", &[])).await;
    assert_eq!(conn.read_response(false).await.text(), "hello");

    // Bodies hyper would not have whole in its buffer: Node reads and
    // drops what nobody read, and the connection goes on.
    let mut big =
        b"POST /ignore-body HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000000\r\n\r\n"
            .to_vec();
    big.resize(big.len() + 1_000_000, b'x');
    for unread in [
        &b"POST /ignore-body HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"[..],
        b"GET / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
        &big,
    ] {
        let mut conn = Conn::open(srv.addr).await;
        conn.send(unread).await;
        let res = conn.read_response(false).await;
        assert_eq!(res.status, 200);
        assert!(!res.has_header("connection"), "{res:?}");
        conn.send(keep_alive_request("GET", "/", &[])).await;
        assert_eq!(conn.read_response(false).await.text(), "hello");
    }
}

#[tokio::test]
async fn http10_request_is_served() {
    let srv = TestServer::start(hello_app()).await;
    let res = srv.raw("GET / HTTP/1.0\r\n\r\n").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "hello");
}

#[tokio::test]
async fn http10_request_is_answered_with_an_http11_status_line() {
    let srv = TestServer::start(hello_app()).await;
    let res = srv.raw("GET / HTTP/1.0\r\n\r\n").await;
    assert_eq!(res.version, "HTTP/1.1");
}

#[tokio::test]
async fn headers_of_one_exchange_never_reach_the_next_on_the_connection() {
    // Header maps are recycled between requests on a thread.
    let mut app = hello_app();
    app.get("/set", |_: &mut Request, res: &mut Response| {
        res.set("X-Only-Here", "1");
        res.send("set")
    });
    let srv = TestServer::start(app).await;
    let mut conn = Conn::open(srv.addr).await;
    for _ in 0..3 {
        conn.send(keep_alive_request(
            "GET",
            "/set",
            &[("X-Request-Only", "secret")],
        ))
        .await;
        let first = conn.read_response(false).await;
        assert_eq!(first.header("x-only-here"), Some("1"));
        conn.send(keep_alive_request("GET", "/", &[])).await;
        let second = conn.read_response(false).await;
        assert_eq!(second.text(), "hello");
        assert_eq!(
            second.header_names(),
            ["x-powered-by", "content-type", "etag", "content-length"]
        );
    }
}

#[tokio::test]
async fn connection_close_request_gets_the_connection_closed() {
    let srv = TestServer::start(hello_app()).await;
    let mut conn = Conn::open(srv.addr).await;
    conn.send(request("GET", "/", &[])).await;
    let res = conn.read_response(false).await;
    assert_eq!(res.text(), "hello");
    assert_eq!(res.header("connection"), Some("close"));
    assert!(conn.read_to_close().await.is_empty());
}

/// An HTTP/2 client on `io` (prior knowledge, or after ALPN chose `h2`).
async fn h2_client<T>(io: T) -> h2::client::SendRequest<Bytes>
where
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let (client, connection) = guard("h2 handshake", h2::client::handshake(io))
        .await
        .expect("h2 handshake");
    tokio::spawn(connection);
    client
}

/// `GET uri` over `client`: the response head and its whole body.
async fn h2_get(
    client: &h2::client::SendRequest<Bytes>,
    uri: &str,
) -> (http::response::Parts, Vec<u8>) {
    let mut client = guard("h2 stream", client.clone().ready())
        .await
        .expect("h2 connection ready");
    let req = http::Request::get(uri).body(()).unwrap();
    let (response, _) = client.send_request(req, true).expect("h2 request");
    let (head, mut body) = guard("h2 response", response)
        .await
        .expect("h2 response")
        .into_parts();
    let mut data = Vec::new();
    while let Some(chunk) = guard("h2 body", body.data()).await {
        let chunk = chunk.expect("h2 body");
        data.extend_from_slice(&chunk);
        let _ = body.flow_control().release_capacity(chunk.len());
    }
    (head, data)
}

#[tokio::test]
async fn http2_prior_knowledge_is_served() {
    let srv = TestServer::start(hello_app()).await;
    let tcp = tokio::net::TcpStream::connect(srv.addr).await.unwrap();
    let client = h2_client(tcp).await;
    let (head, body) = h2_get(&client, &format!("http://{}/info", srv.addr)).await;
    assert_eq!(head.version, http::Version::HTTP_2);
    assert_eq!(head.status, 200);
    assert_eq!(
        head.headers.get("content-type").unwrap(),
        "text/html; charset=utf-8"
    );
    assert_eq!(&body[..], b"http false 2.0 127.0.0.1");
}

#[tokio::test]
async fn http2_multiplexes_requests_on_one_connection() {
    let srv = TestServer::start(hello_app()).await;
    let tcp = tokio::net::TcpStream::connect(srv.addr).await.unwrap();
    let client = h2_client(tcp).await;
    let a = format!("http://{}/", srv.addr);
    let b = format!("http://{}/info", srv.addr);
    let ((_, body_a), (_, body_b)) = tokio::join!(h2_get(&client, &a), h2_get(&client, &b));
    assert_eq!(&body_a[..], b"hello");
    assert_eq!(&body_b[..], b"http false 2.0 127.0.0.1");
}

struct Tls {
    server: TlsConfig,
    connector: tokio_rustls::TlsConnector,
}

fn tls_setup(alpn: &[&[u8]]) -> Tls {
    let ck = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let server = TlsConfig::from_pem(
        ck.cert.pem().as_bytes(),
        ck.key_pair.serialize_pem().as_bytes(),
    )
    .expect("rcgen PEM is accepted");
    let mut roots = rustls::RootCertStore::empty();
    roots.add(ck.cert.der().clone()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    Tls {
        server,
        connector: tokio_rustls::TlsConnector::from(Arc::new(config)),
    }
}

/// `hello_app` served over HTTPS on an OS port, and its address.
async fn https_hello(tls: &Tls) -> (webfw::Server, std::net::SocketAddr) {
    let server = hello_app()
        .bind(
            ListenOptions::port(0)
                .host("127.0.0.1")
                .tls(tls.server.clone()),
        )
        .await
        .unwrap();
    let addr = server.local_addr().unwrap();
    (server, addr)
}

async fn tls_connect(
    tls: &Tls,
    addr: std::net::SocketAddr,
) -> tokio_rustls::client::TlsStream<tokio::net::TcpStream> {
    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
    guard("TLS handshake", tls.connector.connect(name, tcp))
        .await
        .expect("TLS handshake with the self-signed certificate")
}

#[tokio::test]
async fn https_with_rustls_sets_secure_and_protocol() {
    let tls = tls_setup(&[]);
    let (_server, addr) = https_hello(&tls).await;
    let stream = tls_connect(&tls, addr).await;
    let raw = common::exchange(stream, &request("GET", "/info", &[])).await;
    let res = common::parse_response(&raw, false);
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "https true 1.1 localhost");
}

/// Keep-alive requests over TLS, pipelined and one at a time (the
/// server's own HTTP/1 loop answers them, and must flush the TLS stream).
#[tokio::test]
async fn https_keep_alive_requests_are_answered_each() {
    let tls = tls_setup(&[]);
    let (_server, addr) = https_hello(&tls).await;
    let mut conn = Conn::new(tls_connect(&tls, addr).await);
    let mut both = keep_alive_request("GET", "/info", &[]);
    both.extend(keep_alive_request("GET", "/", &[]));
    conn.send(both).await;
    assert_eq!(
        conn.read_response(false).await.text(),
        "https true 1.1 localhost"
    );
    assert_eq!(conn.read_response(false).await.text(), "hello");
    conn.send(keep_alive_request("GET", "/info", &[])).await;
    assert_eq!(
        conn.read_response(false).await.text(),
        "https true 1.1 localhost"
    );
}

#[tokio::test]
async fn https_negotiates_http2_through_alpn() {
    let tls = tls_setup(&[b"h2", b"http/1.1"]);
    let (_server, addr) = https_hello(&tls).await;
    let stream = tls_connect(&tls, addr).await;
    assert_eq!(stream.get_ref().1.alpn_protocol(), Some(&b"h2"[..]));
    let client = h2_client(stream).await;
    let (head, body) = h2_get(&client, "https://localhost/info").await;
    assert_eq!(head.version, http::Version::HTTP_2);
    assert_eq!(&body[..], b"https true 2.0 localhost");
}

/// A client that opened a TCP connection to an HTTPS server and never
/// started its TLS handshake does not hold the shutdown either.
#[tokio::test]
async fn graceful_shutdown_closes_a_connection_still_before_its_tls_handshake() {
    let tls = tls_setup(&[]);
    let (server, addr) = https_hello(&tls).await;
    let mut silent = Conn::open(addr).await;
    // Answered after the silent one was accepted (the listener takes them in order).
    let stream = tls_connect(&tls, addr).await;
    let raw = common::exchange(stream, &request("GET", "/", &[])).await;
    assert_eq!(common::parse_response(&raw, false).status, 200);
    guard("shutdown", server.shutdown()).await;
    assert!(silent.read_to_close().await.is_empty());
}

#[tokio::test]
async fn tls_config_rejects_pem_without_certificate() {
    let err = TlsConfig::from_pem(b"not a pem", b"nor this").unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
}

#[cfg(unix)]
#[tokio::test]
async fn unix_socket_serves_requests() {
    let path = std::env::temp_dir().join(format!("webfw-suite-{}-unix.sock", std::process::id()));
    let server = hello_app()
        .bind(ListenOptions::unix(&path))
        .await
        .expect("bind a UNIX socket");
    assert_eq!(server.local_addr(), None);
    let stream = tokio::net::UnixStream::connect(&path).await.unwrap();
    let raw = common::exchange(stream, &request("GET", "/", &[])).await;
    let res = common::parse_response(&raw, false);
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "hello");
    guard("shutdown", server.shutdown()).await;
    let _ = std::fs::remove_file(&path);
}

#[test]
fn bind_serves_inside_a_current_thread_runtime() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut app = webfw::app();
        app.get("/thread", |_: &mut Request, res: &mut Response| {
            res.send(format!("{:?}", std::thread::current().id()))
        });
        let srv = TestServer::start(app).await;
        let a = srv.get("/thread").await;
        let b = srv.get("/thread").await;
        let me = format!("{:?}", std::thread::current().id());
        assert_eq!(a.text(), me);
        assert_eq!(b.text(), me);
        srv.shutdown().await;
    });
}

#[tokio::test]
async fn graceful_shutdown_finishes_an_in_flight_request() {
    let (started_tx, started_rx) = oneshot::channel::<()>();
    let (release_tx, release_rx) = oneshot::channel::<()>();
    let started = Arc::new(Mutex::new(Some(started_tx)));
    let release = Arc::new(Mutex::new(Some(release_rx)));
    let mut app = webfw::app();
    app.get(
        "/slow",
        async_handler(move |_req, res| {
            let started = started.clone();
            let release = release.clone();
            Box::pin(async move {
                let tx = started.lock().unwrap().take();
                if let Some(tx) = tx {
                    let _ = tx.send(());
                }
                let rx = release.lock().unwrap().take();
                if let Some(rx) = rx {
                    let _ = rx.await;
                }
                res.send("finished after shutdown")
            })
        }),
    );
    let srv = TestServer::start(app).await;
    let addr = srv.addr;
    let client =
        tokio::spawn(async move { common::send_raw(addr, &request("GET", "/slow", &[])).await });
    guard("handler start", started_rx).await.unwrap();

    let server = srv.into_server();
    server.shutdown_handle().shutdown();
    let stopped = tokio::spawn(server.wait());
    // Shutdown was requested while the handler is parked; now let it finish.
    release_tx.send(()).unwrap();

    let raw = guard("in-flight response", client).await.unwrap();
    let res = common::parse_response(&raw, false);
    assert_eq!(res.status, 200);
    assert_eq!(res.header("content-length"), Some("23"));
    assert_eq!(res.text(), "finished after shutdown");

    guard("server stop", stopped).await.unwrap();
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "the listener is closed once shutdown completes"
    );
}

#[tokio::test]
async fn graceful_shutdown_finishes_a_streaming_response() {
    let (started_tx, started_rx) = oneshot::channel::<()>();
    let (release_tx, release_rx) = oneshot::channel::<()>();
    let started = Arc::new(Mutex::new(Some(started_tx)));
    let release = Arc::new(Mutex::new(Some(release_rx)));
    let mut app = webfw::app();
    app.get(
        "/stream",
        async_handler(move |_req, res| {
            let started = started.clone();
            let release = release.clone();
            Box::pin(async move {
                res.write("first ")?;
                let tx = started.lock().unwrap().take();
                if let Some(tx) = tx {
                    let _ = tx.send(());
                }
                let rx = release.lock().unwrap().take();
                if let Some(rx) = rx {
                    let _ = rx.await;
                }
                res.write("second")?;
                res.end()
            })
        }),
    );
    let srv = TestServer::start(app).await;
    let addr = srv.addr;
    let client =
        tokio::spawn(async move { common::send_raw(addr, &request("GET", "/stream", &[])).await });
    guard("handler start", started_rx).await.unwrap();
    let server = srv.into_server();
    server.shutdown_handle().shutdown();
    let stopped = tokio::spawn(server.wait());
    release_tx.send(()).unwrap();
    let raw = guard("streamed response", client).await.unwrap();
    let res = common::parse_response(&raw, false);
    assert!(res.chunked);
    assert_eq!(res.text(), "first second");
    guard("server stop", stopped).await.unwrap();
}

#[tokio::test]
async fn handler_sending_connection_close_closes_the_connection() {
    let mut app = hello_app();
    app.get("/bye", |_: &mut Request, res: &mut Response| {
        res.set("Connection", "close").send("bye")
    });
    let srv = TestServer::start(app).await;
    let mut conn = Conn::open(srv.addr).await;
    conn.send(keep_alive_request("GET", "/bye", &[])).await;
    let res = conn.read_response(false).await;
    assert_eq!(res.text(), "bye");
    assert_eq!(res.header("connection"), Some("close"));
    assert!(conn.read_to_close().await.is_empty());
}

#[tokio::test]
async fn graceful_shutdown_closes_idle_keep_alive_connections() {
    let srv = TestServer::start(hello_app()).await;
    let mut conn = Conn::open(srv.addr).await;
    conn.send(keep_alive_request("GET", "/", &[])).await;
    assert_eq!(conn.read_response(false).await.text(), "hello");
    srv.shutdown().await;
    assert!(conn.read_to_close().await.is_empty());
}

/// Node closes idle connections when it stops; one that never sent a byte
/// must not hold the shutdown until the header-read timeout (60 s here,
/// beyond the test's hang guard).
#[tokio::test]
async fn graceful_shutdown_closes_a_connection_that_sent_nothing() {
    let srv = TestServer::start(hello_app()).await;
    let mut silent = Conn::open(srv.addr).await;
    // Answered after the silent one was accepted (the listener takes them in order).
    assert_eq!(srv.get("/").await.text(), "hello");
    srv.shutdown().await;
    assert!(silent.read_to_close().await.is_empty());
}

#[tokio::test]
async fn request_head_over_16_kib_gets_431() {
    let srv = TestServer::start(hello_app()).await;
    let big = "a".repeat(20 * 1024);
    let raw = srv.raw_bytes(request("GET", "/", &[("X-Big", &big)])).await;
    let res = common::parse_response(&raw, false);
    assert_eq!(res.status, 431);
    assert_eq!(res.reason, "Request Header Fields Too Large");
    assert!(res.body.is_empty());
}

#[tokio::test]
async fn request_head_just_under_16_kib_is_served() {
    let srv = TestServer::start(hello_app()).await;
    // Request line + Host + Connection + this header stay below 16,384 bytes.
    let big = "a".repeat(16 * 1024 - 200);
    let res = srv.get_with("/", &[("X-Big", &big)]).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "hello");
}

/// Node accepts as many headers as fit its size limit and keeps the first
/// 1000 lines (`Host` is one); hyper's stack parser takes 100, so a
/// connection opening with more is served by its larger parser.
#[tokio::test]
async fn request_with_many_headers_is_served() {
    let mut app = webfw::app();
    app.get("/", |req: &mut Request, res: &mut Response| {
        let n = req
            .headers()
            .keys()
            .filter(|k| k.as_str().starts_with("x-h"))
            .count();
        res.send(n.to_string())
    });
    let srv = TestServer::start(app).await;
    let names: Vec<String> = (0..1000).map(|k| format!("x-h{k}")).collect();
    let headers: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "v")).collect();
    let res = srv.get_with("/", &headers).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "999");
}

/// Node 20 counts the target and header names and values (not separators
/// or line ends) against its 16 KiB limit, and drops header lines past
/// the 1000th instead of refusing them: 1,500 `Cookie` lines and 3,000
/// tiny headers are served.
#[tokio::test]
async fn header_lines_are_counted_and_kept_as_node_does() {
    let mut app = webfw::app();
    // Cookie pairs and the length of the joined `a`, as Node joins them.
    app.get("/", |req: &mut Request, res: &mut Response| {
        let cookies = req.get("cookie").map_or(0, |c| c.split("; ").count());
        let a = req.get("a").map_or(-1, |a| a.len() as i64);
        res.send(format!("{cookies} {a}"))
    });
    let srv = TestServer::start(app).await;
    let head = |lines: &str, n: usize| {
        format!(
            "GET / HTTP/1.1\r\nHost: localhost\r\n{}Connection: close\r\n\r\n",
            lines.repeat(n)
        )
    };
    let res = srv.raw(head("Cookie: a=1\r\n", 1500)).await;
    assert_eq!((res.status, res.text()), (200, "999 -1".to_owned()));
    let res = srv.raw(head("a:\r\n", 3000)).await;
    assert_eq!((res.status, res.text()), (200, "0 1996".to_owned()));
    // "/" + "Host" "localhost" + "Connection" "close" + n × "a" "b".
    let fixed = 1 + 13 + 15;
    let n = (MAX_HEAD_SIZE - 1 - fixed) / 2;
    assert_eq!(n, 8177);
    let res = srv.raw(head("a:b\r\n", n)).await;
    assert_eq!((res.status, res.text()), (200, "0 2995".to_owned()));
    let res = srv.raw(head("a:bb\r\n", n)).await;
    assert_eq!(res.status, 431);
    // One byte under and at the limit, in a single value.
    let long = |len: usize| format!("X: {}\r\n", "v".repeat(len));
    let res = srv.raw(head(&long(MAX_HEAD_SIZE - 1 - fixed - 1), 1)).await;
    assert_eq!(res.status, 200);
    let res = srv.raw(head(&long(MAX_HEAD_SIZE - fixed - 1), 1)).await;
    assert_eq!(res.status, 431);
}

/// An idle keep-alive connection is closed once the keep-alive timeout
/// passes without a new request (Node's `keepAliveTimeout`), without a word.
#[tokio::test]
async fn idle_keep_alive_connection_is_closed_after_the_keep_alive_timeout() {
    let server = hello_app()
        .bind(
            ListenOptions::port(0)
                .host("127.0.0.1")
                .keep_alive_timeout(std::time::Duration::from_millis(200)),
        )
        .await
        .expect("bind");
    let mut conn = Conn::open(server.local_addr().expect("tcp address")).await;
    conn.send(keep_alive_request("GET", "/", &[])).await;
    assert_eq!(conn.read_response(false).await.text(), "hello");
    let rest = guard(
        "the server to close the idle connection",
        conn.read_to_close(),
    )
    .await;
    assert!(rest.is_empty(), "{rest:?}");
    server.shutdown().await;
}

/// The header-read timeout never cuts off a request in progress: a handler
/// that takes several timeout periods still gets its response out.
#[tokio::test]
async fn slow_handler_outlasts_the_header_read_timeout() {
    let mut app = webfw::app();
    app.get(
        "/slow",
        async_handler(|_req, res| {
            Box::pin(async move {
                tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                res.send("done")
            })
        }),
    );
    let server = app
        .bind(
            ListenOptions::port(0)
                .host("127.0.0.1")
                .header_read_timeout(std::time::Duration::from_millis(100)),
        )
        .await
        .expect("bind");
    let data = common::send_raw(
        server.local_addr().expect("tcp address"),
        b"GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(
        String::from_utf8_lossy(&data).ends_with("\r\n\r\ndone"),
        "{data:?}"
    );
    server.shutdown().await;
}

/// A client that stops halfway through its request head is disconnected once
/// the header-read timeout passes, and a complete request on the same server
/// is still served.
#[tokio::test]
async fn stalled_request_head_is_closed_after_the_header_read_timeout() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let mut app = webfw::app();
    app.get("/", |_: &mut Request, res: &mut Response| res.send("ok"));
    let server = app
        .bind(
            ListenOptions::port(0)
                .host("127.0.0.1")
                .header_read_timeout(std::time::Duration::from_millis(300)),
        )
        .await
        .expect("bind");
    let addr = server.local_addr().expect("tcp address");

    let mut stalled = tokio::net::TcpStream::connect(addr).await.unwrap();
    stalled
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let mut buf = Vec::new();
    let read = common::guard("the server to close the stalled connection", async {
        stalled.read_to_end(&mut buf).await
    })
    .await;
    assert!(read.is_ok() || buf.is_empty(), "{read:?}");
    assert!(
        !String::from_utf8_lossy(&buf).contains("200 OK"),
        "an incomplete head must never be answered: {buf:?}"
    );

    let data = common::send_raw(
        addr,
        b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(String::from_utf8_lossy(&data).ends_with("\r\n\r\nok"));
    server.shutdown().await;
}
