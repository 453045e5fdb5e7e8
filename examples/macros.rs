//! A small users API written with the webfw macros: route attributes,
//! a `#[param("id")]` callback that loads the user once per request, an
//! `#[error_handler]` answering JSON errors, and `routes!` + `app.mount`.
//!
//! ```text
//! cargo run --example macros            # PORT=8080 to change the port
//! curl -i http://127.0.0.1:3000/users
//! curl -i http://127.0.0.1:3000/users/1
//! curl -i -X POST 'http://127.0.0.1:3000/users?name=Edsger'
//! curl -i -X DELETE http://127.0.0.1:3000/users/2
//! curl -i http://127.0.0.1:3000/users/42      # 404 {"error": "user 42 not found", …}
//! curl -i http://127.0.0.1:3000/users/abc     # 400 {"error": "invalid user id `abc`", …}
//! ```

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{LazyLock, Mutex, MutexGuard};

use serde_json::{Value, json};
use webfw::prelude::*;

/// The "database".
static USERS: LazyLock<Mutex<BTreeMap<u32, String>>> = LazyLock::new(|| {
    Mutex::new(BTreeMap::from([
        (1, "Ada Lovelace".to_owned()),
        (2, "Grace Hopper".to_owned()),
    ]))
});

fn users() -> MutexGuard<'static, BTreeMap<u32, String>> {
    USERS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn user_json(id: u32, name: &str) -> Value {
    json!({ "id": id, "name": name })
}

/// Numbers every request (`X-Request-Id`), before any route.
#[middleware]
fn request_id(_req: &mut Request, res: &mut Response) -> Result {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    res.set("x-request-id", id.to_string());
    next()
}

/// Runs once per request before any route with `:id`: parses the id, loads
/// the user into `req` locals, or fails with 400 / 404.
#[param("id")]
async fn load_user(req: &mut Request, _res: &mut Response, id: &str) -> Result {
    let n: u32 = id
        .parse()
        .map_err(|_| Error::new(format!("invalid user id `{id}`")).with_status(400))?;
    let name = users()
        .get(&n)
        .cloned()
        .ok_or_else(|| Error::new(format!("user {n} not found")).with_status(404))?;
    req.set_local("user", user_json(n, &name));
    next()
}

#[get("/")]
fn index(_req: &mut Request, res: &mut Response) -> Result {
    res.json(&json!({
        "routes": ["GET /users", "POST /users?name=…", "GET /users/:id", "DELETE /users/:id"]
    }))
}

#[get("/users")]
fn list(_req: &mut Request, res: &mut Response) -> Result {
    let all: Vec<Value> = users()
        .iter()
        .map(|(id, name)| user_json(*id, name))
        .collect();
    res.json(&all)
}

#[post("/users")]
fn create(req: &mut Request, res: &mut Response) -> Result {
    let name = req.query()["name"]
        .as_str()
        .filter(|n| !n.is_empty())
        .ok_or_else(|| Error::new("the `name` query parameter is required").with_status(400))?
        .to_owned();
    let mut db = users();
    let id = db.keys().next_back().map_or(1, |last| last + 1);
    db.insert(id, name.clone());
    drop(db);
    res.status(201)
        .set("location", format!("/users/{id}"))
        .json(&user_json(id, &name))
}

#[get("/users/:id")]
fn show(req: &mut Request, res: &mut Response) -> Result {
    let user = req.local("user").cloned().unwrap_or_default();
    res.json(&user)
}

#[delete("/users/:id")]
fn remove(req: &mut Request, res: &mut Response) -> Result {
    if let Some(id) = req.local("user").and_then(|u| u["id"].as_u64()) {
        users().remove(&(id as u32));
    }
    res.send_status(204)
}

/// Every error as JSON: `{"error": message, "status": code}`.
#[error_handler]
fn json_errors(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    let status = err.status();
    let message = if err.expose() {
        err.message().to_owned()
    } else {
        "Internal Server Error".to_owned()
    };
    res.status(status)
        .json(&json!({ "error": message, "status": status }))
}

fn main() -> std::io::Result<()> {
    let routes = routes![
        request_id,
        load_user,
        index,
        list,
        create,
        show,
        remove,
        json_errors
    ];
    println!("{routes}");

    let mut app = webfw::app();
    app.mount(routes);

    let port = std::env::var("PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(3000);
    let opts = webfw::ListenOptions::port(port).host("127.0.0.1");
    app.listen_with(opts, |addr| {
        println!("users API listening on http://{addr}")
    })
}
