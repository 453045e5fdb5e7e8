//! `webfw::favicon` over a socket: the icon's headers, 304, HEAD, the 405
//! with `Allow`, and paths that pass on.

use crate::common;

use common::TestServer;
use webfw::prelude::*;
use webfw::serve_favicon::{Favicon, FaviconOptions};
use webfw_http::etag::entity_tag;

const ICON: &[u8] = b"\x00\x00\x01\x00icon bytes";

async fn server(opts: FaviconOptions) -> TestServer {
    let mut app = webfw::app();
    app.use_(Favicon::from_bytes(ICON, opts));
    app.all("/*", |req: &mut Request, res: &mut Response| {
        let body = format!("next: {} {}", req.method(), req.url());
        res.send(body)
    });
    TestServer::start(app).await
}

#[tokio::test]
async fn the_icon_comes_from_memory_with_a_strong_etag() {
    let server = server(FaviconOptions::new().max_age("2d")).await;
    let res = server.get("/favicon.ico?v=2").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.body, ICON);
    assert_eq!(res.header("content-type"), Some("image/x-icon"));
    assert_eq!(res.header("content-length"), Some("14"));
    assert_eq!(res.header("cache-control"), Some("public, max-age=172800"));
    assert_eq!(res.header("etag"), Some(entity_tag(ICON, false).as_str()));
    let head = server
        .raw(common::request("HEAD", "/favicon.ico", &[]))
        .await;
    assert_eq!(head.status, 200);
    assert_eq!(head.header("content-length"), Some("14"));
    assert!(head.body.is_empty());
}

#[tokio::test]
async fn a_matching_etag_gets_304_without_a_body() {
    let server = server(FaviconOptions::new()).await;
    let etag = entity_tag(ICON, false);
    let res = server
        .get_with("/favicon.ico", &[("If-None-Match", &etag)])
        .await;
    assert_eq!(res.status, 304);
    assert!(res.body.is_empty());
    assert_eq!(res.header("etag"), Some(etag.as_str()));
    assert_eq!(
        res.header("cache-control"),
        Some("public, max-age=31536000")
    );
    let stale = server
        .get_with("/favicon.ico", &[("If-None-Match", "\"other\"")])
        .await;
    assert_eq!(stale.status, 200);
}

#[tokio::test]
async fn other_methods_get_405_and_options_200_with_allow() {
    let server = server(FaviconOptions::new()).await;
    for (method, status) in [("POST", 405), ("DELETE", 405), ("OPTIONS", 200)] {
        let res = server
            .raw(common::request(
                method,
                "/favicon.ico",
                &[("Content-Length", "0")],
            ))
            .await;
        assert_eq!(res.status, status, "{method}");
        assert_eq!(res.header("allow"), Some("GET, HEAD, OPTIONS"));
        assert_eq!(res.header("content-length"), Some("0"));
        assert!(res.body.is_empty());
        assert!(!res.has_header("etag"));
    }
}

#[tokio::test]
async fn other_paths_pass_on() {
    let server = server(FaviconOptions::new()).await;
    for path in [
        "/favicon.ico/",
        "/FAVICON.ICO",
        "/a/favicon.ico",
        "/favicon.png",
    ] {
        let res = server.get(path).await;
        assert_eq!(res.body, format!("next: GET {path}").as_bytes(), "{path}");
    }
}

#[test]
fn a_missing_icon_is_an_error_when_made() {
    let err = Favicon::open("/no/such/dir/favicon.ico", ()).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    let panicked = std::panic::catch_unwind(|| webfw::favicon("/no/such/dir/favicon.ico", ()));
    assert!(panicked.is_err());
}
