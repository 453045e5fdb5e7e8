//! `webfw::vhost` over a socket: regex hostnames and their captures, a
//! router and an app as the handler, hosts that never match.

use crate::common;

use common::{HttpResponse, TestServer};
use serde_json::{Value, json};
use webfw::prelude::*;
use webfw::vhost::Regex;

fn show(label: &'static str) -> impl Fn(&mut Request, &mut Response) -> Result + Send + Sync {
    move |req, res| {
        let v = req.vhost().expect("under vhost");
        let body = json!({
            "app": label, "url": req.url(), "base": req.base_url(), "host": v.host(),
            "hostname": v.hostname(), "captures": v.captures(), "id": req.param("id"),
        });
        res.json(&body)
    }
}

async fn get(server: &TestServer, host: Option<&str>, path: &str) -> HttpResponse {
    let host = host.map(|h| format!("Host: {h}\r\n")).unwrap_or_default();
    let version = if host.is_empty() { "1.0" } else { "1.1" };
    server
        .raw(format!(
            "GET {path} HTTP/{version}\r\n{host}Connection: close\r\n\r\n"
        ))
        .await
}

fn app() -> webfw::App {
    let mut app = webfw::app();
    let re = Regex::new(r"^(?P<name>[a-z]+)(?:-(\d+))?\.re\.example$").unwrap();
    app.use_(webfw::vhost(re, show("regex")));
    let mut api = webfw::router();
    api.get("/users/:id", show("router"));
    app.use_(webfw::vhost("*.api.example", api));
    let mut admin = webfw::app();
    admin.get("/", show("app"));
    app.use_at("/mounted", webfw::vhost("admin.example", admin));
    app.get(
        "/:id/param",
        (
            webfw::vhost("p.example", show("param")),
            |req: &mut Request, res: &mut Response| {
                let body = json!({"app": "next in route", "vhost": req.vhost().is_some()});
                res.json(&body)
            },
        ),
    );
    app.use_(|req: &mut Request, res: &mut Response| {
        let body = json!({"app": "none", "vhost": req.vhost().is_some()});
        res.json(&body)
    });
    app
}

#[tokio::test]
async fn a_regex_gives_its_groups_and_unmatched_ones_are_null() {
    let server = TestServer::start(app()).await;
    let res = get(&server, Some("Abc-42.RE.example:8080"), "/q?x=1").await;
    assert_eq!(
        res.json(),
        json!({"app": "regex", "url": "/q?x=1", "base": "", "host": "Abc-42.RE.example:8080",
               "hostname": "Abc-42.RE.example", "captures": ["Abc", "42"], "id": null})
    );
    let res = get(&server, Some("abc.re.example"), "/").await;
    assert_eq!(res.json()["captures"], json!(["abc", null]));
}

#[tokio::test]
async fn a_router_and_an_app_serve_their_host() {
    let server = TestServer::start(app()).await;
    let res = get(&server, Some("tobi.api.example"), "/users/7").await;
    assert_eq!(res.json()["app"], "router");
    assert_eq!(res.json()["captures"], json!(["tobi"]));
    assert_eq!(res.json()["id"], "7");
    // The router has no such route: the request goes on past vhost.
    let res = get(&server, Some("tobi.api.example"), "/nothing").await;
    assert_eq!(res.json(), json!({"app": "none", "vhost": true}));
    let res = get(&server, Some("admin.example"), "/mounted/").await;
    assert_eq!(res.json()["app"], "app");
    assert_eq!(res.json()["base"], "/mounted");
}

#[tokio::test]
async fn on_a_route_the_params_stay_and_another_host_skips_to_the_next_handler() {
    let server = TestServer::start(app()).await;
    let res = get(&server, Some("p.example"), "/9/param").await;
    assert_eq!(res.json()["app"], "param");
    assert_eq!(res.json()["id"], "9");
    let res = get(&server, Some("q.example"), "/9/param").await;
    assert_eq!(res.json(), json!({"app": "next in route", "vhost": false}));
}

#[tokio::test]
async fn hosts_that_never_match() {
    let server = TestServer::start(app()).await;
    for host in [
        Some("api.example"),
        Some("a.b.api.example"),
        Some(":8080"),
        None,
    ] {
        let res = get(&server, host, "/users/1").await;
        assert_eq!(
            res.json(),
            json!({"app": "none", "vhost": false}),
            "{host:?}"
        );
    }
    let res = get(&server, Some("[::1]:3000"), "/").await;
    assert_eq!(res.json()["app"], Value::from("none"));
}

#[test]
#[should_panic(expected = "argument hostname is required")]
fn an_empty_hostname_is_refused() {
    let _ = webfw::vhost("", |_req: &mut Request, res: &mut Response| res.send("x"));
}
