//! A log stream that stalls, in a child process of its own: graceful shutdown
//! writes out every stream of the process (`logger::flush_all`), so another
//! test's shutdown running beside this one would try to write through the
//! held stream, wait on its gate and steal its releases.

use crate::common;

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::capture::Capture;
use common::{TestServer, guard};
use webfw::prelude::*;

fn ok(_req: &mut Request, res: &mut Response) -> Result {
    res.send("ok")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_stream_does_not_stall_other_requests_and_loses_no_line() {
    if !common::alone(
        module_path!(),
        "a_stalled_stream_does_not_stall_other_requests_and_loses_no_line",
    ) {
        return;
    }
    let (entered_tx, entered_rx) = mpsc::channel();
    let (release_tx, release_rx) = mpsc::channel();
    let cap = Capture {
        gate: Some(Arc::new(Mutex::new((entered_tx, release_rx)))),
        ..Capture::default()
    };
    let mut app = webfw::app();
    app.use_(webfw::logger!(":url").stream(cap.clone()));
    app.get("/:n", ok);
    let srv = Arc::new(TestServer::start(app).await);
    // The first line blocks inside the stream's write.
    let first = {
        let srv = srv.clone();
        tokio::spawn(async move { srv.get("/first").await })
    };
    tokio::task::spawn_blocking(move || entered_rx.recv_timeout(Duration::from_secs(20)))
        .await
        .unwrap()
        .expect("the first write started");
    // Meanwhile other requests complete: their lines wait in the queue.
    for i in 0..5 {
        let res = guard(
            "a request while the stream is stalled",
            srv.get(&format!("/{i}")),
        )
        .await;
        assert_eq!(res.status, 200);
    }
    for _ in 0..10 {
        let _ = release_tx.send(());
    }
    assert_eq!(first.await.unwrap().status, 200);
    let srv = Arc::try_unwrap(srv).ok().expect("only handle");
    srv.shutdown().await;
    // Graceful shutdown wrote the queued lines, in order.
    assert_eq!(cap.lines(), vec!["/first", "/0", "/1", "/2", "/3", "/4"]);
    // No write ran on a runtime worker: a stalled one would have held the
    // tasks only that worker may run.
    let threads = cap.threads.lock().unwrap().clone();
    assert!(
        threads.iter().all(|t| t == "webfw-logger"),
        "writes ran on {threads:?}"
    );
}
