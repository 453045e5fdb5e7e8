//! The bound on what `res.write` queues for a client that does not read
//! covers the memory the queue holds, not only its bytes: tiny writes cost
//! a chunk each. The handler's loop runs on one thread and never awaits:
//! that thread's allocations are the queue's.

use crate::common;

use std::sync::{Arc, Mutex};

use common::alloc::live_bytes;
use common::guard;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use webfw::ListenOptions;
use webfw::prelude::*;

const MIB: isize = 1024 * 1024;

/// 8-byte writes, never awaiting `drain`, to a client that never reads:
/// the queue stops at about 16 MiB of memory (the bytes alone would let it
/// hold two million chunks, several times that).
#[tokio::test]
async fn tiny_writes_are_bounded_by_the_memory_they_hold() {
    let grown: Arc<Mutex<Option<(isize, String)>>> = Arc::default();
    let seen = grown.clone();
    let mut app = webfw::app();
    app.get("/tiny", move |_: &mut Request, res: &mut Response| {
        let before = live_bytes();
        let error = loop {
            if let Err(e) = res.write(b"12345678".to_vec()) {
                break e.message().to_owned();
            }
        };
        *seen.lock().unwrap() = Some((live_bytes() - before, error));
        res.end()
    });
    let server = app
        .bind(ListenOptions::port(0).host("127.0.0.1"))
        .await
        .unwrap();
    let mut conn = TcpStream::connect(server.local_addr().unwrap())
        .await
        .unwrap();
    conn.write_all(b"GET /tiny HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let (growth, error) = guard("the handler to hit the bound", async {
        loop {
            if let Some(done) = grown.lock().unwrap().take() {
                return done;
            }
            tokio::task::yield_now().await;
        }
    })
    .await;
    assert!(error.contains("16 MiB"), "{error}");
    assert!(
        (15 * MIB..=18 * MIB).contains(&growth),
        "the queue grew the heap by {:.1} MiB",
        growth as f64 / MIB as f64
    );
    drop(conn);
    server.shutdown().await;
}
