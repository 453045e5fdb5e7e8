//! `res.send` (strings, bytes, JSON values, null, nothing; Content-Type,
//! Content-Length, ETag, HEAD, 204/205/304), `res.json` with the `json *`
//! settings, `res.send_status`, `res.end`, the `etag` setting and 304
//! answers to fresh requests.

use crate::common;

use common::{TestServer, error_page};
use serde_json::json;
use webfw::prelude::*;
use webfw::{SendBody, Setting};

const HELLO_ETAG: &str = "W/\"5-qvTGHdzF6KLavt4PO0gs2a6pQ00\"";

async fn get(f: fn(&mut Request, &mut Response) -> Result) -> common::HttpResponse {
    let mut app = webfw::app();
    app.get("/", f);
    TestServer::start(app).await.get("/").await
}

// ---- strings ----

#[tokio::test]
async fn send_string_sets_html_content_type_length_and_weak_etag() {
    let res = get(|_, res| res.send("hello")).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(res.header("content-length"), Some("5"));
    assert_eq!(res.header("etag"), Some(HELLO_ETAG));
    assert!(!res.chunked);
    assert_eq!(res.body, b"hello");
}

#[tokio::test]
#[ignore = "bug: res.send inserts ETag before Content-Length; Express sends Content-Length first"]
async fn send_string_header_order_matches_express() {
    let res = get(|_, res| res.send("hello")).await;
    assert_eq!(
        res.header_names(),
        ["x-powered-by", "content-type", "content-length", "etag"]
    );
}

#[tokio::test]
async fn send_string_counts_content_length_in_bytes() {
    let res = get(|_, res| res.send("café")).await;
    assert_eq!(res.header("content-length"), Some("5"));
    assert_eq!(
        res.header("etag"),
        Some("W/\"5-9CRFKpZzkYxvCbDN01sgvo5q59c\"")
    );
    assert_eq!(res.text(), "café");
}

#[tokio::test]
async fn send_string_keeps_an_existing_type_and_forces_utf8() {
    let res = get(|_, res| res.type_("txt").send("x")).await;
    assert_eq!(
        res.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
    let res = get(|_, res| {
        res.set("Content-Type", "text/plain; charset=iso-8859-1")
            .send("x")
    })
    .await;
    assert_eq!(
        res.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
}

#[tokio::test]
async fn send_string_reserializes_content_type_with_sorted_parameters() {
    let res = get(|_, res| {
        res.headers_mut().insert(
            "content-type",
            http::HeaderValue::from_static("text/html; zed=1; Alpha=\"x y\""),
        );
        res.send("x")
    })
    .await;
    assert_eq!(
        res.header("content-type"),
        Some("text/html; alpha=\"x y\"; charset=utf-8; zed=1")
    );
    let res = get(|_, res| {
        res.headers_mut()
            .insert("content-type", http::HeaderValue::from_static("TEXT/HTML"));
        res.send("x")
    })
    .await;
    assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
}

#[tokio::test]
async fn send_string_with_an_invalid_content_type_is_a_type_error() {
    let mut app = webfw::app();
    app.set("env", "development");
    app.get("/", |_: &mut Request, res: &mut Response| {
        res.headers_mut()
            .insert("content-type", http::HeaderValue::from_static("not a type"));
        res.send("x")
    });
    let res = TestServer::start(app).await.get("/").await;
    assert_eq!(res.status, 500);
    assert_eq!(res.text(), error_page("TypeError: invalid media type"));
}

// ---- bytes ----

#[tokio::test]
async fn send_bytes_defaults_to_octet_stream() {
    let res = get(|_, res| res.send(vec![0u8, 1, 2])).await;
    assert_eq!(res.header("content-type"), Some("application/octet-stream"));
    assert_eq!(res.header("content-length"), Some("3"));
    assert_eq!(
        res.header("etag"),
        Some("W/\"3-DHpiP9K7wFsGQjvjWeQCHTbnIa0\"")
    );
    assert_eq!(res.body, [0u8, 1, 2]);
}

#[tokio::test]
async fn send_bytes_keeps_an_existing_content_type_untouched() {
    let res = get(|_, res| {
        res.headers_mut().insert(
            "content-type",
            http::HeaderValue::from_static("text/plain; charset=iso-8859-1"),
        );
        res.send(&b"x"[..])
    })
    .await;
    assert_eq!(
        res.header("content-type"),
        Some("text/plain; charset=iso-8859-1")
    );
    let res = get(|_, res| res.type_("png").send(bytes::Bytes::from_static(b"\x89PNG"))).await;
    assert_eq!(res.header("content-type"), Some("image/png"));
    assert_eq!(res.body, b"\x89PNG");
}

// ---- JSON values, null, nothing ----

#[tokio::test]
async fn send_json_value_is_sent_as_json() {
    let res = get(|_, res| res.send(json!({"a": 1}))).await;
    assert_eq!(
        res.header("content-type"),
        Some("application/json; charset=utf-8")
    );
    assert_eq!(res.header("content-length"), Some("7"));
    assert_eq!(
        res.header("etag"),
        Some("W/\"7-n4nHQM60bXQYySSnisV5QdXpZSA\"")
    );
    assert_eq!(res.text(), r#"{"a":1}"#);
    let res = get(|_, res| res.send(json!([1, 2]))).await;
    assert_eq!(res.text(), "[1,2]");
    let res = get(|_, res| res.send(json!(true))).await;
    assert_eq!(
        res.header("content-type"),
        Some("application/json; charset=utf-8")
    );
    assert_eq!(res.text(), "true");
}

#[tokio::test]
async fn send_null_is_an_empty_body_without_content_type() {
    let res = get(|_, res| res.send(SendBody::Null)).await;
    assert!(!res.has_header("content-type"));
    assert_eq!(res.header("content-length"), Some("0"));
    assert_eq!(
        res.header("etag"),
        Some("W/\"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk\"")
    );
    assert!(res.body.is_empty());
}

#[tokio::test]
async fn send_nothing_has_no_type_no_etag_and_length_zero() {
    let res = get(|_, res| res.send(())).await;
    assert_eq!(res.status, 200);
    assert!(!res.has_header("content-type"));
    assert!(!res.has_header("etag"));
    assert_eq!(res.header("content-length"), Some("0"));
    assert!(res.body.is_empty());
}

// ---- HEAD, 204, 205, 304 ----

#[tokio::test]
async fn send_to_head_keeps_get_headers_and_drops_the_body() {
    let mut app = webfw::app();
    app.get("/", |_: &mut Request, res: &mut Response| res.send("hello"));
    let srv = TestServer::start(app).await;
    let res = srv.call("HEAD", "/", &[]).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(res.header("content-length"), Some("5"));
    assert_eq!(res.header("etag"), Some(HELLO_ETAG));
    assert!(res.body.is_empty());
}

#[tokio::test]
async fn send_with_204_strips_body_and_content_headers() {
    let res = get(|_, res| res.status(204).send("hello")).await;
    assert_eq!(res.status, 204);
    assert!(!res.has_header("content-type"));
    assert!(!res.has_header("content-length"));
    assert!(!res.has_header("transfer-encoding"));
    assert_eq!(res.header("etag"), Some(HELLO_ETAG));
}

#[tokio::test]
async fn send_with_304_strips_body_and_content_headers() {
    let res = get(|_, res| res.status(304).send("hello")).await;
    assert_eq!(res.status, 304);
    assert!(!res.has_header("content-type"));
    assert!(!res.has_header("content-length"));
    assert_eq!(res.header("etag"), Some(HELLO_ETAG));
}

#[tokio::test]
async fn send_with_205_sends_length_zero_and_keeps_the_type() {
    let res = get(|_, res| res.status(205).send("hello")).await;
    assert_eq!(res.status, 205);
    assert_eq!(res.header("content-length"), Some("0"));
    assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
    assert!(res.body.is_empty());
}

// ---- json ----

#[tokio::test]
async fn json_sends_application_json() {
    let res = get(|_, res| res.json(&json!({"a": 1, "b": [1, 2]}))).await;
    assert_eq!(
        res.header("content-type"),
        Some("application/json; charset=utf-8")
    );
    assert_eq!(
        res.header("etag"),
        Some("W/\"11-vPIhv63UFV/uofmT9zx2ErNdztI\"")
    );
    assert_eq!(res.text(), r#"{"a":1,"b":[1,2]}"#);
}

/// `res.json` takes its value owned or borrowed, and `res.send` a borrowed
/// JSON value; all send the same bytes. (Written as users write them: the
/// borrowed forms must not trip clippy's `needless_borrows_for_generic_args`,
/// which this crate's clippy run denies.)
#[tokio::test]
async fn json_takes_values_owned_or_borrowed() {
    #[derive(serde::Serialize)]
    struct Todo {
        id: u32,
    }
    let expected = r#"[1,{"id":2}]"#;
    let owned = get(|_, res| res.json(vec![json!(1), json!({"id": 2})])).await;
    let borrowed = get(|_, res| res.json(&vec![json!(1), json!({"id": 2})])).await;
    let value = get(|_, res| {
        let v = json!([1, {"id": 2}]);
        res.json(&v)
    })
    .await;
    let sent = get(|_, res| {
        let v = json!([1, {"id": 2}]);
        res.send(&v)
    })
    .await;
    let typed = get(|_, res| res.json((1, Todo { id: 2 }))).await;
    let typed_ref = get(|_, res| {
        let todo = Todo { id: 2 };
        res.json(&(1, &todo))
    })
    .await;
    for res in [owned, borrowed, value, sent, typed, typed_ref] {
        assert_eq!(
            res.header("content-type"),
            Some("application/json; charset=utf-8")
        );
        assert_eq!(res.text(), expected);
    }
}

#[tokio::test]
async fn json_of_scalars() {
    let res = get(|_, res| res.json(&"x")).await;
    assert_eq!(
        res.header("content-type"),
        Some("application/json; charset=utf-8")
    );
    assert_eq!(res.text(), "\"x\"");
    let res = get(|_, res| res.json(&serde_json::Value::Null)).await;
    assert_eq!(res.text(), "null");
    assert_eq!(
        res.header("etag"),
        Some("W/\"4-K+iMpCQsduglOsYkdIUQZQMtaDM\"")
    );
}

#[tokio::test]
async fn json_keeps_an_existing_content_type() {
    let res = get(|_, res| res.type_("text/x-json").json(&json!({"a": 1}))).await;
    assert_eq!(
        res.header("content-type"),
        Some("text/x-json; charset=utf-8")
    );
    assert_eq!(res.text(), r#"{"a":1}"#);
}

#[tokio::test]
async fn json_escapes_strings_like_json_stringify() {
    let res = get(|_, res| res.json(&json!({"c": "\u{1}\u{1f}\t\n\"\\/é\u{2028}"}))).await;
    assert_eq!(
        res.text(),
        "{\"c\":\"\\u0001\\u001f\\t\\n\\\"\\\\/é\u{2028}\"}"
    );
}

#[tokio::test]
async fn json_formats_numbers_like_javascript() {
    let res =
        get(|_, res| res.json(&json!({"a": 10, "b": 1.5, "c": 1e21, "e": 0.1, "f": -3}))).await;
    assert_eq!(res.text(), r#"{"a":10,"b":1.5,"c":1e+21,"e":0.1,"f":-3}"#);
}

#[tokio::test]
async fn json_formats_integral_floats_and_negative_zero_like_javascript() {
    let res = get(|_, res| res.json(&json!({"a": 10.0, "d": -0.0}))).await;
    assert_eq!(res.text(), r#"{"a":10,"d":0}"#);
}

async fn json_with(setting: &'static str, value: Setting, body: serde_json::Value) -> String {
    let mut app = webfw::app();
    app.set(setting, value);
    app.get("/", move |_: &mut Request, res: &mut Response| {
        res.json(&body)
    });
    TestServer::start(app).await.get("/").await.text()
}

#[tokio::test]
async fn json_spaces_indents_like_json_stringify() {
    let body = json!({"a": [1, 2], "b": {}, "c": [], "d": {"e": null}});
    assert_eq!(
        json_with("json spaces", 2.into(), body.clone()).await,
        "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {},\n  \"c\": [],\n  \"d\": {\n    \"e\": null\n  }\n}"
    );
    assert_eq!(
        json_with("json spaces", "\t".into(), json!({"a": 1})).await,
        "{\n\t\"a\": 1\n}"
    );
    assert_eq!(
        json_with("json spaces", 0.into(), json!({"a": 1})).await,
        r#"{"a":1}"#
    );
}

#[tokio::test]
async fn json_replacer_filters_properties() {
    let replacer = Setting::replacer(|key, v| (!key.starts_with('_')).then(|| v.clone()));
    assert_eq!(
        json_with(
            "json replacer",
            replacer,
            json!({"a": 1, "_secret": "x", "b": {"_c": 2, "d": 3}})
        )
        .await,
        r#"{"a":1,"b":{"d":3}}"#
    );
}

#[tokio::test]
async fn json_escape_escapes_html_characters() {
    assert_eq!(
        json_with("json escape", true.into(), json!({"html": "<b>&</b>"})).await,
        r#"{"html":"\u003cb\u003e\u0026\u003c/b\u003e"}"#
    );
    assert_eq!(
        json_with("json escape", false.into(), json!({"html": "<b>"})).await,
        r#"{"html":"<b>"}"#
    );
}

// ---- send_status / end ----

#[tokio::test]
async fn send_status_sends_the_status_text_as_plain_text() {
    let res = get(|_, res| res.send_status(404)).await;
    assert_eq!(res.status, 404);
    assert_eq!(
        res.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
    assert_eq!(res.header("content-length"), Some("9"));
    assert_eq!(
        res.header("etag"),
        Some("W/\"9-0gXL1ngzMqISxa6S1zx3F4wtLyg\"")
    );
    assert_eq!(res.text(), "Not Found");
}

#[tokio::test]
async fn send_status_of_an_unknown_code_sends_the_number() {
    let res = get(|_, res| res.send_status(299)).await;
    assert_eq!(res.status, 299);
    assert_eq!(res.reason, "unknown");
    assert_eq!(
        res.header("etag"),
        Some("W/\"3-Sy45KBbZO647VioSALDHo/P9dtQ\"")
    );
    assert_eq!(res.text(), "299");
}

#[tokio::test]
async fn send_status_204_strips_the_body() {
    let res = get(|_, res| res.send_status(204)).await;
    assert_eq!(res.status, 204);
    assert!(!res.has_header("content-type"));
    assert!(!res.has_header("content-length"));
    assert!(res.has_header("etag"));
}

#[tokio::test]
async fn end_sends_an_empty_body_with_length_zero() {
    let res = get(|_, res| res.end()).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("content-length"), Some("0"));
    assert!(!res.has_header("content-type"));
    assert!(!res.has_header("etag"));
    assert!(res.body.is_empty());
}

#[tokio::test]
async fn end_with_data_adds_no_type_and_no_etag() {
    let res = get(|_, res| res.end_with("raw")).await;
    assert_eq!(res.header("content-length"), Some("3"));
    assert!(!res.has_header("content-type"));
    assert!(!res.has_header("etag"));
    assert_eq!(res.text(), "raw");
}

// ---- the etag setting ----

async fn etag_with(value: Option<Setting>) -> Option<String> {
    let mut app = webfw::app();
    if let Some(v) = value {
        app.set("etag", v);
    }
    app.get("/", |_: &mut Request, res: &mut Response| res.send("hello"));
    let res = TestServer::start(app).await.get("/").await;
    res.header("etag").map(str::to_owned)
}

#[tokio::test]
async fn etag_setting_values() {
    assert_eq!(etag_with(None).await.as_deref(), Some(HELLO_ETAG));
    assert_eq!(
        etag_with(Some(true.into())).await.as_deref(),
        Some(HELLO_ETAG)
    );
    assert_eq!(
        etag_with(Some("weak".into())).await.as_deref(),
        Some(HELLO_ETAG)
    );
    assert_eq!(
        etag_with(Some("strong".into())).await.as_deref(),
        Some("\"5-qvTGHdzF6KLavt4PO0gs2a6pQ00\"")
    );
    assert_eq!(etag_with(Some(false.into())).await, None);
    assert_eq!(
        etag_with(Some(Setting::etag_fn(|b| Some(format!(
            "\"len-{}\"",
            b.len()
        )))))
        .await
        .as_deref(),
        Some("\"len-5\"")
    );
    assert_eq!(etag_with(Some(Setting::etag_fn(|_| None))).await, None);
}

#[tokio::test]
async fn etag_set_by_the_handler_is_kept() {
    let res = get(|_, res| res.set("ETag", "\"mine\"").send("hello")).await;
    assert_eq!(res.header_all("etag"), ["\"mine\""]);
}

#[tokio::test]
async fn etag_is_generated_for_every_status_and_method() {
    let mut app = webfw::app();
    app.post("/", |_: &mut Request, res: &mut Response| {
        res.status(404).send("hello")
    });
    let res = TestServer::start(app)
        .await
        .call("POST", "/", &[("Content-Length", "0")])
        .await;
    assert_eq!(res.status, 404);
    assert_eq!(res.header("etag"), Some(HELLO_ETAG));
}

/// Borrowed bodies are shared from a per-thread memo of recent bodies: more
/// distinct bodies than it holds, some differing in one byte, sent in turn
/// and again, each keep their own bytes and tag.
#[tokio::test]
async fn repeated_borrowed_bodies_keep_their_own_bytes_and_etags() {
    const BODIES: [&str; 12] = [
        "hello",
        "hellp",
        "jello",
        "a",
        "bb",
        "ccc",
        "dddd",
        "eeeee",
        "ffffff",
        "ggggggg",
        "hhhhhhhh",
        "iiiiiiiii",
    ];
    let mut app = webfw::app();
    app.get("/:n", |req: &mut Request, res: &mut Response| {
        let n: usize = req.param("n").unwrap_or_default().parse().unwrap_or(0);
        res.send(BODIES[n])
    });
    let server = TestServer::start(app).await;
    let mut tags = std::collections::HashMap::new();
    for round in 0..3 {
        for n in (0..BODIES.len()).map(|i| (i * 5 + round) % BODIES.len()) {
            let res = server.get(&format!("/{n}")).await;
            assert_eq!(res.text(), BODIES[n]);
            let tag = res.header("etag").unwrap().to_owned();
            assert!(
                tag.starts_with(&format!("W/\"{:x}-", BODIES[n].len())),
                "{tag}"
            );
            assert_eq!(tags.entry(n).or_insert_with(|| tag.clone()), &tag, "{n}");
        }
    }
    assert_eq!(tags[&0], HELLO_ETAG);
    let distinct: std::collections::HashSet<_> = tags.values().collect();
    assert_eq!(distinct.len(), BODIES.len());
}

// ---- 304 when fresh ----

fn hello_app() -> App {
    let mut app = webfw::app();
    app.all("/", |_: &mut Request, res: &mut Response| res.send("hello"));
    app.get("/dated", |_: &mut Request, res: &mut Response| {
        res.set("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT")
            .send("hello")
    });
    app
}

#[tokio::test]
async fn fresh_request_gets_304_without_body() {
    let srv = TestServer::start(hello_app()).await;
    let res = srv.get_with("/", &[("If-None-Match", HELLO_ETAG)]).await;
    assert_eq!(res.status, 304);
    assert_eq!(res.reason, "Not Modified");
    assert_eq!(res.header("etag"), Some(HELLO_ETAG));
    assert!(!res.has_header("content-type"));
    assert!(!res.has_header("content-length"));
    assert!(res.body.is_empty());
}

#[tokio::test]
async fn fresh_check_uses_weak_comparison() {
    let srv = TestServer::start(hello_app()).await;
    let res = srv
        .get_with(
            "/",
            &[("If-None-Match", "\"5-qvTGHdzF6KLavt4PO0gs2a6pQ00\"")],
        )
        .await;
    assert_eq!(res.status, 304);
}

#[tokio::test]
async fn fresh_by_last_modified_gets_304() {
    let srv = TestServer::start(hello_app()).await;
    let res = srv
        .get_with(
            "/dated",
            &[("If-Modified-Since", "Wed, 21 Oct 2015 07:28:00 GMT")],
        )
        .await;
    assert_eq!(res.status, 304);
    let res = srv
        .get_with(
            "/dated",
            &[("If-Modified-Since", "Tue, 20 Oct 2015 07:28:00 GMT")],
        )
        .await;
    assert_eq!(res.status, 200);
}

#[tokio::test]
async fn stale_or_unsafe_requests_get_the_full_response() {
    let srv = TestServer::start(hello_app()).await;
    let res = srv.get_with("/", &[("If-None-Match", "\"other\"")]).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "hello");
    let res = srv
        .get_with(
            "/",
            &[("If-None-Match", HELLO_ETAG), ("Cache-Control", "no-cache")],
        )
        .await;
    assert_eq!(res.status, 200);
    // In either order.
    let res = srv
        .get_with(
            "/",
            &[("Cache-Control", "no-cache"), ("If-None-Match", HELLO_ETAG)],
        )
        .await;
    assert_eq!(res.status, 200);
    let res = srv
        .call(
            "POST",
            "/",
            &[("If-None-Match", HELLO_ETAG), ("Content-Length", "0")],
        )
        .await;
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "hello");
}

#[tokio::test]
async fn fresh_head_request_gets_304() {
    let srv = TestServer::start(hello_app()).await;
    let res = srv
        .call("HEAD", "/", &[("If-None-Match", HELLO_ETAG)])
        .await;
    assert_eq!(res.status, 304);
}
