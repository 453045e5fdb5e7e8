//! `examples/sse.rs` as it is: events stream until the client leaves, and
//! then the handler stops.

use crate::common;

#[path = "../../examples/sse.rs"]
#[allow(dead_code)]
mod example;

use std::time::Duration;

use common::{TestServer, guard, keep_alive_request};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn open_streams(srv: &TestServer) -> u64 {
    srv.get("/stats").await.json()["open"].as_u64().unwrap()
}

#[tokio::test]
async fn the_event_stream_stops_when_the_client_leaves() {
    let srv = TestServer::start(example::app(Duration::from_millis(5))).await;
    assert_eq!(open_streams(&srv).await, 0);
    let mut conn = TcpStream::connect(srv.addr).await.unwrap();
    conn.write_all(&keep_alive_request("GET", "/events", &[]))
        .await
        .unwrap();
    let mut got = Vec::new();
    while !String::from_utf8_lossy(&got).contains("data: tick 2\n\n") {
        let mut buf = [0u8; 1024];
        let n = guard("three events", conn.read(&mut buf)).await.unwrap();
        assert_ne!(n, 0, "closed early: {}", String::from_utf8_lossy(&got));
        got.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8(got).unwrap();
    assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
    assert!(
        text.contains("\r\ncontent-type: text/event-stream; charset=utf-8\r\n"),
        "{text}"
    );
    assert!(text.contains("\r\ncache-control: no-cache\r\n"), "{text}");
    assert!(
        text.contains("\r\ntransfer-encoding: chunked\r\n"),
        "{text}"
    );
    // Each event is one chunk.
    assert!(
        text.contains("\r\n\r\n14\r\nid: 0\ndata: tick 0\n\n\r\n14\r\nid: 1\ndata: tick 1\n\n\r\n"),
        "{text}"
    );
    assert_eq!(open_streams(&srv).await, 1);
    drop(conn);
    // The handler finds out at its next write and ends.
    guard("the handler to stop", async {
        while open_streams(&srv).await != 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
}
