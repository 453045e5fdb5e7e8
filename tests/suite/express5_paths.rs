//! Express 5 paths (router 2 with path-to-regexp 8) through real requests:
//! optional groups, named wildcards as arrays, the separator-only second
//! parameter, escapes, quoted names, mount paths, decoding; and an
//! Express 4 app in the same binary keeping path-to-regexp 0.1.
//!
//! Every table runs on a small router (scanned linearly) and on one padded
//! past the size where the dispatcher switches to its prefix index.

use crate::common;

use common::TestServer;
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

fn app5(padded: bool) -> App {
    let mut app = webfw::express5::app();
    if padded {
        for i in 0..40 {
            app.get(format!("/zz-pad-{i}/:x").as_str(), answer("pad"));
        }
    }
    app.get("/opt/:a{/:b}", answer("opt"));
    app.get("/file/:name{.:ext}", answer("file"));
    app.get("/dot/:name.:ext", answer("dot"));
    app.get("/range/:from-:to", answer("range"));
    app.get("/star/*rest", answer("star"));
    app.get("/optstar{/*rest}", answer("optstar"));
    app.get("/tree/:dir/*path", answer("tree"));
    app.get("/color{s}", answer("color"));
    app.get(r"/lit/\(1\+1\)", answer("lit"));
    app.get("/quoted/:\"user-id\"", answer("quoted"));
    app.get("/users/:id", answer("user"));
    app.get(["/arr/one", "/arr/two/:x"], answer("arr"));
    app.get(
        PathSpec::regex(r"^\/re\/(?<word>[a-z]+)(?:-(\d+))?$"),
        answer("regex"),
    );
    let mut sub = webfw::express5::router_with(RouterOptions::new().merge_params(true));
    sub.get("/files/*rest", answer("merged"));
    sub.get("/", answer("mount-root"));
    app.use_at("/mnt/:user{/:team}", sub);
    app
}

type Case = (&'static str, Option<(&'static str, Value)>);

fn cases5() -> Vec<Case> {
    vec![
        ("/opt/x", Some(("opt", json!({"a": "x"})))),
        ("/opt/x/y", Some(("opt", json!({"a": "x", "b": "y"})))),
        ("/opt/x/y/", Some(("opt", json!({"a": "x", "b": "y"})))),
        ("/opt", None),
        (
            "/file/a.b.c",
            Some(("file", json!({"name": "a.b", "ext": "c"}))),
        ),
        ("/file/report", Some(("file", json!({"name": "report"})))),
        ("/file/.hidden", Some(("file", json!({"name": ".hidden"})))),
        ("/file/a.", Some(("file", json!({"name": "a."})))),
        ("/dot/a..", Some(("dot", json!({"name": "a", "ext": "."})))),
        (
            "/dot/report.final.pdf",
            Some(("dot", json!({"name": "report.final", "ext": "pdf"}))),
        ),
        (
            "/range/a--",
            Some(("range", json!({"from": "a", "to": "-"}))),
        ),
        (
            "/range/a-b-c",
            Some(("range", json!({"from": "a-b", "to": "c"}))),
        ),
        (
            "/star/a/b/c.txt",
            Some(("star", json!({"rest": ["a", "b", "c.txt"]}))),
        ),
        (
            "/star/a%2Fb/c",
            Some(("star", json!({"rest": ["a/b", "c"]}))),
        ),
        ("/star/a/", Some(("star", json!({"rest": ["a", ""]})))),
        ("/star/caf%C3%A9", Some(("star", json!({"rest": ["café"]})))),
        ("/star/", None),
        ("/star", None),
        ("/optstar", Some(("optstar", json!({})))),
        ("/optstar/", Some(("optstar", json!({})))),
        (
            "/optstar/a/b",
            Some(("optstar", json!({"rest": ["a", "b"]}))),
        ),
        (
            "/tree/d/x/y",
            Some(("tree", json!({"dir": "d", "path": ["x", "y"]}))),
        ),
        ("/color", Some(("color", json!({})))),
        ("/colors", Some(("color", json!({})))),
        ("/COLORS/", Some(("color", json!({})))),
        ("/colorss", None),
        ("/lit/(1+1)", Some(("lit", json!({})))),
        ("/lit/%281%2B1%29", None),
        ("/quoted/7", Some(("quoted", json!({"user-id": "7"})))),
        ("/users/a%20b", Some(("user", json!({"id": "a b"})))),
        ("/users/a+b", Some(("user", json!({"id": "a+b"})))),
        ("/arr/one", Some(("arr", json!({})))),
        ("/arr/two/5", Some(("arr", json!({"x": "5"})))),
        ("/re/abc", Some(("regex", json!({"word": "abc"})))),
        (
            "/re/abc-12",
            Some(("regex", json!({"word": "abc", "0": "12"}))),
        ),
        // the group takes `files` as the team: the sub-router sees `/a/b`
        ("/mnt/u1/files/a/b", None),
        (
            "/mnt/u1/t2/files/a",
            Some(("merged", json!({"user": "u1", "team": "t2", "rest": ["a"]}))),
        ),
        ("/mnt/u1", Some(("mount-root", json!({"user": "u1"})))),
    ]
}

async fn check(app: App, cases: Vec<Case>, label: &str) {
    let srv = TestServer::start(app).await;
    let mut failures = Vec::new();
    for (path, expected) in cases {
        let res = srv.get(path).await;
        let got = if res.status == 200 {
            let v = res.json();
            Some((
                v["route"].as_str().unwrap_or_default().to_owned(),
                v["params"].clone(),
            ))
        } else {
            assert_eq!(res.status, 404, "{label} {path}: unexpected status");
            None
        };
        let want = expected.map(|(r, p)| (r.to_owned(), p));
        if got != want {
            failures.push(format!("{path}: expected {want:?}, got {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{label}:\n{}", failures.join("\n"));
}

#[tokio::test]
async fn express5_paths_match_like_router_2_on_a_small_router() {
    check(app5(false), cases5(), "small").await;
}

#[tokio::test]
async fn express5_paths_match_like_router_2_on_an_indexed_router() {
    check(app5(true), cases5(), "indexed").await;
}

#[tokio::test]
async fn express5_undecodable_param_and_wildcard_part_are_400() {
    let srv = TestServer::start(app5(false)).await;
    for path in ["/users/%E0%A4%A", "/star/ok/%E0%A4%A"] {
        let res = srv.get(path).await;
        assert_eq!(res.status, 400, "{path}");
        assert!(
            res.text().contains("Failed to decode param"),
            "{path}: {}",
            res.text()
        );
    }
}

#[tokio::test]
async fn wildcard_parts_are_a_list_and_joined_text() {
    let mut app = webfw::express5::app();
    app.get("/w/*rest", |req: &mut Request, res: &mut Response| {
        let parts: Vec<String> = req
            .params()
            .list("rest")
            .unwrap()
            .map(str::to_owned)
            .collect();
        let joined = req.param("rest").unwrap_or_default().to_owned();
        res.json(&json!({ "parts": parts, "joined": joined }))
    });
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/w/a%2Fb/c").await.json(),
        json!({"parts": ["a/b", "c"], "joined": "a/b/c"})
    );
}

#[tokio::test]
async fn strict_and_case_sensitive_express5_routers() {
    let mut app = webfw::express5::app();
    let mut strict =
        webfw::express5::router_with(RouterOptions::new().strict(true).case_sensitive(true));
    strict.get("/Abc", answer("strict-abc"));
    strict.get("/dir/", answer("strict-dir"));
    app.use_at("/strict", strict);
    let mut loose = webfw::express5::router();
    loose.get("/dir/", answer("loose-dir"));
    app.use_at("/loose", loose);
    let cases: Vec<Case> = vec![
        ("/strict/Abc", Some(("strict-abc", json!({})))),
        ("/strict/abc", None),
        ("/strict/Abc/", None),
        ("/strict/dir/", Some(("strict-dir", json!({})))),
        ("/strict/dir", None),
        ("/loose/dir", Some(("loose-dir", json!({})))),
        ("/loose/DIR/", Some(("loose-dir", json!({})))),
    ];
    check(app, cases, "strict").await;
}

/// An Express 4 app next to an Express 5 one in the same binary: each
/// keeps its own path syntax.
#[tokio::test]
async fn an_express4_app_keeps_path_to_regexp_0_1() {
    let mut app = webfw::app();
    app.get("/opt/:id?", answer("opt4"));
    app.get("/files/*", answer("files4"));
    app.get("/range/:from-:to", answer("range4"));
    app.get("/q/ab?cd", answer("q4"));
    let mut five = webfw::express5::app();
    five.get("/files/*rest", answer("files5"));
    app.use_at("/v5", five);
    let cases: Vec<Case> = vec![
        ("/opt", Some(("opt4", json!({})))),
        ("/opt/5", Some(("opt4", json!({"id": "5"})))),
        ("/files/a/b", Some(("files4", json!({"0": "a/b"})))),
        ("/files/", Some(("files4", json!({"0": ""})))),
        ("/range/a--", None),
        ("/q/acd", Some(("q4", json!({})))),
        (
            "/v5/files/a/b",
            Some(("files5", json!({"rest": ["a", "b"]}))),
        ),
    ];
    check(app, cases, "express 4").await;
}

#[test]
fn express5_refusals_panic_with_the_message_and_a_hint() {
    let cases = [
        (
            "/ab?cd",
            "Unexpected ? at index 3: /ab?cd; visit https://git.new/pathToRegexpError for info",
            "/a{b}cd",
        ),
        ("*", "Missing parameter name at index 1: *", "*splat"),
        ("/:id(\\d+)", "Unexpected ( at index 4", "PathSpec::regex"),
        ("/:a:b", "Missing text before \"b\" param", "literal"),
    ];
    for (path, message, hint) in cases {
        let panic = std::panic::catch_unwind(|| {
            let mut app = webfw::express5::app();
            app.get(path, answer("never"));
        })
        .unwrap_err();
        let text = panic.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(text.contains(message), "{path}: {text}");
        assert!(
            text.contains("hint:") && text.contains(hint),
            "{path}: {text}"
        );
    }
    // mount paths too
    let panic = std::panic::catch_unwind(|| {
        let mut app = webfw::express5::app();
        app.use_at("/api/*", |_req: &mut Request, _res: &mut Response| next());
    })
    .unwrap_err();
    let text = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(text.starts_with("invalid mount path"), "{text}");
    assert!(
        text.contains("Missing parameter name at index 6: /api/*"),
        "{text}"
    );
}
