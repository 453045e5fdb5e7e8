//! Content negotiation over a socket: `req.accepts*` and `res.format`.

use crate::common;

use common::{TestServer, error_page};
use serde_json::json;
use webfw::prelude::*;
use webfw::{Format, NotAcceptable};

fn app() -> webfw::App {
    let mut app = webfw::app();
    app.get("/accepts", |req: &mut Request, res: &mut Response| {
        let body = json!({
            "type": req.accepts(&["json", "html"]),
            "types": req.accepted_types(),
            "charset": req.accepts_charsets(&["utf-8", "iso-8859-1"]),
            "encoding": req.accepts_encodings(&["gzip", "br", "identity"]),
            "encodings": req.accepted_encodings(),
            "language": req.accepts_languages(&["en", "fr"]),
            "languages": req.accepted_languages(),
        });
        res.json(&body)
    });
    app.get("/format", |_req: &mut Request, res: &mut Response| {
        res.format(
            Format::new()
                .on("text/plain", |res| res.send("plain"))
                .on("html", |res| res.send("<p>html</p>"))
                .on("application/json", |res| {
                    res.json(&json!({ "format": "json" }))
                }),
        )
    });
    app.get(
        "/format-default",
        |req: &mut Request, res: &mut Response| {
            // Handlers may borrow the request.
            let path = req.path();
            res.format(
                Format::new()
                    .on("json", |res| res.send("{}"))
                    .default(|res| res.type_("text/plain").send(format!("default for {path}"))),
            )
        },
    );
    app.get(
        "/format-handled",
        |_req: &mut Request, res: &mut Response| {
            res.format(Format::new().on("json", |res| res.send("{}")))
        },
    );
    app.use_(|err: Error, req: &mut Request, res: &mut Response| {
        if req.path() != "/format-handled" {
            return Err(err);
        }
        let types = err
            .source()
            .and_then(|s| s.downcast_ref::<NotAcceptable>())
            .map(|n| n.types.clone());
        res.status(err.status()).json(&json!({ "types": types }))
    });
    app
}

#[tokio::test]
async fn accepts_methods_follow_the_headers() {
    let server = TestServer::start(app()).await;
    let res = server
        .get_with(
            "/accepts",
            &[
                ("Accept", "text/html;q=0.5, application/json"),
                ("Accept-Charset", "iso-8859-1, utf-8;q=0.5"),
                ("Accept-Encoding", "gzip;q=0.5, br"),
                ("Accept-Language", "fr-CH, fr;q=0.9, en;q=0.8"),
            ],
        )
        .await;
    assert_eq!(
        res.json(),
        json!({
            "type": "json",
            "types": ["application/json", "text/html"],
            "charset": "iso-8859-1",
            "encoding": "br",
            "encodings": ["br", "gzip", "identity"],
            "language": "fr",
            "languages": ["fr-CH", "fr", "en"],
        })
    );
}

#[tokio::test]
async fn accepts_without_headers_takes_defaults() {
    let server = TestServer::start(app()).await;
    let res = server.get("/accepts").await;
    assert_eq!(
        res.json(),
        json!({
            "type": "json",
            "types": ["*/*"],
            "charset": "utf-8",
            "encoding": "identity",
            "encodings": ["identity"],
            "language": "en",
            "languages": ["*"],
        })
    );
}

#[tokio::test]
async fn refused_values_are_none() {
    let server = TestServer::start(app()).await;
    let res = server
        .get_with(
            "/accepts",
            &[
                ("Accept", "image/*"),
                ("Accept-Encoding", "*;q=0"),
                ("Accept-Language", "de"),
            ],
        )
        .await;
    let body = res.json();
    assert_eq!(body["type"], json!(null));
    assert_eq!(body["encoding"], json!(null));
    assert_eq!(body["language"], json!(null));
}

#[tokio::test]
async fn format_picks_the_best_key_and_sets_type_and_vary() {
    let server = TestServer::start(app()).await;
    let res = server.get_with("/format", &[("Accept", "text/html")]).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "<p>html</p>");
    assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(res.header("vary"), Some("Accept"));

    let res = server
        .get_with(
            "/format",
            &[("Accept", "text/html;q=0.5, application/json")],
        )
        .await;
    assert_eq!(res.text(), r#"{"format":"json"}"#);
    assert_eq!(
        res.header("content-type"),
        Some("application/json; charset=utf-8")
    );

    // No Accept header: the first key.
    let res = server.get("/format").await;
    assert_eq!(res.text(), "plain");
    assert_eq!(
        res.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
}

#[tokio::test]
async fn format_head_sends_no_body() {
    let server = TestServer::start(app()).await;
    let res = server
        .call("HEAD", "/format", &[("Accept", "text/html")])
        .await;
    assert_eq!(res.status, 200);
    assert!(res.body.is_empty());
    assert_eq!(res.header("content-length"), Some("11"));
}

#[tokio::test]
async fn format_without_match_runs_default_or_answers_406() {
    let server = TestServer::start(app()).await;
    let res = server
        .get_with("/format-default", &[("Accept", "image/png")])
        .await;
    assert_eq!(res.text(), "default for /format-default");
    assert_eq!(res.header("vary"), Some("Accept"));

    let res = server.get_with("/format", &[("Accept", "image/png")]).await;
    assert_eq!(res.status, 406);
    // The development page names the error and the types offered.
    assert_eq!(
        res.text(),
        error_page(
            "NotAcceptableError: Not Acceptable<br> &nbsp; &nbsp;caused by: \
             Not Acceptable (offered: text/plain, text/html, application/json)"
        )
    );
    assert_eq!(res.header("vary"), Some("Accept"));

    let res = server
        .get_with("/format-handled", &[("Accept", "image/png")])
        .await;
    assert_eq!(res.status, 406);
    assert_eq!(res.json(), json!({ "types": ["application/json"] }));
}
