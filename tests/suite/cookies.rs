//! Cookies over a socket: `cookie_parser`, `req.cookies()`/`signed_cookies()`,
//! `res.cookie`/`clear_cookie`, and signatures a Node app made.

use crate::common;

use std::time::Duration;

use common::TestServer;
use serde_json::json;
use webfw::SameSite;
use webfw::prelude::*;
use webfw::{CookieOptions, CookieSecrets};
use webfw_http::cookie_signature;

fn app(secrets: impl Into<CookieSecrets>) -> webfw::App {
    let mut app = webfw::app();
    app.use_(webfw::cookie_parser(secrets));
    app.get("/echo", |req: &mut Request, res: &mut Response| {
        let body = json!({ "cookies": req.cookies(), "signed": req.signed_cookies() });
        res.json(&body)
    });
    app.get("/login", |_req: &mut Request, res: &mut Response| {
        let o = CookieOptions::new()
            .signed()
            .http_only()
            .same_site(SameSite::Lax);
        res.cookie_with("user", "tobi", &o)?;
        res.cookie_with(
            "cart",
            json!({ "items": [1, 2] }),
            &CookieOptions::new().signed(),
        )?;
        res.redirect("/")
    });
    app.get("/typed", |req: &mut Request, res: &mut Response| {
        #[derive(serde::Deserialize)]
        struct Cart {
            items: Vec<u32>,
        }
        let items = req.signed_cookie_as::<Cart>("cart").map(|c| c.items);
        let user = req.signed_cookie("user").map(str::to_owned);
        res.json(&json!({ "user": user, "items": items }))
    });
    app.get("/bad", |_req: &mut Request, res: &mut Response| {
        res.cookie("bad name", "v")?;
        res.send("not reached")
    });
    app.get("/max-age", |_req: &mut Request, res: &mut Response| {
        let o = CookieOptions::new().max_age(Duration::from_millis(1500));
        res.cookie_with("m", "1", &o)?.send("ok")
    });
    app.get("/clear", |_req: &mut Request, res: &mut Response| {
        res.clear_cookie_with("p", &CookieOptions::new().path("/admin"))?
            .send("cleared")
    });
    app.get("/append", |_req: &mut Request, res: &mut Response| {
        res.append("Set-Cookie", "raw=1; Path=/");
        res.cookie("made", "yes")?.send("appended")
    });
    app
}

#[tokio::test]
async fn parser_decodes_plain_json_and_signed_cookies() {
    let server = TestServer::start(app("s3cret")).await;
    let signed = cookie_signature::sign("hello", "s3cret").replace('+', "%2B");
    let cookie =
        format!("a=1; n=caf%C3%A9; j=j%3A%7B%22a%22%3A1%7D; sig=s%3A{signed}; t=s:hellO.x");
    let res = server.get_with("/echo", &[("Cookie", &cookie)]).await;
    assert_eq!(
        res.json(),
        json!({
            "cookies": { "a": "1", "n": "caf\u{e9}", "j": { "a": 1 } },
            "signed": { "sig": "hello", "t": false },
        })
    );
}

#[tokio::test]
async fn without_a_cookie_header_both_are_empty() {
    let server = TestServer::start(app("s3cret")).await;
    let res = server.get("/echo").await;
    assert_eq!(res.json(), json!({ "cookies": {}, "signed": {} }));
}

#[tokio::test]
async fn every_secret_verifies_and_the_first_signs() {
    let server = TestServer::start(app(["new", "old"])).await;
    let old = cookie_signature::sign("v", "old").replace('+', "%2B");
    let res = server
        .get_with("/echo", &[("Cookie", &format!("k=s:{old}"))])
        .await;
    assert_eq!(res.json()["signed"], json!({ "k": "v" }));

    let res = server.get("/login").await;
    let lines = res.header_all("set-cookie");
    let expected = format!(
        "user=s%3A{}; Path=/; HttpOnly; SameSite=Lax",
        cookie_signature::sign("tobi", "new")
            .replace('+', "%2B")
            .replace('/', "%2F")
    );
    assert_eq!(lines[0], expected);
}

#[tokio::test]
async fn signed_cookies_round_trip_and_decode_typed() {
    let server = TestServer::start(app("s3cret")).await;
    let res = server.get("/login").await;
    assert_eq!(res.status, 302);
    let cookie: Vec<&str> = res
        .header_all("set-cookie")
        .iter()
        .map(|l| l.split(';').next().unwrap_or(""))
        .collect();
    let res = server
        .get_with("/typed", &[("Cookie", &cookie.join("; "))])
        .await;
    assert_eq!(res.json(), json!({ "user": "tobi", "items": [1, 2] }));
}

#[tokio::test]
async fn an_invalid_cookie_is_a_500() {
    let server = TestServer::start(app("s3cret")).await;
    let res = server.get("/bad").await;
    assert_eq!(res.status, 500);
    assert!(!res.has_header("set-cookie"));
}

#[tokio::test]
async fn max_age_sets_max_age_and_expires() {
    let server = TestServer::start(app("s3cret")).await;
    let res = server.get("/max-age").await;
    let line = res.header("set-cookie").unwrap_or_default().to_owned();
    assert!(
        line.starts_with("m=1; Max-Age=1; Path=/; Expires="),
        "{line}"
    );
    assert!(line.ends_with(" GMT"), "{line}");
}

#[tokio::test]
async fn clear_cookie_expires_at_the_epoch_with_the_options() {
    let server = TestServer::start(app("s3cret")).await;
    let res = server.get("/clear").await;
    assert_eq!(
        res.header("set-cookie"),
        Some("p=; Path=/admin; Expires=Thu, 01 Jan 1970 00:00:00 GMT")
    );
}

#[tokio::test]
async fn cookie_lines_follow_appended_ones() {
    let server = TestServer::start(app("s3cret")).await;
    let res = server.get("/append").await;
    assert_eq!(
        res.header_all("set-cookie"),
        ["raw=1; Path=/", "made=yes; Path=/"]
    );
}

#[tokio::test]
async fn signed_without_a_secret_is_an_error() {
    let server = TestServer::start(app(CookieSecrets::none())).await;
    let res = server.get("/login").await;
    assert_eq!(res.status, 500);
    let res = server.get_with("/echo", &[("Cookie", "k=s:v.sig")]).await;
    assert_eq!(
        res.json(),
        json!({ "cookies": { "k": "s:v.sig" }, "signed": {} })
    );
}
