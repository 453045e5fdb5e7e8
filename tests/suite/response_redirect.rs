//! `res.location` and `res.redirect`: status, Location encoding, the
//! negotiated body, `Vary: Accept`, HEAD, and `back`.

use crate::common;

use common::TestServer;
use webfw::prelude::*;

async fn call(
    f: fn(&mut Request, &mut Response) -> Result,
    method: &str,
    headers: &[(&str, &str)],
) -> common::HttpResponse {
    let mut app = webfw::app();
    app.all("/", f);
    TestServer::start(app)
        .await
        .call(method, "/", headers)
        .await
}

#[tokio::test]
async fn redirect_defaults_to_302_with_a_plain_text_body() {
    let res = call(|_, res| res.redirect("/login"), "GET", &[]).await;
    assert_eq!(res.status, 302);
    assert_eq!(res.reason, "Found");
    assert_eq!(res.header("location"), Some("/login"));
    assert_eq!(res.header("vary"), Some("Accept"));
    assert_eq!(
        res.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
    assert_eq!(res.header("content-length"), Some("28"));
    assert!(!res.has_header("etag"));
    assert_eq!(res.text(), "Found. Redirecting to /login");
}

#[tokio::test]
async fn redirect_header_order_matches_express() {
    let res = call(|_, res| res.redirect("/login"), "GET", &[]).await;
    assert_eq!(
        res.header_names(),
        [
            "x-powered-by",
            "location",
            "vary",
            "content-type",
            "content-length"
        ]
    );
}

#[tokio::test]
async fn redirect_body_is_html_when_html_is_preferred() {
    let res = call(
        |_, res| res.redirect("/login"),
        "GET",
        &[("Accept", "text/html")],
    )
    .await;
    assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(res.text(), "<p>Found. Redirecting to /login</p>");
    assert_eq!(res.header("content-length"), Some("35"));
}

#[tokio::test]
async fn redirect_body_is_empty_when_neither_text_nor_html_is_acceptable() {
    let res = call(
        |_, res| res.redirect("/login"),
        "GET",
        &[("Accept", "application/json")],
    )
    .await;
    assert_eq!(res.status, 302);
    assert_eq!(res.header("location"), Some("/login"));
    assert_eq!(res.header("vary"), Some("Accept"));
    assert!(!res.has_header("content-type"));
    assert_eq!(res.header("content-length"), Some("0"));
    assert!(res.body.is_empty());
}

#[tokio::test]
async fn redirect_prefers_text_for_wildcard_accept() {
    let res = call(|_, res| res.redirect("/x"), "GET", &[("Accept", "*/*")]).await;
    assert_eq!(res.text(), "Found. Redirecting to /x");
}

#[tokio::test]
async fn redirect_with_a_status() {
    let res = call(|_, res| res.redirect_with(301, "/new"), "GET", &[]).await;
    assert_eq!(res.status, 301);
    assert_eq!(res.reason, "Moved Permanently");
    assert_eq!(res.text(), "Moved Permanently. Redirecting to /new");
    let res = call(|_, res| res.redirect_with(303, "/other"), "GET", &[]).await;
    assert_eq!(res.text(), "See Other. Redirecting to /other");
}

#[tokio::test]
async fn redirect_with_an_unknown_status_says_undefined() {
    let res = call(|_, res| res.redirect_with(399, "/x"), "GET", &[]).await;
    assert_eq!(res.status, 399);
    assert_eq!(res.reason, "unknown");
    assert_eq!(res.text(), "undefined. Redirecting to /x");
}

#[tokio::test]
async fn redirect_encodes_the_url_and_escapes_it_in_html() {
    let res = call(
        |_, res| res.redirect("/foo bar?x=<y>&z=\"q\""),
        "GET",
        &[("Accept", "text/html")],
    )
    .await;
    assert_eq!(
        res.header("location"),
        Some("/foo%20bar?x=%3Cy%3E&z=%22q%22")
    );
    assert_eq!(
        res.text(),
        "<p>Found. Redirecting to /foo%20bar?x=%3Cy%3E&amp;z=%22q%22</p>"
    );
    assert_eq!(res.header("content-length"), Some("63"));
}

#[tokio::test]
async fn redirect_to_head_sends_headers_only() {
    let res = call(|_, res| res.redirect("/login"), "HEAD", &[]).await;
    assert_eq!(res.status, 302);
    assert_eq!(res.header("location"), Some("/login"));
    assert_eq!(res.header("content-length"), Some("28"));
    assert!(res.body.is_empty());
}

#[tokio::test]
async fn redirect_appends_accept_to_an_existing_vary() {
    let res = call(|_, res| res.vary("Origin").redirect("/x"), "GET", &[]).await;
    assert_eq!(res.header("vary"), Some("Origin, Accept"));
}

#[tokio::test]
async fn location_encodes_like_encodeurl() {
    let res = call(
        |_, res| res.location("/a%20b c%zz%E2%9C%93✓").end(),
        "GET",
        &[],
    )
    .await;
    assert_eq!(
        res.header("location"),
        Some("/a%20b%20c%25zz%E2%9C%93%E2%9C%93")
    );
    let res = call(
        |_, res| res.location("http://example.com/a b?q={x}#frag").end(),
        "GET",
        &[],
    )
    .await;
    assert_eq!(
        res.header("location"),
        Some("http://example.com/a%20b?q=%7Bx%7D#frag")
    );
}

#[tokio::test]
async fn location_back_uses_the_referrer_or_slash() {
    let f: fn(&mut Request, &mut Response) -> Result = |_, res| res.location("back").end();
    let res = call(f, "GET", &[("Referer", "http://example.com/from")]).await;
    assert_eq!(res.header("location"), Some("http://example.com/from"));
    let res = call(f, "GET", &[("Referrer", "/prev")]).await;
    assert_eq!(res.header("location"), Some("/prev"));
    let res = call(f, "GET", &[]).await;
    assert_eq!(res.header("location"), Some("/"));
    // `Referrer` wins over `Referer`, whichever comes first.
    for headers in [
        [("Referer", "/referer"), ("Referrer", "/referrer")],
        [("Referrer", "/referrer"), ("Referer", "/referer")],
    ] {
        let res = call(f, "GET", &headers).await;
        assert_eq!(res.header("location"), Some("/referrer"));
    }
}

#[tokio::test]
async fn redirect_back_goes_to_the_referrer() {
    let res = call(
        |_, res| res.redirect("back"),
        "GET",
        &[("Referer", "/prev")],
    )
    .await;
    assert_eq!(res.header("location"), Some("/prev"));
    assert_eq!(res.text(), "Found. Redirecting to /prev");
}
