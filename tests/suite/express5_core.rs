//! Express 5 apps on a real socket: the request and response helpers and
//! the automatic OPTIONS answer that differ from Express 4, each checked
//! beside an Express 4 app in the same process.

use crate::common;

use common::TestServer;
use webfw::prelude::*;

/// The answers of an Express 4 and an Express 5 app built by `setup`.
async fn both(
    setup: fn(&mut App),
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
) -> (common::HttpResponse, common::HttpResponse) {
    let mut four = webfw::app();
    setup(&mut four);
    let four = TestServer::start(four)
        .await
        .call(method, target, headers)
        .await;
    (four, only_five(setup, method, target, headers).await)
}

async fn only_five(
    setup: fn(&mut App),
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
) -> common::HttpResponse {
    let mut five = webfw::express5::app();
    setup(&mut five);
    TestServer::start(five)
        .await
        .call(method, target, headers)
        .await
}

/// A request with its own `Host` line.
async fn with_host(setup: fn(&mut App), host: &str) -> (String, String) {
    let raw = format!("GET /h HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    let mut four = webfw::app();
    setup(&mut four);
    let mut five = webfw::express5::app();
    setup(&mut five);
    let four = TestServer::start(four).await.raw(&raw).await.text();
    let five = TestServer::start(five).await.raw(&raw).await.text();
    (four, five)
}

#[tokio::test]
async fn automatic_options_is_sorted_plain_text_without_an_etag() {
    let setup = |app: &mut App| {
        app.route("/r")
            .post(|_: &mut Request, res: &mut Response| res.send("p"))
            .get(|_: &mut Request, res: &mut Response| res.send("g"))
            .delete(|_: &mut Request, res: &mut Response| res.send("d"));
        app.get("/r", |_: &mut Request, res: &mut Response| {
            res.send("again")
        });
    };
    let (four, five) = both(setup, "OPTIONS", "/r", &[]).await;
    assert_eq!(four.header("allow"), Some("POST,GET,DELETE,HEAD"));
    assert_eq!(
        four.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(four.has_header("etag"));
    assert_eq!(five.status, 200);
    assert_eq!(five.header("allow"), Some("DELETE, GET, HEAD, POST"));
    assert_eq!(five.text(), "DELETE, GET, HEAD, POST");
    assert_eq!(five.header("content-type"), Some("text/plain"));
    assert_eq!(five.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(five.header("content-length"), Some("23"));
    assert!(!five.has_header("etag"));
}

#[tokio::test]
async fn query_is_simple_by_default_and_follows_the_sub_app() {
    let echo = |req: &mut Request, res: &mut Response| {
        let q = req.query().clone();
        res.json(q)
    };
    let setup = |app: &mut App| {
        app.get("/q", |req: &mut Request, res: &mut Response| {
            let q = req.query().clone();
            res.json(q)
        });
    };
    let (four, five) = both(setup, "GET", "/q?a[b]=1&d[]=x&d[]=y&=v", &[]).await;
    assert_eq!(four.text(), r#"{"a":{"b":"1"},"d":["x","y"]}"#);
    assert_eq!(five.text(), r#"{"a[b]":"1","d[]":["x","y"],"":"v"}"#);

    // A sub-app's own `query parser` applies inside it (Express 4: the top
    // app's), and Express 5's `extended` is qs with its own array limit.
    let mut sub = webfw::express5::app();
    sub.set("query parser", "extended");
    sub.get("/q", echo);
    let mut app = webfw::express5::app();
    app.use_at("/ext", sub);
    app.get("/q", echo);
    let server = TestServer::start(app).await;
    let res = server.get("/ext/q?a[b]=1&l[19]=x&m[20]=y").await;
    assert_eq!(res.text(), r#"{"a":{"b":"1"},"l":["x"],"m":{"20":"y"}}"#);
    let res = server.get("/q?a[b]=1").await;
    assert_eq!(res.text(), r#"{"a[b]":"1"}"#);
}

#[tokio::test]
async fn host_keeps_the_port_in_express_5() {
    let setup = |app: &mut App| {
        app.get("/h", |req: &mut Request, res: &mut Response| {
            let body = serde_json::json!({"host": req.host(), "hostname": req.hostname()});
            res.json(body)
        });
    };
    let (four, five) = with_host(setup, "example.com:8080").await;
    assert_eq!(four, r#"{"host":"example.com","hostname":"example.com"}"#);
    assert_eq!(
        five,
        r#"{"host":"example.com:8080","hostname":"example.com"}"#
    );
    let (_, v6) = with_host(setup, "[::1]:3000").await;
    assert_eq!(v6, r#"{"host":"[::1]:3000","hostname":"[::1]"}"#);
}

#[tokio::test]
async fn an_out_of_range_status_fails_before_any_header_is_set() {
    let setup = |app: &mut App| {
        app.get("/s/:code", |req: &mut Request, res: &mut Response| {
            let code: u16 = req.param("code").unwrap_or("0").parse().unwrap_or(0);
            res.set("X-Before", "kept");
            res.status(code).send(format!("status {code}"))
        });
    };
    let five = only_five(setup, "GET", "/s/600", &[]).await;
    assert_eq!((five.status, five.text()), (600, "status 600".to_owned()));
    for code in ["99", "1000"] {
        let five = only_five(setup, "GET", &format!("/s/{code}"), &[]).await;
        assert_eq!(five.status, 500, "{code}");
        assert!(!five.has_header("etag"), "{code}");
        assert_eq!(five.header("x-before"), Some("kept"), "{code}");
        assert!(
            five.text().contains("RangeError: Invalid status code"),
            "{code}"
        );
    }
}

#[tokio::test]
async fn redirects_send_a_whole_document_and_back_is_a_literal() {
    let setup = |app: &mut App| {
        app.get("/go", |_: &mut Request, res: &mut Response| {
            res.redirect("/to?<b>")
        });
        app.get("/back", |_: &mut Request, res: &mut Response| {
            res.redirect("back")
        });
    };
    let html = [("Accept", "text/html")];
    let (four, five) = both(setup, "GET", "/go", &html).await;
    assert_eq!(four.text(), "<p>Found. Redirecting to /to?%3Cb%3E</p>");
    assert_eq!(
        five.text(),
        "<!DOCTYPE html><head><title>Found</title></head><body><p>Found. Redirecting to /to?%3Cb%3E</p></body>"
    );
    let referer = [("Referer", "/from")];
    let (four, five) = both(setup, "GET", "/back", &referer).await;
    assert_eq!(four.header("location"), Some("/from"));
    assert_eq!(five.header("location"), Some("back"));
}

#[tokio::test]
async fn clear_cookie_ignores_max_age_and_expires() {
    let setup = |app: &mut App| {
        app.get("/c", |_: &mut Request, res: &mut Response| {
            let opts = webfw::CookieOptions::new()
                .max_age(std::time::Duration::from_secs(60))
                .path("/p");
            res.clear_cookie_with("a", &opts)?;
            res.send("cleared")
        });
    };
    let (four, five) = both(setup, "GET", "/c", &[]).await;
    assert!(
        four.header("set-cookie")
            .unwrap()
            .starts_with("a=; Max-Age=60; Path=/p; Expires=")
    );
    assert_eq!(
        five.header("set-cookie"),
        Some("a=; Path=/p; Expires=Thu, 01 Jan 1970 00:00:00 GMT")
    );
}

#[tokio::test]
async fn attachments_name_files_in_ascii() {
    let setup = |app: &mut App| {
        app.get("/a", |_: &mut Request, res: &mut Response| {
            res.attachment("dir/café.txt");
            res.send("x")
        });
    };
    let five = only_five(setup, "GET", "/a", &[]).await;
    assert_eq!(
        five.header("content-disposition"),
        Some("attachment; filename=\"caf?.txt\"; filename*=UTF-8''caf%C3%A9.txt")
    );
}

#[tokio::test]
async fn a_url_rewritten_under_an_exact_mount_keeps_its_slash() {
    let setup = |app: &mut App| {
        app.use_at("/m", |req: &mut Request, _: &mut Response| {
            req.set_url("/target");
            next()
        });
        app.get("/m/target", |req: &mut Request, res: &mut Response| {
            res.send(format!("seen {}", req.url()))
        });
        app.use_(|req: &mut Request, res: &mut Response| {
            res.status(404).send(format!("missed {}", req.url()))
        });
    };
    let (four, five) = both(setup, "GET", "/m", &[]).await;
    assert_eq!(four.text(), "missed /mtarget");
    assert_eq!(five.text(), "seen /m/target");
}

#[tokio::test]
async fn a_param_callback_named_with_a_colon_never_runs() {
    let setup = |app: &mut App| {
        app.param(":id", |req: &mut Request, _: &mut Response, _: &str| {
            req.set_local("ran", serde_json::json!(true));
            next()
        });
        app.get("/p/:id", |req: &mut Request, res: &mut Response| {
            let ran = req.local("ran").is_some();
            res.send(format!("ran {ran}"))
        });
    };
    let (four, five) = both(setup, "GET", "/p/1", &[]).await;
    assert_eq!(four.text(), "ran true");
    assert_eq!(five.text(), "ran false");
}

#[tokio::test]
async fn types_come_from_mime_types_3_and_keep_their_parameters() {
    let setup = |app: &mut App| {
        app.get("/t/:ext", |req: &mut Request, res: &mut Response| {
            let ext = req.param("ext").unwrap_or_default().to_owned();
            res.type_(&ext).send(&b"typed"[..])
        });
        app.get("/set", |req: &mut Request, res: &mut Response| {
            let v = req.query()["v"].as_str().unwrap_or("text/plain").to_owned();
            res.set("Content-Type", v).send(&b"typed"[..])
        });
        app.get("/flowed", |_: &mut Request, res: &mut Response| {
            res.set("Content-Type", "text/plain; format=flowed")
                .send("text")
        });
    };
    for (ext, four_type, five_type) in [
        (
            "js",
            "application/javascript; charset=utf-8",
            "text/javascript; charset=utf-8",
        ),
        ("ico", "image/x-icon", "image/vnd.microsoft.icon"),
        (
            "nope",
            "application/octet-stream",
            "application/octet-stream",
        ),
    ] {
        let (four, five) = both(setup, "GET", &format!("/t/{ext}"), &[]).await;
        assert_eq!(four.header("content-type"), Some(four_type), "{ext}");
        assert_eq!(five.header("content-type"), Some(five_type), "{ext}");
    }
    let (four, five) = both(setup, "GET", "/set?v=text/x-charset-info", &[]).await;
    assert_eq!(
        four.header("content-type"),
        Some("text/x-charset-info; charset=utf-8")
    );
    assert_eq!(five.header("content-type"), Some("text/x-charset-info"));
    let (four, five) = both(setup, "GET", "/flowed", &[]).await;
    assert_eq!(
        four.header("content-type"),
        Some("text/plain; charset=utf-8; format=flowed")
    );
    assert_eq!(
        five.header("content-type"),
        Some("text/plain; format=flowed; charset=utf-8")
    );
}

#[tokio::test]
async fn range_fresh_and_is_follow_the_express_5_packages() {
    let setup = |app: &mut App| {
        app.get("/range", |req: &mut Request, res: &mut Response| {
            let r = format!("{:?}", req.range(1000, false));
            res.send(r)
        });
        app.get("/fresh", |req: &mut Request, res: &mut Response| {
            res.set("ETag", "\"v1\"");
            res.set("Last-Modified", "Wed, 01 Jan 2020 00:00:00 GMT");
            let fresh = req.fresh(res);
            res.send(format!("fresh {fresh}"))
        });
        app.post("/is", |req: &mut Request, res: &mut Response| {
            let is = req.is(&["json"]).unwrap_or_default();
            res.send(format!("is {is}"))
        });
    };
    let (four, five) = both(setup, "GET", "/range", &[("Range", "bytes=0-5,x-y")]).await;
    assert!(four.text().contains("Ranges"), "{}", four.text());
    assert_eq!(five.text(), "Some(Malformed)");
    let conditional = [
        ("If-None-Match", "\"v1\""),
        ("If-Modified-Since", "Tue, 01 Jan 2019 00:00:00 GMT"),
    ];
    let (four, five) = both(setup, "GET", "/fresh", &conditional).await;
    assert_eq!((four.status, four.text()), (200, "fresh false".to_owned()));
    assert_eq!(five.status, 304);
    let body = [
        ("Content-Type", "application/json; charset"),
        ("Content-Length", "0"),
    ];
    let (four, five) = both(setup, "POST", "/is", &body).await;
    assert_eq!(four.text(), "is ");
    assert_eq!(five.text(), "is json");
}
