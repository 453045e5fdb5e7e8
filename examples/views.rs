//! Server-rendered pages with minijinja: `app.engine`, the `views` and `view
//! engine` settings, `app.locals` and `res.locals`, `res.render`, a layout
//! with a partial, `<name>/index.html` lookup, and a missing view handled by
//! an error handler.
//!
//! `cargo run --example views`, then open http://127.0.0.1:3000/ (`PORT`
//! chooses another port).

use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;
use serde_json::json;
use webfw::prelude::*;
use webfw::view::MiniJinja;

#[derive(Serialize, Clone, Copy)]
struct User {
    id: &'static str,
    name: &'static str,
    bio: &'static str,
}

const USERS: &[User] = &[
    User {
        id: "ada",
        name: "Ada Lovelace",
        bio: "Wrote the first program <for a machine that did not exist yet>.",
    },
    User {
        id: "grace",
        name: "Grace Hopper",
        bio: "Made computers understand words.",
    },
];

static VISITS: AtomicU64 = AtomicU64::new(0);

/// Every page sees how many pages were rendered (`res.locals`).
fn count(_req: &mut Request, res: &mut Response) -> Result {
    let visits = VISITS.fetch_add(1, Ordering::Relaxed) + 1;
    res.locals_mut().insert("visits".into(), json!(visits));
    next()
}

async fn home(_req: &mut Request, res: &mut Response) -> Result {
    res.render("index", json!({ "title": "People", "users": USERS }))
        .await
}

/// `users` resolves to `views/users/index.html`, as in Express.
async fn user(req: &mut Request, res: &mut Response) -> Result {
    let id = req.param("id").unwrap_or_default();
    let Some(user) = USERS.iter().find(|u| u.id == id).copied() else {
        return Err(Error::from_status(404));
    };
    res.render("users", json!({ "title": user.name, "user": user }))
        .await
}

/// A view that does not exist: Express's lookup error reaches the error
/// handler below.
async fn broken(_req: &mut Request, res: &mut Response) -> Result {
    res.render("no-such-page", ()).await
}

fn errors(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    res.status(err.status()).type_("text/plain").send(format!(
        "{} ({})",
        err.message(),
        err.status()
    ))
}

fn main() -> std::io::Result<()> {
    let mut app = webfw::app();
    app.set(
        "views",
        concat!(env!("CARGO_MANIFEST_DIR"), "/examples/views"),
    )
    .set("view engine", "html");
    app.engine("html", MiniJinja::new());
    app.locals_mut().insert("site".into(), json!("webfw views"));

    app.use_(count);
    app.get("/", home);
    app.get("/users/:id", user);
    app.get("/broken", broken);
    app.use_(errors);

    let port = std::env::var("PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(3000);
    app.listen(port, |addr| println!("views example on http://{addr}"))
}
