//! The logger over real sockets: when lines are written, what they contain,
//! several instances, immediate mode, timing tokens, slow and failing
//! streams, and the flush at graceful shutdown. A stream that stalls has a
//! process of its own (`logger_stall.rs`).

use crate::common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::capture::Capture;
use common::{TestServer, request};
use webfw::logger::{LogStream, LoggerOptions, Tokens, logger};
use webfw::prelude::*;

fn ok(_req: &mut Request, res: &mut Response) -> Result {
    res.send("ok")
}

#[tokio::test]
async fn combined_line_is_written_before_the_response_is_complete() {
    let cap = Capture::default();
    let mut app = webfw::app();
    app.use_(logger("combined", LoggerOptions::new().stream(cap.clone())));
    app.get("/ok", ok);
    let srv = TestServer::start(app).await;
    let res = srv
        .get_with(
            "/ok?x=1",
            &[
                ("User-Agent", "kit/1"),
                ("Referer", "http://ref/"),
                ("Authorization", "Basic dXNlcjpwYXNz"),
            ],
        )
        .await;
    assert_eq!(res.status, 200);
    let lines = cap.lines();
    assert_eq!(lines.len(), 1, "{lines:?}");
    let line = &lines[0];
    assert!(line.starts_with("127.0.0.1 - user ["), "{line}");
    assert!(
        line.ends_with("] \"GET /ok?x=1 HTTP/1.1\" 200 2 \"http://ref/\" \"kit/1\""),
        "{line}"
    );
}

#[tokio::test]
async fn several_instances_each_with_format_options_and_stream() {
    let errors = Capture::default();
    let all = Capture::default();
    let mut app = webfw::app();
    app.use_(logger(
        "tiny",
        LoggerOptions::new()
            .stream(errors.clone())
            .skip(|_req, res| res.status_code() < 400),
    ));
    app.use_(webfw::logger!(":method :url :status").stream(all.clone()));
    app.get("/ok", ok);
    let srv = TestServer::start(app).await;
    srv.get("/ok").await;
    srv.get("/missing").await;
    assert_eq!(all.lines(), vec!["GET /ok 200", "GET /missing 404"]);
    let e = errors.lines();
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("GET /missing 404 "), "{e:?}");
    assert!(e[0].ends_with(" ms"), "{e:?}");
}

#[tokio::test]
async fn immediate_logs_when_the_request_arrives() {
    let cap = Capture::default();
    let seen = cap.clone();
    let mut app = webfw::app();
    app.use_(logger(
        "short",
        LoggerOptions::new().stream(cap.clone()).immediate(true),
    ));
    // The handler runs after the line was written: it answers with the log.
    app.get("/json", move |_req: &mut Request, res: &mut Response| {
        res.send(seen.text())
    });
    let srv = TestServer::start(app).await;
    let res = srv.get("/json").await;
    assert_eq!(res.text(), "127.0.0.1 - GET /json HTTP/1.1 - - - - ms\n");
}

async fn slow(_req: &mut Request, res: &mut Response) -> Result {
    res.write("head;")?;
    tokio::time::sleep(Duration::from_millis(60)).await;
    res.end_with("tail")
}

#[tokio::test]
async fn response_time_ends_at_the_head_total_time_at_the_last_byte() {
    let cap = Capture::default();
    let mut app = webfw::app();
    app.use_(webfw::logger!(":status :response-time[1] :total-time[1]").stream(cap.clone()));
    app.get("/slow", slow);
    let srv = TestServer::start(app).await;
    let res = srv.get("/slow").await;
    assert_eq!(res.text(), "head;tail");
    let lines = cap.lines();
    let parts: Vec<&str> = lines[0].split(' ').collect();
    assert_eq!(parts[0], "200");
    let response: f64 = parts[1].parse().unwrap();
    let total: f64 = parts[2].parse().unwrap();
    assert!(total >= 60.0, "{lines:?}");
    assert!(response < total, "{lines:?}");
}

#[tokio::test]
async fn header_values_cannot_forge_lines_or_fields() {
    let cap = Capture::default();
    let mut app = webfw::app();
    app.use_(logger("combined", LoggerOptions::new().stream(cap.clone())));
    app.get("/ok", ok);
    let srv = TestServer::start(app).await;
    let raw = b"GET /ok HTTP/1.1\r\nHost: x\r\nUser-Agent: a\" 200 5 \"-\" \"\\\x85\r\nConnection: close\r\n\r\n";
    srv.raw(&raw[..]).await;
    let text = cap.text();
    assert_eq!(text.matches('\n').count(), 1, "{text:?}");
    assert!(
        text.ends_with(" 200 2 \"-\" \"a\\\" 200 5 \\\"-\\\" \\\"\\\\\\u0085\"\n"),
        "{text:?}"
    );
}

#[tokio::test]
async fn a_format_function_can_skip_lines() {
    let cap = Capture::default();
    let mut app = webfw::app();
    app.use_(logger(
        |tokens: &Tokens, req: &Request, res: &Response| {
            let status = tokens.get("status", req, res, None)?;
            (status != "200").then(|| format!("{} {status}", req.method()))
        },
        LoggerOptions::new().stream(cap.clone()),
    ));
    app.get("/ok", ok);
    let srv = TestServer::start(app).await;
    srv.get("/ok").await;
    srv.get("/nope").await;
    assert_eq!(cap.lines(), vec!["GET 404"]);
}

#[tokio::test]
async fn a_failing_stream_does_not_fail_requests() {
    let cap = Capture {
        fail: true,
        ..Capture::default()
    };
    let mut app = webfw::app();
    app.use_(logger("tiny", LoggerOptions::new().stream(cap)));
    app.get("/ok", ok);
    let srv = TestServer::start(app).await;
    for _ in 0..3 {
        let res = srv.get("/ok").await;
        assert_eq!((res.status, res.text().as_str()), (200, "ok"));
    }
}

#[tokio::test]
async fn queued_lines_are_flushed_by_graceful_shutdown() {
    let cap = Capture {
        delay: Duration::from_millis(30),
        ..Capture::default()
    };
    let stream = LogStream::new(cap.clone());
    let mut app = webfw::app();
    app.use_(logger(":method :url", LoggerOptions::new().stream(stream)));
    app.get("/:n", ok);
    let srv = TestServer::start(app).await;
    let mut conns = Vec::new();
    for i in 0..8 {
        let addr = srv.addr;
        conns.push(tokio::spawn(async move {
            common::send_raw(addr, &request("GET", &format!("/{i}"), &[])).await
        }));
    }
    for c in conns {
        c.await.unwrap();
    }
    srv.shutdown().await;
    let mut lines = cap.lines();
    lines.sort();
    let expected: Vec<String> = (0..8).map(|i| format!("GET /{i}")).collect();
    assert_eq!(lines, expected);
}

#[tokio::test]
async fn dev_format_colours_by_status() {
    if webfw::logger::__private::no_color() {
        return;
    }
    let cap = Capture::default();
    let mut app = webfw::app();
    app.use_(logger("dev", LoggerOptions::new().stream(cap.clone())));
    app.get("/ok", ok);
    let srv = TestServer::start(app).await;
    srv.get("/ok").await;
    srv.get("/none").await;
    let lines = cap.lines();
    assert!(
        lines[0].starts_with("\x1b[0mGET /ok \x1b[32m200\x1b[0m "),
        "{lines:?}"
    );
    assert!(lines[0].ends_with(" ms - 2\x1b[0m"), "{lines:?}");
    assert!(
        lines[1].starts_with("\x1b[0mGET /none \x1b[33m404\x1b[0m "),
        "{lines:?}"
    );
}

#[tokio::test]
async fn custom_tokens_at_run_time_and_at_compile_time() {
    #[webfw::logger_token("tenant")]
    fn tenant(req: &Request, _res: &Response, arg: Option<&str>) -> Option<String> {
        Some(format!("{}:{}", arg.unwrap_or("t"), req.get("x-tenant")?))
    }
    webfw::logger::token("req-id", |req, _res, _arg| {
        req.get("x-request-id").map(str::to_owned)
    });
    let a = Capture::default();
    let b = Capture::default();
    let mut app = webfw::app();
    app.use_(webfw::logger!(":tenant[org] :tenant", tokens = [tenant]).stream(a.clone()));
    app.use_(logger(
        ":req-id :method",
        LoggerOptions::new().stream(b.clone()),
    ));
    app.get("/ok", ok);
    let srv = TestServer::start(app).await;
    srv.get_with("/ok", &[("X-Tenant", "acme"), ("X-Request-Id", "r-1")])
        .await;
    srv.get("/ok").await;
    assert_eq!(a.lines(), vec!["org:acme t:acme", "- -"]);
    assert_eq!(b.lines(), vec!["r-1 GET", "- GET"]);
}

/// The logger keeps only the response headers its format reads; the lines
/// must be those of morgan whatever the response did with them.
#[tokio::test]
async fn response_headers_read_by_the_format_in_every_kind_of_response() {
    let a = Capture::default();
    let b = Capture::default();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let mut app = webfw::app();
    app.use_(webfw::logger!(":method :status :res[content-length] :res[x-a]").stream(a.clone()));
    app.use_(logger(
        ":status :res[content-length] :res[etag]",
        LoggerOptions::new().stream(b.clone()),
    ));
    app.get("/ok", ok);
    app.get("/end", |_req: &mut Request, res: &mut Response| {
        res.append("X-A", "1").append("X-A", "2").end_with("abc")
    });
    app.get("/none", |_req: &mut Request, res: &mut Response| {
        res.status(204).send("gone")
    });
    let seen2 = seen.clone();
    app.get("/hook", move |_req: &mut Request, res: &mut Response| {
        // A plain hook may read any header: all are kept, Content-Length too.
        let seen = seen2.clone();
        res.on_finish(move |_req, res| {
            seen.lock()
                .unwrap()
                .push(res.get("content-length").map(str::to_owned));
        });
        res.send("four")
    });
    let srv = TestServer::start(app).await;
    srv.get("/ok").await;
    srv.call("HEAD", "/ok", &[]).await;
    let etag = srv.get("/ok").await.header("etag").unwrap().to_owned();
    srv.get_with("/ok", &[("If-None-Match", &etag)]).await;
    srv.get("/end").await;
    srv.get("/none").await;
    srv.get("/hook").await;
    assert_eq!(
        a.lines(),
        vec![
            "GET 200 2 -",
            "HEAD 200 2 -",
            "GET 200 2 -",
            "GET 304 - -",
            "GET 200 - 1, 2",
            "GET 204 - -",
            "GET 200 4 -",
        ]
    );
    // morgan escapes the quotes of token values.
    let esc = |tag: &str| tag.replace('"', "\\\"");
    let e = &esc(&etag);
    assert_eq!(
        b.lines(),
        vec![
            format!("200 2 {e}"),
            format!("200 2 {e}"),
            format!("200 2 {e}"),
            format!("304 - {e}"),
            "200 - -".to_owned(),
            format!(
                "204 - {}",
                esc(&webfw_http::etag::entity_tag(b"gone", true))
            ),
            format!(
                "200 4 {}",
                esc(&webfw_http::etag::entity_tag(b"four", true))
            ),
        ]
    );
    assert_eq!(*seen.lock().unwrap(), vec![Some("4".to_owned())]);
}

/// `logger!` (which looks up all request headers of a line in one walk) and
/// run-time compiled formats print the same lines, whatever the headers.
#[test]
fn compile_time_and_run_time_formats_print_the_same_lines() {
    use webfw::logger::__private::{Cx, tokens_with};
    let cx = Cx {
        now: Some((std::time::SystemTime::now(), std::time::Instant::now())),
        ..Cx::default()
    };
    let headers: &[&[(&str, &[u8])]] = &[
        &[],
        &[
            ("user-agent", b"kit/1"),
            ("referer", b"http://ref/"),
            ("authorization", b"Basic dXNlcjpwYXNz"),
        ],
        &[("referer", b""), ("referrer", b"http://other/")],
        &[("referrer", b"http://only-referrer/\"x\"")],
        &[
            ("x-a", b"1"),
            ("x-a", b"2"),
            ("cookie", b"a=1"),
            ("cookie", b"b=2"),
            ("user-agent", b"first"),
            ("user-agent", b"second"),
            ("authorization", b"Basic YTpi"),
            ("authorization", b"Basic Yzpk"),
        ],
        &[
            ("user-agent", b"quote\" back\\slash\ttab caf\xe9"),
            ("authorization", b"Basic YQpiOmM="),
            ("referer", b"\x80\x85\xff"),
        ],
        &[
            ("h1", b"1"),
            ("h2", b"2"),
            ("h3", b"3"),
            ("h4", b"4"),
            ("h5", b"5"),
            ("h6", b"6"),
            ("h7", b"7"),
            ("h8", b"8"),
            ("user-agent", b"after eight"),
            ("x-a", b"many"),
        ],
    ];
    macro_rules! formats {
        ($($f:literal),*) => {
            vec![$((webfw::logger!($f), logger($f, ()))),*]
        };
    }
    let formats = formats!(
        "combined",
        "common",
        "short",
        "tiny",
        ":req[x-a] :req[cookie] :req[authorization] :req[user-agent] :req[referrer] :referrer :remote-user :user-agent :req[x-none]"
    );
    for (i, hs) in headers.iter().enumerate() {
        let mut req = webfw::testing::request(http::Method::GET, "/p?q=\"1\"");
        for (name, value) in *hs {
            req.headers_mut().append(
                http::HeaderName::from_static(name),
                http::HeaderValue::from_bytes(value).unwrap(),
            );
        }
        let mut res = webfw::testing::response(&req);
        for sent in [false, true] {
            if sent {
                res.send("ok").unwrap();
            }
            for (at_compile, at_run) in &formats {
                let line =
                    |l: &webfw::logger::Logger| l.format().call(&tokens_with(cx), &req, &res);
                assert_eq!(
                    line(at_compile),
                    line(at_run),
                    "request {i}, sent {sent}, {:?}",
                    at_run.format()
                );
            }
        }
    }
}
