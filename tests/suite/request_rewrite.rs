//! Rewriting the request as Express middleware does (`req.method = …`,
//! `req.url = …`): later layers route by the new values, a mounted router's
//! rewrite outlives the mount (the URL with the mount path put back),
//! `req.query` and `req.originalUrl` keep the original, and the access log
//! shows the new method. Expected values were taken from Express 4.22.

use crate::common;

use common::TestServer;
use common::capture::Capture;
use http::Method;
use serde_json::json;
use webfw::logger::LoggerOptions;
use webfw::prelude::*;

fn describe(req: &mut Request, res: &mut Response) -> Result {
    let v = json!({
        "method": req.method().as_str(),
        "originalMethod": req.original_method().as_str(),
        "url": req.url(),
        "path": req.path(),
        "baseUrl": req.base_url(),
        "originalUrl": req.original_url(),
        "query": req.query(),
    });
    res.json(&v)
}

/// `X-To` becomes the method, in the case it was given.
fn method_from_header(req: &mut Request, _: &mut Response) -> Result {
    if let Some(m) = req.get("x-to").map(str::to_owned) {
        let m = Method::from_bytes(m.as_bytes()).map_err(|e| Error::new(e.to_string()))?;
        req.set_method(m);
    }
    next()
}

async fn method_from_header_later(req: &mut Request, res: &mut Response) -> Result {
    tokio::task::yield_now().await;
    method_from_header(req, res)
}

fn method_app(rewrite: webfw::Middleware) -> App {
    let mut app = webfw::app();
    app.use_at("/m", rewrite);
    app.post("/m/a", |_: &mut Request, res: &mut Response| {
        res.send("post a")
    });
    app.put("/m/a", |_: &mut Request, _: &mut Response| next());
    app.put("/m/a", describe);
    app.get("/m/a", |_: &mut Request, res: &mut Response| {
        res.send("get a")
    });
    app
}

#[tokio::test]
async fn later_layers_route_by_a_rewritten_method() {
    use webfw::IntoMiddleware;
    for rewrite in [
        method_from_header.into_middleware(),
        method_from_header_later.into_middleware(),
    ] {
        let srv = TestServer::start(method_app(rewrite)).await;
        assert_eq!(srv.call("POST", "/m/a", &[]).await.text(), "post a");
        let v = srv
            .call("POST", "/m/a?q=1", &[("X-To", "PUT")])
            .await
            .json();
        assert_eq!(
            v,
            json!({"method": "PUT", "originalMethod": "POST", "url": "/m/a?q=1", "path": "/m/a",
                   "baseUrl": "", "originalUrl": "/m/a?q=1", "query": {"q": "1"}})
        );
        // Express lower-cases the method to compare it with a route's, and
        // keeps it as assigned.
        let v = srv.call("POST", "/m/a", &[("X-To", "put")]).await.json();
        assert_eq!(
            (&v["method"], &v["originalMethod"]),
            (&json!("put"), &json!("POST"))
        );
        // A HEAD assigned in lower case finds the GET route as HEAD does.
        let res = srv.call("POST", "/m/a", &[("X-To", "head")]).await;
        assert_eq!((res.status, res.text().as_str()), (200, "get a"));
        let res = srv.call("POST", "/m/a", &[("X-To", "PATCH")]).await;
        assert_eq!(res.status, 404);
        assert!(res.text().contains("Cannot PATCH /m/a"), "{}", res.text());
    }
}

/// Inside a mounted router both the method and the URL are rewritten: the
/// router's later layers see them, and on the way out the parent sees the
/// new method and the new URL behind the mount path; `req.query` is still
/// the original's.
#[tokio::test]
async fn a_rewrite_inside_a_router_outlives_the_mount() {
    let mut r = webfw::router();
    r.use_(|req: &mut Request, _: &mut Response| {
        req.set_method(Method::DELETE);
        req.set_url("/z?b=2");
        next()
    });
    r.delete("/z", |_: &mut Request, _: &mut Response| next());
    r.all("/y", |_: &mut Request, res: &mut Response| {
        res.send("router y")
    });
    let mut app = webfw::app();
    app.use_at("/r", r);
    app.delete("/r/y", |_: &mut Request, res: &mut Response| {
        res.send("parent y")
    });
    app.delete("/r/z", describe);
    let srv = TestServer::start(app).await;
    for target in ["/r/y?a=1", "/r/q?a=1"] {
        let v = srv.get(target).await.json();
        assert_eq!(
            v,
            json!({"method": "DELETE", "originalMethod": "GET", "url": "/r/z?b=2", "path": "/r/z",
                   "baseUrl": "", "originalUrl": target, "query": {"a": "1"}}),
            "{target}"
        );
    }
}

/// A route's own handlers are chosen by the method it was entered with;
/// the routes after it see the new one.
#[tokio::test]
async fn a_route_keeps_its_method_while_it_runs() {
    let mut app = webfw::app();
    app.post(
        "/route",
        (
            |req: &mut Request, _: &mut Response| {
                req.set_method(Method::PUT);
                next()
            },
            |req: &mut Request, res: &mut Response| {
                res.set("X-Second", req.method().as_str());
                next()
            },
        ),
    );
    app.put("/route", |_: &mut Request, res: &mut Response| {
        let second = res.get("x-second").unwrap_or("none").to_owned();
        res.send(format!("put after {second}"))
    });
    let srv = TestServer::start(app).await;
    let res = srv.call("POST", "/route", &[]).await;
    assert_eq!(res.text(), "put after PUT");
}

/// An OPTIONS request rewritten to GET collects no `Allow` methods from
/// then on: Express collects them only while the method is OPTIONS.
#[tokio::test]
async fn options_rewritten_away_is_not_answered_automatically() {
    let mut app = webfw::app();
    app.use_at("/opt", |req: &mut Request, _: &mut Response| {
        req.set_method(Method::GET);
        next()
    });
    app.put("/opt/x", |_: &mut Request, res: &mut Response| {
        res.send("put")
    });
    let srv = TestServer::start(app).await;
    let res = srv.call("OPTIONS", "/opt/x", &[]).await;
    assert_eq!(res.status, 404);
    assert!(res.text().contains("Cannot GET /opt/x"), "{}", res.text());
}

/// `req.url` rewritten before anything read `req.query`: the query is still
/// the original's, as Express parses it before any middleware runs.
#[tokio::test]
async fn the_query_is_the_original_urls() {
    let mut app = webfw::app();
    app.use_(|req: &mut Request, _: &mut Response| {
        req.set_url("/moved?b=2");
        next()
    });
    app.get("/moved", describe);
    let srv = TestServer::start(app).await;
    let v = srv.get("/start?a=1").await.json();
    assert_eq!(
        (&v["url"], &v["path"], &v["query"], &v["originalUrl"]),
        (
            &json!("/moved?b=2"),
            &json!("/moved"),
            &json!({"a": "1"}),
            &json!("/start?a=1")
        )
    );
}

/// The access log shows the method a handler assigned, as morgan's does.
#[tokio::test]
async fn the_access_log_shows_the_new_method() {
    let cap = Capture::default();
    let mut app = webfw::app();
    app.use_(webfw::logger(
        ":method :url :status",
        LoggerOptions::new().stream(cap.clone()),
    ));
    app.use_(method_from_header);
    app.put("/a", |_: &mut Request, res: &mut Response| res.send("put"));
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.call("POST", "/a?x", &[("X-To", "PUT")]).await.text(),
        "put"
    );
    assert_eq!(cap.lines(), vec!["PUT /a?x 200"]);
}
