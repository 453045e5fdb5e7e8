//! Apps registered with the macros (`#[get]`, `#[param]`, `#[error_handler]`,
//! `#[middleware]`, `routes!`, `mount`) behave exactly like the same
//! functions registered by hand: every scenario builds both apps from the
//! same functions, sends the same raw HTTP/1.1 requests to both over real
//! sockets and compares status, headers (except `Date`) and body, then checks
//! the expected answer so that the comparison is not vacuous.

use crate::common;

use common::{HttpResponse, TestServer};
use serde_json::json;
use webfw::prelude::*;

/// Appends a step to the request's `steps` local.
fn step(req: &mut Request, name: &str) {
    let mut steps = req
        .local("steps")
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .to_owned();
    if !steps.is_empty() {
        steps.push(',');
    }
    steps.push_str(name);
    req.set_local("steps", json!(steps));
}

fn steps(req: &Request) -> String {
    req.local("steps")
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .to_owned()
}

/// What must be equal between the two apps.
fn summary(r: &HttpResponse) -> (u16, Vec<(String, String)>, String) {
    let headers = r
        .headers
        .iter()
        .filter(|(k, _)| k != "date")
        .cloned()
        .collect();
    (
        r.status,
        headers,
        String::from_utf8_lossy(&r.body).into_owned(),
    )
}

/// Sends every request to both apps, asserts equal answers, returns the
/// macro app's answers.
async fn same(by_hand: App, by_macro: App, requests: &[(&str, &str)]) -> Vec<HttpResponse> {
    let hand = TestServer::start(by_hand).await;
    let mac = TestServer::start(by_macro).await;
    let mut out = Vec::new();
    for (method, path) in requests {
        let a = hand.call(method, path, &[]).await;
        let b = mac.call(method, path, &[]).await;
        assert_eq!(
            summary(&a),
            summary(&b),
            "{method} {path}: hand-written (left) and macro (right) apps differ"
        );
        out.push(b);
    }
    hand.shutdown().await;
    mac.shutdown().await;
    out
}

// ---------------------------------------------------------------------------
// order, next(), next_route(), all, HEAD, OPTIONS, several paths

#[middleware]
fn first(req: &mut Request, _res: &mut Response) -> Result {
    step(req, "first");
    next()
}

#[all("/order")]
fn any_method(req: &mut Request, _res: &mut Response) -> Result {
    step(req, "all");
    next()
}

#[get("/order")]
async fn order_a(req: &mut Request, _res: &mut Response) -> Result {
    tokio::task::yield_now().await;
    step(req, "a");
    next()
}

#[post("/order")]
fn order_post(req: &mut Request, res: &mut Response) -> Result {
    step(req, "post");
    let s = steps(req);
    res.send(s)
}

#[get("/order", "/order/:x")]
fn order_b(req: &mut Request, _res: &mut Response) -> Result {
    step(req, "b");
    if req.query()["skip"] == "1" {
        next_route()
    } else {
        next()
    }
}

#[middleware("/order")]
fn late(req: &mut Request, _res: &mut Response) -> Result {
    step(req, "late");
    next()
}

#[get("/order")]
#[get("/order/:x")]
fn order_end(req: &mut Request, res: &mut Response) -> Result {
    step(req, "end");
    let route = req.route().and_then(|r| r.path()).unwrap_or("-").to_owned();
    let s = steps(req);
    res.set("x-route", route).send(s)
}

#[route(method = "m-search", path = "/order")]
fn order_search(req: &mut Request, res: &mut Response) -> Result {
    step(req, "m-search");
    let s = steps(req);
    res.send(s)
}

fn order_by_hand() -> App {
    let mut app = webfw::app();
    app.use_(first);
    app.all("/order", any_method);
    app.get("/order", order_a);
    app.post("/order", order_post);
    app.get(["/order", "/order/:x"], order_b);
    app.use_at("/order", late);
    app.get("/order", order_end);
    app.get("/order/:x", order_end);
    app.method("m-search", "/order", order_search);
    app
}

fn order_by_macro() -> App {
    let mut app = webfw::app();
    app.mount(routes![
        first,
        any_method,
        order_a,
        order_post,
        order_b,
        late,
        order_end,
        order_search
    ]);
    app
}

#[tokio::test]
async fn registration_order_is_the_listed_order() {
    let r = same(
        order_by_hand(),
        order_by_macro(),
        &[
            ("GET", "/order"),
            ("GET", "/order?skip=1"),
            ("GET", "/order/7"),
            ("POST", "/order"),
            ("M-SEARCH", "/order"),
            ("DELETE", "/order"),
            ("GET", "/nowhere"),
        ],
    )
    .await;
    assert_eq!(r[0].text(), "first,all,a,b,late,end");
    assert_eq!(r[0].header("x-route"), Some("/order"));
    assert_eq!(r[1].text(), "first,all,a,b,late,end");
    assert_eq!(r[2].text(), "first,b,late,end");
    assert_eq!(r[2].header("x-route"), Some("/order/:x"));
    assert_eq!(r[3].text(), "first,all,post");
    assert_eq!(r[4].text(), "first,all,late,m-search");
    assert_eq!(r[5].status, 404);
    assert_eq!(r[6].status, 404);
}

#[tokio::test]
async fn head_and_options_are_answered_like_hand_written_routes() {
    let r = same(
        order_by_hand(),
        order_by_macro(),
        &[
            ("HEAD", "/order"),
            ("OPTIONS", "/order"),
            ("OPTIONS", "/order/1"),
        ],
    )
    .await;
    assert_eq!(r[0].status, 200);
    assert!(r[0].body.is_empty());
    assert_eq!(r[1].status, 200);
    // the `all` route makes Express's automatic OPTIONS answer list nothing
    // extra; whatever it lists, both apps list the same
    assert_eq!(r[2].header("allow"), Some("GET,HEAD"));
}

// ---------------------------------------------------------------------------
// param callbacks: once per request and value, errors, several names

#[param("id")]
async fn load_user(req: &mut Request, _res: &mut Response, id: &str) -> Result {
    let calls = req.local("calls").and_then(|v| v.as_u64()).unwrap_or(0) + 1;
    req.set_local("calls", json!(calls));
    if id == "0" {
        return Err(Error::new("no such user").with_status(404));
    }
    req.set_local("user", json!({ "id": id }));
    next()
}

#[get("/users/:id")]
fn user_first(req: &mut Request, _res: &mut Response) -> Result {
    step(req, "first");
    next()
}

#[get("/users/:id")]
fn user_show(req: &mut Request, res: &mut Response) -> Result {
    step(req, "show");
    let body = json!({
        "user": req.local("user").cloned(),
        "calls": req.local("calls").cloned(),
        "steps": steps(req),
    });
    res.json(&body)
}

#[param("from", "to")]
fn bound(req: &mut Request, _res: &mut Response, value: &str) -> Result {
    step(req, &format!("bound:{value}"));
    next()
}

#[get("/range/:from-:to")]
fn range(req: &mut Request, res: &mut Response) -> Result {
    let s = steps(req);
    res.send(s)
}

#[error_handler]
async fn json_errors(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    res.status(err.status())
        .json(&json!({ "error": err.message(), "status": err.status() }))
}

fn params_by_hand() -> App {
    let mut app = webfw::app();
    app.param("id", load_user);
    app.get("/users/:id", user_first);
    app.get("/users/:id", user_show);
    app.params(&["from", "to"], bound);
    app.get("/range/:from-:to", range);
    app.use_(json_errors);
    app
}

fn params_by_macro() -> App {
    let mut app = webfw::app();
    app.mount(routes![
        load_user,
        user_first,
        user_show,
        bound,
        range,
        json_errors
    ]);
    app
}

#[tokio::test]
async fn param_callback_runs_once_per_request() {
    let r = same(
        params_by_hand(),
        params_by_macro(),
        &[
            ("GET", "/users/7"),
            ("GET", "/users/0"),
            ("GET", "/range/1-5"),
            ("GET", "/range/3-3"),
        ],
    )
    .await;
    assert_eq!(
        r[0].json(),
        json!({ "user": { "id": "7" }, "calls": 1, "steps": "first,show" })
    );
    assert_eq!(r[1].status, 404);
    assert_eq!(
        r[1].json(),
        json!({ "error": "no such user", "status": 404 })
    );
    assert_eq!(r[2].text(), "bound:1,bound:5");
    // the same callback for the same value runs once even for two names
    assert_eq!(r[3].text(), "bound:3,bound:3");
}

// ---------------------------------------------------------------------------
// error flow: skipping, path-scoped error handlers, recovery

#[get("/boom")]
fn boom(req: &mut Request, _res: &mut Response) -> Result {
    step(req, "boom");
    Err(Error::new("boom").with_status(418))
}

#[get("/boom")]
fn never(req: &mut Request, res: &mut Response) -> Result {
    step(req, "never");
    let s = steps(req);
    res.send(s)
}

#[middleware]
fn skipped(req: &mut Request, _res: &mut Response) -> Result {
    step(req, "skipped");
    next()
}

#[error_handler("/boom")]
fn pass_on(err: Error, req: &mut Request, _res: &mut Response) -> Result {
    step(req, "pass_on");
    Err(err)
}

#[error_handler("/elsewhere")]
fn not_here(err: Error, req: &mut Request, _res: &mut Response) -> Result {
    step(req, "not_here");
    Err(err)
}

#[error_handler]
async fn recover(err: Error, req: &mut Request, res: &mut Response) -> Result {
    step(req, "recover");
    if req.query()["recover"] == "1" {
        return next();
    }
    let s = steps(req);
    res.status(err.status())
        .json(&json!({ "error": err.message(), "steps": s }))
}

#[get("/boom")]
fn after_recovery(req: &mut Request, res: &mut Response) -> Result {
    step(req, "after");
    let s = steps(req);
    res.send(s)
}

fn errors_by_hand() -> App {
    let mut app = webfw::app();
    app.get("/boom", boom);
    app.get("/boom", never);
    app.use_(skipped);
    app.use_at("/boom", pass_on);
    app.use_at("/elsewhere", not_here);
    app.use_(recover);
    app.get("/boom", after_recovery);
    app
}

fn errors_by_macro() -> App {
    let mut app = webfw::app();
    app.mount(routes![
        boom,
        never,
        skipped,
        pass_on,
        not_here,
        recover,
        after_recovery
    ]);
    app
}

#[tokio::test]
async fn errors_flow_through_error_handlers_in_order() {
    let r = same(
        errors_by_hand(),
        errors_by_macro(),
        &[
            ("GET", "/boom"),
            ("GET", "/boom?recover=1"),
            ("GET", "/missing"),
        ],
    )
    .await;
    assert_eq!(r[0].status, 418);
    assert_eq!(
        r[0].json(),
        json!({ "error": "boom", "steps": "boom,pass_on,recover" })
    );
    assert_eq!(r[1].text(), "boom,pass_on,recover,after");
    assert_eq!(r[2].status, 404);
}

#[tokio::test]
async fn without_error_handlers_the_final_handler_answers_the_same() {
    let mut hand = webfw::app();
    hand.get("/boom", boom);
    let mut mac = webfw::app();
    mac.mount(routes![boom]);
    let r = same(hand, mac, &[("GET", "/boom")]).await;
    assert_eq!(r[0].status, 418);
}

// ---------------------------------------------------------------------------
// mount_at: prefixes on routers and apps

#[middleware]
fn api_stamp(req: &mut Request, res: &mut Response) -> Result {
    let url = req.url().to_owned();
    res.set("x-api-url", url);
    next()
}

#[get("/")]
fn api_root(_req: &mut Request, res: &mut Response) -> Result {
    res.send("api root")
}

#[get("/users/:id")]
fn api_user(req: &mut Request, res: &mut Response) -> Result {
    let id = req.param("id").unwrap_or_default().to_owned();
    let base = req.base_url().to_owned();
    res.json(&json!({ "id": id, "baseUrl": base }))
}

#[error_handler]
fn api_errors(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    res.status(err.status())
        .send(format!("api error: {}", err.message()))
}

#[get("/fail")]
fn api_fail(_req: &mut Request, _res: &mut Response) -> Result {
    Err(Error::new("nope").with_status(409))
}

#[tokio::test]
async fn mount_at_prefixes_every_path() {
    let mut hand = webfw::app();
    let mut router = webfw::router();
    router.use_at("/api", api_stamp);
    router.get("/api", api_root);
    router.get("/api/users/:id", api_user);
    router.get("/api/fail", api_fail);
    router.use_at("/api", api_errors);
    hand.use_at("/v1", router);
    hand.get("/v2/users/:id", api_user);

    let mut mac = webfw::app();
    let mut router = webfw::router();
    router.mount_at(
        "/api",
        routes![api_stamp, api_root, api_user, api_fail, api_errors],
    );
    mac.use_at("/v1", router);
    mac.mount_at("/v2", routes![api_user]);

    let r = same(
        hand,
        mac,
        &[
            ("GET", "/v1/api"),
            ("GET", "/v1/api/"),
            ("GET", "/v1/api/users/3"),
            ("GET", "/v1/api/fail"),
            ("GET", "/v2/users/4"),
            ("GET", "/v1/users/3"),
        ],
    )
    .await;
    assert_eq!(r[0].text(), "api root");
    assert_eq!(r[0].header("x-api-url"), Some("/"));
    assert_eq!(r[1].text(), "api root");
    assert_eq!(r[2].json(), json!({ "id": "3", "baseUrl": "/v1" }));
    assert_eq!(r[2].header("x-api-url"), Some("/users/3"));
    assert_eq!(
        (r[3].status, r[3].text()),
        (409, "api error: nope".to_owned())
    );
    assert_eq!(r[4].json(), json!({ "id": "4", "baseUrl": "" }));
    assert_eq!(r[5].status, 404);
}

// ---------------------------------------------------------------------------
// simple paths (compiled without the regex engine) take the router's options

#[middleware("/Mw")]
fn opt_stamp(req: &mut Request, res: &mut Response) -> Result {
    let url = req.url().to_owned();
    res.set("x-mw-url", url);
    next()
}

/// Answers with `req.route.path` and the params.
fn route_and_params(req: &mut Request, res: &mut Response) -> Result {
    let path = req
        .route()
        .and_then(|r| r.path())
        .unwrap_or_default()
        .to_owned();
    let params = serde_json::to_value(req.params()).unwrap_or_default();
    res.json(&json!({ "route": path, "params": params }))
}

#[get("/Users/:id")]
fn opt_user(req: &mut Request, res: &mut Response) -> Result {
    route_and_params(req, res)
}

#[get("/plain/")]
fn opt_plain(req: &mut Request, res: &mut Response) -> Result {
    route_and_params(req, res)
}

#[get("/Mw/:a/:b?")]
fn opt_optional(req: &mut Request, res: &mut Response) -> Result {
    route_and_params(req, res)
}

#[get(r"/num/:n(\d+)")]
fn opt_number(req: &mut Request, res: &mut Response) -> Result {
    route_and_params(req, res)
}

fn sensitive_strict_app() -> App {
    let mut app = webfw::app();
    app.enable("case sensitive routing");
    app.enable("strict routing");
    app
}

#[tokio::test]
async fn simple_paths_take_the_routers_case_and_strict_options() {
    let mut hand = sensitive_strict_app();
    hand.use_at("/Mw", opt_stamp);
    hand.get("/Users/:id", opt_user);
    hand.get("/plain/", opt_plain);
    hand.get("/Mw/:a/:b?", opt_optional);
    hand.get(r"/num/:n(\d+)", opt_number);
    let mut sub = sensitive_strict_app();
    for (path, h) in [
        (
            "/P/Users/:id",
            opt_user as fn(&mut Request, &mut Response) -> Result,
        ),
        ("/P/plain/", opt_plain),
    ] {
        sub.get(path, h);
    }
    hand.use_at("/sub", sub);

    let mut mac = sensitive_strict_app();
    mac.mount(routes![
        opt_stamp,
        opt_user,
        opt_plain,
        opt_optional,
        opt_number
    ]);
    let mut sub = sensitive_strict_app();
    sub.mount_at("/P", routes![opt_user, opt_plain]);
    mac.use_at("/sub", sub);

    let r = same(
        hand,
        mac,
        &[
            ("GET", "/Users/7"),
            ("GET", "/users/7"),
            ("GET", "/Users/7/"),
            ("GET", "/plain/"),
            ("GET", "/plain"),
            ("GET", "/Mw/x"),
            ("GET", "/Mw/x/y"),
            ("GET", "/mw/x"),
            ("GET", "/num/12"),
            ("GET", "/num/ab"),
            ("GET", "/sub/P/Users/8"),
            ("GET", "/sub/p/users/8"),
            ("GET", "/sub/P/plain/"),
            ("GET", "/sub/P/plain"),
        ],
    )
    .await;
    let answer = |i: usize| (r[i].status, r[i].json());
    assert_eq!(
        answer(0),
        (
            200,
            json!({ "route": "/Users/:id", "params": { "id": "7" } })
        )
    );
    assert_eq!(r[1].status, 404, "case-sensitive");
    assert_eq!(r[2].status, 404, "strict: no trailing slash");
    assert_eq!(
        answer(3),
        (200, json!({ "route": "/plain/", "params": {} }))
    );
    assert_eq!(r[4].status, 404, "strict: the trailing slash is needed");
    assert_eq!(
        answer(5),
        (
            200,
            json!({ "route": "/Mw/:a/:b?", "params": { "a": "x" } })
        )
    );
    assert_eq!(r[5].header("x-mw-url"), Some("/x"));
    assert_eq!(
        answer(6),
        (
            200,
            json!({ "route": "/Mw/:a/:b?", "params": { "a": "x", "b": "y" } })
        )
    );
    assert_eq!((r[7].status, r[7].header("x-mw-url")), (404, None));
    assert_eq!(
        answer(8),
        (
            200,
            json!({ "route": r"/num/:n(\d+)", "params": { "n": "12" } })
        )
    );
    assert_eq!(r[9].status, 404);
    assert_eq!(
        answer(10),
        (
            200,
            json!({ "route": "/P/Users/:id", "params": { "id": "8" } })
        )
    );
    assert_eq!(r[11].status, 404);
    assert_eq!(
        answer(12),
        (200, json!({ "route": "/P/plain/", "params": {} }))
    );
    assert_eq!(r[13].status, 404);
}

// ---------------------------------------------------------------------------
// the generated structs are the handlers the runtime calls

#[tokio::test]
async fn routes_list_describes_what_mount_registers() {
    let routes = routes![first, load_user, order_b, order_end, pass_on, json_errors];
    assert_eq!(
        routes.to_string(),
        "USE / -> first\n\
         PARAM id -> load_user\n\
         GET /order, /order/:x -> order_b\n\
         GET /order -> order_end\n\
         GET /order/:x -> order_end\n\
         ERROR /boom -> pass_on\n\
         ERROR / -> json_errors"
    );
    let kinds: Vec<_> = routes.iter().map(|e| e.kind()).collect();
    use webfw::EntryKind::*;
    assert_eq!(
        kinds,
        [
            Middleware,
            Param,
            Route,
            Route,
            Route,
            ErrorHandler,
            ErrorHandler
        ]
    );
}

#[tokio::test]
async fn keep_alive_connection_serves_macro_routes() {
    let srv = TestServer::start(params_by_macro()).await;
    let mut conn = common::Conn::open(srv.addr).await;
    for id in ["1", "2"] {
        conn.send(common::keep_alive_request(
            "GET",
            &format!("/users/{id}"),
            &[],
        ))
        .await;
        let r = conn.read_response(false).await;
        assert_eq!(r.json()["user"]["id"], id);
        assert_eq!(r.json()["calls"], 1);
    }
    drop(conn);
    srv.shutdown().await;
}
