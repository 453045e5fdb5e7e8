//! path-to-regexp 0.1 features through real requests: named, optional and
//! wildcard parameters, `+`/`?`, groups, custom regexes, regex routes,
//! arrays, case sensitivity and strictness, and parameter decoding.
//!
//! Every table runs twice: on a small router (scanned linearly) and on one
//! padded past the size where the dispatcher switches to its prefix index,
//! since both must give Express's answer.

use crate::common;

use common::{TestServer, error_page};
use serde_json::{Value, json};
use webfw::prelude::*;
use webfw::{PathSpec, RouterOptions};

fn answer(
    label: &'static str,
) -> impl Fn(&mut Request, &mut Response) -> Result + Send + Sync + 'static {
    move |req: &mut Request, res: &mut Response| {
        let v = json!({ "route": label, "params": req.params() });
        res.json(&v)
    }
}

/// Routes that can never match the paths below, registered first so the
/// router is past the linear-scan threshold.
fn pad(app: &mut App, padded: bool) {
    if padded {
        for i in 0..40 {
            app.get(format!("/zz-pad-{i}/:x").as_str(), answer("pad"));
        }
    }
}

fn feature_app(padded: bool) -> App {
    let mut app = webfw::app();
    pad(&mut app, padded);
    app.get("/user/:id", answer("user"));
    app.get("/opt/:id?", answer("opt"));
    app.get("/file/:name.:ext?", answer("file"));
    app.get("/files/*", answer("files"));
    app.get("/a/*/b/*", answer("ab"));
    app.get("/idstar/:id*", answer("idstar"));
    app.get("/p/ab+cd", answer("plus"));
    app.get("/q/ab?cd", answer("question"));
    app.get("/plus/:id+", answer("idplus"));
    app.get("/grp/a(bc)?d", answer("group"));
    app.get("/alt/(foo|bar)", answer("alt"));
    app.get("/range/:from-:to", answer("range"));
    app.get(r"/num/:id(\d+)", answer("num"));
    app.get(PathSpec::regex(r"^\/re\/(\w+)$"), answer("regex"));
    app.get(
        PathSpec::regex(r"^\/named\/(?<slug>[a-z]+)$"),
        answer("named"),
    );
    app.get(["/one", "/two/:id"], answer("array"));
    app.get("/enc/:v", answer("enc"));
    app.get("/lit.json", answer("literal-dot"));
    app
}

/// `(path, Some((route, params)))` or `(path, None)` for a 404.
fn feature_cases() -> Vec<(&'static str, Option<(&'static str, Value)>)> {
    vec![
        ("/user/42", Some(("user", json!({"id": "42"})))),
        ("/user/42/", Some(("user", json!({"id": "42"})))),
        ("/USER/42", Some(("user", json!({"id": "42"})))),
        ("/user/42?x=1", Some(("user", json!({"id": "42"})))),
        ("/user", None),
        ("/user/42/extra", None),
        ("/opt", Some(("opt", json!({})))),
        ("/opt/", Some(("opt", json!({})))),
        ("/opt/5", Some(("opt", json!({"id": "5"})))),
        (
            "/file/a.b.c",
            Some(("file", json!({"name": "a.b", "ext": "c"}))),
        ),
        ("/file/abc", Some(("file", json!({"name": "abc"})))),
        ("/files/a/b", Some(("files", json!({"0": "a/b"})))),
        ("/files/", Some(("files", json!({"0": ""})))),
        ("/files", None),
        ("/a/x/b/y/z", Some(("ab", json!({"0": "x", "1": "y/z"})))),
        (
            "/idstar/a/b/c",
            Some(("idstar", json!({"0": "/b/c", "id": "a"}))),
        ),
        ("/idstar/a", Some(("idstar", json!({"0": "", "id": "a"})))),
        ("/p/abcd", Some(("plus", json!({})))),
        ("/p/abbbcd", Some(("plus", json!({})))),
        ("/p/acd", None),
        ("/q/acd", Some(("question", json!({})))),
        ("/q/abcd", Some(("question", json!({})))),
        ("/q/abbcd", None),
        ("/plus/a", Some(("idplus", json!({"id": "a"})))),
        ("/plus/a/b", Some(("idplus", json!({"id": "b"})))),
        ("/grp/ad", Some(("group", json!({})))),
        ("/grp/abcd", Some(("group", json!({"0": "bc"})))),
        ("/grp/abd", None),
        ("/alt/foo", Some(("alt", json!({})))),
        ("/alt/bar", Some(("alt", json!({})))),
        ("/alt/baz", None),
        (
            "/range/1-5",
            Some(("range", json!({"from": "1", "to": "5"}))),
        ),
        ("/num/42", Some(("num", json!({"id": "42"})))),
        ("/num/ab", None),
        ("/re/abc", Some(("regex", json!({"0": "abc"})))),
        ("/re/abc/", None),
        ("/named/abc", Some(("named", json!({"slug": "abc"})))),
        ("/one", Some(("array", json!({})))),
        ("/two/5", Some(("array", json!({"id": "5"})))),
        ("/three", None),
        ("/enc/a%20b", Some(("enc", json!({"v": "a b"})))),
        ("/enc/a+b", Some(("enc", json!({"v": "a+b"})))),
        ("/enc/a%2Fb", Some(("enc", json!({"v": "a/b"})))),
        ("/enc/caf%C3%A9", Some(("enc", json!({"v": "café"})))),
        ("/lit.json", Some(("literal-dot", json!({})))),
        ("/litXjson", None),
    ]
}

async fn check_features(padded: bool) {
    let srv = TestServer::start(feature_app(padded)).await;
    let mut failures = Vec::new();
    for (path, expected) in feature_cases() {
        let res = srv.get(path).await;
        let got = if res.status == 200 {
            let v = res.json();
            Some((
                v["route"].as_str().unwrap_or_default().to_owned(),
                v["params"].clone(),
            ))
        } else {
            assert_eq!(res.status, 404, "{path}: unexpected status");
            None
        };
        let want = expected.map(|(r, p)| (r.to_owned(), p));
        if got != want {
            failures.push(format!("{path}: expected {want:?}, got {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "mismatches (padded={padded}):\n{}",
        failures.join("\n")
    );
}

#[tokio::test]
async fn path_features_match_like_path_to_regexp_on_a_small_router() {
    check_features(false).await;
}

#[tokio::test]
async fn path_features_match_like_path_to_regexp_on_an_indexed_router() {
    check_features(true).await;
}

#[tokio::test]
async fn params_serialize_with_numeric_keys_first() {
    let mut app = webfw::app();
    app.get("/idstar/:id*", |req: &mut Request, res: &mut Response| {
        let s = serde_json::to_string(req.params()).unwrap();
        res.send(s)
    });
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/idstar/a/b").await.text(),
        r#"{"0":"/b","id":"a"}"#
    );
}

#[tokio::test]
async fn bare_star_route_matches_every_path_with_the_path_as_param_zero() {
    for padded in [false, true] {
        let mut app = webfw::app();
        pad(&mut app, padded);
        app.get("*", answer("star"));
        let srv = TestServer::start(app).await;
        let res = srv.get("/any/thing?x=1").await.json();
        assert_eq!(res, json!({"route": "star", "params": {"0": "/any/thing"}}));
        let res = srv.get("/").await.json();
        assert_eq!(res["params"], json!({"0": "/"}));
    }
}

#[tokio::test]
async fn custom_regex_param_mismatch_gives_the_exact_404_page() {
    let srv = TestServer::start(feature_app(false)).await;
    let res = srv.get("/num/ab").await;
    assert_eq!(res.status, 404);
    assert_eq!(res.header("content-length"), Some("145"));
    assert_eq!(res.text(), error_page("Cannot GET /num/ab"));
}

// ---- case sensitivity ----

#[tokio::test]
async fn case_sensitive_routing_setting_distinguishes_case() {
    for padded in [false, true] {
        let mut app = webfw::app();
        app.enable("case sensitive routing");
        pad(&mut app, padded);
        app.get("/Foo", answer("foo"));
        let srv = TestServer::start(app).await;
        assert_eq!(srv.get("/Foo").await.status, 200, "padded={padded}");
        assert_eq!(srv.get("/foo").await.status, 404, "padded={padded}");
        assert_eq!(srv.get("/FOO").await.status, 404, "padded={padded}");
    }
}

#[tokio::test]
async fn routing_is_case_insensitive_by_default() {
    for padded in [false, true] {
        let mut app = webfw::app();
        pad(&mut app, padded);
        app.get("/Foo/Bar", answer("foo"));
        let srv = TestServer::start(app).await;
        assert_eq!(srv.get("/foo/bar").await.status, 200, "padded={padded}");
        assert_eq!(srv.get("/FOO/BAR").await.status, 200, "padded={padded}");
    }
}

#[tokio::test]
async fn case_sensitive_routing_enabled_after_the_first_route_has_no_effect() {
    let mut app = webfw::app();
    app.get("/Foo", answer("foo"));
    app.enable("case sensitive routing");
    app.get("/Bar", answer("bar"));
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/foo").await.status, 200);
    assert_eq!(srv.get("/bar").await.status, 200);
}

#[tokio::test]
async fn router_case_sensitive_option_applies_to_routes_and_use_paths() {
    let mut router = webfw::Router::with_options(RouterOptions::new().case_sensitive(true));
    router.get("/Item", answer("item"));
    router.use_at("/Mw", |_: &mut Request, res: &mut Response| res.send("mw"));
    let mut app = webfw::app();
    app.use_at("/r", router);
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/r/Item").await.status, 200);
    assert_eq!(srv.get("/r/item").await.status, 404);
    assert_eq!(srv.get("/r/Mw/x").await.text(), "mw");
    assert_eq!(srv.get("/r/mw/x").await.status, 404);
    // The parent app is not case sensitive: its mount path matches any case.
    assert_eq!(srv.get("/R/Item").await.status, 200);
}

// ---- strictness ----

#[tokio::test]
async fn strict_routing_setting_distinguishes_trailing_slash() {
    for padded in [false, true] {
        let mut app = webfw::app();
        app.enable("strict routing");
        pad(&mut app, padded);
        app.get("/foo", answer("foo"));
        app.get("/bar/", answer("bar"));
        let srv = TestServer::start(app).await;
        assert_eq!(srv.get("/foo").await.status, 200);
        assert_eq!(srv.get("/foo/").await.status, 404);
        assert_eq!(srv.get("/bar/").await.status, 200);
        assert_eq!(srv.get("/bar").await.status, 404);
    }
}

#[tokio::test]
async fn non_strict_routing_makes_the_trailing_slash_optional() {
    let mut app = webfw::app();
    app.get("/foo", answer("foo"));
    app.get("/bar/", answer("bar"));
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/foo/").await.status, 200);
    assert_eq!(srv.get("/bar").await.status, 200);
    assert_eq!(srv.get("/foo//").await.status, 404);
}

#[tokio::test]
async fn router_strict_option_applies_to_its_routes_only() {
    let mut router = webfw::Router::with_options(RouterOptions::new().strict(true));
    router.get("/x", answer("x"));
    router.use_at("/mw", |_: &mut Request, res: &mut Response| res.send("mw"));
    let mut app = webfw::app();
    app.use_at("/r", router);
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/r/x").await.status, 200);
    assert_eq!(srv.get("/r/x/").await.status, 404);
    // `use` paths are never strict.
    assert_eq!(srv.get("/r/mw").await.text(), "mw");
    assert_eq!(srv.get("/r/mw/").await.text(), "mw");
}

// ---- decoding errors ----

fn decode_app(env: &str) -> App {
    let mut app = webfw::app();
    app.set("env", env);
    app.get("/p/:v", |_: &mut Request, res: &mut Response| {
        res.send("never")
    });
    app
}

#[tokio::test]
async fn undecodable_param_gives_400_in_development_with_the_message() {
    let srv = TestServer::start(decode_app("development")).await;
    let res = srv.get("/p/%E0%A4%A").await;
    assert_eq!(res.status, 400);
    assert_eq!(res.reason, "Bad Request");
    assert_eq!(
        res.text(),
        error_page("URIError: Failed to decode param &#39;%E0%A4%A&#39;")
    );
}

#[tokio::test]
async fn undecodable_param_gives_400_bad_request_in_production() {
    let srv = TestServer::start(decode_app("production")).await;
    let res = srv.get("/p/%E0%A4%A").await;
    assert_eq!(res.status, 400);
    assert_eq!(res.text(), error_page("Bad Request"));
}

#[tokio::test]
async fn undecodable_param_skips_later_routes_and_reaches_error_handlers() {
    let mut app = webfw::app();
    app.get("/p/:v", |_: &mut Request, res: &mut Response| {
        res.send("never")
    });
    app.get("/p/*", |_: &mut Request, res: &mut Response| {
        res.send("never either")
    });
    app.use_(|_: &mut Request, res: &mut Response| res.send("normal middleware"));
    app.use_(|err: Error, _: &mut Request, res: &mut Response| {
        let body = format!("{} {}", err.status(), err);
        res.status(err.status()).send(body)
    });
    let srv = TestServer::start(app).await;
    let res = srv.get("/p/%E0%A4%A").await;
    assert_eq!(res.status, 400);
    assert_eq!(res.text(), "400 Failed to decode param '%E0%A4%A'");
}

/// The second of top-level alternatives is not anchored (path-to-regexp
/// binds `^` to the first), so `app.use("p|!!")` matches the `!!` of
/// `/Ļ!!`, and Express would strip `match[0].length` characters. What
/// follows them is no `/` or `.`, so the layer does not apply, as in
/// Express; here the length even ends inside `Ļ`, which must not be cut.
#[tokio::test]
async fn an_unanchored_alternative_matching_mid_path_is_no_mount() {
    let mut app = webfw::app();
    app.use_(|req: &mut Request, _: &mut Response| {
        req.set_url("/Ļ!!");
        next()
    });
    app.use_at("p|!!", |_: &mut Request, res: &mut Response| {
        res.send("mounted")
    });
    app.use_(|req: &mut Request, res: &mut Response| {
        let body = format!("after {}", req.path());
        res.send(body)
    });
    let srv = TestServer::start(app).await;
    let res = srv.get("/").await;
    assert_eq!(res.status, 200);
    assert_eq!(res.text(), "after /Ļ!!");
}
