//! `webfw::method_override` over a socket: header, query and function
//! getters, the `methods` option, `Vary`, and routing after the override.
//! Expected values were taken from method-override 3.0.0 under Express 4.22.

use crate::common;

use common::TestServer;
use serde_json::json;
use webfw::prelude::*;
use webfw::{MethodGetter, method_override};

fn echo(req: &mut Request, res: &mut Response) -> Result {
    let v = json!({"m": req.method().as_str(), "o": req.original_method().as_str()});
    res.json(&v)
}

fn app() -> App {
    let mut app = webfw::app();
    app.use_at("/h", method_override("X-HTTP-Method-Override"));
    app.use_at("/q", method_override("_method"));
    app.use_at("/any", method_override("x-verb").any_method());
    app.use_at(
        "/none",
        method_override("x-verb").methods(Vec::<String>::new()),
    );
    app.use_at(
        "/fn",
        method_override(MethodGetter::from_fn(|req, res| {
            res.set("X-Getter", "ran");
            req.get("x-fn").map(str::to_owned)
        }))
        .methods(["POST", "PATCH"]),
    );
    app.use_(echo);
    app
}

async fn call(
    srv: &TestServer,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> (serde_json::Value, Option<String>) {
    let res = srv.call(method, path, headers).await;
    assert_eq!(res.status, 200, "{method} {path}");
    (res.json(), res.header("vary").map(str::to_owned))
}

#[tokio::test]
async fn the_header_getter_takes_the_first_value_and_varies() {
    let srv = TestServer::start(app()).await;
    let header = [("X-HTTP-Method-Override", "put, delete")];
    assert_eq!(
        call(&srv, "POST", "/h", &header).await,
        (
            json!({"m": "PUT", "o": "POST"}),
            Some("X-HTTP-Method-Override".to_owned())
        )
    );
    // Without the header the method stays, and Vary is still set.
    assert_eq!(
        call(&srv, "POST", "/h", &[]).await,
        (
            json!({"m": "POST", "o": "POST"}),
            Some("X-HTTP-Method-Override".to_owned())
        )
    );
    // Only POST is looked at: no override and no Vary.
    for method in ["GET", "PUT"] {
        assert_eq!(
            call(&srv, method, "/h", &[("X-HTTP-Method-Override", "DELETE")]).await,
            (json!({"m": method, "o": method}), None)
        );
    }
    assert_eq!(
        call(&srv, "POST", "/h", &[("X-HTTP-Method-Override", "FOO")])
            .await
            .0,
        json!({"m": "POST", "o": "POST"})
    );
}

#[tokio::test]
async fn the_query_getter_takes_the_first_of_repeated_keys() {
    let srv = TestServer::start(app()).await;
    assert_eq!(
        call(&srv, "POST", "/q?_method=patch&_method=put", &[]).await,
        (json!({"m": "PATCH", "o": "POST"}), None)
    );
    assert_eq!(
        call(&srv, "POST", "/q?_method=nope", &[]).await.0,
        json!({"m": "POST", "o": "POST"})
    );
    assert_eq!(
        call(&srv, "POST", "/q?_method=m%2Dsearch", &[]).await.0,
        json!({"m": "M-SEARCH", "o": "POST"})
    );
}

#[tokio::test]
async fn the_methods_option_chooses_the_requests_looked_at() {
    let srv = TestServer::start(app()).await;
    assert_eq!(
        call(&srv, "GET", "/any", &[("x-verb", "m-search")]).await,
        (
            json!({"m": "M-SEARCH", "o": "GET"}),
            Some("x-verb".to_owned())
        )
    );
    assert_eq!(
        call(&srv, "POST", "/none", &[("x-verb", "put")]).await,
        (json!({"m": "POST", "o": "POST"}), None)
    );
    let res = srv.call("PATCH", "/fn", &[("x-fn", "delete")]).await;
    assert_eq!(
        (res.header("x-getter"), res.json()),
        (Some("ran"), json!({"m": "DELETE", "o": "PATCH"}))
    );
    // Not among the methods: the getter does not run.
    let res = srv.call("PUT", "/fn", &[("x-fn", "delete")]).await;
    assert_eq!(
        (res.header("x-getter"), res.json()),
        (None, json!({"m": "PUT", "o": "PUT"}))
    );
}

#[tokio::test]
async fn routes_after_the_override_match_the_new_method() {
    let mut app = webfw::app();
    app.use_(method_override("_method"));
    app.post("/x", |_: &mut Request, res: &mut Response| {
        res.send("post route")
    });
    app.delete("/x", |_: &mut Request, res: &mut Response| {
        res.send("delete route")
    });
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.call("POST", "/x?_method=DELETE", &[]).await.text(),
        "delete route"
    );
    assert_eq!(
        srv.call("POST", "/x?_method=delete", &[]).await.text(),
        "delete route"
    );
    assert_eq!(srv.call("POST", "/x", &[]).await.text(), "post route");
}
