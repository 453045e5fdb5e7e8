//! What a graceful shutdown looks like from outside: the listening socket
//! closes as soon as it begins (new clients are refused, or reach another
//! `reuse_port` server, instead of waiting in a backlog nobody reads), and a
//! process stopped by one SIGTERM exits with status 0 once it has drained.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{async_handler, guard, request};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use webfw::ListenOptions;
use webfw::prelude::*;

/// An app whose `/hold` answers only once `release` fires (after telling
/// `started`), so that a shutdown has a request to drain; `/` answers `name`.
fn holding(name: &'static str) -> (App, oneshot::Receiver<()>, oneshot::Sender<()>) {
    let (started_tx, started_rx) = oneshot::channel::<()>();
    let (release_tx, release_rx) = oneshot::channel::<()>();
    let started = Arc::new(Mutex::new(Some(started_tx)));
    let release = Arc::new(Mutex::new(Some(release_rx)));
    let mut app = webfw::app();
    app.get("/", move |_: &mut Request, res: &mut Response| {
        res.send(name)
    });
    app.get(
        "/hold",
        async_handler(move |_req, res| {
            let started = started.clone();
            let release = release.clone();
            Box::pin(async move {
                let started = started.lock().unwrap().take();
                if let Some(tx) = started {
                    let _ = tx.send(());
                }
                let release = release.lock().unwrap().take();
                if let Some(rx) = release {
                    let _ = rx.await;
                }
                res.send("drained")
            })
        }),
    );
    (app, started_rx, release_tx)
}

#[tokio::test]
async fn a_server_that_is_shutting_down_refuses_new_connections_while_it_drains() {
    let (app, started, release) = holding("served");
    let server = app
        .bind(ListenOptions::port(0).host("127.0.0.1"))
        .await
        .unwrap();
    let addr = server.local_addr().unwrap();
    let held =
        tokio::spawn(async move { common::send_raw(addr, &request("GET", "/hold", &[])).await });
    guard("the held request to start", started).await.unwrap();
    server.shutdown_handle().shutdown();
    let stopped = tokio::spawn(server.wait());
    // Once the accept loop has seen the shutdown, the kernel refuses: a
    // listener left open would take each of these into its backlog, and
    // the loop would spin until the hang guard.
    guard("the listener to close", async {
        loop {
            match TcpStream::connect(addr).await {
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => break,
                // One queued as the socket closes is reset.
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
                Err(e) => panic!("connect failed otherwise: {e}"),
                Ok(_) => tokio::time::sleep(Duration::from_millis(5)).await,
            }
        }
    })
    .await;
    assert!(!stopped.is_finished(), "the drain is still under way");
    release.send(()).unwrap();
    let raw = guard("the held response", held).await.unwrap();
    assert!(String::from_utf8_lossy(&raw).ends_with("\r\n\r\ndrained"));
    guard("the server to stop", stopped).await.unwrap();
}

/// One `GET /` on a new connection: the body, or `None` when the connection
/// was reset or closed without an answer (one queued on a socket as it
/// closed).
async fn answer(addr: std::net::SocketAddr) -> Option<String> {
    let mut stream = TcpStream::connect(addr).await.ok()?;
    stream.write_all(&request("GET", "/", &[])).await.ok()?;
    let mut raw = Vec::new();
    guard("an answer", stream.read_to_end(&mut raw))
        .await
        .ok()?;
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (_, body) = raw.split_once("\r\n\r\n")?;
    Some(body.to_owned())
}

#[tokio::test]
async fn while_one_reuse_port_server_drains_the_other_takes_every_new_connection() {
    let (app, started, release) = holding("old");
    let opts = ListenOptions::port(0).host("127.0.0.1").reuse_port(true);
    let old = app.bind(opts).await.unwrap();
    let addr = old.local_addr().unwrap();
    // Held on the old server alone: the new one is not there yet.
    let held =
        tokio::spawn(async move { common::send_raw(addr, &request("GET", "/hold", &[])).await });
    guard("the held request to start", started).await.unwrap();
    let same_port = ListenOptions::port(addr.port())
        .host("127.0.0.1")
        .reuse_port(true);
    let (new_app, _, _) = holding("new");
    let new = new_app.bind(same_port).await.unwrap();
    old.shutdown_handle().shutdown();
    let stopped = tokio::spawn(old.wait());
    // The kernel spreads connections by source port, so about half of
    // these would wait in the old server's backlog (until the hang guard)
    // if its listener stayed open during the drain. A few made just as it
    // closes are reset: they count as refused, not as answered.
    let mut answered = 0;
    while answered < 100 {
        if let Some(body) = answer(addr).await {
            assert_eq!(body, "new", "only the new server answers");
            answered += 1;
        }
    }
    assert!(!stopped.is_finished(), "the old server is still draining");
    release.send(()).unwrap();
    let raw = guard("the held response", held).await.unwrap();
    assert!(String::from_utf8_lossy(&raw).ends_with("\r\n\r\ndrained"));
    guard("the old server to stop", stopped).await.unwrap();
    new.shutdown().await;
}

/// Set in the environment of the child processes [`sigterm`] starts.
const CHILD: &str = "WEBFW_SHUTDOWN_CHILD";

/// Not a test of its own: in a child process started by [`sigterm`], serves
/// until SIGTERM, through `listen_with` or `wait_with_signals` as the
/// environment says, on two worker threads.
#[test]
fn child_serves_until_a_signal() {
    let Ok(how) = std::env::var(CHILD) else {
        return;
    };
    let mut app = webfw::app();
    // Answers at once, so that the parent knows the request is in flight,
    // and finishes once the body has come.
    app.post(
        "/drain",
        async |req: &mut Request, res: &mut Response| -> Result {
            res.write("started\n")?;
            let body = webfw::body::read_limited(req, 1024).await?;
            res.write(format!("drained {}", body.len()))?;
            res.end()
        },
    );
    let opts = ListenOptions::port(0).host("127.0.0.1").workers(2);
    if how == "listen_with" {
        app.listen_with(opts, |addr| println!("READY {addr}"))
            .unwrap();
        return;
    }
    opts.runtime().unwrap().block_on(async {
        let server = app.bind(opts).await.unwrap();
        let addr = server.local_addr().unwrap();
        let mut waiting = std::pin::pin!(server.wait_with_signals());
        // Polled once, the signals are watched: only then is it ready.
        std::future::poll_fn(|cx| {
            assert!(waiting.as_mut().poll(cx).is_pending());
            std::task::Poll::Ready(())
        })
        .await;
        println!("READY {addr}");
        waiting.await.unwrap();
    });
}

/// Starts a child serving through `how`, begins a request, sends SIGTERM
/// and finishes the request (the drain): whether the request was answered
/// and the child exited with status 0, or what happened instead.
fn sigterm(how: &str) -> Result<(), String> {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            &common::test_name(module_path!(), "child_serves_until_a_signal"),
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, how)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("run the test binary as a child");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let addr = loop {
        let mut line = String::new();
        if out.read_line(&mut line).unwrap() == 0 {
            panic!("the child ended before it was ready: {:?}", child.wait());
        }
        // The harness may have begun the line with the test's name.
        if let Some((_, addr)) = line.trim().split_once("READY ") {
            break addr.to_owned();
        }
    };
    // The rest of the child's output, read aside so that it never blocks
    // on the pipe.
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let mut conn = std::net::TcpStream::connect(&addr).unwrap();
    conn.set_read_timeout(Some(common::HANG_GUARD)).unwrap();
    conn.write_all(b"POST /drain HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n")
        .unwrap();
    let mut raw = Vec::new();
    while !String::from_utf8_lossy(&raw).contains("started") {
        let mut buf = [0u8; 1024];
        match conn.read(&mut buf) {
            Ok(n @ 1..) => raw.extend_from_slice(&buf[..n]),
            other => panic!("the request did not start: {other:?}"),
        }
    }
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let wrote = conn.write_all(b"hello");
    let read = conn.read_to_end(&mut raw);
    let raw = String::from_utf8_lossy(&raw);
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > common::HANG_GUARD {
            let _ = child.kill();
            panic!("hang guard expired while waiting for the child to exit");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    if wrote.is_ok() && read.is_ok() && raw.contains("drained 5") && status.code() == Some(0) {
        return Ok(());
    }
    Err(format!(
        "{status}, the in-flight request: {wrote:?} {read:?} {raw:?}"
    ))
}

/// The signal watch used to close its sockets before its task stopped; on
/// another worker thread the task read the close as a second signal and
/// exited with 130 (on this machine, before the fix: 9 of 30 runs through
/// `wait_with_signals`, 2 of 30 through `listen_with`).
#[test]
fn one_sigterm_and_a_drain_exit_with_status_0_every_time() {
    if std::env::var(CHILD).is_ok() {
        return;
    }
    let mut failed = Vec::new();
    for how in ["wait_with_signals", "listen_with"] {
        let wrong: Vec<_> = (0..30).filter_map(|_| sigterm(how).err()).collect();
        if !wrong.is_empty() {
            failed.push(format!(
                "{how}: {} of 30 runs failed: {wrong:#?}",
                wrong.len()
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
