//! Response status and headers: `status`, `set`/`header`/`set_many`/
//! `set_all` with the Content-Type charset rule, `get`, `append`,
//! `type`/`content_type`, `headers_sent`, `X-Powered-By`.

use crate::common;

use common::{TestServer, error_page};
use webfw::prelude::*;

fn one(f: fn(&mut Request, &mut Response) -> Result) -> App {
    let mut app = webfw::app();
    app.get("/", f);
    app
}

async fn get(f: fn(&mut Request, &mut Response) -> Result) -> common::HttpResponse {
    TestServer::start(one(f)).await.get("/").await
}

// ---- status ----

#[tokio::test]
async fn status_sets_the_status_line() {
    let res = get(|_, res| res.status(201).send("made")).await;
    assert_eq!(res.status, 201);
    assert_eq!(res.reason, "Created");
    assert_eq!(res.text(), "made");
}

#[tokio::test]
async fn status_without_a_known_text_has_reason_unknown() {
    let res = get(|_, res| res.status(299).end()).await;
    assert_eq!(res.status, 299);
    assert_eq!(res.reason, "unknown");
}

#[tokio::test]
async fn invalid_status_fails_when_sent_and_keeps_the_etag() {
    for code in [1000u16, 99] {
        let mut app = webfw::app();
        app.set("env", "production");
        app.get("/", move |_: &mut Request, res: &mut Response| {
            res.status(code).send("x")
        });
        let srv = TestServer::start(app).await;
        let res = srv.get("/").await;
        assert_eq!(res.status, 500, "status {code}");
        assert_eq!(res.text(), error_page("Internal Server Error"));
        assert_eq!(
            res.header("etag"),
            Some("W/\"1-EfatjsUqKYSrqv18O1FlA3hcIHI\"")
        );
    }
}

#[tokio::test]
async fn invalid_status_error_names_the_code_in_development() {
    let mut app = webfw::app();
    app.set("env", "development");
    app.get("/", |_: &mut Request, res: &mut Response| {
        res.status(1000).end()
    });
    let srv = TestServer::start(app).await;
    let res = srv.get("/").await;
    assert_eq!(res.status, 500);
    assert!(
        res.text().contains("Invalid status code: 1000"),
        "{}",
        res.text()
    );
}

// ---- set / header ----

#[tokio::test]
async fn set_and_header_set_response_headers() {
    let res = get(|_, res| {
        res.set("X-One", "1").header("X-Two", "2");
        res.send("x")
    })
    .await;
    assert_eq!(res.header("x-one"), Some("1"));
    assert_eq!(res.header("x-two"), Some("2"));
}

#[tokio::test]
async fn set_again_replaces_the_value_in_its_original_position() {
    let res = get(|_, res| {
        res.set("X-A", "1").set("X-B", "2").set("X-A", "3");
        res.end()
    })
    .await;
    assert_eq!(res.header_all("x-a"), ["3"]);
    let names = res.header_names();
    let a = names.iter().position(|n| *n == "x-a").unwrap();
    let b = names.iter().position(|n| *n == "x-b").unwrap();
    assert!(a < b, "{names:?}");
}

#[tokio::test]
async fn set_many_sets_every_field_with_the_charset_rule() {
    let res = get(|_, res| {
        res.set_many([
            ("X-One", "1"),
            ("Content-Type", "text/plain"),
            ("X-Two", "2"),
        ]);
        res.end()
    })
    .await;
    assert_eq!(res.header("x-one"), Some("1"));
    assert_eq!(res.header("x-two"), Some("2"));
    assert_eq!(
        res.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
}

#[tokio::test]
async fn set_all_sends_one_line_per_value_and_replaces_earlier_ones() {
    let res = get(|_, res| {
        res.set("X-Multi", "old");
        res.set_all("X-Multi", ["a", "b", "c"]);
        res.end()
    })
    .await;
    assert_eq!(res.header_all("x-multi"), ["a", "b", "c"]);
}

#[tokio::test]
async fn content_type_cannot_be_set_to_a_list() {
    let mut app = webfw::app();
    app.set("env", "development");
    app.get("/", |_: &mut Request, res: &mut Response| {
        res.set_all("Content-Type", ["text/plain", "text/html"]);
        res.send("x")
    });
    let srv = TestServer::start(app).await;
    let res = srv.get("/").await;
    assert_eq!(res.status, 500);
    assert_eq!(
        res.text(),
        error_page("TypeError: Content-Type cannot be set to an Array")
    );
}

#[tokio::test]
async fn content_type_charset_rule_of_set() {
    let cases = [
        ("text/plain", "text/plain; charset=utf-8"),
        ("text/html", "text/html; charset=utf-8"),
        ("application/json", "application/json; charset=utf-8"),
        (
            "application/javascript",
            "application/javascript; charset=utf-8",
        ),
        (
            "application/json-seq",
            "application/json-seq; charset=utf-8",
        ),
        ("application/vnd.foo", "application/vnd.foo"),
        ("image/png", "image/png"),
        (
            "text/html; charset=iso-8859-1",
            "text/html; charset=iso-8859-1",
        ),
        ("text/html;charset=utf-16", "text/html;charset=utf-16"),
        ("TEXT/PLAIN", "TEXT/PLAIN"),
        (
            "text/plain; Charset=x",
            "text/plain; Charset=x; charset=utf-8",
        ),
    ];
    let mut app = webfw::app();
    app.get("/:i", move |req: &mut Request, res: &mut Response| {
        let i: usize = req.param("i").unwrap().parse().unwrap();
        res.set("Content-Type", cases[i].0);
        res.end()
    });
    let srv = TestServer::start(app).await;
    for (i, (given, want)) in cases.iter().enumerate() {
        let res = srv.get(&format!("/{i}")).await;
        assert_eq!(res.header("content-type"), Some(*want), "set({given:?})");
    }
}

// ---- get ----

#[tokio::test]
async fn get_reads_back_a_header_case_insensitively() {
    let res = get(|_, res| {
        res.set("X-Thing", "v").set("Content-Type", "text/plain");
        let body = format!(
            "{:?} {:?} {:?}",
            res.get("x-thing"),
            res.get("X-THING"),
            res.get("content-type")
        );
        res.send(body)
    })
    .await;
    assert_eq!(
        res.text(),
        "Some(\"v\") Some(\"v\") Some(\"text/plain; charset=utf-8\")"
    );
}

#[tokio::test]
async fn get_of_an_unset_header_is_none() {
    let res = get(|_, res| {
        let body = format!("{:?}", res.get("x-none"));
        res.send(body)
    })
    .await;
    assert_eq!(res.text(), "None");
}

// ---- append ----

#[tokio::test]
async fn append_adds_lines_after_existing_ones() {
    let res = get(|_, res| {
        res.append("Link", "<http://localhost/>")
            .append("Link", "<http://localhost:80/>");
        res.set("X-Set", "a").append("X-Set", "b");
        res.append("Set-Cookie", "foo=bar")
            .append("Set-Cookie", "fizz=buzz");
        res.end()
    })
    .await;
    assert_eq!(
        res.header_all("link"),
        ["<http://localhost/>", "<http://localhost:80/>"]
    );
    assert_eq!(res.header_all("x-set"), ["a", "b"]);
    assert_eq!(res.header_all("set-cookie"), ["foo=bar", "fizz=buzz"]);
}

#[tokio::test]
async fn set_after_append_resets_the_value() {
    let res = get(|_, res| {
        res.append("X-A", "1").append("X-A", "2").set("X-A", "3");
        res.end()
    })
    .await;
    assert_eq!(res.header_all("x-a"), ["3"]);
}

#[tokio::test]
async fn append_of_a_new_content_type_goes_through_the_charset_rule() {
    let res = get(|_, res| {
        res.append("Content-Type", "text/plain");
        res.end()
    })
    .await;
    assert_eq!(
        res.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
}

// ---- type ----

#[tokio::test]
async fn type_maps_extensions_and_keeps_full_types() {
    let cases = [
        ("json", "application/json; charset=utf-8"),
        (".png", "image/png"),
        ("png", "image/png"),
        ("html", "text/html; charset=utf-8"),
        ("index.html", "text/html; charset=utf-8"),
        ("txt", "text/plain; charset=utf-8"),
        ("js", "application/javascript; charset=utf-8"),
        ("nope", "application/octet-stream"),
        ("text/x-foo", "text/x-foo; charset=utf-8"),
        ("application/vnd.api+json", "application/vnd.api+json"),
    ];
    let mut app = webfw::app();
    app.get("/:i", move |req: &mut Request, res: &mut Response| {
        let i: usize = req.param("i").unwrap().parse().unwrap();
        if i.is_multiple_of(2) {
            res.type_(cases[i].0);
        } else {
            res.content_type(cases[i].0);
        }
        res.end()
    });
    let srv = TestServer::start(app).await;
    for (i, (given, want)) in cases.iter().enumerate() {
        let res = srv.get(&format!("/{i}")).await;
        assert_eq!(res.header("content-type"), Some(*want), "type({given:?})");
    }
}

// ---- headers_sent ----

#[tokio::test]
async fn headers_sent_turns_true_once_the_head_is_written() {
    let res = get(|_, res| {
        let before = res.headers_sent();
        res.write("a")?;
        let after = res.headers_sent();
        res.end_with(format!(" {before} {after}"))
    })
    .await;
    assert_eq!(res.text(), "a false true");
}

#[tokio::test]
async fn setting_a_header_after_the_head_was_sent_is_an_error() {
    let res = get(|_, res| {
        res.send("first")?;
        let again = res.send("second");
        assert!(again.is_err());
        Ok(Flow::Done)
    })
    .await;
    assert_eq!(res.text(), "first");
}

// ---- X-Powered-By ----

#[tokio::test]
async fn x_powered_by_is_sent_by_default_and_first() {
    let res = get(|_, res| res.set("X-Other", "1").send("x")).await;
    let value = res.header("x-powered-by").expect("X-Powered-By by default");
    assert!(!value.is_empty());
    assert_eq!(res.header_names()[0], "x-powered-by");
}
