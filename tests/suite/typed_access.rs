//! `req.body_as`, `req.query_as`, `req.params_as`, `res.json` by value and
//! `res.send(Json(…))` over real sockets.

use crate::common;

use common::TestServer;
use serde::{Deserialize, Serialize};
use serde_json::json;
use webfw::Json;
use webfw::body::{JsonOptions, UrlencodedOptions};
use webfw::prelude::*;

#[derive(Deserialize, Serialize)]
struct NewTodo {
    title: String,
    #[serde(default)]
    done: bool,
}

#[derive(Deserialize, Serialize)]
struct Filter {
    done: Option<bool>,
    #[serde(default = "twenty")]
    limit: u32,
    #[serde(default)]
    tag: Vec<String>,
}

fn twenty() -> u32 {
    20
}

#[derive(Deserialize, Serialize)]
struct Ids {
    user: u32,
    post: String,
}

fn status_and_message(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    let body = json!({ "status": err.status(), "message": err.message() });
    res.status(err.status()).json(&body)
}

fn app() -> App {
    let mut app = webfw::app();
    app.post(
        "/todos",
        (
            webfw::json(JsonOptions::new()),
            |req: &mut Request, res: &mut Response| {
                let todo: NewTodo = req.body_as()?;
                res.status(201).json(&todo)
            },
        ),
    );
    app.post(
        "/form",
        (
            webfw::urlencoded(UrlencodedOptions::new()),
            |req: &mut Request, res: &mut Response| {
                let f: Filter = req.body_as()?;
                res.send(Json(&f))
            },
        ),
    );
    app.post("/unparsed", |req: &mut Request, res: &mut Response| {
        let todo: NewTodo = req.body_as()?;
        res.json(&todo)
    });
    app.get("/todos", |req: &mut Request, res: &mut Response| {
        let f: Filter = req.query_as()?;
        res.json(&f)
    });
    app.get("/todos/:id", |req: &mut Request, res: &mut Response| {
        let id: u64 = req.params_as()?;
        res.send(vec![json!(id)])
    });
    app.get(
        "/users/:user/posts/:post",
        |req: &mut Request, res: &mut Response| {
            let ids: Ids = req.params_as()?;
            res.send(Json(ids))
        },
    );
    app.use_(status_and_message);
    app
}

fn post_json(path: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

#[tokio::test]
async fn typed_bodies() {
    let s = TestServer::start(app()).await;
    let r = s.raw(post_json("/todos", r#"{"title":"milk"}"#)).await;
    assert_eq!(
        (r.status, r.json()),
        (201, json!({"title": "milk", "done": false}))
    );
    assert_eq!(
        r.header("content-type"),
        Some("application/json; charset=utf-8")
    );
    let r = s.raw(post_json("/todos", r#"{"title":5}"#)).await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["message"],
        "invalid request body: field `title`: invalid type: integer `5`, expected a string"
    );
    let r = s.raw(post_json("/todos", r#"{"done":true}"#)).await;
    assert_eq!(
        r.json()["message"],
        "invalid request body: missing field `title`"
    );
    let r = s.raw(post_json("/unparsed", r#"{"title":"x"}"#)).await;
    assert_eq!(r.status, 400);
    assert!(
        r.json()["message"]
            .as_str()
            .unwrap()
            .contains("no body parser ran")
    );
}

#[tokio::test]
async fn form_bodies_coerce_strings() {
    let s = TestServer::start(app()).await;
    let body = "done=true&limit=5&tag[]=a&tag[]=b";
    let req = format!(
        "POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let r = s.raw(req).await;
    assert_eq!(
        r.json(),
        json!({"done": true, "limit": 5, "tag": ["a", "b"]})
    );
}

#[tokio::test]
async fn typed_queries() {
    let s = TestServer::start(app()).await;
    let r = s.get("/todos").await;
    assert_eq!(r.json(), json!({"done": null, "limit": 20, "tag": []}));
    let r = s.get("/todos?done=false&limit=3&tag=x").await;
    assert_eq!(r.json(), json!({"done": false, "limit": 3, "tag": ["x"]}));
    let r = s.get("/todos?tag=x&tag=y&done=").await;
    assert_eq!(
        r.json(),
        json!({"done": null, "limit": 20, "tag": ["x", "y"]})
    );
    let r = s.get("/todos?limit=lots").await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["message"],
        "invalid query string: field `limit`: invalid value: string \"lots\", expected u32"
    );
    let r = s.get("/todos?done=yes").await;
    assert_eq!(
        r.json()["message"],
        "invalid query string: field `done`: invalid value: string \"yes\", expected a boolean"
    );
}

#[tokio::test]
async fn typed_params() {
    let s = TestServer::start(app()).await;
    let r = s.get("/todos/42").await;
    assert_eq!(r.json(), json!([42]));
    let r = s.get("/todos/forty-two").await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["message"],
        "invalid route parameters: field `id`: invalid value: string \"forty-two\", expected u64"
    );
    let r = s.get("/users/7/posts/hello").await;
    assert_eq!(r.json(), json!({"user": 7, "post": "hello"}));
    let r = s.get("/users/x/posts/hello").await;
    assert_eq!(
        r.json()["message"],
        "invalid route parameters: field `user`: invalid value: string \"x\", expected u32"
    );
}
