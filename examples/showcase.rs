//! A tour of webfw: routing with parameters, a param callback, a mounted
//! router and sub-app, settings, JSON, redirects and error handling.
//!
//! `cargo run --example showcase`, then try:
//! `curl -i http://127.0.0.1:3000/users/1`, `/users/99`, `/users/abc`,
//! `/api/v1/info?tags[]=a&tags[]=b`, `/admin/`, `/old`, `/boom`.

use serde_json::json;
use webfw::prelude::*;

fn users() -> Vec<serde_json::Value> {
    vec![
        json!({ "id": 1, "name": "tobi" }),
        json!({ "id": 2, "name": "loki" }),
    ]
}

/// `app.param('id', …)`: loads the user once per request.
fn load_user(req: &mut Request, _res: &mut Response, id: &str) -> Result {
    let user = users()
        .into_iter()
        .find(|u| u["id"].as_u64().is_some_and(|n| n.to_string() == id))
        .ok_or_else(|| Error::status_message(404, format!("no user {id}")))?;
    req.set_local("user", user);
    next()
}

fn show_user(req: &mut Request, res: &mut Response) -> Result {
    let user = req.local("user").cloned().unwrap_or_default();
    res.json(&user)
}

fn info(req: &mut Request, res: &mut Response) -> Result {
    res.json(&json!({
        "baseUrl": req.base_url(),
        "path": req.path(),
        "query": req.query(),
        "ip": req.ip(),
    }))
}

/// Errors end up here, as JSON.
fn json_errors(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    res.status(err.status())
        .json(&json!({ "error": err.message(), "status": err.status() }))
}

fn main() -> std::io::Result<()> {
    let mut app = webfw::app();
    app.set("json spaces", 2);

    app.get("/", |_: &mut Request, res: &mut Response| {
        res.send("<h1>webfw showcase</h1><p>Try /users/1, /api/v1/info, /admin/</p>")
    });
    app.param("id", load_user);
    app.get("/users/:id(\\d+)", show_user);
    app.get("/old", |_: &mut Request, res: &mut Response| {
        res.redirect("/users/1")
    });
    app.get("/boom", |_: &mut Request, _: &mut Response| -> Result {
        Err(Error::new("something broke"))
    });

    let mut api = webfw::Router::new();
    api.get("/info", info);
    app.use_at("/api/v1", api);

    let mut admin = webfw::app();
    admin.get("/", |req: &mut Request, res: &mut Response| {
        let mounted = req.app().path().to_owned();
        res.send(format!("admin sub-app mounted at {mounted}"))
    });
    app.use_at("/admin", admin);

    app.use_(json_errors);

    let opts = webfw::ListenOptions::port(3000).host("127.0.0.1");
    app.listen_with(opts, |addr| println!("webfw showcase on http://{addr}"))
}
