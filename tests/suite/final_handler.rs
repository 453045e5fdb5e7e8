//! The final handler: the exact 404 page, error pages in production and
//! development, which status an error gets, and error headers.

use crate::common;

use common::{TestServer, error_page};
use webfw::prelude::*;

fn app_with(env: &str) -> App {
    let mut app = webfw::app();
    app.set("env", env);
    app.get("/exists", |_: &mut Request, res: &mut Response| {
        res.send("x")
    });
    app
}

#[tokio::test]
async fn not_found_page_is_byte_exact() {
    let srv = TestServer::start(app_with("development")).await;
    let res = srv.get("/num/ab").await;
    assert_eq!(res.version, "HTTP/1.1");
    assert_eq!(res.status, 404);
    assert_eq!(res.reason, "Not Found");
    assert_eq!(
        res.header_names(),
        [
            "x-powered-by",
            "content-security-policy",
            "x-content-type-options",
            "content-type",
            "content-length"
        ]
    );
    assert_eq!(
        res.header("content-security-policy"),
        Some("default-src 'none'")
    );
    assert_eq!(res.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(res.header("content-length"), Some("145"));
    assert_eq!(
        res.body,
        b"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot GET /num/ab</pre>\n</body>\n</html>\n"
    );
}

#[tokio::test]
async fn not_found_page_is_the_same_in_production() {
    let srv = TestServer::start(app_with("production")).await;
    let res = srv.get("/nope").await;
    assert_eq!(res.status, 404);
    assert_eq!(res.text(), error_page("Cannot GET /nope"));
}

#[tokio::test]
async fn not_found_message_drops_the_query_and_encodes_the_path() {
    let srv = TestServer::start(app_with("development")).await;
    let res = srv.get("/a%20b/{x}?q=y").await;
    assert_eq!(res.text(), error_page("Cannot GET /a%20b/%7Bx%7D"));
    let res = srv.get("/a%zz/\"q\"").await;
    assert_eq!(res.text(), error_page("Cannot GET /a%25zz/%22q%22"));
}

#[tokio::test]
async fn not_found_message_encodes_angle_brackets_of_the_raw_target() {
    let srv = TestServer::start(app_with("development")).await;
    let res = srv.get("/a%20b/<x>?q=<y>").await;
    assert_eq!(res.status, 404);
    assert_eq!(res.text(), error_page("Cannot GET /a%20b/%3Cx%3E"));
}

#[tokio::test]
async fn not_found_for_an_asterisk_target_keeps_the_asterisk() {
    let srv = TestServer::start(app_with("development")).await;
    let res = srv
        .raw("OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .await;
    assert_eq!(res.status, 404);
    assert_eq!(res.text(), error_page("Cannot OPTIONS *"));
}

#[tokio::test]
async fn not_found_names_the_method() {
    let srv = TestServer::start(app_with("development")).await;
    let res = srv.call("DELETE", "/exists", &[]).await;
    assert_eq!(res.status, 404);
    assert_eq!(res.text(), error_page("Cannot DELETE /exists"));
}

#[tokio::test]
async fn head_not_found_has_the_full_length_and_no_body() {
    let srv = TestServer::start(app_with("development")).await;
    let res = srv.call("HEAD", "/nope", &[]).await;
    assert_eq!(res.status, 404);
    assert_eq!(res.header("content-length"), Some("144"));
    assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
    assert!(res.body.is_empty());
}

#[tokio::test]
async fn app_without_routes_answers_404_without_x_powered_by() {
    let srv = TestServer::start(webfw::app()).await;
    let res = srv.get("/").await;
    assert_eq!(res.status, 404);
    assert_eq!(res.text(), error_page("Cannot GET /"));
    assert!(!res.has_header("x-powered-by"));
}

fn failing(env: &str, make: fn() -> Error) -> App {
    let mut app = webfw::app();
    app.set("env", env);
    app.get(
        "/fail",
        move |_: &mut Request, _: &mut Response| -> Result { Err(make()) },
    );
    app
}

#[tokio::test]
async fn error_page_in_production_shows_the_status_text() {
    let srv = TestServer::start(failing("production", || Error::new("secret"))).await;
    let res = srv.get("/fail").await;
    assert_eq!(res.status, 500);
    assert_eq!(res.reason, "Internal Server Error");
    assert_eq!(res.text(), error_page("Internal Server Error"));
    assert_eq!(res.header("content-length"), Some("148"));
    assert_eq!(
        res.header("content-security-policy"),
        Some("default-src 'none'")
    );
    assert_eq!(res.header("x-content-type-options"), Some("nosniff"));
}

#[tokio::test]
async fn error_page_in_production_ignores_expose() {
    let srv = TestServer::start(failing("production", || {
        Error::status_message(400, "visible detail").with_expose(true)
    }))
    .await;
    let res = srv.get("/fail").await;
    assert_eq!(res.status, 400);
    assert_eq!(res.text(), error_page("Bad Request"));
}

#[tokio::test]
async fn error_page_in_development_shows_the_stack() {
    let srv = TestServer::start(failing("development", || {
        Error::new("boom <b> & 'q'").with_name("TypeError")
    }))
    .await;
    let res = srv.get("/fail").await;
    assert_eq!(res.status, 500);
    assert_eq!(
        res.text(),
        error_page("TypeError: boom &lt;b&gt; &amp; &#39;q&#39;")
    );
}

#[tokio::test]
async fn development_stack_lines_become_breaks_and_nbsp() {
    let srv = TestServer::start(failing("development", || {
        Error::new("outer").with_source(std::io::Error::other("inner cause"))
    }))
    .await;
    let res = srv.get("/fail").await;
    assert_eq!(
        res.text(),
        error_page("Error: outer<br> &nbsp; &nbsp;caused by: inner cause")
    );
}

#[tokio::test]
async fn error_status_in_4xx_and_5xx_is_honoured() {
    for (status, text) in [
        (400, "Bad Request"),
        (418, "I'm a Teapot"),
        (503, "Service Unavailable"),
        (599, "undefined"),
    ] {
        let mut app = webfw::app();
        app.set("env", "production");
        app.get(
            "/fail",
            move |_: &mut Request, _: &mut Response| -> Result {
                Err(Error::status_message(status, "x"))
            },
        );
        let srv = TestServer::start(app).await;
        let res = srv.get("/fail").await;
        assert_eq!(res.status, status);
        assert_eq!(
            res.text(),
            error_page(&text.replace('\'', "&#39;")),
            "{status}"
        );
    }
}

#[tokio::test]
async fn unknown_error_status_gets_reason_unknown_and_undefined_text() {
    let srv = TestServer::start(failing("production", || Error::status_message(499, "x"))).await;
    let res = srv.get("/fail").await;
    assert_eq!(res.status, 499);
    assert_eq!(res.reason, "unknown");
    assert_eq!(res.text(), error_page("undefined"));
}

#[tokio::test]
async fn error_status_outside_4xx_5xx_becomes_500() {
    for status in [302_i64, 200, 600, 99] {
        let mut app = webfw::app();
        app.set("env", "production");
        app.get(
            "/fail",
            move |_: &mut Request, _: &mut Response| -> Result {
                Err(Error::new("x").with_status(status))
            },
        );
        let srv = TestServer::start(app).await;
        let res = srv.get("/fail").await;
        assert_eq!(res.status, 500, "err.status {status}");
        assert_eq!(res.text(), error_page("Internal Server Error"));
    }
}

#[tokio::test]
async fn error_without_status_uses_an_error_res_status_code() {
    let mut app = webfw::app();
    app.set("env", "production");
    app.get("/gone", |_: &mut Request, res: &mut Response| -> Result {
        res.status(410);
        Err(Error::new("x").with_header("X-From-Error", "1"))
    });
    app.get(
        "/ok-status",
        |_: &mut Request, res: &mut Response| -> Result {
            res.status(201);
            Err(Error::new("x"))
        },
    );
    let srv = TestServer::start(app).await;
    let res = srv.get("/gone").await;
    assert_eq!(res.status, 410);
    assert_eq!(res.text(), error_page("Gone"));
    assert!(
        !res.has_header("x-from-error"),
        "error headers only apply when the status came from the error"
    );
    let res = srv.get("/ok-status").await;
    assert_eq!(res.status, 500);
}

#[tokio::test]
async fn error_headers_are_set_on_the_error_response() {
    let srv = TestServer::start(failing("production", || {
        Error::from_status(429).with_header("Retry-After", "120")
    }))
    .await;
    let res = srv.get("/fail").await;
    assert_eq!(res.status, 429);
    assert_eq!(res.header("retry-after"), Some("120"));
    assert_eq!(res.text(), error_page("Too Many Requests"));
}

#[tokio::test]
async fn error_response_keeps_headers_but_drops_content_encoding_language_and_range() {
    let mut app = webfw::app();
    app.set("env", "production");
    app.get("/fail", |_: &mut Request, res: &mut Response| -> Result {
        res.set("X-Keep", "kept")
            .set("Content-Encoding", "gzip")
            .set("Content-Language", "en")
            .set("Content-Range", "bytes 0-1/2")
            .set("Vary", "Accept");
        Err(Error::new("x"))
    });
    let srv = TestServer::start(app).await;
    let res = srv.get("/fail").await;
    assert_eq!(res.status, 500);
    assert_eq!(res.header("x-keep"), Some("kept"));
    assert_eq!(res.header("vary"), Some("Accept"));
    assert!(!res.has_header("content-encoding"));
    assert!(!res.has_header("content-language"));
    assert!(!res.has_header("content-range"));
    assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
}

#[tokio::test]
async fn head_error_response_has_headers_only() {
    let srv = TestServer::start(failing("production", || Error::new("x"))).await;
    let res = srv.call("HEAD", "/fail", &[]).await;
    assert_eq!(res.status, 500);
    assert_eq!(res.header("content-length"), Some("148"));
    assert!(res.body.is_empty());
}

/// A body parser's error reaching the final handler, as Express renders it
/// (`reference/app.js`-style app without an error handler).
fn parsing(env: &str) -> App {
    let mut app = webfw::app();
    app.set("env", env);
    app.post(
        "/json",
        (
            webfw::json(webfw::JsonOptions::new().limit(16)),
            |req: &mut Request, res: &mut Response| -> Result {
                let body = req.body().clone();
                res.json(body)
            },
        ),
    );
    app.post(
        "/text",
        (
            webfw::text(webfw::TextOptions::new()),
            |_: &mut Request, res: &mut Response| -> Result { res.send("ok") },
        ),
    );
    app
}

fn post(path: &str, content_type: &str, body: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

#[tokio::test]
async fn body_parser_errors_in_development_show_name_and_message() {
    // What Express 4 prints before the stack's `at …` frames (node 20).
    let srv = TestServer::start(parsing("development")).await;
    let res = srv
        .raw(post("/json", "application/json", r#"{"a":}"#))
        .await;
    assert_eq!(res.status, 400);
    assert_eq!(
        res.text(),
        error_page(
            "SyntaxError: Unexpected token &#39;}&#39;, &quot;{&quot;a&quot;:}&quot; is not valid JSON"
        )
    );
    assert_eq!(
        res.header("content-security-policy"),
        Some("default-src 'none'")
    );
    let res = srv
        .raw(post("/json", "application/json", r#"{"a":"0123456789"}"#))
        .await;
    assert_eq!(res.status, 413);
    assert_eq!(
        res.text(),
        error_page("PayloadTooLargeError: request entity too large")
    );
    let res = srv
        .raw(post("/text", "text/plain; charset=utf-32", "x"))
        .await;
    assert_eq!(res.status, 415);
    assert_eq!(
        res.text(),
        error_page("UnsupportedMediaTypeError: unsupported charset &quot;UTF-32&quot;")
    );
    // zlib's error keeps Node's plain `Error` name.
    let gzip = post(
        "/json",
        "application/json\r\nContent-Encoding: gzip",
        "notgzip",
    );
    let res = srv.raw(gzip).await;
    assert_eq!(res.status, 400);
    assert_eq!(res.text(), error_page("Error: incorrect header check"));
    let br = post("/json", "application/json\r\nContent-Encoding: br", "{}");
    let res = srv.raw(br).await;
    assert_eq!(res.status, 415);
    assert_eq!(
        res.text(),
        error_page("UnsupportedMediaTypeError: unsupported content encoding &quot;br&quot;")
    );
}

#[tokio::test]
async fn body_parser_errors_in_production_show_the_status_text() {
    let srv = TestServer::start(parsing("production")).await;
    let res = srv
        .raw(post("/json", "application/json", r#"{"a":}"#))
        .await;
    assert_eq!((res.status, res.text()), (400, error_page("Bad Request")));
    assert_eq!(res.header("content-length"), Some("138"));
    let res = srv
        .raw(post("/json", "application/json", r#"{"a":"0123456789"}"#))
        .await;
    assert_eq!(
        (res.status, res.text()),
        (413, error_page("Payload Too Large"))
    );
    let res = srv
        .raw(post("/text", "text/plain; charset=utf-32", "x"))
        .await;
    assert_eq!(
        (res.status, res.text()),
        (415, error_page("Unsupported Media Type"))
    );
}
