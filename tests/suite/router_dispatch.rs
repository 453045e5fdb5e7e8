//! Dispatch through real requests: `use` prefix stripping and restoring,
//! registration order, `next`/`next_route`/`next_router`/errors, route
//! chains, `all`, custom methods, HEAD and automatic OPTIONS.

use crate::common;

use common::{Log, TestServer, error_page, trace, trace_of, trace_param};
use serde_json::json;
use webfw::prelude::*;

fn describe(req: &mut Request, res: &mut Response) -> Result {
    let v = json!({
        "url": req.url(),
        "baseUrl": req.base_url(),
        "originalUrl": req.original_url(),
        "path": req.path(),
        "params": req.params(),
    });
    res.json(&v)
}

fn snapshot(req: &Request, tag: &str) -> String {
    format!(
        "{tag}:{}|{}|{}|{}",
        req.url(),
        req.base_url(),
        req.original_url(),
        req.path()
    )
}

fn send_trace(req: &mut Request, res: &mut Response) -> Result {
    let t = trace_of(req);
    res.send(t)
}

// ---- use: prefix stripping and restoring ----

#[tokio::test]
async fn use_strips_the_mount_path_and_restores_it_afterwards() {
    let mut app = webfw::app();
    app.use_at("/blog", |req: &mut Request, _: &mut Response| {
        let s = snapshot(req, "in");
        trace(req, &s);
        next()
    });
    app.get("/blog/post", |req: &mut Request, res: &mut Response| {
        let s = snapshot(req, "after");
        trace(req, &s);
        send_trace(req, res)
    });
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/blog/post?x=1").await.text(),
        "in:/post?x=1|/blog|/blog/post?x=1|/post,after:/blog/post?x=1||/blog/post?x=1|/blog/post"
    );
}

#[tokio::test]
async fn request_at_the_mount_point_sees_a_slash_url() {
    let mut app = webfw::app();
    app.use_at("/s/m", describe);
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/s/m").await.json(),
        json!({"url": "/", "baseUrl": "/s/m", "originalUrl": "/s/m", "path": "/", "params": {}})
    );
    assert_eq!(srv.get("/s/m?q=1").await.json()["url"], "/?q=1");
}

#[tokio::test]
async fn use_path_must_end_at_a_segment_boundary() {
    let mut app = webfw::app();
    app.use_at("/dot", |_: &mut Request, res: &mut Response| {
        res.send("dot")
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/dot").await.text(), "dot");
    assert_eq!(srv.get("/dot/").await.text(), "dot");
    assert_eq!(srv.get("/dot/x").await.text(), "dot");
    assert_eq!(srv.get("/dot.json").await.status, 404);
    assert_eq!(srv.get("/dotx").await.status, 404);
}

#[tokio::test]
async fn base_url_is_the_matched_text_not_the_pattern() {
    let mut app = webfw::app();
    app.use_at("/dot", describe);
    let srv = TestServer::start(app).await;
    let v = srv.get("/DOT/x").await.json();
    assert_eq!(v["baseUrl"], "/DOT");
    assert_eq!(v["url"], "/x");
}

#[tokio::test]
async fn mount_path_with_trailing_slash_drops_it_from_base_url() {
    let mut app = webfw::app();
    app.use_at("/foo/", describe);
    let srv = TestServer::start(app).await;
    let v = srv.get("/foo/bar").await.json();
    assert_eq!(v["baseUrl"], "/foo");
    assert_eq!(v["url"], "/bar");
    let v = srv.get("/foo/").await.json();
    assert_eq!(v["baseUrl"], "/foo");
    assert_eq!(v["url"], "/");
}

#[tokio::test]
async fn nested_routers_accumulate_base_url() {
    let mut inner = webfw::router();
    inner.get("/c/:id", describe);
    let mut outer = webfw::router();
    outer.use_at("/b", inner);
    let mut app = webfw::app();
    app.use_at("/a", outer);
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/a/b/c/9?z=2").await.json(),
        json!({"url": "/c/9?z=2", "baseUrl": "/a/b", "originalUrl": "/a/b/c/9?z=2", "path": "/c/9", "params": {"id": "9"}})
    );
}

#[tokio::test]
async fn mount_path_with_a_parameter_strips_the_matched_text() {
    let mut router = webfw::router();
    router.get("/x/:id", describe);
    let mut app = webfw::app();
    app.use_at("/mount/:m", router);
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/mount/7/x/9?q=1").await.json(),
        json!({"url": "/x/9?q=1", "baseUrl": "/mount/7", "originalUrl": "/mount/7/x/9?q=1", "path": "/x/9", "params": {"id": "9"}})
    );
}

#[tokio::test]
async fn absolute_form_target_keeps_scheme_and_host_when_stripped() {
    let mut app = webfw::app();
    app.use_at("/dot", describe);
    let srv = TestServer::start(app).await;
    let v = srv
        .raw(b"GET http://example.com/dot/x?y=1 HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
        .await
        .json();
    assert_eq!(v["url"], "http://example.com/x?y=1");
}

#[tokio::test]
async fn absolute_form_target_is_matched_on_its_path() {
    let mut app = webfw::app();
    app.use_at("/dot", describe);
    let srv = TestServer::start(app).await;
    let v = srv
        .raw(b"GET http://example.com/dot/x?y=1 HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
        .await
        .json();
    assert_eq!(v["originalUrl"], "http://example.com/dot/x?y=1");
    assert_eq!(v["baseUrl"], "/dot");
    assert_eq!(v["path"], "/x");
}

fn rewrite_app(padded: bool) -> App {
    let mut app = webfw::app();
    if padded {
        for i in 0..30 {
            app.get(
                format!("/pad-{i}").as_str(),
                |_: &mut Request, res: &mut Response| res.send("pad"),
            );
        }
    }
    app.use_at("/old", |req: &mut Request, _: &mut Response| {
        req.set_url("/new/page");
        next()
    });
    app.use_(|req: &mut Request, _: &mut Response| {
        if req.path() == "/top" {
            req.set_url("/moved?k=v");
        }
        next()
    });
    app.get("/old/new/page", |req: &mut Request, res: &mut Response| {
        let s = snapshot(req, "rewritten");
        res.send(s)
    });
    app.get("/moved", |req: &mut Request, res: &mut Response| {
        let s = snapshot(req, "moved");
        res.send(s)
    });
    app
}

#[tokio::test]
async fn url_rewritten_in_mounted_middleware_gets_the_mount_path_back() {
    for padded in [false, true] {
        let srv = TestServer::start(rewrite_app(padded)).await;
        assert_eq!(
            srv.get("/old/anything").await.text(),
            "rewritten:/old/new/page||/old/anything|/old/new/page",
            "padded={padded}"
        );
    }
}

#[tokio::test]
async fn url_rewritten_by_middleware_routes_to_the_new_path() {
    for padded in [false, true] {
        let srv = TestServer::start(rewrite_app(padded)).await;
        assert_eq!(
            srv.get("/top").await.text(),
            "moved:/moved?k=v||/top|/moved",
            "padded={padded}"
        );
    }
}

// ---- order ----

#[tokio::test]
async fn middleware_and_routes_run_in_registration_order() {
    let mut app = webfw::app();
    app.use_(|req: &mut Request, _: &mut Response| {
        trace(req, "mw1");
        next()
    });
    app.get("/x", |req: &mut Request, _: &mut Response| {
        trace(req, "route1");
        next()
    });
    app.use_(|req: &mut Request, _: &mut Response| {
        trace(req, "mw2");
        next()
    });
    app.get("/x", |req: &mut Request, res: &mut Response| {
        trace(req, "route2");
        send_trace(req, res)
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/x").await.text(), "mw1,route1,mw2,route2");
}

#[tokio::test]
async fn first_registered_matching_route_wins() {
    let mut app = webfw::app();
    app.get("/dup", |_: &mut Request, res: &mut Response| {
        res.send("first")
    });
    app.get("/dup", |_: &mut Request, res: &mut Response| {
        res.send("second")
    });
    app.get("/item/:id", |_: &mut Request, res: &mut Response| {
        res.send("param")
    });
    app.get("/item/new", |_: &mut Request, res: &mut Response| {
        res.send("literal")
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/dup").await.text(), "first");
    assert_eq!(srv.get("/item/new").await.text(), "param");
}

#[tokio::test]
async fn nothing_after_a_responding_handler_runs() {
    let log = Log::new();
    let l = log.clone();
    let mut app = webfw::app();
    app.get("/x", |_: &mut Request, res: &mut Response| res.send("done"));
    app.use_(move |_: &mut Request, _: &mut Response| {
        l.push("later middleware ran");
        next()
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/x").await.text(), "done");
    assert_eq!(srv.get("/other").await.status, 404);
    assert_eq!(log.entries(), ["later middleware ran"]);
}

// ---- next / next_route / next_router ----

#[tokio::test]
async fn next_passes_to_the_next_handler_of_the_route() {
    let mut app = webfw::app();
    app.get(
        "/",
        (
            |req: &mut Request, _: &mut Response| {
                trace(req, "a");
                next()
            },
            |req: &mut Request, _: &mut Response| {
                trace(req, "b");
                next()
            },
            send_trace,
        ),
    );
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/").await.text(), "a,b");
}

#[tokio::test]
async fn next_route_skips_the_rest_of_the_route() {
    let mut app = webfw::app();
    app.get(
        "/x",
        (
            |req: &mut Request, _: &mut Response| {
                trace(req, "skip");
                next_route()
            },
            |req: &mut Request, _: &mut Response| {
                trace(req, "never");
                next()
            },
        ),
    );
    app.get("/x", |req: &mut Request, res: &mut Response| {
        trace(req, "second");
        send_trace(req, res)
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/x").await.text(), "skip,second");
}

#[tokio::test]
async fn next_route_in_middleware_acts_like_next() {
    let mut app = webfw::app();
    app.use_((
        |req: &mut Request, _: &mut Response| {
            trace(req, "mw");
            next_route()
        },
        |req: &mut Request, _: &mut Response| {
            trace(req, "mw2");
            next()
        },
    ));
    app.get("/", send_trace);
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/").await.text(), "mw,mw2");
}

#[tokio::test]
async fn next_router_from_middleware_leaves_the_router() {
    let mut router = webfw::router();
    router.use_(|req: &mut Request, _: &mut Response| {
        trace(req, "router-mw");
        next_router()
    });
    router.get("/x", |_: &mut Request, res: &mut Response| {
        res.send("never")
    });
    let mut app = webfw::app();
    app.use_at("/r", router);
    app.get("/r/x", |req: &mut Request, res: &mut Response| {
        trace(req, "parent");
        send_trace(req, res)
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/r/x").await.text(), "router-mw,parent");
}

#[tokio::test]
async fn next_router_from_a_route_leaves_the_router() {
    let mut router = webfw::router();
    router.get(
        "/x",
        (
            |req: &mut Request, _: &mut Response| {
                trace(req, "leave");
                next_router()
            },
            |_: &mut Request, res: &mut Response| res.send("never"),
        ),
    );
    router.get("/x", |_: &mut Request, res: &mut Response| {
        res.send("never either")
    });
    let mut app = webfw::app();
    app.use_at("/r", router);
    app.use_(send_trace);
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/r/x").await.text(), "leave");
}

#[tokio::test]
async fn next_router_at_app_level_ends_in_404() {
    let mut app = webfw::app();
    app.use_(|_: &mut Request, _: &mut Response| next_router());
    app.get("/", |_: &mut Request, res: &mut Response| res.send("never"));
    let srv = TestServer::start(app).await;
    let res = srv.get("/").await;
    assert_eq!(res.status, 404);
    assert_eq!(res.text(), error_page("Cannot GET /"));
}

// ---- errors ----

fn fail(req: &mut Request, _: &mut Response) -> Result {
    trace(req, "fail");
    Err(Error::new("kaboom"))
}

fn catch(err: Error, req: &mut Request, res: &mut Response) -> Result {
    trace(req, &format!("caught {err}"));
    send_trace(req, res)
}

#[tokio::test]
async fn error_skips_normal_handlers_until_an_error_handler() {
    let mut app = webfw::app();
    app.get("/e", fail);
    app.use_(|req: &mut Request, _: &mut Response| {
        trace(req, "normal middleware");
        next()
    });
    app.get("/e", |req: &mut Request, _: &mut Response| {
        trace(req, "normal route");
        next()
    });
    app.use_(catch);
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/e").await.text(), "fail,caught kaboom");
}

#[tokio::test]
async fn error_handlers_are_skipped_without_an_error() {
    let mut app = webfw::app();
    app.use_(|err: Error, req: &mut Request, _: &mut Response| {
        trace(req, &format!("unexpected {err}"));
        next()
    });
    app.get("/", |req: &mut Request, res: &mut Response| {
        trace(req, "ok");
        send_trace(req, res)
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/").await.text(), "ok");
}

#[tokio::test]
async fn error_handler_calling_next_resumes_normal_handlers() {
    let mut app = webfw::app();
    app.get("/e", fail);
    app.use_(|err: Error, req: &mut Request, _: &mut Response| {
        trace(req, &format!("handled {err}"));
        next()
    });
    app.use_(|req: &mut Request, res: &mut Response| {
        trace(req, "resumed");
        send_trace(req, res)
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/e").await.text(), "fail,handled kaboom,resumed");
}

#[tokio::test]
async fn error_handler_returning_an_error_passes_it_on() {
    let mut app = webfw::app();
    app.get("/e", fail);
    app.use_(
        |err: Error, req: &mut Request, _: &mut Response| -> Result {
            trace(req, &format!("wrap {err}"));
            Err(Error::new(format!("wrapped {err}")))
        },
    );
    app.use_(catch);
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/e").await.text(),
        "fail,wrap kaboom,caught wrapped kaboom"
    );
}

#[tokio::test]
async fn error_handler_inside_a_route_catches_its_errors() {
    let mut app = webfw::app();
    app.get("/r", (fail, catch));
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/r").await.text(), "fail,caught kaboom");
}

#[tokio::test]
async fn error_in_a_router_reaches_the_parent_error_handler() {
    let mut router = webfw::router();
    router.get("/x", fail);
    router.get("/x", |_: &mut Request, res: &mut Response| {
        res.send("never")
    });
    let mut app = webfw::app();
    app.use_at("/r", router);
    app.get("/r/x", |_: &mut Request, res: &mut Response| {
        res.send("never")
    });
    app.use_(catch);
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/r/x").await.text(), "fail,caught kaboom");
}

async fn async_fail(_: &mut Request, _: &mut Response) -> Result {
    tokio::task::yield_now().await;
    Err(Error::status_message(422, "async failure"))
}

#[tokio::test]
async fn async_handler_error_is_routed_like_a_sync_one() {
    let mut app = webfw::app();
    app.get("/a", async_fail);
    app.use_(|err: Error, _: &mut Request, res: &mut Response| {
        let body = format!("{} {}", err.status(), err);
        res.status(err.status()).send(body)
    });
    let srv = TestServer::start(app).await;
    let res = srv.get("/a").await;
    assert_eq!(res.status, 422);
    assert_eq!(res.text(), "422 async failure");
}

async fn async_mark(req: &mut Request, _: &mut Response) -> Result {
    tokio::task::yield_now().await;
    let entry = format!("async:{}", req.url());
    trace(req, &entry);
    next()
}

fn sync_mark(req: &mut Request, _: &mut Response) -> Result {
    let entry = format!("sync:{}", req.url());
    trace(req, &entry);
    next()
}

fn sync_fail(req: &mut Request, _: &mut Response) -> Result {
    trace(req, "fail");
    Err(Error::status_message(418, "teapot"))
}

fn recover(err: Error, req: &mut Request, _: &mut Response) -> Result {
    trace(req, &format!("caught {err}"));
    next()
}

/// Synchronous handlers run without a future until one may await; the rest
/// of the layer, its errors and its mount path continue on the async path.
#[tokio::test]
async fn sync_and_async_handlers_mix_in_one_layer() {
    let mut app = webfw::app();
    app.use_at("/m", (sync_mark, async_mark, sync_fail, sync_mark, recover));
    app.use_at("/m", (sync_fail, recover, sync_mark));
    app.get("/m/x", (sync_mark, async_mark, sync_mark, send_trace));
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/m/x").await.text(),
        "sync:/x,async:/x,fail,caught teapot,fail,caught teapot,sync:/x,\
         sync:/m/x,async:/m/x,sync:/m/x"
    );
}

fn sync_leave(req: &mut Request, _: &mut Response) -> Result {
    trace(req, "leave");
    next_router()
}

fn sync_answer(req: &mut Request, res: &mut Response) -> Result {
    trace(req, "answer");
    send_trace(req, res)
}

/// Plain functions given together to `use` run as one chain; each result
/// still means what it means between separate handlers.
#[tokio::test]
async fn plain_functions_given_together_keep_every_flow() {
    let mut app = webfw::app();
    // An error ends the chain and travels on to the next error handler.
    app.use_at("/e", (sync_mark, sync_fail, sync_mark, sync_mark));
    app.use_at("/e", (sync_mark, recover, sync_mark));
    app.get("/e", send_trace);
    // A response ends the chain.
    app.use_at("/d", (sync_mark, sync_answer, sync_mark));
    // `next_router` leaves the router the chain is in.
    let mut router = webfw::router();
    router.use_((sync_mark, sync_leave, sync_mark));
    router.get("/", |_: &mut Request, res: &mut Response| res.send("never"));
    app.use_at("/r", router);
    app.get("/r", send_trace);
    // Chains nest; `next_route` goes on with the next function.
    app.use_at(
        "/n",
        ((sync_mark, next_route_mark), (next_route_mark, sync_mark)),
    );
    app.get("/n", send_trace);
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/e").await.text(),
        "sync:/,fail,caught teapot,sync:/"
    );
    assert_eq!(srv.get("/d").await.text(), "sync:/,answer");
    assert_eq!(srv.get("/r").await.text(), "sync:/,leave");
    assert_eq!(srv.get("/n").await.text(), "sync:/,route:/,route:/,sync:/");
}

fn next_route_mark(req: &mut Request, _: &mut Response) -> Result {
    let entry = format!("route:{}", req.url());
    trace(req, &entry);
    next_route()
}

async fn async_rewrite(req: &mut Request, _: &mut Response) -> Result {
    tokio::task::yield_now().await;
    trace(req, "rewrite");
    req.set_url("/w/after");
    next()
}

/// The walk runs synchronously until a layer may await, then goes on from
/// the next layer: each layer runs once, in order, and a URL rewritten
/// while waiting decides which layers come after.
#[tokio::test]
async fn a_walk_goes_on_after_a_layer_that_awaited() {
    let mut app = webfw::app();
    app.use_(sync_mark);
    app.get("/w/before", async_mark);
    app.use_(sync_mark);
    app.use_at("/w", async_mark);
    app.get("/w/before", sync_mark);
    app.use_(async_rewrite);
    app.get("/w/before", |_: &mut Request, res: &mut Response| {
        res.send("never")
    });
    app.get("/w/after", (sync_mark, async_mark, send_trace));
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/w/before").await.text(),
        "sync:/w/before,async:/w/before,sync:/w/before,async:/before,\
         sync:/w/before,rewrite,sync:/w/after,async:/w/after"
    );
}

/// Param callbacks run on the async path; the layers after them run once.
#[tokio::test]
async fn the_walk_goes_on_after_param_callbacks() {
    let mut app = webfw::app();
    app.param("id", trace_param);
    app.use_(sync_mark);
    app.get("/p/:id", sync_mark);
    app.get("/p/:id", (async_mark, sync_mark));
    app.get("/p/:id", send_trace);
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/p/7").await.text(),
        "sync:/p/7,param 7,sync:/p/7,async:/p/7,sync:/p/7"
    );
    assert_eq!(
        srv.get("/q").await.status,
        404,
        "a request no layer answers still reaches the final handler"
    );
}

// ---- route chains, all, methods ----

#[tokio::test]
async fn route_chains_handlers_for_several_methods() {
    let mut app = webfw::app();
    app.route("/book")
        .get(|_: &mut Request, res: &mut Response| res.send("get book"))
        .post(|_: &mut Request, res: &mut Response| res.send("add book"))
        .put(|_: &mut Request, res: &mut Response| res.send("update book"));
    let srv = TestServer::start(app).await;
    assert_eq!(srv.call("GET", "/book", &[]).await.text(), "get book");
    assert_eq!(
        srv.call("POST", "/book", &[("Content-Length", "0")])
            .await
            .text(),
        "add book"
    );
    assert_eq!(
        srv.call("PUT", "/book", &[("Content-Length", "0")])
            .await
            .text(),
        "update book"
    );
    let res = srv.call("DELETE", "/book", &[]).await;
    assert_eq!(res.status, 404, "a method mismatch is a 404, never 405");
    assert_eq!(res.text(), error_page("Cannot DELETE /book"));
}

#[tokio::test]
async fn route_all_runs_before_method_handlers_in_order() {
    let mut app = webfw::app();
    app.route("/x")
        .all(|req: &mut Request, _: &mut Response| {
            trace(req, "all");
            next()
        })
        .get(|req: &mut Request, res: &mut Response| {
            trace(req, "get");
            send_trace(req, res)
        });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/x").await.text(), "all,get");
    assert_eq!(
        srv.call("POST", "/x", &[("Content-Length", "0")])
            .await
            .status,
        404
    );
}

#[tokio::test]
async fn app_all_matches_every_method() {
    let mut app = webfw::app();
    app.all("/any", |req: &mut Request, res: &mut Response| {
        let m = req.method().to_string();
        res.send(m)
    });
    let srv = TestServer::start(app).await;
    for m in ["GET", "POST", "DELETE", "PATCH", "OPTIONS", "PROPFIND"] {
        let res = srv.call(m, "/any", &[("Content-Length", "0")]).await;
        assert_eq!(res.status, 200, "{m}");
        assert_eq!(res.text(), m);
    }
}

#[tokio::test]
async fn m_search_is_routed_through_app_method() {
    let mut app = webfw::app();
    app.method("m-search", "/", |req: &mut Request, res: &mut Response| {
        let m = req.method().to_string();
        res.send(format!("{m} ok"))
    });
    app.m_search("/typed", |_: &mut Request, res: &mut Response| {
        res.send("typed")
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.call("M-SEARCH", "/", &[]).await.text(), "M-SEARCH ok");
    assert_eq!(srv.call("M-SEARCH", "/typed", &[]).await.text(), "typed");
    assert_eq!(srv.get("/").await.status, 404);
}

#[tokio::test]
async fn unregistered_method_gets_a_404_naming_it() {
    let mut app = webfw::app();
    app.get("/x", |_: &mut Request, res: &mut Response| res.send("x"));
    let srv = TestServer::start(app).await;
    let res = srv.call("PROPFIND", "/x", &[]).await;
    assert_eq!(res.status, 404);
    assert_eq!(res.text(), error_page("Cannot PROPFIND /x"));
}

// ---- HEAD ----

fn tagged(
    tag: &'static str,
) -> impl Fn(&mut Request, &mut Response) -> Result + Send + Sync + 'static {
    move |_: &mut Request, res: &mut Response| res.set("X-Handler", tag).send(tag)
}

#[tokio::test]
async fn head_is_answered_by_get_without_a_body() {
    let mut app = webfw::app();
    app.get("/h", |_: &mut Request, res: &mut Response| {
        res.send("hello")
    });
    let srv = TestServer::start(app).await;
    let res = srv.call("HEAD", "/h", &[]).await;
    assert_eq!(res.status, 200);
    assert!(res.body.is_empty());
    assert_eq!(res.header("content-length"), Some("5"));
    assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(
        res.header("etag"),
        Some("W/\"5-qvTGHdzF6KLavt4PO0gs2a6pQ00\"")
    );
}

#[tokio::test]
async fn head_handler_registered_before_get_answers_head() {
    let mut app = webfw::app();
    app.head("/h", tagged("head"));
    app.get("/h", tagged("get"));
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.call("HEAD", "/h", &[]).await.header("x-handler"),
        Some("head")
    );
    assert_eq!(srv.get("/h").await.text(), "get");
}

#[tokio::test]
async fn get_registered_before_head_answers_head() {
    let mut app = webfw::app();
    app.get("/h", tagged("get"));
    app.head("/h", tagged("head"));
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.call("HEAD", "/h", &[]).await.header("x-handler"),
        Some("get")
    );
}

#[tokio::test]
async fn head_handler_on_the_same_route_wins_over_get() {
    let mut app = webfw::app();
    app.route("/h").get(tagged("get")).head(tagged("head"));
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.call("HEAD", "/h", &[]).await.header("x-handler"),
        Some("head")
    );
    assert_eq!(srv.get("/h").await.header("x-handler"), Some("get"));
}

#[tokio::test]
async fn head_enters_non_get_routes_for_their_param_callbacks_then_404s() {
    let mut app = webfw::app();
    app.param("id", trace_param);
    app.post("/q/:id", |_: &mut Request, res: &mut Response| {
        res.send("post")
    });
    app.use_(|req: &mut Request, res: &mut Response| {
        let t = trace_of(req);
        res.status(404).set("X-Trace", t).end()
    });
    let srv = TestServer::start(app).await;
    let res = srv.call("HEAD", "/q/1", &[]).await;
    assert_eq!(res.status, 404);
    assert_eq!(res.header("x-trace"), Some("param 1"));
    let res = srv.get("/q/1").await;
    assert_eq!(res.header("x-trace"), Some(""));
}

// ---- automatic OPTIONS ----

#[tokio::test]
async fn options_answers_with_the_allowed_methods_of_matching_routes() {
    let mut app = webfw::app();
    app.route("/book")
        .get(tagged("get"))
        .post(tagged("post"))
        .put(tagged("put"));
    app.delete("/book", tagged("delete"));
    app.get("/book", tagged("get again"));
    app.get("/other", tagged("other"));
    let srv = TestServer::start(app).await;
    let res = srv.call("OPTIONS", "/book", &[]).await;
    assert_eq!(res.status, 200);
    assert_eq!(res.header("allow"), Some("GET,POST,PUT,HEAD,DELETE"));
    assert_eq!(res.text(), "GET,POST,PUT,HEAD,DELETE");
    assert_eq!(res.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(res.header("content-length"), Some("24"));
    assert_eq!(
        res.header("etag"),
        Some("W/\"18-ubduawxt20/XBVUNJvYhATYWJUM\"")
    );
    assert!(res.has_header("x-powered-by"));
    let names = res.header_names();
    let pos = |n: &str| names.iter().position(|x| *x == n).unwrap();
    assert!(pos("x-powered-by") < pos("allow") && pos("allow") < pos("content-type"));
}

#[tokio::test]
async fn explicit_options_handler_is_used() {
    let mut app = webfw::app();
    app.get("/x", tagged("get"));
    app.options("/x", |_: &mut Request, res: &mut Response| {
        res.set("Allow", "GET").send("custom")
    });
    let srv = TestServer::start(app).await;
    let res = srv.call("OPTIONS", "/x", &[]).await;
    assert_eq!(res.text(), "custom");
    assert_eq!(res.header("allow"), Some("GET"));
}

#[tokio::test]
async fn options_without_a_matching_route_is_404() {
    let mut app = webfw::app();
    app.get("/x", tagged("get"));
    let srv = TestServer::start(app).await;
    let res = srv.call("OPTIONS", "/nothing", &[]).await;
    assert_eq!(res.status, 404);
    assert_eq!(res.text(), error_page("Cannot OPTIONS /nothing"));
}

#[tokio::test]
async fn nested_router_answers_options_at_the_end_of_its_own_stack() {
    let mut router = webfw::router();
    router.get("/y", tagged("get"));
    let mut app = webfw::app();
    app.use_at("/r", router);
    app.post("/r/y", tagged("post"));
    let srv = TestServer::start(app).await;
    let res = srv.call("OPTIONS", "/r/y", &[]).await;
    assert_eq!(res.header("allow"), Some("GET,HEAD"));
    assert_eq!(
        res.header("etag"),
        Some("W/\"8-ZRAf8oNBS3Bjb/SU2GYZCmbtmXg\"")
    );
}

#[tokio::test]
async fn options_lists_head_once_when_declared_explicitly() {
    let mut app = webfw::app();
    app.route("/x").head(tagged("head")).get(tagged("get"));
    app.post("/x", tagged("post"));
    let srv = TestServer::start(app).await;
    let res = srv.call("OPTIONS", "/x", &[]).await;
    assert_eq!(res.header("allow"), Some("HEAD,GET,POST"));
}

#[tokio::test]
async fn options_is_not_answered_automatically_while_an_error_is_pending() {
    let mut app = webfw::app();
    app.set("env", "production");
    app.get("/x", tagged("get"));
    app.use_(|_: &mut Request, _: &mut Response| -> Result {
        Err(Error::status_message(403, "no"))
    });
    let srv = TestServer::start(app).await;
    let res = srv.call("OPTIONS", "/x", &[]).await;
    assert_eq!(res.status, 403);
    assert_eq!(res.text(), error_page("Forbidden"));
}
