//! Express's `examples/mvc`, in webfw: controllers mounted as sub-apps with
//! their own views, a faux database in typed app state, a `res.message()`
//! helper written once as an extension trait, flash messages kept in the
//! session, `PUT` from HTML forms through method-override, and error and 404
//! pages rendered from views.
//!
//! `cargo run --example mvc`, then open http://127.0.0.1:3000/ (`PORT`
//! chooses another port). `tests/suite/mvc.rs` drives it over a socket.

mod controllers;
mod db;
mod message;

use serde_json::json;
use webfw::prelude::*;
use webfw::session::SessionOptions;
use webfw::view::{Escape, MiniJinja};
use webfw::{App, StaticOptions, UrlencodedOptions};

use message::Messages;

/// Where the example's files are.
pub fn dir() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/examples/mvc")
}

/// Puts the session's messages into `res.locals` for the views, and empties
/// the list (Express's example empties it after `next()`; taking them now
/// leaves the same list behind).
fn expose_messages(req: &mut Request, res: &mut Response) -> Result {
    let messages = req.take_messages();
    let locals = res.locals_mut();
    locals.insert("hasMessages".into(), json!(!messages.is_empty()));
    locals.insert("messages".into(), json!(messages));
    next()
}

/// The 5xx page for an error no controller answered.
async fn server_error(err: Error, _req: &mut Request, res: &mut Response) -> Result {
    eprintln!("{}", err.message());
    res.status(500).render("5xx", ()).await
}

/// No controller answered: the 404 page.
async fn not_found(req: &mut Request, res: &mut Response) -> Result {
    let url = req.original_url().to_owned();
    res.status(404).render("404", json!({ "url": url })).await
}

/// The app, without a port: `main` listens with it, `tests/suite/mvc.rs` runs it.
pub fn app() -> App {
    let mut app = webfw::app();
    // Every view is minijinja, escaping as the example's EJS views do;
    // `.html` is the default extension.
    app.set("view engine", "html");
    app.set("views", format!("{}/views", dir()));
    app.engine("html", MiniJinja::new().escape(Escape::Ejs));
    app.state(db::Db::seeded());

    app.use_(webfw::logger("dev", ()));
    app.use_(webfw::static_(
        format!("{}/public", dir()),
        StaticOptions::new(),
    ));
    // Don't save a session until something is stored in it.
    app.use_(webfw::session(
        SessionOptions::new("some secret here")
            .resave(false)
            .save_uninitialized(false),
    ));
    app.use_(webfw::urlencoded(UrlencodedOptions::new().extended(true)));
    // HTML forms can only POST: `?_method=put` makes it a PUT.
    app.use_(webfw::method_override("_method"));
    app.use_(expose_messages);

    for controller in controllers::all() {
        app.use_(controller);
    }

    app.use_(server_error);
    app.use_(not_found);
    app
}

#[allow(dead_code)]
fn main() -> std::io::Result<()> {
    let port = std::env::var("PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(3000);
    app().listen(port, |addr| println!("mvc example on http://{addr}"))
}
