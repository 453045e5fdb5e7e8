//! `req.param_or(name, default)` (Express's deprecated `req.param`) over a socket.

use crate::common;

use common::TestServer;
use serde_json::json;
use webfw::prelude::*;

#[tokio::test]
async fn route_params_then_query_then_default() {
    let mut app = webfw::app();
    app.get("/users/:id", |req: &mut Request, res: &mut Response| {
        let body = json!({
            "id": req.param_or("id", "none"),
            "page": req.param_or("page", 1),
            "tags": req.param_or("tags", json!([])),
            "null": req.param_or("n", "fallback"),
        });
        res.json(&body)
    });
    let server = TestServer::start(app).await;
    let res = server.get("/users/7?id=query&tags[]=a").await;
    assert_eq!(
        res.json(),
        json!({ "id": "7", "page": 1, "tags": ["a"], "null": "fallback" })
    );
    let res = server.get("/users/7?page=3").await;
    assert_eq!(res.json()["page"], json!("3"));
}
