//! Request properties without proxies: method, URLs, query parsing, header
//! lookup, hostname, ip, protocol, subdomains, xhr, fresh and stale.

use crate::common;

use common::TestServer;
use serde_json::{Value, json};
use webfw::Setting;
use webfw::prelude::*;

fn echo(req: &mut Request, res: &mut Response) -> Result {
    let v = json!({
        "method": req.method().as_str(),
        "url": req.url(),
        "originalUrl": req.original_url(),
        "baseUrl": req.base_url(),
        "path": req.path(),
        "params": req.params(),
        "hostname": req.hostname(),
        "ip": req.ip(),
        "ips": req.ips(),
        "protocol": req.protocol(),
        "secure": req.secure(),
        "subdomains": req.subdomains(),
        "xhr": req.xhr(),
        "httpVersion": req.http_version(),
    });
    res.json(&v)
}

fn echo_app() -> App {
    let mut app = webfw::app();
    app.all("*", echo);
    app
}

/// A raw request with exactly these header lines.
fn raw_with(target: &str, header_lines: &str) -> String {
    format!("GET {target} HTTP/1.1\r\n{header_lines}Connection: close\r\n\r\n")
}

#[tokio::test]
async fn method_is_reported_in_upper_case_as_sent() {
    let srv = TestServer::start(echo_app()).await;
    for m in ["GET", "POST", "PATCH", "PURGE", "M-SEARCH"] {
        let res = srv.call(m, "/", &[("Content-Length", "0")]).await;
        assert_eq!(res.json()["method"], m);
    }
}

#[tokio::test]
async fn url_properties_of_a_top_level_request() {
    let srv = TestServer::start(echo_app()).await;
    let v = srv.get("/a/b?c=1&d").await.json();
    assert_eq!(v["url"], "/a/b?c=1&d");
    assert_eq!(v["originalUrl"], "/a/b?c=1&d");
    assert_eq!(v["baseUrl"], "");
    assert_eq!(v["path"], "/a/b");
    assert_eq!(v["params"], json!({"0": "/a/b"}));
    assert_eq!(v["httpVersion"], "1.1");
}

#[tokio::test]
async fn params_are_empty_for_a_route_without_parameters() {
    let mut app = webfw::app();
    app.get("/plain", echo);
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/plain").await.json()["params"], json!({}));
}

// ---- query ----

fn query_app(parser: Option<Setting>) -> App {
    let mut app = webfw::app();
    if let Some(p) = parser {
        app.set("query parser", p);
    }
    app.get("/", |req: &mut Request, res: &mut Response| {
        let q = req.query().clone();
        res.json(&q)
    });
    app
}

async fn check_queries(srv: &TestServer, cases: &[(&str, Value)]) {
    let mut failures = Vec::new();
    for (qs, want) in cases {
        let got = srv.get(&format!("/?{qs}")).await.json();
        if &got != want {
            failures.push(format!("?{qs}: expected {want}, got {got}"));
        }
    }
    assert!(
        failures.is_empty(),
        "query mismatches:\n{}",
        failures.join("\n")
    );
}

#[tokio::test]
async fn extended_query_parser_is_the_default_and_parses_brackets() {
    let srv = TestServer::start(query_app(None)).await;
    check_queries(
        &srv,
        &[
            ("a=1&a=2", json!({"a": ["1", "2"]})),
            ("a[]=1&a[]=2", json!({"a": ["1", "2"]})),
            ("a[1]=x&a[0]=y", json!({"a": ["y", "x"]})),
            ("a[25]=x", json!({"a": ["x"]})),
            ("a[1000]=x", json!({"a": {"1000": "x"}})),
            ("a[b][c]=d", json!({"a": {"b": {"c": "d"}}})),
            (
                "a[b][c][d][e][f][g][h]=i",
                json!({"a": {"b": {"c": {"d": {"e": {"f": {"[g][h]": "i"}}}}}}}),
            ),
            ("a.b=c", json!({"a.b": "c"})),
            ("a[b]=1&a=2", json!({"a": [{"b": "1"}, "2"]})),
            ("a[0]=1&a[b]=2", json!({"a": {"0": "1", "b": "2"}})),
            ("a[][b]=1&a[][b]=2", json!({"a": [{"b": ["1", "2"]}]})),
            ("a+b=c+d%20e", json!({"a b": "c d e"})),
            ("a", json!({"a": ""})),
            ("a=", json!({"a": ""})),
            ("=b", json!({})),
            ("&&a=1", json!({"a": "1"})),
            ("a=%E0%A4%A", json!({"a": "%E0%A4%A"})),
            ("a%5Bb%5D=c", json!({"a": {"b": "c"}})),
            ("__proto__[x]=1", json!({})),
            ("foo=bar;baz=1", json!({"foo": "bar;baz=1"})),
        ],
    )
    .await;
    assert_eq!(srv.get("/").await.json(), json!({}));
}

#[tokio::test]
async fn simple_query_parser_has_no_bracket_semantics() {
    let srv = TestServer::start(query_app(Some("simple".into()))).await;
    check_queries(
        &srv,
        &[
            ("a[]=1&a[]=2", json!({"a[]": ["1", "2"]})),
            ("a[b]=c", json!({"a[b]": "c"})),
            ("a=1&a=2", json!({"a": ["1", "2"]})),
            ("=b", json!({"": "b"})),
            ("a+b=c+d", json!({"a b": "c d"})),
            ("a=%E0%A4%A", json!({"a": "\u{FFFD}%A"})),
        ],
    )
    .await;
}

#[tokio::test]
async fn query_parser_true_means_simple() {
    let srv = TestServer::start(query_app(Some(true.into()))).await;
    assert_eq!(srv.get("/?a[b]=c").await.json(), json!({"a[b]": "c"}));
}

#[tokio::test]
async fn query_parser_false_always_gives_an_empty_object() {
    let srv = TestServer::start(query_app(Some(false.into()))).await;
    assert_eq!(srv.get("/?a=1&b[c]=2").await.json(), json!({}));
}

#[tokio::test]
async fn custom_query_parser_gets_the_raw_query_string() {
    let srv = TestServer::start(query_app(Some(Setting::query_fn(
        |raw| json!({ "raw": raw }),
    ))))
    .await;
    assert_eq!(srv.get("/?a=1&b").await.json(), json!({"raw": "a=1&b"}));
    assert_eq!(srv.get("/?").await.json(), json!({"raw": ""}));
    assert_eq!(srv.get("/").await.json(), json!({"raw": null}));
}

// ---- headers ----

#[tokio::test]
async fn get_and_header_are_case_insensitive() {
    let mut app = webfw::app();
    app.get("/", |req: &mut Request, res: &mut Response| {
        let v = json!({
            "ct": req.get("content-TYPE"),
            "custom": req.header("X-Custom"),
            "missing": req.get("X-Missing"),
        });
        res.json(&v)
    });
    let srv = TestServer::start(app).await;
    let v = srv
        .get_with("/", &[("Content-Type", "text/plain"), ("x-custom", "v")])
        .await
        .json();
    assert_eq!(
        v,
        json!({"ct": "text/plain", "custom": "v", "missing": null})
    );
}

fn referrer_app() -> App {
    let mut app = webfw::app();
    app.get("/", |req: &mut Request, res: &mut Response| {
        let v = json!({
            "Referer": req.get("Referer"),
            "Referrer": req.get("Referrer"),
            "referer": req.header("referer"),
        });
        res.json(&v)
    });
    app
}

#[tokio::test]
async fn referer_and_referrer_are_interchangeable() {
    let srv = TestServer::start(referrer_app()).await;
    let v = srv.get_with("/", &[("Referer", "http://a/")]).await.json();
    assert_eq!(
        v,
        json!({"Referer": "http://a/", "Referrer": "http://a/", "referer": "http://a/"})
    );
    let v = srv.get_with("/", &[("Referrer", "http://b/")]).await.json();
    assert_eq!(
        v,
        json!({"Referer": "http://b/", "Referrer": "http://b/", "referer": "http://b/"})
    );
}

#[tokio::test]
async fn referrer_header_wins_when_both_are_sent() {
    let srv = TestServer::start(referrer_app()).await;
    let v = srv
        .get_with("/", &[("Referer", "http://a/"), ("Referrer", "http://b/")])
        .await
        .json();
    assert_eq!(v["Referer"], "http://b/");
    assert_eq!(v["Referrer"], "http://b/");
}

// ---- hostname ----

async fn hostname_for(srv: &TestServer, host_lines: &str) -> Value {
    srv.raw(raw_with("/", host_lines)).await.json()["hostname"].clone()
}

#[tokio::test]
async fn hostname_strips_the_port() {
    let srv = TestServer::start(echo_app()).await;
    assert_eq!(
        hostname_for(&srv, "Host: example.com:3000\r\n").await,
        "example.com"
    );
    assert_eq!(
        hostname_for(&srv, "Host: example.com\r\n").await,
        "example.com"
    );
    assert_eq!(
        hostname_for(&srv, "Host: EXAMPLE.com\r\n").await,
        "EXAMPLE.com"
    );
}

#[tokio::test]
async fn hostname_keeps_bracketed_ipv6_literals() {
    let srv = TestServer::start(echo_app()).await;
    assert_eq!(hostname_for(&srv, "Host: [::1]:3000\r\n").await, "[::1]");
    assert_eq!(hostname_for(&srv, "Host: [::1]\r\n").await, "[::1]");
}

#[tokio::test]
async fn hostname_is_undefined_without_a_host_header() {
    let srv = TestServer::start(echo_app()).await;
    let raw = "GET / HTTP/1.0\r\n\r\n";
    let v = srv.raw(raw).await.json();
    assert_eq!(v["hostname"], Value::Null);
    assert_eq!(v["subdomains"], json!([]));
}

#[tokio::test]
async fn http11_request_without_host_is_rejected_with_400() {
    let srv = TestServer::start(echo_app()).await;
    let res = srv.raw("GET / HTTP/1.1\r\nConnection: close\r\n\r\n").await;
    assert_eq!(res.status, 400);
}

// ---- ip / protocol without proxies ----

#[tokio::test]
async fn ip_is_the_peer_address_and_ips_empty_by_default() {
    let srv = TestServer::start(echo_app()).await;
    let v = srv
        .get_with(
            "/",
            &[
                ("X-Forwarded-For", "1.1.1.1"),
                ("X-Forwarded-Proto", "https"),
            ],
        )
        .await
        .json();
    assert_eq!(v["ip"], "127.0.0.1");
    assert_eq!(v["ips"], json!([]));
    assert_eq!(v["protocol"], "http");
    assert_eq!(v["secure"], false);
}

// ---- subdomains ----

async fn subdomains(offset: Option<i32>, host: &str) -> Value {
    let mut app = echo_app();
    if let Some(o) = offset {
        app.set("subdomain offset", o);
    }
    let srv = TestServer::start(app).await;
    srv.raw(raw_with("/", &format!("Host: {host}\r\n")))
        .await
        .json()["subdomains"]
        .clone()
}

#[tokio::test]
async fn subdomains_drop_the_offset_labels_and_reverse() {
    assert_eq!(
        subdomains(None, "tobi.ferrets.example.com").await,
        json!(["ferrets", "tobi"])
    );
    assert_eq!(
        subdomains(None, "a.b.example.co.uk").await,
        json!(["example", "b", "a"])
    );
    assert_eq!(subdomains(None, "example.com").await, json!([]));
    assert_eq!(subdomains(None, "localhost:3000").await, json!([]));
    assert_eq!(
        subdomains(Some(3), "tobi.ferrets.example.com").await,
        json!(["tobi"])
    );
    assert_eq!(
        subdomains(Some(0), "example.com:80").await,
        json!(["com", "example"])
    );
}

#[tokio::test]
async fn subdomains_of_an_ip_host_are_the_ip_itself_when_not_offset() {
    assert_eq!(subdomains(None, "127.0.0.1").await, json!([]));
    assert_eq!(subdomains(Some(0), "127.0.0.1").await, json!(["127.0.0.1"]));
    assert_eq!(subdomains(None, "[::1]").await, json!([]));
    assert_eq!(subdomains(Some(0), "[::1]:80").await, json!(["[::1]"]));
}

// ---- xhr ----

#[tokio::test]
async fn xhr_checks_x_requested_with_case_insensitively() {
    let srv = TestServer::start(echo_app()).await;
    for (value, want) in [
        (Some("XMLHttpRequest"), true),
        (Some("xmlhttprequest"), true),
        (Some("XMLHTTPREQUEST"), true),
        (Some("fetch"), false),
        (None, false),
    ] {
        let headers: Vec<(&str, &str)> =
            value.map(|v| ("X-Requested-With", v)).into_iter().collect();
        let v = srv.get_with("/", &headers).await.json();
        assert_eq!(v["xhr"], want, "{value:?}");
    }
}

// ---- fresh / stale ----

/// Extra request headers.
type Headers = &'static [(&'static str, &'static str)];

fn fresh_app() -> App {
    fn report(req: &mut Request, res: &mut Response) -> Result {
        let body = format!("{} {}", req.fresh(res), req.stale(res));
        res.end_with(body)
    }
    let mut app = webfw::app();
    app.all("/etag", |req: &mut Request, res: &mut Response| {
        res.set("ETag", "\"abc\"");
        report(req, res)
    });
    app.get("/etag500", |req: &mut Request, res: &mut Response| {
        res.status(500).set("ETag", "\"abc\"");
        report(req, res)
    });
    app.get("/modified", |req: &mut Request, res: &mut Response| {
        res.set("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT");
        report(req, res)
    });
    app.get("/nothing", report);
    app
}

#[tokio::test]
async fn fresh_compares_if_none_match_with_the_response_etag() {
    let srv = TestServer::start(fresh_app()).await;
    let cases: &[(&str, Headers, &str)] = &[
        ("/etag", &[], "false true"),
        ("/etag", &[("If-None-Match", "\"abc\"")], "true false"),
        ("/etag", &[("If-None-Match", "W/\"abc\"")], "true false"),
        (
            "/etag",
            &[("If-None-Match", "\"x\", \"abc\"")],
            "true false",
        ),
        ("/etag", &[("If-None-Match", "*")], "true false"),
        ("/etag", &[("If-None-Match", "\"xyz\"")], "false true"),
        (
            "/etag",
            &[("If-None-Match", "\"abc\""), ("Cache-Control", "no-cache")],
            "false true",
        ),
        ("/etag500", &[("If-None-Match", "\"abc\"")], "false true"),
        ("/nothing", &[("If-None-Match", "\"abc\"")], "false true"),
    ];
    for (path, headers, want) in cases {
        assert_eq!(
            srv.get_with(path, headers).await.text(),
            *want,
            "{path} {headers:?}"
        );
    }
}

#[tokio::test]
async fn fresh_is_false_for_methods_other_than_get_and_head() {
    let srv = TestServer::start(fresh_app()).await;
    let res = srv
        .call(
            "POST",
            "/etag",
            &[("If-None-Match", "\"abc\""), ("Content-Length", "0")],
        )
        .await;
    assert_eq!(res.text(), "false true");
    let res = srv
        .call("HEAD", "/etag", &[("If-None-Match", "\"abc\"")])
        .await;
    assert_eq!(res.status, 200);
}

#[tokio::test]
async fn fresh_compares_if_modified_since_with_last_modified() {
    let srv = TestServer::start(fresh_app()).await;
    let cases: &[(Headers, &str)] = &[
        (
            &[("If-Modified-Since", "Wed, 21 Oct 2015 07:28:00 GMT")],
            "true false",
        ),
        (
            &[("If-Modified-Since", "Thu, 22 Oct 2015 07:28:00 GMT")],
            "true false",
        ),
        (
            &[("If-Modified-Since", "Tue, 20 Oct 2015 07:28:00 GMT")],
            "false true",
        ),
        (&[("If-Modified-Since", "not a date")], "false true"),
    ];
    for (headers, want) in cases {
        assert_eq!(
            srv.get_with("/modified", headers).await.text(),
            *want,
            "{headers:?}"
        );
    }
    let res = srv
        .get_with(
            "/nothing",
            &[("If-Modified-Since", "Wed, 21 Oct 2015 07:28:00 GMT")],
        )
        .await;
    assert_eq!(res.text(), "false true");
}

/// The server's per-request values reach `req.extensions()`: an upgrade
/// request carries the handle `res.upgrade` takes, an ordinary one does not.
#[tokio::test]
async fn extensions_start_with_what_the_server_attached() {
    let mut app = webfw::app();
    app.get("/ext", |req: &mut Request, res: &mut Response| {
        let upgrade = req.wants_upgrade("websocket");
        res.send(format!("upgrade={upgrade}"))
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/ext").await.text(), "upgrade=false");
    let res = srv
        .get_with(
            "/ext",
            &[("Connection", "Upgrade"), ("Upgrade", "websocket")],
        )
        .await;
    assert_eq!(res.text(), "upgrade=true");
}
