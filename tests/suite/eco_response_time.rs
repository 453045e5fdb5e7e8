//! `webfw::response_time` over a socket: the header's format and options,
//! a header already set, the callback form.

use crate::common;

use std::sync::{Arc, Mutex};

use common::TestServer;
use webfw::prelude::*;
use webfw::response_time::ResponseTimeOptions;

/// `\d+(\.\d{digits})?` followed by `suffix`.
fn shaped(v: &str, digits: usize, suffix: &str) -> bool {
    let Some(num) = v.strip_suffix(suffix) else {
        return false;
    };
    let (int, frac) = num.split_once('.').unwrap_or((num, ""));
    let digits_ok = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    !int.is_empty()
        && digits_ok(int)
        && digits_ok(frac)
        && frac.len() == digits
        && (digits > 0 || !num.contains('.'))
}

#[tokio::test]
async fn the_header_has_digits_and_suffix_as_configured() {
    let mut app = webfw::app();
    app.get(
        "/default",
        (
            webfw::response_time(()),
            |_req: &mut Request, res: &mut Response| res.send("a"),
        ),
    );
    let custom = ResponseTimeOptions::new()
        .digits(5)
        .header("X-Took")
        .suffix(false);
    app.get(
        "/custom",
        (
            webfw::response_time(custom),
            |_req: &mut Request, res: &mut Response| res.send("b"),
        ),
    );
    app.get(
        "/preset",
        (
            webfw::response_time(()),
            |_req: &mut Request, res: &mut Response| res.set("X-Response-Time", "mine").send("c"),
        ),
    );
    let server = TestServer::start(app).await;
    let res = server.get("/default").await;
    let v = res.header("x-response-time").unwrap();
    assert!(shaped(v, 3, "ms"), "{v}");
    let res = server.get("/custom").await;
    assert!(!res.has_header("x-response-time"));
    let v = res.header("x-took").unwrap();
    assert!(shaped(v, 5, ""), "{v}");
    let res = server.get("/preset").await;
    assert_eq!(res.header_all("x-response-time"), vec!["mine"]);
}

#[tokio::test]
async fn the_header_is_set_for_streamed_and_error_responses_too() {
    let mut app = webfw::app();
    app.use_(webfw::response_time(ResponseTimeOptions::new().digits(0)));
    app.get("/stream", |_req: &mut Request, res: &mut Response| {
        res.write("part")?;
        res.end_with("end")
    });
    let server = TestServer::start(app).await;
    let res = server.get("/stream").await;
    assert_eq!(res.body, b"partend");
    assert!(shaped(res.header("x-response-time").unwrap(), 0, "ms"));
    let missing = server.get("/missing").await;
    assert_eq!(missing.status, 404);
    assert!(missing.has_header("x-response-time"));
}

#[tokio::test]
async fn the_callback_form_gets_the_request_then_the_response_and_time() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let mut app = webfw::app();
    app.use_(webfw::response_time::callback(move |req: &Request| {
        let line = format!("{} {}", req.method(), req.url());
        let log = log.clone();
        move |res: &mut Response, time: std::time::Duration| {
            res.set("X-Timed", &line);
            log.lock().unwrap().push((line, res.status_code(), time));
        }
    }));
    app.get("/fn", |_req: &mut Request, res: &mut Response| {
        res.status(201).send("timed fn")
    });
    let server = TestServer::start(app).await;
    let res = server.get("/fn?q=1").await;
    assert_eq!(res.header("x-timed"), Some("GET /fn?q=1"));
    assert!(!res.has_header("x-response-time"));
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    assert_eq!((seen[0].0.as_str(), seen[0].1), ("GET /fn?q=1", 201));
}

#[test]
#[should_panic(expected = "digits must be between 0 and 100")]
fn more_than_100_digits_is_refused() {
    let _ = ResponseTimeOptions::new().digits(101);
}
