//! `res.send_file` / `res.download` (and their `try_` forms, Express's
//! callback) over real sockets.

use crate::common;
use crate::files_fixture;

use std::path::PathBuf;

use common::{TestServer, async_handler, error_page};
use files_fixture::{BIG_LEN, Fixture, LAST_MODIFIED, pattern};
use serde_json::json;
use webfw::files::{Dotfiles, SendFileOptions};
use webfw::prelude::*;

/// The `name` parameter (or the wildcard), owned.
fn name(req: &Request) -> String {
    req.param("name")
        .or_else(|| req.param("0"))
        .unwrap_or_default()
        .to_owned()
}

/// Express's `fileErrorJson` callback.
fn error_json(res: &mut Response, outcome: std::result::Result<(), Error>) -> Result {
    match outcome {
        Ok(()) => Ok(Flow::Done),
        Err(_) if res.headers_sent() => Ok(Flow::Done),
        Err(e) => {
            let body = json!({ "code": e.code(), "status": e.raw_status() });
            res.status(e.status()).json(&body)
        }
    }
}

/// The fixture's routes: `send` with root, `try` (callback form),
/// `download`, and variants; anything passed on ends at a 299 handler.
async fn start(fx: &Fixture) -> TestServer {
    let root = fx.root();
    let mut app = webfw::app();
    // Error pages show the status text only, as the conformance app does.
    app.set("env", "production");
    let opts = move |root: &PathBuf| SendFileOptions::new().root(root);

    let r = root.clone();
    app.get(
        ["/send/:name", "/nested/*"],
        async_handler(move |req, res| {
            let o = opts(&r);
            Box::pin(async move {
                let name = name(req);
                res.send_file(req, &name, o).await
            })
        }),
    );
    let r = root.clone();
    app.get(
        "/try/:name",
        async_handler(move |req, res| {
            let o = opts(&r);
            Box::pin(async move {
                let name = name(req);
                let outcome = res.try_send_file(req, &name, o).await;
                error_json(res, outcome)
            })
        }),
    );
    let r = root.clone();
    app.get(
        "/dot/:mode/:name",
        async_handler(move |req, res| {
            let mode = match req.param("mode") {
                Some("allow") => Dotfiles::Allow,
                Some("deny") => Dotfiles::Deny,
                _ => Dotfiles::Ignore,
            };
            let o = opts(&r).dotfiles(mode);
            Box::pin(async move {
                let name = name(req);
                res.send_file(req, &name, o).await
            })
        }),
    );
    let r = root.clone();
    app.get(
        "/options",
        async_handler(move |req, res| {
            let o = opts(&r)
                .max_age("2h")
                .immutable(true)
                .last_modified(false)
                .etag(false)
                .accept_ranges(false)
                .header("X-Sent-By", "sendFile")
                .header("Cache-Control", "private");
            Box::pin(async move { res.send_file(req, "big.bin", o).await })
        }),
    );
    let r = root.clone();
    app.get(
        "/no-cache-control",
        async_handler(move |req, res| {
            let o = opts(&r).cache_control(false);
            Box::pin(async move { res.send_file(req, "hello.txt", o).await })
        }),
    );
    let abs = root.join("hello.txt");
    app.get(
        "/absolute",
        async_handler(move |req, res| {
            let p = abs.to_string_lossy().into_owned();
            Box::pin(async move { res.send_file(req, &p, SendFileOptions::new()).await })
        }),
    );
    app.get(
        "/relative-no-root",
        async_handler(|req, res| {
            Box::pin(async move {
                res.send_file(req, "hello.txt", SendFileOptions::new())
                    .await
            })
        }),
    );
    let r = root.clone();
    app.get(
        "/download/:name",
        async_handler(move |req, res| {
            let o = opts(&r);
            Box::pin(async move {
                let name = name(req);
                res.download(req, &name, None, o).await
            })
        }),
    );
    let r = root.clone();
    app.get(
        "/download-as/:as",
        async_handler(move |req, res| {
            let o = opts(&r)
                .header("X-Download", "yes")
                .header("Content-Disposition", "inline");
            Box::pin(async move {
                let as_name = req.param("as").unwrap_or_default().to_owned();
                res.download(req, "hello.txt", Some(&as_name), o).await
            })
        }),
    );
    let r = root.clone();
    app.get(
        "/try-download/:name",
        async_handler(move |req, res| {
            let o = opts(&r);
            Box::pin(async move {
                let name = name(req);
                let outcome = res.try_download(req, &name, None, o).await;
                error_json(res, outcome)
            })
        }),
    );
    app.use_(|_req: &mut Request, res: &mut Response| res.status(299).send("next"));
    TestServer::start(app).await
}

#[tokio::test]
async fn sends_a_file_with_sends_headers() {
    let fx = Fixture::new();
    let s = start(&fx).await;
    let res = s.get("/send/hello.txt").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "Hello, files!\n");
    assert_eq!(
        res.header("content-type"),
        Some("text/plain; charset=UTF-8")
    );
    assert_eq!(res.header("etag"), Some(Fixture::etag(14).as_str()));
    assert_eq!(res.header("last-modified"), Some(LAST_MODIFIED));
    assert_eq!(res.header("cache-control"), Some("public, max-age=0"));
    assert_eq!(res.header("accept-ranges"), Some("bytes"));
    assert_eq!(s.get("/absolute").await.text(), "Hello, files!\n");
    assert_eq!(
        s.get("/nested/sub/main.html").await.text(),
        "<p>sub main</p>\n"
    );
    let res = s.get("/send/big.bin").await;
    assert_eq!(res.body, pattern(BIG_LEN));
    let res = s.call("HEAD", "/send/big.bin", &[]).await;
    assert_eq!(
        res.header("content-length"),
        Some(BIG_LEN.to_string().as_str())
    );
    assert!(res.body.is_empty());
}

#[tokio::test]
async fn ranges_and_conditional_requests() {
    let fx = Fixture::new();
    let s = start(&fx).await;
    let res = s
        .get_with("/send/big.bin", &[("Range", "bytes=100-199")])
        .await;
    assert_eq!(res.status, 206);
    assert_eq!(
        res.header("content-range"),
        Some(format!("bytes 100-199/{BIG_LEN}").as_str())
    );
    assert_eq!(res.body, &pattern(BIG_LEN)[100..200]);
    let res = s
        .get_with("/send/big.bin", &[("Range", "bytes=99999999-")])
        .await;
    assert_eq!(res.status, 416);
    let etag = Fixture::etag(14);
    let res = s
        .get_with("/send/hello.txt", &[("If-None-Match", &etag)])
        .await;
    assert_eq!(res.status, 304);
    let res = s
        .get_with("/send/hello.txt", &[("If-Match", "\"x\"")])
        .await;
    assert_eq!(res.status, 412);
}

#[tokio::test]
async fn errors_carry_status_and_code() {
    let fx = Fixture::new();
    let s = start(&fx).await;
    let res = s.get("/send/missing.txt").await;
    assert_eq!((res.status, res.text()), (404, error_page("Not Found")));
    let res = s.get("/try/missing.txt").await;
    assert_eq!(res.json(), json!({ "code": "ENOENT", "status": 404 }));
    // A directory: next() without a callback, EISDIR with one.
    assert_eq!(s.get("/send/sub").await.status, 299);
    let res = s.get("/try/sub").await;
    assert_eq!(res.status, 500);
    assert_eq!(res.json(), json!({ "code": "EISDIR", "status": null }));
    let res = s.get("/try/.hidden").await;
    assert_eq!(res.json(), json!({ "code": null, "status": 404 }));
    let res = s.get("/try/%2e%2e").await;
    assert_eq!(res.json(), json!({ "code": null, "status": 403 }));
    let res = s.get("/try/a%00b").await;
    assert_eq!(res.json(), json!({ "code": null, "status": 400 }));
    let res = s
        .get_with("/try/hello.txt", &[("Range", "bytes=500-")])
        .await;
    assert_eq!(res.json(), json!({ "code": null, "status": 416 }));
    // A relative path without a root is the handler's mistake: 500.
    let res = s.get("/relative-no-root").await;
    assert_eq!(
        (res.status, res.text()),
        (500, error_page("Internal Server Error"))
    );
}

#[tokio::test]
async fn dotfiles_option() {
    let fx = Fixture::new();
    let s = start(&fx).await;
    assert_eq!(s.get("/send/.hidden").await.status, 404);
    assert_eq!(s.get("/nested/.dot/inside.txt").await.status, 200);
    assert_eq!(s.get("/dot/allow/.hidden").await.text(), "hidden\n");
    assert_eq!(s.get("/dot/deny/.hidden").await.status, 403);
    assert_eq!(s.get("/dot/ignore/.hidden").await.status, 404);
}

#[tokio::test]
async fn options_and_headers() {
    let fx = Fixture::new();
    let s = start(&fx).await;
    let res = s.get_with("/options", &[("Range", "bytes=0-9")]).await;
    assert_eq!(res.status, 200, "ranges are off");
    assert_eq!(res.header("x-sent-by"), Some("sendFile"));
    // The headers option comes first; send keeps what it set.
    assert_eq!(res.header("cache-control"), Some("private"));
    assert!(!res.has_header("etag") && !res.has_header("last-modified"));
    assert!(!res.has_header("accept-ranges"));
    let res = s.get("/no-cache-control").await;
    assert!(!res.has_header("cache-control"));
}

#[tokio::test]
async fn download_names_the_file() {
    let fx = Fixture::new();
    let s = start(&fx).await;
    let res = s.get("/download/hello.txt").await;
    assert_eq!(
        res.header("content-disposition"),
        Some("attachment; filename=\"hello.txt\"")
    );
    assert_eq!(res.text(), "Hello, files!\n");

    let line = disposition(&s, "/download/na%C3%AFve%20%E2%9C%93.txt").await;
    assert_eq!(
        line,
        b"attachment; filename=\"na\xefve ?.txt\"; filename*=UTF-8''na%C3%AFve%20%E2%9C%93.txt"
    );

    // The header option's Content-Disposition is ignored; \u{fc} goes out as one byte.
    let line = disposition(&s, "/download-as/%C3%BC.txt").await;
    assert_eq!(line, b"attachment; filename=\"\xfc.txt\"");
    let res = s.get("/download-as/plain.txt").await;
    assert_eq!(res.header("x-download"), Some("yes"));
    assert_eq!(
        res.header_all("content-disposition"),
        ["attachment; filename=\"plain.txt\""]
    );

    let res = s.get("/download/missing.txt").await;
    assert_eq!(res.status, 404);
    let res = s.get("/try-download/missing.txt").await;
    assert_eq!(res.json(), json!({ "code": "ENOENT", "status": 404 }));
}

/// The raw value of the response's Content-Disposition (Latin-1 bytes are
/// not UTF-8, so the response is not parsed as text).
async fn disposition(s: &TestServer, path: &str) -> Vec<u8> {
    let raw = s.raw_bytes(common::request("GET", path, &[])).await;
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let line = raw[..end]
        .split(|&b| b == b'\n')
        .find(|l| l.to_ascii_lowercase().starts_with(b"content-disposition:"))
        .expect("a Content-Disposition header");
    let value = &line[b"content-disposition:".len()..];
    value.trim_ascii().to_vec()
}
