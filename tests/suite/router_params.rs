//! Parameter callbacks (`app.param`, lists, `router.param`, once per
//! request per value, local to their router) and `mergeParams`, through the
//! in-process test client (the same dispatch as the server, no socket).

use crate::common;

use common::{trace, trace_of, trace_param};
use serde_json::json;
use webfw::prelude::*;
use webfw::testing::TestClient;
use webfw::{PathSpec, RouterOptions};

fn send_trace(req: &mut Request, res: &mut Response) -> Result {
    let t = trace_of(req);
    res.send(t)
}

fn send_params(req: &mut Request, res: &mut Response) -> Result {
    let p = json!(req.params());
    res.json(&p)
}

#[tokio::test]
async fn param_callback_runs_before_the_route_with_the_decoded_value() {
    let mut app = webfw::app();
    app.param("id", |req: &mut Request, _: &mut Response, id: &str| {
        req.set_local("user", json!(format!("user-{id}")));
        next()
    });
    app.get("/user/:id", |req: &mut Request, res: &mut Response| {
        let u = req
            .local("user")
            .and_then(|v| v.as_str())
            .unwrap_or("-")
            .to_owned();
        res.send(u)
    });
    let srv = TestClient::new(app);
    assert_eq!(srv.get("/user/42").send().await.text(), "user-42");
    assert_eq!(srv.get("/user/a%20b").send().await.text(), "user-a b");
}

#[tokio::test]
async fn leading_colon_in_the_param_name_is_ignored() {
    let mut app = webfw::app();
    app.param(":id", trace_param);
    app.get("/user/:id", send_trace);
    let srv = TestClient::new(app);
    assert_eq!(srv.get("/user/3").send().await.text(), "param 3");
}

#[tokio::test]
async fn callbacks_for_a_list_of_names_run_in_path_key_order() {
    let mut app = webfw::app();
    app.params(
        &["from", "to"],
        |req: &mut Request, _: &mut Response, v: &str| {
            trace(req, v);
            next()
        },
    );
    app.get("/r/:to/:from", send_trace);
    let srv = TestClient::new(app);
    assert_eq!(
        srv.get("/r/second-key-value/x").send().await.text(),
        "second-key-value,x"
    );
}

#[tokio::test]
async fn several_callbacks_for_one_name_run_in_registration_order() {
    let mut app = webfw::app();
    app.param("id", |req: &mut Request, _: &mut Response, _: &str| {
        trace(req, "one");
        next()
    });
    app.param("id", |req: &mut Request, _: &mut Response, _: &str| {
        trace(req, "two");
        next()
    });
    app.get("/u/:id", send_trace);
    let srv = TestClient::new(app);
    assert_eq!(srv.get("/u/1").send().await.text(), "one,two");
}

#[tokio::test]
async fn param_callback_runs_once_per_request_per_value() {
    let mut app = webfw::app();
    app.param("id", |req: &mut Request, _: &mut Response, id: &str| {
        trace(req, &format!("param:id={id}"));
        req.params_mut().set("id", format!("X{id}"));
        next()
    });
    app.get("/user/:id", |req: &mut Request, _: &mut Response| {
        let s = format!("h1 {}", req.param("id").unwrap_or("-"));
        trace(req, &s);
        next()
    });
    app.get("/user/:id", |req: &mut Request, res: &mut Response| {
        let s = format!("h2 {}", req.param("id").unwrap_or("-"));
        trace(req, &s);
        send_trace(req, res)
    });
    let srv = TestClient::new(app);
    assert_eq!(
        srv.get("/user/1").send().await.text(),
        "param:id=1,h1 X1,h2 X1"
    );
    // A new request gets a fresh cache.
    assert_eq!(
        srv.get("/user/1").send().await.text(),
        "param:id=1,h1 X1,h2 X1"
    );
}

#[tokio::test]
async fn param_callback_reruns_for_a_different_value() {
    let mut app = webfw::app();
    app.param("id", trace_param);
    app.use_at("/v/:id", |req: &mut Request, _: &mut Response| {
        trace(req, "use");
        next()
    });
    app.get("/v/:x/:id", send_trace);
    let srv = TestClient::new(app);
    assert_eq!(srv.get("/v/1/2").send().await.text(), "param 1,use,param 2");
    assert_eq!(srv.get("/v/3/3").send().await.text(), "param 3,use");
}

#[tokio::test]
async fn optional_param_that_did_not_match_triggers_no_callback() {
    let mut app = webfw::app();
    app.param("id", trace_param);
    app.get("/opt/:id?", send_trace);
    let srv = TestClient::new(app);
    assert_eq!(srv.get("/opt").send().await.text(), "");
    assert_eq!(srv.get("/opt/4").send().await.text(), "param 4");
}

#[tokio::test]
async fn param_callbacks_are_local_to_their_router() {
    let mut router = webfw::router();
    router.param("id", |req: &mut Request, _: &mut Response, id: &str| {
        trace(req, &format!("router {id}"));
        next()
    });
    router.get("/:id", send_trace);
    let mut app = webfw::app();
    app.param("id", |req: &mut Request, _: &mut Response, id: &str| {
        trace(req, &format!("app {id}"));
        next()
    });
    app.use_at("/r", router);
    app.get("/app/:id", send_trace);
    let srv = TestClient::new(app);
    assert_eq!(srv.get("/r/5").send().await.text(), "router 5");
    assert_eq!(srv.get("/app/5").send().await.text(), "app 5");
}

#[tokio::test]
async fn app_param_fires_for_the_app_mount_path_and_router_param_for_its_routes() {
    let mut router = webfw::router();
    router.param("id", |req: &mut Request, _: &mut Response, id: &str| {
        trace(req, &format!("router {id}"));
        next()
    });
    router.get("/:id", send_trace);
    let mut app = webfw::app();
    app.param("id", |req: &mut Request, _: &mut Response, id: &str| {
        trace(req, &format!("app {id}"));
        next()
    });
    app.use_at("/u/:id", router);
    let srv = TestClient::new(app);
    assert_eq!(srv.get("/u/7/8").send().await.text(), "app 7,router 8");
}

#[tokio::test]
async fn next_route_from_a_param_callback_skips_every_route_with_that_value() {
    let mut app = webfw::app();
    app.param("id", |req: &mut Request, _: &mut Response, id: &str| {
        trace(req, &format!("param {id}"));
        if id == "skip" { next_route() } else { next() }
    });
    app.get("/s/:id", |req: &mut Request, _: &mut Response| {
        trace(req, "r1");
        next()
    });
    app.get("/s/:id", |req: &mut Request, _: &mut Response| {
        trace(req, "r2");
        next()
    });
    app.use_(send_trace);
    let srv = TestClient::new(app);
    assert_eq!(srv.get("/s/skip").send().await.text(), "param skip");
    assert_eq!(srv.get("/s/ok").send().await.text(), "param ok,r1,r2");
}

#[tokio::test]
async fn param_callback_error_goes_to_error_handlers() {
    let mut app = webfw::app();
    app.param(
        "id",
        |req: &mut Request, _: &mut Response, id: &str| -> Result {
            trace(req, "param");
            Err(Error::status_message(404, format!("no user {id}")))
        },
    );
    app.get("/u/:id", |_: &mut Request, res: &mut Response| {
        res.send("never")
    });
    app.get("/u/:id", |_: &mut Request, res: &mut Response| {
        res.send("never either")
    });
    app.use_(|err: Error, req: &mut Request, res: &mut Response| {
        trace(req, &format!("caught {} {err}", err.status()));
        let t = trace_of(req);
        res.status(err.status()).send(t)
    });
    let srv = TestClient::new(app);
    let res = srv.get("/u/1").send().await;
    assert_eq!(res.status(), 404);
    assert_eq!(res.text(), "param,caught 404 no user 1");
}

#[tokio::test]
async fn param_callback_can_answer_the_request() {
    let mut app = webfw::app();
    app.param("id", |_: &mut Request, res: &mut Response, id: &str| {
        if id == "0" {
            res.status(404).send("no such user")
        } else {
            next()
        }
    });
    app.get("/u/:id", |_: &mut Request, res: &mut Response| {
        res.send("found")
    });
    let srv = TestClient::new(app);
    let res = srv.get("/u/0").send().await;
    assert_eq!(res.status(), 404);
    assert_eq!(res.text(), "no such user");
    assert_eq!(srv.get("/u/1").send().await.text(), "found");
}

async fn async_param(req: &mut Request, _: &mut Response, id: &str) -> Result {
    tokio::task::yield_now().await;
    let v = format!("async {id}");
    trace(req, &v);
    next()
}

#[tokio::test]
async fn async_param_callback_is_awaited() {
    let mut app = webfw::app();
    app.param("id", async_param);
    app.get("/u/:id", send_trace);
    let srv = TestClient::new(app);
    assert_eq!(srv.get("/u/9").send().await.text(), "async 9");
}

// ---- mergeParams ----

fn merging() -> Router {
    webfw::Router::with_options(RouterOptions::new().merge_params(true))
}

#[tokio::test]
async fn merge_params_keeps_the_parent_params() {
    let mut router = merging();
    router.get("/posts/:pid", send_params);
    let mut app = webfw::app();
    app.use_at("/users/:uid", router);
    let srv = TestClient::new(app);
    assert_eq!(
        srv.get("/users/1/posts/2").send().await.text(),
        r#"{"uid":"1","pid":"2"}"#
    );
}

#[tokio::test]
async fn without_merge_params_only_the_router_params_are_visible() {
    let mut router = webfw::router();
    router.get("/posts/:pid", send_params);
    let mut app = webfw::app();
    app.use_at("/users/:uid", router);
    let srv = TestClient::new(app);
    assert_eq!(
        srv.get("/users/1/posts/2").send().await.text(),
        r#"{"pid":"2"}"#
    );
}

#[tokio::test]
async fn merged_child_params_override_parent_params_of_the_same_name() {
    let mut router = merging();
    router.get("/b/:id", send_params);
    let mut app = webfw::app();
    app.use_at("/a/:id", router);
    let srv = TestClient::new(app);
    assert_eq!(
        srv.get("/a/parent/b/child")
            .send()
            .await
            .json::<serde_json::Value>(),
        json!({"id": "child"})
    );
}

#[tokio::test]
async fn merged_numeric_keys_are_shifted_after_the_parent_ones() {
    let mut router = merging();
    router.get(
        PathSpec::regex(r"^\/(\w+)\.(\w+)$"),
        |req: &mut Request, res: &mut Response| {
            let s = serde_json::to_string(req.params()).unwrap();
            res.send(s)
        },
    );
    let mut app = webfw::app();
    app.use_at(PathSpec::regex(r"^\/num\/(\d+)"), router);
    let srv = TestClient::new(app);
    assert_eq!(
        srv.get("/num/10/profile.json").send().await.text(),
        r#"{"0":"10","1":"profile","2":"json"}"#
    );
}

#[tokio::test]
async fn parent_params_are_restored_after_a_router_passes() {
    let mut router = webfw::router();
    router.get("/:b", |req: &mut Request, _: &mut Response| {
        let s = format!("inner {}", serde_json::to_string(req.params()).unwrap());
        trace(req, &s);
        next()
    });
    let mut app = webfw::app();
    app.use_at(
        "/x/:a",
        (router, |req: &mut Request, res: &mut Response| {
            let s = format!("outer {}", serde_json::to_string(req.params()).unwrap());
            trace(req, &s);
            send_trace(req, res)
        }),
    );
    let srv = TestClient::new(app);
    assert_eq!(
        srv.get("/x/1/2").send().await.text(),
        r#"inner {"b":"2"},outer {"a":"1"}"#
    );
}

/// Params buffers are reused from request to request: what one request
/// matched (more params, longer values, a value that failed to decode) must
/// never show in the next one's.
#[tokio::test]
async fn params_of_one_request_never_reach_the_next() {
    let mut app = webfw::app();
    app.get("/two/:a/:b", send_params);
    app.get("/one/:c", send_params);
    app.get("/none", send_params);
    // One keep-alive connection: the buffers recycled per connection.
    let srv = common::TestServer::start(app).await;
    let mut conn = common::Conn::open(srv.addr).await;
    let steps = [
        (
            "/two/a-long-first-value/b%20c",
            Some(json!({"a": "a-long-first-value", "b": "b c"})),
        ),
        ("/one/z", Some(json!({"c": "z"}))),
        ("/none", Some(json!({}))),
        ("/one/%E0%A4%A", None),
        ("/one/%41", Some(json!({"c": "A"}))),
        ("/two/x/y", Some(json!({"a": "x", "b": "y"}))),
    ];
    for (path, want) in steps {
        conn.send(common::keep_alive_request("GET", path, &[]))
            .await;
        let got = conn.read_response(false).await;
        match want {
            Some(params) => {
                assert_eq!(got.status, 200, "{path}");
                assert_eq!(got.json(), params, "{path}");
            }
            None => assert_eq!(got.status, 400, "{path}: a bad escape"),
        }
    }
}

/// Express restores a router's parent params only when the router is left
/// (`next` past its end): after a route answered, `req.params` are still
/// that route's, as the response's finish hooks see them.
#[tokio::test]
async fn finish_hooks_see_the_params_of_the_route_that_answered() {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut app = webfw::app();
    let hook_seen = seen.clone();
    app.use_(move |_: &mut Request, res: &mut Response| {
        let seen = hook_seen.clone();
        res.on_finish(move |req, _| {
            seen.lock().unwrap().push(json!(req.params()).to_string());
        });
        next()
    });
    let mut router = webfw::router();
    router.get("/:id", send_params);
    app.use_at("/users", router);
    app.get("/left/:x", |_: &mut Request, _: &mut Response| next());
    let srv = TestClient::new(app);
    assert_eq!(srv.get("/users/7").send().await.text(), r#"{"id":"7"}"#);
    // A route that passes on: its router is left, the params restored (to
    // none at the top; `undefined` in Express).
    assert_eq!(srv.get("/left/1").send().await.status(), 404);
    common::guard("finish hooks", async {
        while seen.lock().unwrap().len() < 2 {
            tokio::task::yield_now().await;
        }
    })
    .await;
    assert_eq!(*seen.lock().unwrap(), [r#"{"id":"7"}"#, "{}"]);
}

/// Each matched layer sets `req.params` to its own: a layer without
/// parameters after one with them sees none.
#[tokio::test]
async fn a_layer_without_params_after_one_with_params_sees_none() {
    let mut app = webfw::app();
    app.use_at("/users/:id", |req: &mut Request, _: &mut Response| {
        let seen = req.param("id").unwrap_or("-").to_owned();
        trace(req, &seen);
        next()
    });
    app.get("/users/7", |req: &mut Request, res: &mut Response| {
        let body = json!({ "trace": trace_of(req), "params": req.params() });
        res.json(&body)
    });
    let srv = TestClient::new(app);
    assert_eq!(
        srv.get("/users/7").send().await.json::<serde_json::Value>(),
        json!({ "trace": "7", "params": {} })
    );
}
