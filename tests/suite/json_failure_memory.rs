//! A failed JSON parse of a large body (limits raised) must not cost
//! several copies of the body: the error message quotes a few characters of
//! it, and building it copies nothing. Run alone in a child process, so
//! that the process's peak RSS (`VmHWM`) shows what this request cost.

use crate::common;

use common::TestServer;
use webfw::body::JsonOptions;
use webfw::prelude::*;

/// The process's peak resident set, in bytes.
fn peak_rss() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM line");
    let kib: usize = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("VmHWM in kB");
    kib * 1024
}

fn post_json(body: &[u8]) -> Vec<u8> {
    let mut bytes = format!(
        "POST /json HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

#[tokio::test]
async fn a_failed_parse_of_a_large_body_holds_about_one_copy_of_it() {
    if !common::alone(
        module_path!(),
        "a_failed_parse_of_a_large_body_holds_about_one_copy_of_it",
    ) {
        return;
    }
    const SIZE: usize = 24 << 20;
    let mut app = webfw::app();
    app.post(
        "/json",
        (
            webfw::json(JsonOptions::new().limit("64mb")),
            |_: &mut Request, res: &mut Response| res.send("parsed"),
        ),
    );
    app.use_(
        |err: webfw::Error, _: &mut Request, res: &mut Response| -> Result {
            res.status(err.status()).send(err.message().to_owned())
        },
    );
    let srv = TestServer::start(app).await;
    let mut strict = vec![b'x'; SIZE];
    let strict_req = post_json(&strict);
    strict.clear();
    strict.shrink_to_fit();
    let mut unterminated = vec![b'a'; SIZE];
    unterminated[..2].copy_from_slice(b"[\"");
    let unterminated_req = post_json(&unterminated);
    drop(unterminated);
    let before = peak_rss();

    let res = srv.raw(&strict_req).await;
    assert_eq!(res.status, 400);
    assert_eq!(
        res.text(),
        "Unexpected token 'x', \"xxxxxxxxxx\"... is not valid JSON"
    );
    let res = srv.raw(&unterminated_req).await;
    assert_eq!(res.status, 400);
    assert_eq!(
        res.text(),
        format!("Unterminated string in JSON at position {SIZE}")
    );

    // The body itself, read into one buffer, and some slack; each copy of
    // it as UTF-16 would be twice its size.
    let grown = peak_rss().saturating_sub(before);
    assert!(
        grown < 2 * SIZE,
        "peak RSS grew by {} MiB for a {} MiB body",
        grown >> 20,
        SIZE >> 20
    );
}
