//! The in-process test client (`webfw::testing::TestClient`): it answers
//! exactly as the server does over a socket (same dispatch), reads bodies
//! through the parsers, streams, runs `on_finish` hooks and tower layers.

use crate::common;

use common::TestServer;
use common::capture::Capture;
use serde_json::{Value, json};
use webfw::logger::{LoggerOptions, logger};
use webfw::prelude::*;
use webfw::testing::TestClient;

fn app() -> webfw::App {
    let mut app = webfw::app();
    app.get("/users/:id", |req: &mut Request, res: &mut Response| {
        let id = req.param("id").unwrap_or_default().to_owned();
        res.cookie("seen", id.as_str())?;
        res.json(&json!({ "id": id }))
    });
    app.get("/text", |_req: &mut Request, res: &mut Response| {
        res.set("X-Custom", "1").send("plain text")
    });
    app.get(
        "/fail",
        |_req: &mut Request, _res: &mut Response| -> Result {
            Err(webfw::Error::new("nope").with_status(418))
        },
    );
    app.set("env", "test");
    app
}

/// What a response says, without what depends on the connection.
fn comparable(
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let mut headers: Vec<_> = headers
        .into_iter()
        .filter(|(n, _)| n != "date" && n != "connection" && n != "keep-alive")
        .collect();
    headers.sort();
    (status, headers, body)
}

#[tokio::test]
async fn answers_as_the_server_does_over_a_socket() {
    let client = TestClient::new(app());
    let server = TestServer::start(app()).await;
    for (method, path) in [
        ("GET", "/users/7"),
        ("GET", "/text"),
        ("HEAD", "/text"),
        ("GET", "/fail"),
        ("GET", "/missing?x=%41"),
        ("DELETE", "/users/7"),
    ] {
        let method_ = http::Method::from_bytes(method.as_bytes()).unwrap();
        let got = client.request(method_, path).send().await;
        let headers = got
            .headers()
            .iter()
            .map(|(n, v)| (n.as_str().to_owned(), v.to_str().unwrap().to_owned()))
            .collect();
        let over_socket = server.call(method, path, &[]).await;
        assert_eq!(
            comparable(got.status(), headers, got.bytes().to_vec()),
            comparable(over_socket.status, over_socket.headers, over_socket.body),
            "{method} {path}"
        );
    }
}

#[tokio::test]
async fn request_bodies_go_through_the_parsers() {
    let mut app = webfw::app();
    app.use_(webfw::json(Default::default()));
    app.use_(webfw::text(Default::default()));
    app.post("/echo", |req: &mut Request, res: &mut Response| {
        let body = req.body().as_value().cloned().unwrap_or(Value::Null);
        res.json(&body)
    });
    let client = TestClient::new(app);
    let res = client
        .post("/echo")
        .json(&json!({ "a": [1, 2] }))
        .send()
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<Value>(), json!({ "a": [1, 2] }));
    let res = client
        .post("/echo")
        .header("content-type", "application/json")
        .body("{oops")
        .send()
        .await;
    assert_eq!(res.status(), 400);
    assert!(res.text().contains("SyntaxError"), "{}", res.text());
}

#[tokio::test]
async fn streamed_responses_are_read_to_the_end() {
    let mut app = webfw::app();
    app.get(
        "/stream",
        async |_req: &mut Request, res: &mut Response| -> Result {
            for i in 0..3 {
                res.write(format!("chunk {i};"))?;
                tokio::task::yield_now().await;
            }
            res.end()
        },
    );
    let res = TestClient::new(app).get("/stream").send().await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.header("transfer-encoding"),
        None,
        "no framing in-process"
    );
    assert_eq!(res.text(), "chunk 0;chunk 1;chunk 2;");
}

#[tokio::test]
async fn the_logger_writes_its_line_and_headers_and_peer_reach_the_app() {
    let cap = Capture::default();
    let mut app = webfw::app();
    app.use_(logger(
        ":remote-addr :method :url :status :req[x-tenant]",
        LoggerOptions::new().stream(cap.clone()),
    ));
    app.get("/ok", |_req: &mut Request, res: &mut Response| {
        res.send("ok")
    });
    let client = TestClient::new(app);
    let res = client
        .get("/ok?x=1")
        .header("x-tenant", "acme")
        .peer("10.1.2.3:4000".parse().unwrap())
        .send()
        .await;
    assert_eq!(res.text(), "ok");
    assert_eq!(cap.lines(), vec!["10.1.2.3 GET /ok?x=1 200 acme"]);
}

#[tokio::test]
async fn tower_layers_run_in_process_too() {
    let mut app = webfw::app();
    app.use_(webfw::tower(tower_http::cors::CorsLayer::permissive()));
    app.get("/", |_req: &mut Request, res: &mut Response| res.send("hi"));
    let res = TestClient::new(app)
        .get("/")
        .header("origin", "https://b.example")
        .send()
        .await;
    assert_eq!(res.text(), "hi");
    assert_eq!(res.header("access-control-allow-origin"), Some("*"));
}
