//! A large file is streamed as the client reads it, and a client that goes
//! away mid-file makes the server close the file and free the request.
//! One test, run alone in a child process: it counts the process's open
//! descriptors.

use crate::common;
use crate::files_fixture;

use common::{TestServer, guard, request};
use files_fixture::Fixture;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use webfw::files::{StaticOptions, static_};

const LEN: usize = 16 * 1024 * 1024;

fn open_descriptors() -> usize {
    std::fs::read_dir("/proc/self/fd").map_or(0, |d| d.count())
}

/// Waits (under the hang guard) until `f` holds.
async fn eventually(what: &str, f: impl Fn() -> bool) {
    guard(what, async {
        while !f() {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    })
    .await;
}

/// One test, so that no other test's sockets move the descriptor count.
#[tokio::test]
async fn streaming() {
    if !common::alone(module_path!(), "streaming") {
        return;
    }
    a_client_that_leaves_mid_file_frees_the_file().await;
    a_slow_reader_gets_every_byte().await;
}

async fn a_client_that_leaves_mid_file_frees_the_file() {
    let fx = Fixture::new();
    let big = fx.root().join("huge.bin");
    std::fs::write(&big, vec![7u8; LEN]).unwrap();
    let mut app = webfw::app();
    app.use_at("/s", static_(fx.root(), StaticOptions::new()));
    let s = TestServer::start(app).await;
    // A first request makes whatever the server keeps per listener (the
    // watchdog's timer).
    assert_eq!(s.get("/s/hello.txt").await.status, 200);
    let baseline = open_descriptors();

    let mut conn = TcpStream::connect(s.addr).await.unwrap();
    conn.write_all(&request("GET", "/s/huge.bin", &[]))
        .await
        .unwrap();
    let mut got = vec![0u8; 256 * 1024];
    let mut n = 0;
    while n < got.len() {
        let k = guard("body bytes", conn.read(&mut got[n..])).await.unwrap();
        assert!(k > 0, "the server closed early");
        n += k;
    }
    let head = String::from_utf8_lossy(&got[..400]).to_string();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains(&format!("content-length: {LEN}")), "{head}");
    // Client socket, server socket and the file.
    let during = open_descriptors();
    assert!(during >= baseline + 3, "{baseline} then {during}");

    drop(conn);
    eventually("the file to be closed", || open_descriptors() <= baseline).await;
}

async fn a_slow_reader_gets_every_byte() {
    let fx = Fixture::new();
    let big = fx.root().join("slow.bin");
    let bytes: Vec<u8> = (0..LEN / 8).map(|i| (i % 253) as u8).collect();
    std::fs::write(&big, &bytes).unwrap();
    let mut app = webfw::app();
    app.use_at("/s", static_(fx.root(), StaticOptions::new()));
    let s = TestServer::start(app).await;
    let mut conn = TcpStream::connect(s.addr).await.unwrap();
    conn.write_all(&request("GET", "/s/slow.bin", &[]))
        .await
        .unwrap();
    let mut all = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        // Small reads with yields in between: the server waits for them.
        let k = guard("body bytes", conn.read(&mut buf)).await.unwrap();
        if k == 0 {
            break;
        }
        all.extend_from_slice(&buf[..k]);
        tokio::task::yield_now().await;
    }
    let split = all.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    assert_eq!(&all[split..], &bytes[..]);
}
