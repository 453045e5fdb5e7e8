//! `res.jsonp` and `res.links` over a socket.

use crate::common;

use common::TestServer;
use serde_json::json;
use webfw::prelude::*;

fn app() -> webfw::App {
    let mut app = webfw::app();
    app.get("/jsonp", |req: &mut Request, res: &mut Response| {
        res.jsonp(req, &json!({ "user": "tobi", "s": "a\u{2028}b" }))
    });
    let mut custom = webfw::app();
    custom.set("jsonp callback name", "cb");
    custom.set("json spaces", 1);
    custom.get("/", |req: &mut Request, res: &mut Response| {
        res.status(201).jsonp(req, &json!({ "n": 1 }))
    });
    app.use_at("/custom", custom);
    app.get("/links", |_req: &mut Request, res: &mut Response| {
        res.links([("next", "/p/2"), ("last", "/p/5")])
            .links([("prev", "/p/1")])
            .send("links")
    });
    app
}

#[tokio::test]
async fn jsonp_wraps_in_the_callback() {
    let server = TestServer::start(app()).await;
    let res = server.get("/jsonp?callback=show").await;
    assert_eq!(
        res.text(),
        "/**/ typeof show === 'function' && show({\"user\":\"tobi\",\"s\":\"a\\u2028b\"});"
    );
    assert_eq!(
        res.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(res.header("x-content-type-options"), Some("nosniff"));
}

#[tokio::test]
async fn jsonp_without_callback_is_json_with_nosniff() {
    let server = TestServer::start(app()).await;
    let res = server.get("/jsonp").await;
    assert_eq!(res.text(), "{\"user\":\"tobi\",\"s\":\"a\u{2028}b\"}");
    assert_eq!(
        res.header("content-type"),
        Some("application/json; charset=utf-8")
    );
    assert_eq!(res.header("x-content-type-options"), Some("nosniff"));
}

#[tokio::test]
async fn jsonp_sanitizes_and_takes_the_first_callback() {
    let server = TestServer::start(app()).await;
    let res = server
        .get("/jsonp?callback=%3Cscript%3Ea.b%5B0%5D(1)&callback=second")
        .await;
    assert!(
        res.text()
            .starts_with("/**/ typeof scripta.b[0]1 === 'function' && scripta.b[0]1("),
        "{}",
        res.text()
    );
}

#[tokio::test]
async fn jsonp_uses_the_setting_and_keeps_the_status() {
    let server = TestServer::start(app()).await;
    let res = server.get("/custom?cb=fn&callback=ignored").await;
    assert_eq!(res.status, 201);
    assert_eq!(
        res.text(),
        "/**/ typeof fn === 'function' && fn({\n \"n\": 1\n});"
    );
}

#[tokio::test]
async fn links_accumulate_in_one_header() {
    let server = TestServer::start(app()).await;
    let res = server.get("/links").await;
    assert_eq!(
        res.header("link"),
        Some(r#"</p/2>; rel="next", </p/5>; rel="last", </p/1>; rel="prev""#)
    );
}
