//! WebSockets over a real socket: `examples/websocket.rs` served as it is,
//! driven by tokio-tungstenite's client; and the upgrade API's edges.

use crate::common;

#[path = "../../examples/websocket.rs"]
#[allow(dead_code)]
mod example;

use common::{TestServer, guard};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{WebSocketStream, client_async};
use webfw::prelude::*;

type Client = WebSocketStream<TcpStream>;

async fn connect(srv: &TestServer, path: &str) -> Client {
    let tcp = TcpStream::connect(srv.addr).await.unwrap();
    let url = format!("ws://{}{path}", srv.addr);
    let (ws, res) = guard("the handshake", client_async(url, tcp))
        .await
        .unwrap();
    assert_eq!(res.status(), 101);
    ws
}

async fn next_text(ws: &mut Client) -> String {
    match guard("a message", ws.next()).await {
        Some(Ok(Message::Text(text))) => text,
        other => panic!("expected a text message, got {other:?}"),
    }
}

#[tokio::test]
async fn echo_sends_each_message_back() {
    let srv = TestServer::start(example::app()).await;
    let mut ws = connect(&srv, "/echo").await;
    ws.send(Message::Text("hello".into())).await.unwrap();
    assert_eq!(next_text(&mut ws).await, "hello");
    ws.send(Message::Binary(vec![0, 1, 2])).await.unwrap();
    match guard("the binary echo", ws.next()).await {
        Some(Ok(Message::Binary(bytes))) => assert_eq!(bytes, [0, 1, 2]),
        other => panic!("expected a binary message, got {other:?}"),
    }
    ws.close(None).await.unwrap();
    // The server echoes the close and ends the stream.
    assert!(matches!(
        guard("the close", ws.next()).await,
        Some(Ok(Message::Close(_)))
    ));
}

#[tokio::test]
async fn chat_broadcasts_to_every_client() {
    let srv = TestServer::start(example::app()).await;
    let mut alice = connect(&srv, "/chat").await;
    let mut bob = connect(&srv, "/chat").await;
    alice.send(Message::Text("hi all".into())).await.unwrap();
    assert_eq!(next_text(&mut bob).await, "hi all");
    assert_eq!(next_text(&mut alice).await, "hi all");
    bob.send(Message::Text("hi alice".into())).await.unwrap();
    assert_eq!(next_text(&mut alice).await, "hi alice");
}

/// The exact 101 head: no body framing headers, the handshake's headers.
#[tokio::test]
async fn the_101_head_is_exact() {
    let srv = TestServer::start(example::app()).await;
    let head = common::keep_alive_request(
        "GET",
        "/echo",
        &[
            ("Connection", "Upgrade"),
            ("Upgrade", "websocket"),
            ("Sec-WebSocket-Version", "13"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ],
    );
    let mut conn = TcpStream::connect(srv.addr).await.unwrap();
    conn.write_all(&head).await.unwrap();
    let mut got = Vec::new();
    while !got.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        let n = guard("the 101 head", conn.read(&mut byte)).await.unwrap();
        assert_ne!(n, 0, "closed early: {}", String::from_utf8_lossy(&got));
        got.push(byte[0]);
    }
    let head = String::from_utf8(got).unwrap();
    let (head, date) = head.split_once("date: ").unwrap();
    assert!(date.ends_with(" GMT\r\n\r\n"), "{date}");
    // RFC 6455's own example key and answer; no Content-Length or
    // Transfer-Encoding on a 101.
    assert_eq!(
        head,
        "HTTP/1.1 101 Switching Protocols\r\n\
         x-powered-by: webfw\r\n\
         sec-websocket-accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\
         connection: Upgrade\r\n\
         upgrade: websocket\r\n"
    );
}

#[tokio::test]
async fn a_plain_request_to_an_upgrade_route_gets_426() {
    let srv = TestServer::start(example::app()).await;
    let res = srv
        .get_with(
            "/echo",
            &[
                ("Sec-WebSocket-Version", "13"),
                ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
            ],
        )
        .await;
    assert_eq!(res.status, 426);
    assert_eq!(res.header("upgrade"), Some("websocket"));
    assert!(res.text().contains("Upgrade Required"), "{}", res.text());
}

#[tokio::test]
async fn another_protocol_than_the_one_asked_for_gets_426() {
    let mut app = webfw::app();
    app.get("/", |req: &mut Request, res: &mut Response| {
        drop(res.upgrade(req, "websocket")?);
        Ok(Flow::Done)
    });
    let srv = TestServer::start(app).await;
    let res = srv
        .get_with("/", &[("Connection", "Upgrade"), ("Upgrade", "h2c")])
        .await;
    assert_eq!(res.status, 426);
    assert_eq!(res.header("upgrade"), Some("websocket"));
}

/// An app with a protocol of its own on the raw upgraded bytes: what the
/// client sends comes back in capitals.
fn shout_app() -> App {
    let mut app = webfw::app();
    app.get("/shout", |req: &mut Request, res: &mut Response| {
        let upgrade = res.upgrade(req, "shout")?;
        tokio::spawn(async move {
            let Ok(mut io) = upgrade.await else { return };
            let mut buf = [0u8; 64];
            while let Ok(n @ 1..) = io.read(&mut buf).await {
                let loud = buf[..n].to_ascii_uppercase();
                if io.write_all(&loud).await.is_err() {
                    break;
                }
            }
        });
        Ok(Flow::Done)
    });
    app
}

/// Upgraded bytes flow both ways, the first of them riding along with the
/// head; and a graceful shutdown does not wait for upgraded connections.
async fn shout_over(srv: TestServer) {
    let mut conn = TcpStream::connect(srv.addr).await.unwrap();
    let mut bytes = common::keep_alive_request(
        "GET",
        "/shout",
        &[("Connection", "Upgrade"), ("Upgrade", "SHOUT")],
    );
    bytes.extend_from_slice(b"hello");
    conn.write_all(&bytes).await.unwrap();
    let mut got = Vec::new();
    while !got.ends_with(b"HELLO") {
        let mut buf = [0u8; 256];
        let n = guard("the upgraded reply", conn.read(&mut buf))
            .await
            .unwrap();
        assert_ne!(n, 0, "closed early: {}", String::from_utf8_lossy(&got));
        got.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8(got).unwrap();
    assert!(
        text.starts_with("HTTP/1.1 101 Switching Protocols\r\n"),
        "{text}"
    );
    assert!(text.ends_with("\r\n\r\nHELLO"), "{text}");
    conn.write_all(b"again").await.unwrap();
    let mut buf = [0u8; 5];
    guard("the second reply", conn.read_exact(&mut buf))
        .await
        .unwrap();
    assert_eq!(&buf, b"AGAIN");
    guard("the shutdown", srv.shutdown()).await;
    conn.write_all(b"still").await.unwrap();
    guard("a reply after shutdown", conn.read_exact(&mut buf))
        .await
        .unwrap();
    assert_eq!(&buf, b"STILL");
}

#[tokio::test]
async fn upgraded_bytes_flow_both_ways_and_shutdown_does_not_wait_for_them() {
    shout_over(TestServer::start(shout_app()).await).await;
}

/// With `pipeline_flush` the 101 may be held back as part of a batch (the
/// head and the first upgraded bytes came in one read): it still leaves.
#[tokio::test]
async fn upgrades_work_with_pipeline_flush() {
    let opts = webfw::ListenOptions::port(0).pipeline_flush(true);
    shout_over(TestServer::start_with(shout_app(), opts).await).await;
}

/// WebSocket over TLS (`wss:`): the upgrade works the same on an HTTPS
/// connection.
#[tokio::test]
async fn echo_works_over_tls() {
    use std::sync::Arc;
    use webfw::rustls;
    let ck = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let tls = webfw::TlsConfig::from_pem(
        ck.cert.pem().as_bytes(),
        ck.key_pair.serialize_pem().as_bytes(),
    )
    .unwrap();
    let mut roots = rustls::RootCertStore::empty();
    roots.add(ck.cert.der().clone()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let srv = TestServer::start_with(example::app(), webfw::ListenOptions::port(0).tls(tls)).await;
    let tcp = TcpStream::connect(srv.addr).await.unwrap();
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
    let stream = guard("the TLS handshake", connector.connect(name, tcp))
        .await
        .unwrap();
    let (mut ws, res) = guard(
        "the handshake",
        client_async("wss://localhost/echo", stream),
    )
    .await
    .unwrap();
    assert_eq!(res.status(), 101);
    ws.send(Message::Text("over tls".into())).await.unwrap();
    match guard("a message", ws.next()).await {
        Some(Ok(Message::Text(text))) => assert_eq!(text, "over tls"),
        other => panic!("expected a text message, got {other:?}"),
    }
}
