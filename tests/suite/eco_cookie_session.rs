//! cookie-session over a socket: keys rotation, tampered signatures,
//! `req.session = null`, when a cookie is written at all, and the options
//! that shape it. The expected lines are the npm package's (checked against
//! cookie-session 2.1.1 in the conformance reference).

use crate::common;

use std::time::Duration;

use base64::Engine;
use common::{HttpResponse, TestServer};
use serde_json::json;
use webfw::cookie_session::CookieSessionOptions;
use webfw::prelude::*;
use webfw_http::keygrip::sign;

const EXPIRED: &str = "expires=Thu, 01 Jan 1970 00:00:00 GMT";

fn b64(json: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(json)
}

/// `session=<value>; session.sig=<signature under key>`.
fn signed(value: &str, key: &str) -> String {
    format!(
        "session={value}; session.sig={}",
        sign(&format!("session={value}"), key)
    )
}

fn count(req: &mut Request, res: &mut Response) -> Result {
    let s = req.cookie_session();
    let n = s.get::<u64>("n").unwrap_or(0) + 1;
    s.set("n", n)?;
    res.json(&json!({ "n": n, "isNew": s.is_new() }))
}

fn read(req: &mut Request, res: &mut Response) -> Result {
    let s = req.cookie_session();
    res.json(&json!({ "session": s.to_value(), "isNew": s.is_new() }))
}

async fn server(options: CookieSessionOptions) -> TestServer {
    let mut app = webfw::app();
    app.use_(webfw::cookie_session(options));
    app.get("/count", count);
    app.get("/read", read);
    app.get("/clear", |req: &mut Request, res: &mut Response| {
        req.cookie_session().clear();
        res.send("cleared")
    });
    app.get("/untouched", |_req: &mut Request, res: &mut Response| {
        res.send("no session")
    });
    app.get("/remember", |req: &mut Request, res: &mut Response| {
        let s = req.cookie_session();
        s.session_options(|o| o.max_age = Some(Duration::from_secs(60)));
        s.set("remember", true)?;
        res.send("remembered")
    });
    app.get(
        "/set-after-clear",
        |req: &mut Request, res: &mut Response| {
            let s = req.cookie_session();
            s.clear();
            s.set("n", 1)?;
            res.send("unreachable")
        },
    );
    app.get("/own-cookie", |req: &mut Request, res: &mut Response| {
        res.cookie("session", "from-res-cookie")?;
        req.cookie_session().set("n", 1)?;
        res.send("ok")
    });
    TestServer::start(app).await
}

fn rotating() -> CookieSessionOptions {
    CookieSessionOptions::new().keys(["key-new", "key-old"])
}

fn cookies(res: &HttpResponse) -> Vec<&str> {
    res.header_all("set-cookie")
}

#[tokio::test]
async fn a_cookie_signed_with_the_old_key_is_accepted_and_re_signed_with_the_new() {
    let srv = server(rotating()).await;
    let old = signed(&b64(r#"{"n":7}"#), "key-old");
    let res = srv.get_with("/count", &[("Cookie", &old)]).await;
    assert_eq!(res.json(), json!({"n": 8, "isNew": false}));
    let body = b64(r#"{"n":8}"#);
    assert_eq!(
        cookies(&res),
        [
            format!("session={body}; path=/; httponly"),
            format!(
                "session.sig={}; path=/; httponly",
                sign(&format!("session={body}"), "key-new")
            ),
        ]
    );

    // Read without a change: only the signature is renewed.
    let res = srv.get_with("/read", &[("Cookie", &old)]).await;
    assert_eq!(res.json(), json!({"session": {"n": 7}, "isNew": false}));
    let value = b64(r#"{"n":7}"#);
    assert_eq!(
        cookies(&res),
        [format!(
            "session.sig={}; path=/; httponly",
            sign(&format!("session={value}"), "key-new")
        )]
    );

    // Signed with the current key: read, nothing written.
    let res = srv
        .get_with("/read", &[("Cookie", &signed(&value, "key-new"))])
        .await;
    assert_eq!(res.json(), json!({"session": {"n": 7}, "isNew": false}));
    assert!(cookies(&res).is_empty());
}

#[tokio::test]
async fn a_tampered_signature_starts_a_new_session_and_expires_the_signature() {
    let srv = server(rotating()).await;
    let value = b64(r#"{"n":4}"#);
    let forged = format!(
        "session={value}; session.sig=xx{}",
        &sign(&format!("session={value}"), "key-new")[2..]
    );
    let res = srv.get_with("/read", &[("Cookie", &forged)]).await;
    assert_eq!(res.json(), json!({"session": {}, "isNew": true}));
    assert_eq!(
        cookies(&res),
        [format!("session.sig=; path=/; {EXPIRED}; httponly")]
    );

    // A changed value under the old signature is forged too.
    let tampered = format!(
        "session={}; session.sig={}",
        b64(r#"{"n":400}"#),
        sign(&format!("session={value}"), "key-new")
    );
    let res = srv.get_with("/count", &[("Cookie", &tampered)]).await;
    assert_eq!(res.json(), json!({"n": 1, "isNew": true}));
    let body = b64(r#"{"n":1}"#);
    assert_eq!(
        cookies(&res),
        [
            format!("session={body}; path=/; httponly"),
            format!(
                "session.sig={}; path=/; httponly",
                sign(&format!("session={body}"), "key-new")
            ),
        ]
    );

    // No signature at all: ignored, and nothing to expire.
    let res = srv
        .get_with("/read", &[("Cookie", &format!("session={value}"))])
        .await;
    assert_eq!(res.json(), json!({"session": {}, "isNew": true}));
    assert!(cookies(&res).is_empty());
}

#[tokio::test]
async fn session_null_expires_both_cookies() {
    let srv = server(rotating().max_age(Duration::from_secs(3600))).await;
    let res = srv
        .get_with(
            "/clear",
            &[("Cookie", &signed(&b64(r#"{"n":1}"#), "key-new"))],
        )
        .await;
    assert_eq!(res.text(), "cleared");
    assert_eq!(
        cookies(&res),
        [
            format!("session=; path=/; {EXPIRED}; httponly"),
            format!(
                "session.sig={}; path=/; {EXPIRED}; httponly",
                sign("session=", "key-new")
            ),
        ]
    );
    // After a clear the session takes no values: an error, not a silent drop.
    let res = srv.get("/set-after-clear").await;
    assert_eq!(res.status, 500);
}

#[tokio::test]
async fn a_cookie_is_written_only_when_the_session_changed() {
    let srv = server(rotating()).await;
    // Never read, or read while new and empty: nothing.
    assert!(cookies(&srv.get("/untouched").await).is_empty());
    let res = srv.get("/read").await;
    assert_eq!(res.json(), json!({"session": {}, "isNew": true}));
    assert!(cookies(&res).is_empty());
    // A body written differently (base64url, no padding) is rewritten.
    let res = srv
        .get_with("/read", &[("Cookie", &signed("eyJuIjo0fQ", "key-new"))])
        .await;
    assert_eq!(res.json(), json!({"session": {"n": 4}, "isNew": false}));
    assert!(cookies(&res)[0].starts_with("session=eyJuIjo0fQ==; "));
}

#[tokio::test]
async fn options_shape_the_cookie() {
    use webfw::SameSite;
    let srv = server(
        CookieSessionOptions::new()
            .name("plain")
            .secret("only-secret")
            .http_only(false)
            .path("/")
            .domain("example.com")
            .same_site(SameSite::Strict),
    )
    .await;
    let res = srv.get("/count").await;
    let body = b64(r#"{"n":1}"#);
    assert_eq!(
        cookies(&res),
        [
            format!("plain={body}; path=/; domain=example.com; samesite=strict"),
            format!(
                "plain.sig={}; path=/; domain=example.com; samesite=strict",
                sign(&format!("plain={body}"), "only-secret")
            ),
        ]
    );

    // Unsigned: no .sig, and an unsigned cookie is trusted.
    let srv = server(CookieSessionOptions::new().signed(false)).await;
    let res = srv
        .get_with(
            "/count",
            &[("Cookie", &format!("session={}", b64(r#"{"n":41}"#)))],
        )
        .await;
    assert_eq!(res.json(), json!({"n": 42, "isNew": false}));
    assert_eq!(
        cookies(&res),
        [format!("session={}; path=/; httponly", b64(r#"{"n":42}"#))]
    );

    // secure over plain HTTP: the package refuses, so no cookie.
    let srv = server(rotating().secure(true)).await;
    let res = srv.get("/count").await;
    assert_eq!(res.status, 200);
    assert!(cookies(&res).is_empty());
}

#[tokio::test]
async fn session_options_apply_to_this_request_and_overwrite_replaces_earlier_lines() {
    let srv = server(rotating()).await;
    let res = srv.get("/remember").await;
    let lines = cookies(&res);
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].contains("; expires=") && lines[1].contains("; expires="),
        "{lines:?}"
    );
    // Another request keeps the middleware's options.
    let res = srv.get("/count").await;
    assert!(!cookies(&res)[0].contains("expires="));

    let res = srv.get("/own-cookie").await;
    let lines = cookies(&res);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with(&format!("session={}", b64(r#"{"n":1}"#))));
    assert!(lines[1].starts_with("session.sig="));
}

#[test]
#[should_panic(expected = ".keys required")]
fn a_signed_session_without_keys_is_refused_when_built() {
    let _ = webfw::cookie_session(CookieSessionOptions::new());
}
