//! Hostile and faulty clients: method tokens Node refuses, unmet `Expect`,
//! stalled heads and bodies, idle keep-alive connections, connection limits,
//! shutdown with a client that never finishes, and streaming to a client
//! that went away.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::{Conn, TestServer, async_handler, guard, keep_alive_request, request};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use webfw::prelude::*;
use webfw::{ListenOptions, Server};

const NODE_400: &str = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n";
const NODE_408: &str = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n";

async fn bind(app: webfw::App, opts: ListenOptions) -> Server {
    app.bind(opts.host("127.0.0.1")).await.expect("bind")
}

/// Reads until the server closes, tolerating a reset.
async fn read_all(stream: &mut TcpStream) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match guard("the server to close", stream.read(&mut buf)).await {
            Ok(0) | Err(_) => return out,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
}

/// A route that reads the whole body before answering, and counts its runs.
/// Sends `head`, then its body a byte every 50 ms, until the server
/// closes the connection: what the server wrote meanwhile.
async fn drip(addr: std::net::SocketAddr, head: &[u8]) -> Vec<u8> {
    let mut drip = TcpStream::connect(addr).await.unwrap();
    drip.write_all(head).await.unwrap();
    let (mut rd, mut wr) = drip.split();
    let reader = async {
        let mut out = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            match guard("the server to close", rd.read(&mut buf)).await {
                Ok(0) | Err(_) => return out,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
    };
    // Each byte is progress, but the request as a whole is late.
    let dripper = async {
        loop {
            if wr.write_all(b"x").await.is_err() {
                std::future::pending::<()>().await;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::select! {
        data = reader => data,
        () = dripper => unreachable!(),
    }
}

fn body_reader(runs: Arc<AtomicUsize>) -> webfw::App {
    let mut app = webfw::app();
    app.post(
        "/upload",
        async_handler(move |req, res| {
            let runs = runs.clone();
            Box::pin(async move {
                runs.fetch_add(1, Ordering::SeqCst);
                let body = webfw::body::read_limited(req, 1 << 20).await?;
                res.send(format!("{} bytes", body.len()))
            })
        }),
    );
    app
}

#[tokio::test]
async fn method_tokens_outside_node_s_list_or_in_lower_case_get_400() {
    let runs = Arc::new(AtomicUsize::new(0));
    let mut app = webfw::app();
    let counted = runs.clone();
    app.all("/chain", move |req: &mut Request, res: &mut Response| {
        counted.fetch_add(1, Ordering::SeqCst);
        res.send(req.method().to_string())
    });
    let srv = TestServer::start(app).await;
    for method in ["post", "Get", "FOO", "m-search"] {
        let data = srv.raw_bytes(request(method, "/chain", &[])).await;
        assert_eq!(String::from_utf8_lossy(&data), NODE_400, "{method}");
    }
    assert_eq!(runs.load(Ordering::SeqCst), 0, "no handler ran");
    for method in ["POST", "M-SEARCH", "PURGE"] {
        let res = srv.raw(request(method, "/chain", &[])).await;
        assert_eq!((res.status, res.text()), (200, method.to_owned()));
    }
}

/// Node answers 431 to every head over 16 KiB, a very long request line
/// too (where hyper alone would answer 414), exactly as its parser does.
#[tokio::test]
async fn request_lines_too_long_for_hyper_get_node_s_431() {
    let srv = TestServer::start(webfw::app()).await;
    for kib in [20, 63, 65, 70, 80] {
        let target = format!("/{}", "a".repeat(kib * 1024));
        let data = srv.raw_bytes(request("GET", &target, &[])).await;
        assert_eq!(
            String::from_utf8_lossy(&data),
            "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n",
            "{kib} KiB"
        );
    }
}

#[tokio::test]
async fn an_expectation_other_than_100_continue_gets_417_on_a_kept_connection() {
    let mut app = webfw::app();
    app.get("/", |_: &mut Request, res: &mut Response| res.send("ok"));
    let srv = TestServer::start(app).await;
    let mut conn = Conn::open(srv.addr).await;
    conn.send(keep_alive_request("GET", "/", &[("Expect", "foo")]))
        .await;
    let res = conn.read_response(false).await;
    assert_eq!(
        (res.status, res.reason.as_str()),
        (417, "Expectation Failed")
    );
    assert!(res.chunked && res.body.is_empty(), "{res:?}");
    assert!(!res.has_header("connection"), "{res:?}");
    conn.send(keep_alive_request(
        "GET",
        "/",
        &[("Expect", "100-Continue")],
    ))
    .await;
    // Node meets the expectation at once, even with no body to come.
    let res = conn.read_response(false).await;
    assert_eq!((res.status, res.text()), (100, String::new()));
    let res = conn.read_response(false).await;
    assert_eq!((res.status, res.text()), (200, "ok".to_owned()));
}

#[tokio::test]
async fn a_body_shorter_than_announced_gets_408_after_the_request_timeout() {
    let runs = Arc::new(AtomicUsize::new(0));
    let server = bind(
        body_reader(runs.clone()),
        ListenOptions::port(0).request_timeout(Duration::from_millis(300)),
    )
    .await;
    let addr = server.local_addr().unwrap();
    let mut stalled = TcpStream::connect(addr).await.unwrap();
    stalled
        .write_all(b"POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n0123456789")
        .await
        .unwrap();
    let data = read_all(&mut stalled).await;
    assert_eq!(String::from_utf8_lossy(&data), NODE_408);
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    // The server serves others all along.
    let whole = common::send_raw(
        addr,
        b"POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc",
    )
    .await;
    assert!(String::from_utf8_lossy(&whole).ends_with("3 bytes"));
    server.shutdown().await;
}

#[tokio::test]
async fn a_dripped_body_gets_408_after_the_request_timeout() {
    let server = bind(
        body_reader(Arc::default()),
        ListenOptions::port(0).request_timeout(Duration::from_millis(300)),
    )
    .await;
    let data = drip(
        server.local_addr().unwrap(),
        b"POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n",
    )
    .await;
    assert_eq!(String::from_utf8_lossy(&data), NODE_408);
    server.shutdown().await;
}

/// A body nobody reads is read and thrown away after the answer, as Node
/// dumps it, and held to the request timeout all the same: a client that
/// drips it gets the answer, then the connection closes.
#[tokio::test]
async fn an_unread_body_is_thrown_away_within_the_request_timeout() {
    let mut app = webfw::app();
    app.post("/ignore", |_: &mut Request, res: &mut Response| {
        res.send("ignored")
    });
    // Only the request timeout may close it before the hang guard.
    let server = bind(
        app,
        ListenOptions::port(0)
            .request_timeout(Duration::from_millis(300))
            .keep_alive_timeout(common::HANG_GUARD * 2),
    )
    .await;
    let data = drip(
        server.local_addr().unwrap(),
        b"POST /ignore HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n",
    )
    .await;
    let data = String::from_utf8_lossy(&data);
    assert!(data.starts_with("HTTP/1.1 200 OK\r\n"), "{data}");
    assert!(data.ends_with("\r\n\r\nignored"), "no 408 after it: {data}");
    server.shutdown().await;
}

/// A handler that answers first and reads the body afterwards: the
/// request timeout still covers the body, and the answer under way is cut
/// off (no 408 after it), as Node closes such a connection.
#[tokio::test]
async fn a_body_read_after_the_answer_is_still_held_to_the_request_timeout() {
    let mut app = webfw::app();
    app.post(
        "/late",
        async_handler(|req, res| {
            Box::pin(async move {
                res.write("reading\n")?;
                let body = webfw::body::read_limited(req, 1 << 20).await?;
                res.write(format!("{} bytes", body.len()))?;
                res.end()
            })
        }),
    );
    let server = bind(
        app,
        ListenOptions::port(0).request_timeout(Duration::from_millis(300)),
    )
    .await;
    let data = drip(
        server.local_addr().unwrap(),
        b"POST /late HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n",
    )
    .await;
    let data = String::from_utf8_lossy(&data);
    assert!(data.starts_with("HTTP/1.1 200 OK\r\n"), "{data}");
    assert!(
        data.ends_with("\r\n\r\n8\r\nreading\n\r\n"),
        "cut off after the first chunk: {data}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_silent_connection_gets_408_after_the_header_timeout() {
    let server = bind(
        webfw::app(),
        ListenOptions::port(0).header_read_timeout(Duration::from_millis(200)),
    )
    .await;
    let mut silent = TcpStream::connect(server.local_addr().unwrap())
        .await
        .unwrap();
    let data = read_all(&mut silent).await;
    assert_eq!(String::from_utf8_lossy(&data), NODE_408);
    server.shutdown().await;
}

#[tokio::test]
async fn shutdown_closes_what_is_left_at_its_deadline() {
    let server = bind(
        body_reader(Arc::default()),
        ListenOptions::port(0).shutdown_timeout(Some(Duration::from_millis(200))),
    )
    .await;
    let mut stalled = TcpStream::connect(server.local_addr().unwrap())
        .await
        .unwrap();
    stalled
        .write_all(b"POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12")
        .await
        .unwrap();
    // The request is in flight before the shutdown begins.
    tokio::time::sleep(Duration::from_millis(50)).await;
    guard("the shutdown to end at its deadline", server.shutdown()).await;
    let data = read_all(&mut stalled).await;
    assert!(!String::from_utf8_lossy(&data).contains("200"), "{data:?}");
}

#[tokio::test]
async fn connections_beyond_the_maximum_are_closed_at_once() {
    let mut app = webfw::app();
    app.get("/", |_: &mut Request, res: &mut Response| res.send("ok"));
    let server = bind(app, ListenOptions::port(0).max_connections(Some(1))).await;
    let addr = server.local_addr().unwrap();
    let mut first = Conn::open(addr).await;
    first.send(keep_alive_request("GET", "/", &[])).await;
    assert_eq!(first.read_response(false).await.text(), "ok");
    let mut second = TcpStream::connect(addr).await.unwrap();
    let _ = second.write_all(&request("GET", "/", &[])).await;
    let refused = read_all(&mut second).await;
    assert!(refused.is_empty(), "{refused:?}");
    drop(first);
    // Once the first is gone, a new one is served (the server may need a
    // moment to see the first close).
    let mut served = Vec::new();
    for _ in 0..200 {
        served = common::send_raw(addr, &request("GET", "/", &[])).await;
        if !served.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(String::from_utf8_lossy(&served).ends_with("\r\n\r\nok"));
    server.shutdown().await;
}

/// Node counts a socket handed to `'upgrade'` in `maxConnections` until it
/// closes: upgraded connections take their places, and plain requests
/// beyond the maximum are refused.
#[tokio::test]
async fn upgraded_connections_count_against_max_connections() {
    let mut app = webfw::app();
    app.get("/", |_: &mut Request, res: &mut Response| res.send("ok"));
    app.get("/echo", |req: &mut Request, res: &mut Response| {
        let upgrade = res.upgrade(req, "echo")?;
        tokio::spawn(async move {
            let Ok(mut io) = upgrade.await else { return };
            let mut buf = [0u8; 64];
            while let Ok(n @ 1..) = io.read(&mut buf).await {
                if io.write_all(&buf[..n]).await.is_err() {
                    break;
                }
            }
        });
        Ok(Flow::Done)
    });
    let server = bind(app, ListenOptions::port(0).max_connections(Some(2))).await;
    let addr = server.local_addr().unwrap();
    let mut upgraded = Vec::new();
    for _ in 0..2 {
        let mut ws = TcpStream::connect(addr).await.unwrap();
        ws.write_all(&request(
            "GET",
            "/echo",
            &[("Connection", "Upgrade"), ("Upgrade", "echo")],
        ))
        .await
        .unwrap();
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            let mut byte = [0u8; 1];
            let n = guard("the 101", ws.read(&mut byte)).await.unwrap();
            assert_eq!(n, 1, "{:?}", String::from_utf8_lossy(&head));
            head.push(byte[0]);
        }
        assert!(head.starts_with(b"HTTP/1.1 101 "), "{head:?}");
        // The echo proves the handler holds the connection: hyper is done
        // with it.
        ws.write_all(b"ping").await.unwrap();
        let mut echo = [0u8; 4];
        guard("the echo", ws.read_exact(&mut echo)).await.unwrap();
        assert_eq!(&echo, b"ping");
        upgraded.push(ws);
    }
    let mut third = TcpStream::connect(addr).await.unwrap();
    let _ = third.write_all(&request("GET", "/", &[])).await;
    let refused = read_all(&mut third).await;
    assert!(
        refused.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&refused)
    );
    // An upgraded connection that closes gives its place back.
    drop(upgraded.pop());
    let mut served = Vec::new();
    for _ in 0..200 {
        served = common::send_raw(addr, &request("GET", "/", &[])).await;
        if !served.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(String::from_utf8_lossy(&served).ends_with("\r\n\r\nok"));
    server.shutdown().await;
}

/// A client that leaves while a handler streams: the handler's writes fail
/// from then on, instead of piling up in memory for ever.
#[tokio::test]
async fn writes_fail_once_the_client_has_gone() {
    let (tx, rx) = tokio::sync::oneshot::channel::<(usize, String)>();
    let tx = Arc::new(std::sync::Mutex::new(Some(tx)));
    let mut app = webfw::app();
    app.get(
        "/stream",
        async_handler(move |_req, res| {
            let tx = tx.clone();
            Box::pin(async move {
                let chunk = bytes::Bytes::from(vec![b'x'; 64 * 1024]);
                let mut ok = 0;
                let err = loop {
                    match res.write(chunk.clone()) {
                        Ok(()) => ok += 1,
                        Err(e) => break e,
                    }
                    tokio::time::sleep(Duration::from_millis(2)).await;
                };
                let closed = res.closed();
                if let Some(tx) = tx.lock().unwrap().take() {
                    let _ = tx.send((ok, format!("{closed} {}", err.message())));
                }
                Err(err)
            })
        }),
    );
    let srv = TestServer::start(app).await;
    let mut conn = TcpStream::connect(srv.addr).await.unwrap();
    conn.write_all(&keep_alive_request("GET", "/stream", &[]))
        .await
        .unwrap();
    let mut first = [0u8; 1024];
    let n = guard("the head", conn.read(&mut first)).await.unwrap();
    assert!(first[..n].starts_with(b"HTTP/1.1 200 OK"));
    drop(conn);
    let (ok, outcome) = guard("the handler to learn the client left", rx)
        .await
        .unwrap();
    assert!(ok >= 1);
    assert_eq!(
        outcome,
        "true Cannot call write after the client closed the connection"
    );
}

/// An HTTP/2 connection may not open more streams than the limit (Node's
/// memory per session is bounded the same way).
#[tokio::test]
async fn http2_connections_are_limited_in_concurrent_streams() {
    for (opts, limit) in [
        (ListenOptions::port(0), 100),
        (ListenOptions::port(0).http2_max_concurrent_streams(7), 7),
    ] {
        let mut app = webfw::app();
        app.get("/", |_: &mut Request, res: &mut Response| res.send("ok"));
        let server = bind(app, opts).await;
        let tcp = TcpStream::connect(server.local_addr().unwrap())
            .await
            .unwrap();
        let (client, connection) = guard("h2 handshake", h2::client::handshake(tcp))
            .await
            .unwrap();
        tokio::spawn(connection);
        let mut client = guard("h2 ready", client.ready()).await.unwrap();
        let req = http::Request::get("http://x/").body(()).unwrap();
        let (response, _) = client.send_request(req, true).unwrap();
        let head = guard("h2 response", response).await.unwrap();
        assert_eq!(head.status(), 200);
        // The server's SETTINGS have arrived with the response.
        assert_eq!(client.current_max_send_streams(), limit);
        drop(client);
        server.shutdown().await;
    }
}

/// Node's `maxSessionMemory`: an HTTP/2 client that stops reading makes the
/// server hold the bodies it cannot send; once they reach the session's
/// memory, new streams on that connection get 503 (other connections are
/// served), and once the client reads, the connection is served again.
#[tokio::test]
async fn http2_streams_are_refused_while_a_connection_holds_its_session_memory() {
    const MIB: usize = 1024 * 1024;
    let mut app = webfw::app();
    app.get("/big", |_: &mut Request, res: &mut Response| {
        res.send(vec![b'x'; MIB])
    });
    app.get("/small", |_: &mut Request, res: &mut Response| {
        res.send("ok")
    });
    let opts = ListenOptions::port(0).http2_max_session_memory(4 * MIB);
    let server = bind(app, opts).await;
    let addr = server.local_addr().unwrap();

    // A client whose streams have no window: the server can send heads but
    // no data.
    let tcp = TcpStream::connect(addr).await.unwrap();
    let (client, connection) = guard(
        "h2 handshake",
        h2::client::Builder::new()
            .initial_window_size(0)
            .handshake::<_, bytes::Bytes>(tcp),
    )
    .await
    .unwrap();
    let (window_tx, mut window_rx) = tokio::sync::mpsc::channel::<u32>(1);
    tokio::spawn(async move {
        let mut connection = connection;
        loop {
            tokio::select! {
                _ = &mut connection => break,
                Some(w) = window_rx.recv() => {
                    connection.set_target_window_size(8 * MIB as u32);
                    connection.set_initial_window_size(w).unwrap();
                }
            }
        }
    });
    let mut client = guard("h2 ready", client.ready()).await.unwrap();
    let get = |path: &str| {
        http::Request::get(format!("http://x{path}"))
            .body(())
            .unwrap()
    };
    let mut pending = Vec::new();
    for _ in 0..6 {
        client = guard("h2 ready", client.ready()).await.unwrap();
        pending.push(client.send_request(get("/big"), true).unwrap().0);
    }
    let mut statuses = Vec::new();
    let mut bodies = Vec::new();
    for response in pending {
        let head = guard("h2 response", response).await.unwrap();
        statuses.push(head.status().as_u16());
        bodies.push(head.into_body());
    }
    assert_eq!(statuses, [200, 200, 200, 200, 503, 503]);
    let small = guard(
        "h2 response",
        client.send_request(get("/small"), true).unwrap().0,
    )
    .await
    .unwrap();
    assert_eq!(small.status(), 503);

    // Another connection has a budget of its own.
    let other = TcpStream::connect(addr).await.unwrap();
    let (other, other_conn) = guard("h2 handshake", h2::client::handshake(other))
        .await
        .unwrap();
    tokio::spawn(other_conn);
    let mut other = guard("h2 ready", other.ready()).await.unwrap();
    let head = guard(
        "h2 response",
        other.send_request(get("/small"), true).unwrap().0,
    )
    .await
    .unwrap();
    assert_eq!(head.status(), 200);

    // The client reads: every held body arrives whole, and the connection is
    // served again.
    window_tx.send(2 * MIB as u32).await.unwrap();
    for mut body in bodies.drain(..4) {
        let mut got = 0;
        while let Some(chunk) = guard("h2 data", body.data()).await {
            let chunk = chunk.unwrap();
            got += chunk.len();
            let _ = body.flow_control().release_capacity(chunk.len());
        }
        assert_eq!(got, MIB);
    }
    guard("the connection to be served again", async move {
        loop {
            client = client.ready().await.unwrap();
            let head = client
                .send_request(get("/small"), true)
                .unwrap()
                .0
                .await
                .unwrap();
            if head.status() == 200 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    server.shutdown().await;
}

/// A body the app holds without reading is not read off the socket past a
/// window: a client sending 64 MiB cannot get it all out (the kernel's
/// buffers fill) until the app reads, and then every byte arrives.
#[tokio::test]
async fn an_unread_body_is_held_back_by_the_socket_not_buffered() {
    let (started_tx, mut started) = tokio::sync::mpsc::unbounded_channel();
    let release = Arc::new(tokio::sync::Semaphore::new(0));
    let held = release.clone();
    let mut app = webfw::app();
    app.post(
        "/later",
        async_handler(move |req, res| {
            let started = started_tx.clone();
            let release = held.clone();
            Box::pin(async move {
                let _ = started.send(());
                let _ = release.acquire().await.unwrap();
                let body = webfw::body::read_limited(req, 128 << 20).await?;
                res.send(body.len().to_string())
            })
        }),
    );
    let srv = TestServer::start(app).await;
    const LEN: usize = 64 << 20;
    let mut stream = TcpStream::connect(srv.addr).await.unwrap();
    let head = format!("POST /later HTTP/1.1\r\nHost: x\r\nContent-Length: {LEN}\r\n\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    guard("the handler to start", started.recv()).await.unwrap();
    let body = vec![b'x'; LEN];
    let (mut read, mut write) = stream.into_split();
    let mut sent = 0;
    // Whatever the kernel buffers, it is far from 64 MiB: the writes stop.
    loop {
        match write.try_write(&body[sent..]) {
            Ok(n) => sent += n,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                let writable = tokio::time::timeout(Duration::from_millis(300), write.writable());
                if writable.await.is_err() {
                    break;
                }
            }
            Err(e) => panic!("{e}"),
        }
        assert!(
            sent < LEN / 2,
            "the server read {sent} bytes nobody asked for"
        );
    }
    release.add_permits(1);
    guard("the rest of the body", write.write_all(&body[sent..]))
        .await
        .unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 1024];
    while !answer.ends_with(LEN.to_string().as_bytes()) {
        let n = guard("the answer", read.read(&mut buf)).await.unwrap();
        assert!(n > 0, "closed early: {}", String::from_utf8_lossy(&answer));
        answer.extend_from_slice(&buf[..n]);
    }
    assert!(answer.starts_with(b"HTTP/1.1 200 OK\r\n"));
}
