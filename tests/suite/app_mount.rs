//! Sub-apps: mountpath (string and list), the mount event, `app.path()`,
//! `req.app` inside and after a sub-app, and settings inheritance.

use crate::common;

use common::{Log, TestServer, error_page, trace, trace_of};
use serde_json::{Value, json};
use webfw::prelude::*;

fn describe(req: &mut Request, res: &mut Response) -> Result {
    let v = json!({
        "mountpath": req.app().mountpath(),
        "path": req.app().path(),
        "baseUrl": req.base_url(),
        "url": req.url(),
        "originalUrl": req.original_url(),
    });
    res.json(&v)
}

#[tokio::test]
async fn root_app_has_mountpath_slash_and_empty_path() {
    let app = webfw::app();
    assert_eq!(app.mountpath(), ["/"]);
    let mut app = webfw::app();
    app.get("/", describe);
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/?q=1").await.json(),
        json!({"mountpath": "/", "path": "", "baseUrl": "", "url": "/?q=1", "originalUrl": "/?q=1"})
    );
}

#[tokio::test]
async fn sub_app_mountpath_is_the_string_it_was_mounted_on() {
    let mut blog = webfw::app();
    blog.get("/post/:id", describe);
    let mut app = webfw::app();
    app.use_at("/blog", blog);
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/blog/post/7?x=1").await.json(),
        json!({
            "mountpath": "/blog",
            "path": "/blog",
            "baseUrl": "/blog",
            "url": "/post/7?x=1",
            "originalUrl": "/blog/post/7?x=1",
        })
    );
}

#[tokio::test]
async fn sub_app_mounted_on_a_list_has_a_list_mountpath() {
    let mut sub = webfw::app();
    sub.get("/x", describe);
    let mut app = webfw::app();
    app.use_at(["/a", "/b/c"], sub);
    let srv = TestServer::start(app).await;
    let a = srv.get("/a/x").await.json();
    assert_eq!(a["mountpath"], json!(["/a", "/b/c"]));
    assert_eq!(a["path"], "/a,/b/c");
    assert_eq!(a["baseUrl"], "/a");
    let b = srv.get("/b/c/x").await.json();
    assert_eq!(b["baseUrl"], "/b/c");
    assert_eq!(b["url"], "/x");
}

#[tokio::test]
async fn nested_sub_app_path_joins_parent_paths() {
    let mut admin = webfw::app();
    admin.get("/", describe);
    let mut blog = webfw::app();
    blog.use_at("/admin", admin);
    let mut app = webfw::app();
    app.use_at("/blog", blog);
    let srv = TestServer::start(app).await;
    let res = srv.get("/blog/admin/").await.json();
    assert_eq!(res["path"], "/blog/admin");
    assert_eq!(res["mountpath"], "/admin");
    assert_eq!(res["baseUrl"], "/blog/admin");
    assert_eq!(res["url"], "/");
}

#[test]
fn mount_event_fires_with_the_parent_when_mounted() {
    let log = Log::new();
    let mut sub = webfw::app();
    let l1 = log.clone();
    sub.on_mount(move |parent| {
        let title = parent
            .setting("title")
            .and_then(|s| s.as_str())
            .unwrap_or("-")
            .to_owned();
        l1.push(format!("first:{title}"));
    });
    let l2 = log.clone();
    sub.on_mount(move |_| l2.push("second"));
    assert!(log.entries().is_empty(), "nothing fires before mounting");
    let mut app = webfw::app();
    app.set("title", "parent");
    app.use_at("/sub", sub);
    assert_eq!(log.entries(), ["first:parent", "second"]);
}

#[tokio::test]
async fn req_app_is_the_sub_app_inside_and_the_parent_after() {
    let mut sub = webfw::app();
    sub.use_(|req: &mut Request, _: &mut Response| {
        let p = format!("in:{}", req.app().path());
        trace(req, &p);
        next()
    });
    let mut app = webfw::app();
    app.use_at("/sub", sub);
    app.use_(|req: &mut Request, res: &mut Response| {
        let p = format!("after:{}", req.app().path());
        trace(req, &p);
        let t = trace_of(req);
        res.send(t)
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/sub/anything").await.text(), "in:/sub,after:");
}

#[tokio::test]
async fn sub_app_locals_are_its_own() {
    let mut sub = webfw::app();
    sub.locals_mut().insert("who".into(), json!("sub"));
    sub.get("/", |req: &mut Request, res: &mut Response| {
        let l = Value::Object(req.app().locals().clone());
        res.json(&l)
    });
    let mut app = webfw::app();
    app.locals_mut().insert("parent".into(), json!(true));
    app.use_at("/s", sub);
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/s").await.json(), json!({"who": "sub"}));
}

#[tokio::test]
async fn unmatched_request_in_sub_app_falls_through_to_the_parent() {
    let mut sub = webfw::app();
    sub.get("/known", |_: &mut Request, res: &mut Response| {
        res.send("sub")
    });
    let mut app = webfw::app();
    app.use_at("/s", sub);
    app.get("/s/other", |_: &mut Request, res: &mut Response| {
        res.send("parent")
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/s/known").await.text(), "sub");
    assert_eq!(srv.get("/s/other").await.text(), "parent");
    assert_eq!(srv.get("/s/none").await.status, 404);
}

#[tokio::test]
async fn next_router_in_a_sub_app_returns_to_the_parent() {
    let mut sub = webfw::app();
    sub.use_(|req: &mut Request, _: &mut Response| {
        trace(req, "sub");
        next_router()
    });
    sub.get("/x", |_: &mut Request, res: &mut Response| {
        res.send("never")
    });
    let mut app = webfw::app();
    app.use_at("/s", sub);
    app.get("/s/x", |req: &mut Request, res: &mut Response| {
        trace(req, "parent");
        let t = trace_of(req);
        res.send(t)
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/s/x").await.text(), "sub,parent");
}

#[tokio::test]
async fn error_in_sub_app_reaches_the_parent_error_handler() {
    let mut sub = webfw::app();
    sub.get("/fail", |_: &mut Request, _: &mut Response| -> Result {
        Err(Error::status_message(409, "conflict in sub"))
    });
    let mut app = webfw::app();
    app.use_at("/s", sub);
    app.use_(|err: Error, req: &mut Request, res: &mut Response| {
        let body = format!(
            "parent caught {} {} at {}",
            err.status(),
            err,
            req.app().path()
        );
        res.status(err.status()).send(body)
    });
    let srv = TestServer::start(app).await;
    let res = srv.get("/s/fail").await;
    assert_eq!(res.status, 409);
    assert_eq!(res.text(), "parent caught 409 conflict in sub at ");
}

#[tokio::test]
async fn top_level_env_decides_the_error_page_of_a_sub_app_error() {
    let mut sub = webfw::app();
    sub.set("env", "development");
    sub.get("/fail", |_: &mut Request, _: &mut Response| -> Result {
        Err(Error::new("secret detail"))
    });
    let mut app = webfw::app();
    app.set("env", "production");
    app.use_at("/s", sub);
    let srv = TestServer::start(app).await;
    let res = srv.get("/s/fail").await;
    assert_eq!(res.status, 500);
    assert_eq!(res.text(), error_page("Internal Server Error"));
}

// ---- settings inheritance ----

#[tokio::test]
async fn sub_app_inherits_settings_without_defaults() {
    let mut sub = webfw::app();
    sub.get("/", |req: &mut Request, res: &mut Response| {
        let title = req.app().setting_str("title").unwrap_or("-").to_owned();
        res.json(&json!({"title": title, "n": [1]}))
    });
    let mut app = webfw::app();
    app.set("title", "from parent");
    app.use_at("/s", sub);
    // Set after mounting: inheritance is live in Express.
    app.set("json spaces", 2);
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/s").await.text(),
        "{\n  \"title\": \"from parent\",\n  \"n\": [\n    1\n  ]\n}"
    );
}

#[tokio::test]
async fn sub_app_own_value_shadows_the_parent_setting() {
    let mut sub = webfw::app();
    sub.set("json spaces", 1);
    sub.get("/", |_: &mut Request, res: &mut Response| {
        res.json(&json!({"a": 1}))
    });
    let mut app = webfw::app();
    app.set("json spaces", 4);
    app.use_at("/s", sub);
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/s").await.text(), "{\n \"a\": 1\n}");
}

fn ip_handler(req: &mut Request, res: &mut Response) -> Result {
    let v = json!({"ip": req.ip(), "ips": req.ips()});
    res.json(&v)
}

#[tokio::test]
async fn trust_proxy_is_inherited_by_sub_apps() {
    let mut sub = webfw::app();
    sub.get("/", ip_handler);
    let mut app = webfw::app();
    app.set("trust proxy", true);
    app.use_at("/s", sub);
    let srv = TestServer::start(app).await;
    let res = srv
        .get_with("/s", &[("X-Forwarded-For", "1.1.1.1, 2.2.2.2")])
        .await;
    assert_eq!(
        res.json(),
        json!({"ip": "1.1.1.1", "ips": ["1.1.1.1", "2.2.2.2"]})
    );
}

#[tokio::test]
async fn sub_app_explicit_trust_proxy_is_kept() {
    let mut sub = webfw::app();
    sub.set("trust proxy", false);
    sub.get("/", ip_handler);
    let mut app = webfw::app();
    app.set("trust proxy", true);
    app.use_at("/s", sub);
    let srv = TestServer::start(app).await;
    let res = srv
        .get_with("/s", &[("X-Forwarded-For", "1.1.1.1, 2.2.2.2")])
        .await;
    assert_eq!(res.json(), json!({"ip": "127.0.0.1", "ips": []}));
}

#[tokio::test]
async fn etag_setting_is_not_inherited() {
    let mut strong_parent_sub = webfw::app();
    strong_parent_sub.get("/", |_: &mut Request, res: &mut Response| res.send("hello"));
    let mut off_parent_sub = webfw::app();
    off_parent_sub.get("/", |_: &mut Request, res: &mut Response| res.send("hello"));

    let mut app = webfw::app();
    app.set("etag", "strong");
    app.use_at("/s", strong_parent_sub);
    app.get("/own", |_: &mut Request, res: &mut Response| {
        res.send("hello")
    });
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/s").await.header("etag"),
        Some("W/\"5-qvTGHdzF6KLavt4PO0gs2a6pQ00\"")
    );
    assert_eq!(
        srv.get("/own").await.header("etag"),
        Some("\"5-qvTGHdzF6KLavt4PO0gs2a6pQ00\"")
    );

    let mut app = webfw::app();
    app.set("etag", false);
    app.use_at("/s", off_parent_sub);
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/s").await.header("etag"),
        Some("W/\"5-qvTGHdzF6KLavt4PO0gs2a6pQ00\"")
    );
}

#[tokio::test]
async fn env_setting_is_not_inherited() {
    let default_env = webfw::app()
        .setting("env")
        .and_then(|s| s.as_str())
        .unwrap()
        .to_owned();
    let mut sub = webfw::app();
    sub.get("/", |req: &mut Request, res: &mut Response| {
        let env = req.app().setting_str("env").unwrap_or("?").to_owned();
        res.send(env)
    });
    let mut app = webfw::app();
    app.set("env", "parent-env");
    app.use_at("/s", sub);
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/s").await.text(), default_env);
}

#[tokio::test]
async fn subdomain_offset_is_not_inherited() {
    let mut sub = webfw::app();
    sub.get("/", |req: &mut Request, res: &mut Response| {
        let v = json!(req.subdomains());
        res.json(&v)
    });
    let mut app = webfw::app();
    app.set("subdomain offset", 1);
    app.use_at("/s", sub);
    let srv = TestServer::start(app).await;
    let raw = b"GET /s HTTP/1.1\r\nHost: a.b.example.com\r\nConnection: close\r\n\r\n";
    assert_eq!(srv.raw(raw).await.json(), json!(["b", "a"]));
}

#[tokio::test]
async fn sub_app_query_parser_setting_is_ignored() {
    let mut sub = webfw::app();
    sub.set("query parser", false);
    sub.get("/", |req: &mut Request, res: &mut Response| {
        let q = req.query().clone();
        res.json(&q)
    });
    let mut app = webfw::app();
    app.use_at("/s", sub);
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/s?a[b]=1").await.json(), json!({"a": {"b": "1"}}));
}

fn plain(_: &mut Request, res: &mut Response) -> Result {
    res.send("x")
}

#[tokio::test]
async fn sub_app_with_default_x_powered_by_re_adds_the_header() {
    let mut sub = webfw::app();
    sub.get("/", plain);
    let mut app = webfw::app();
    app.disable("x-powered-by");
    app.use_at("/s", sub);
    app.get("/p", plain);
    let srv = TestServer::start(app).await;
    assert!(srv.get("/s").await.has_header("x-powered-by"));
    assert!(!srv.get("/p").await.has_header("x-powered-by"));
}

#[tokio::test]
async fn sub_app_disabling_x_powered_by_cannot_remove_the_parent_header() {
    let mut sub = webfw::app();
    sub.disable("x-powered-by");
    sub.get("/", plain);
    let mut app = webfw::app();
    app.use_at("/s", sub);
    let srv = TestServer::start(app).await;
    assert!(srv.get("/s").await.has_header("x-powered-by"));
}

#[tokio::test]
async fn x_powered_by_absent_when_parent_and_sub_app_disable_it() {
    let mut sub = webfw::app();
    sub.disable("x-powered-by");
    sub.get("/", plain);
    let mut app = webfw::app();
    app.disable("x-powered-by");
    app.use_at("/s", sub);
    let srv = TestServer::start(app).await;
    let res = srv.get("/s").await;
    assert_eq!(res.text(), "x");
    assert!(!res.has_header("x-powered-by"));
}
