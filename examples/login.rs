//! A server-rendered login: a form posted as `application/x-www-form-urlencoded`
//! (`webfw::urlencoded`, read typed with `req.body_as`), a signed cookie
//! (`res.cookie_with(… .signed())`, read back through `webfw::cookie_parser`),
//! a redirect, pages rendered with minijinja, a stylesheet from
//! `webfw::static_` and a download made for the user.
//!
//! `cargo run --example login`, then open http://127.0.0.1:3000/ (`PORT`
//! chooses another port). Any name logs in with the password `webfw`.
//! `tests/suite/browser.rs` drives it with a headless Chromium.

use serde::Deserialize;
use serde_json::json;
use webfw::prelude::*;
use webfw::view::MiniJinja;
use webfw::{App, CookieOptions, StaticOptions, UrlencodedOptions};

/// Signs the `user` cookie; a real app reads it from its configuration.
const SECRET: &str = "keyboard cat";

#[derive(Deserialize)]
struct LoginForm {
    name: String,
    password: String,
}

/// The home page for a logged-in user; everyone else goes to the form.
async fn home(req: &mut Request, res: &mut Response) -> Result {
    match req.signed_cookie("user").map(str::to_owned) {
        Some(user) => {
            res.render("home", json!({ "title": "Home", "user": user }))
                .await
        }
        None => res.redirect("/login"),
    }
}

async fn form(_req: &mut Request, res: &mut Response) -> Result {
    res.render("login", json!({ "title": "Log in" })).await
}

async fn login(req: &mut Request, res: &mut Response) -> Result {
    let form: LoginForm = req.body_as()?;
    let name = form.name.trim();
    if name.is_empty() || form.password != "webfw" {
        res.status(401);
        let page = json!({ "title": "Log in", "name": name, "error": "Wrong name or password." });
        return res.render("login", page).await;
    }
    res.cookie_with("user", name, &CookieOptions::new().signed().http_only())?;
    res.redirect("/")
}

/// A text file made for the logged-in user, sent as a download.
fn welcome(req: &mut Request, res: &mut Response) -> Result {
    match req.signed_cookie("user").map(str::to_owned) {
        Some(user) => {
            res.attachment("welcome.txt");
            res.send(format!("Welcome, {user}! You logged in with webfw.\n"))
        }
        None => res.redirect("/login"),
    }
}

fn logout(_req: &mut Request, res: &mut Response) -> Result {
    res.clear_cookie("user")?;
    res.redirect("/login")
}

/// The app, without a port: `main` listens with it, `tests/suite/browser.rs` runs it
/// in the test.
pub fn app() -> App {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/login");
    let mut app = webfw::app();
    app.set("views", dir).set("view engine", "html");
    app.engine("html", MiniJinja::new());

    app.use_(webfw::static_(
        format!("{dir}/public"),
        StaticOptions::new(),
    ));
    app.use_(webfw::cookie_parser(SECRET));
    app.use_(webfw::urlencoded(UrlencodedOptions::new()));
    app.get("/", home);
    app.get("/login", form);
    app.post("/login", login);
    app.get("/welcome.txt", welcome);
    app.post("/logout", logout);
    app
}

fn main() -> std::io::Result<()> {
    let port = std::env::var("PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(3000);
    app().listen(port, |addr| println!("login example on http://{addr}"))
}
