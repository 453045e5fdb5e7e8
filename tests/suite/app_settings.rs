//! Application settings: the defaults of the settings table (`env` from
//! `WEBFW_ENV` / `NODE_ENV`), `set`/`setting`/`enable`/`disable`/`enabled`/
//! `disabled`, rejected values, and `app.locals`.

use crate::common;

use common::{TestServer, error_page};
use serde_json::{Value, json};
use webfw::Setting;
use webfw::prelude::*;

/// A handler answering with the named settings as seen through `req.app()`.
fn settings_app(names: &'static [&'static str]) -> App {
    let mut app = webfw::app();
    app.get("/settings", move |req: &mut Request, res: &mut Response| {
        let mut out = serde_json::Map::new();
        for name in names {
            let v = req
                .app()
                .setting(name)
                .map_or(Value::from("<undefined>"), |s| s.as_json().clone());
            out.insert((*name).to_owned(), v);
        }
        res.json(&Value::Object(out))
    });
    app
}

#[tokio::test]
async fn settings_with_defaults_have_express_defaults() {
    let names = &[
        "x-powered-by",
        "etag",
        "query parser",
        "subdomain offset",
        "trust proxy",
        "jsonp callback name",
    ];
    let srv = TestServer::start(settings_app(names)).await;
    let res = srv.get("/settings").await;
    assert_eq!(
        res.json(),
        json!({
            "x-powered-by": true,
            "etag": "weak",
            "query parser": "extended",
            "subdomain offset": 2,
            "trust proxy": false,
            "jsonp callback name": "callback",
        })
    );
}

#[tokio::test]
async fn views_defaults_to_the_working_directory_views_folder() {
    let expected = std::env::current_dir()
        .unwrap()
        .join("views")
        .to_string_lossy()
        .into_owned();
    let app = webfw::app();
    assert_eq!(
        app.setting("views").and_then(Setting::as_str),
        Some(expected.as_str())
    );
    let srv = TestServer::start(settings_app(&["views"])).await;
    assert_eq!(
        srv.get("/settings").await.json(),
        json!({ "views": expected })
    );
}

#[tokio::test]
async fn settings_without_defaults_are_undefined() {
    let names = &[
        "case sensitive routing",
        "strict routing",
        "json spaces",
        "json replacer",
        "json escape",
        "view engine",
    ];
    let app = webfw::app();
    for name in names {
        assert!(app.setting(name).is_none(), "{name} has no default");
        assert!(app.disabled(name), "{name} is disabled by default");
    }
    let srv = TestServer::start(settings_app(names)).await;
    let res = srv.get("/settings").await;
    let body = res.json();
    for name in names {
        assert_eq!(body[*name], "<undefined>", "{name}");
    }
}

// ---- env from the process environment (run in child processes) ----

const CHILD: &str = "WEBFW_SUITE_ENV_CHILD";

fn expected_env() -> String {
    for var in ["WEBFW_ENV", "NODE_ENV"] {
        if let Ok(v) = std::env::var(var)
            && !v.is_empty()
        {
            return v;
        }
    }
    "development".to_owned()
}

/// Checks `env` (and what depends on it) against the environment of this
/// process; the tests below run it in child processes with chosen variables.
#[tokio::test]
async fn env_setting_follows_the_process_environment() {
    let expected = expected_env();
    let app = webfw::app();
    assert_eq!(
        app.setting("env").and_then(Setting::as_str),
        Some(expected.as_str())
    );
    assert_eq!(
        app.setting("view cache").and_then(Setting::as_bool),
        (expected == "production").then_some(true),
        "view cache defaults to true only in production"
    );

    let mut app = webfw::app();
    app.get("/env", |req: &mut Request, res: &mut Response| {
        let env = req.app().setting_str("env").unwrap_or("?").to_owned();
        res.send(env)
    });
    app.get("/boom", |_: &mut Request, _: &mut Response| -> Result {
        Err(Error::new("boom"))
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/env").await.text(), expected);
    let page = srv.get("/boom").await;
    assert_eq!(page.status, 500);
    if expected == "production" {
        assert_eq!(page.text(), error_page("Internal Server Error"));
    } else {
        assert_eq!(page.text(), error_page("Error: boom"));
    }
    if std::env::var(CHILD).is_ok() {
        println!("CHILD-ENV={expected}");
    }
}

fn run_child(vars: &[(&str, &str)]) -> String {
    let exe = std::env::current_exe().unwrap();
    let mut cmd = std::process::Command::new(exe);
    cmd.args([
        &common::test_name(
            module_path!(),
            "env_setting_follows_the_process_environment",
        ),
        "--exact",
        "--nocapture",
        "--test-threads=1",
    ])
    .env_remove("WEBFW_ENV")
    .env_remove("NODE_ENV")
    .env(CHILD, "1");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run the test binary as a child");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "child failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .find_map(|l| l.split_once("CHILD-ENV=").map(|(_, v)| v.trim()))
        .unwrap_or_else(|| panic!("child did not run the env test:\n{stdout}"))
        .to_owned()
}

#[test]
fn env_defaults_to_development_without_environment_variables() {
    assert_eq!(run_child(&[]), "development");
}

#[test]
fn env_comes_from_webfw_env() {
    assert_eq!(run_child(&[("WEBFW_ENV", "production")]), "production");
}

#[test]
fn env_falls_back_to_node_env() {
    assert_eq!(run_child(&[("NODE_ENV", "staging")]), "staging");
}

#[test]
fn webfw_env_takes_precedence_over_node_env() {
    assert_eq!(
        run_child(&[("WEBFW_ENV", "test"), ("NODE_ENV", "production")]),
        "test"
    );
}

// ---- get / set / enable / disable ----

#[tokio::test]
async fn set_stores_a_value_that_handlers_read_back() {
    let mut app = webfw::app();
    app.set("title", "My Site").set("answer", 42);
    assert_eq!(
        app.setting("title").and_then(Setting::as_str),
        Some("My Site")
    );
    app.get("/", |req: &mut Request, res: &mut Response| {
        let v = json!({
            "title": req.app().setting("title").unwrap().as_json(),
            "answer": req.app().setting("answer").unwrap().as_json(),
        });
        res.json(&v)
    });
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/").await.json(),
        json!({"title": "My Site", "answer": 42})
    );
}

#[test]
fn set_replaces_an_earlier_value() {
    let mut app = webfw::app();
    app.set("title", "a");
    app.set("title", "b");
    assert_eq!(app.setting("title").and_then(Setting::as_str), Some("b"));
}

#[test]
fn enable_sets_true_and_enabled_reports_it() {
    let mut app = webfw::app();
    assert!(!app.enabled("tobi"));
    app.enable("tobi");
    assert!(app.enabled("tobi"));
    assert!(!app.disabled("tobi"));
    assert_eq!(app.setting("tobi").unwrap().as_json(), &json!(true));
}

#[test]
fn disable_sets_false_and_disabled_reports_it() {
    let mut app = webfw::app();
    app.disable("tobi");
    assert!(app.disabled("tobi"));
    assert!(!app.enabled("tobi"));
    assert_eq!(app.setting("tobi").unwrap().as_json(), &json!(false));
}

#[test]
fn disabled_is_true_for_unknown_settings() {
    let app = webfw::app();
    assert!(app.disabled("never set"));
    assert!(!app.enabled("never set"));
}

#[test]
fn enabled_uses_javascript_truthiness() {
    let mut app = webfw::app();
    app.set("zero", 0)
        .set("empty", "")
        .set("text", "x")
        .set("one", 1);
    assert!(app.disabled("zero"));
    assert!(app.disabled("empty"));
    assert!(app.enabled("text"));
    assert!(app.enabled("one"));
}

#[tokio::test]
async fn disabling_x_powered_by_removes_the_header() {
    let mut app = webfw::app();
    app.disable("x-powered-by");
    app.get("/", |_: &mut Request, res: &mut Response| res.send("x"));
    let srv = TestServer::start(app).await;
    let res = srv.get("/").await;
    assert_eq!(res.status, 200);
    assert!(!res.has_header("x-powered-by"));
}

#[test]
fn set_rejects_an_unknown_etag_value_and_keeps_the_old_one() {
    let mut app = webfw::app();
    let err = app.try_set("etag", "bogus").err().unwrap();
    assert!(
        err.starts_with("unknown value for etag function: "),
        "{err}"
    );
    assert_eq!(app.setting("etag").and_then(Setting::as_str), Some("weak"));
}

#[test]
fn set_rejects_an_unknown_etag_value_with_express_message() {
    let mut app = webfw::app();
    let err = app.try_set("etag", "bogus").err().unwrap();
    assert_eq!(err, "unknown value for etag function: bogus");
}

#[test]
fn set_rejects_an_unknown_query_parser_value_and_keeps_the_old_one() {
    let mut app = webfw::app();
    let err = app.try_set("query parser", "bogus").err().unwrap();
    assert!(
        err.starts_with("unknown value for query parser function: "),
        "{err}"
    );
    assert_eq!(
        app.setting("query parser").and_then(Setting::as_str),
        Some("extended")
    );
}

#[test]
fn set_rejects_an_unknown_query_parser_value_with_express_message() {
    let mut app = webfw::app();
    let err = app.try_set("query parser", "bogus").err().unwrap();
    assert_eq!(err, "unknown value for query parser function: bogus");
}

#[test]
fn set_rejects_an_invalid_trust_proxy_address() {
    let mut app = webfw::app();
    assert_eq!(
        app.try_set("trust proxy", "300.0.0.1").err().unwrap(),
        "invalid IP address: 300.0.0.1"
    );
    assert_eq!(
        app.try_set("trust proxy", "10.0.0.1/33").err().unwrap(),
        "invalid range on address: 10.0.0.1/33"
    );
    assert_eq!(app.setting("trust proxy").unwrap().as_json(), &json!(false));
}

#[test]
#[should_panic(expected = "unknown value for etag function")]
fn set_panics_on_a_rejected_value() {
    webfw::app().set("etag", "bogus");
}

#[test]
fn etag_accepts_every_documented_value() {
    let mut app = webfw::app();
    for v in [
        Setting::from(true),
        Setting::from(false),
        "weak".into(),
        "strong".into(),
    ] {
        assert!(app.try_set("etag", v).is_ok());
    }
    assert!(app.try_set("etag", Setting::etag_fn(|_| None)).is_ok());
}

// ---- locals ----

#[tokio::test]
async fn app_locals_are_visible_to_handlers() {
    let mut app = webfw::app();
    assert!(app.locals().is_empty());
    app.locals_mut().insert("title".into(), json!("My App"));
    app.locals_mut()
        .insert("email".into(), json!("me@example.com"));
    app.get("/", |req: &mut Request, res: &mut Response| {
        let locals = Value::Object(req.app().locals().clone());
        res.json(&locals)
    });
    let srv = TestServer::start(app).await;
    assert_eq!(
        srv.get("/").await.json(),
        json!({"title": "My App", "email": "me@example.com"})
    );
}

#[tokio::test]
async fn res_locals_are_per_request() {
    let mut app = webfw::app();
    app.use_(|req: &mut Request, res: &mut Response| {
        let seen = res.locals().len();
        let path = req.path().to_owned();
        res.locals_mut().insert("path".into(), json!(path));
        res.locals_mut().insert("seen".into(), json!(seen));
        next()
    });
    app.get("/:x", |_: &mut Request, res: &mut Response| {
        let l = Value::Object(res.locals().clone());
        res.json(&l)
    });
    let srv = TestServer::start(app).await;
    assert_eq!(srv.get("/a").await.json(), json!({"path": "/a", "seen": 0}));
    assert_eq!(srv.get("/b").await.json(), json!({"path": "/b", "seen": 0}));
}
