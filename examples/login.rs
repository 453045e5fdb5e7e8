//! A server-rendered login: a form posted as `application/x-www-form-urlencoded`
//! (`webfw::urlencoded`, read typed with `req.body_as`), a signed cookie
//! (`res.cookie_with(… .signed())`, read back through `webfw::cookie_parser`),
//! a redirect, and pages rendered with minijinja.
//!
//! `cargo run --example login`, then open http://127.0.0.1:3000/ (`PORT`
//! chooses another port). Any name logs in with the password `webfw`.

use serde::Deserialize;
use serde_json::json;
use webfw::prelude::*;
use webfw::view::MiniJinja;
use webfw::{CookieOptions, UrlencodedOptions};

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

fn logout(_req: &mut Request, res: &mut Response) -> Result {
    res.clear_cookie("user")?;
    res.redirect("/login")
}

fn main() -> std::io::Result<()> {
    let mut app = webfw::app();
    app.set(
        "views",
        concat!(env!("CARGO_MANIFEST_DIR"), "/examples/login"),
    )
    .set("view engine", "html");
    app.engine("html", MiniJinja::new());

    app.use_(webfw::cookie_parser(SECRET));
    app.use_(webfw::urlencoded(UrlencodedOptions::new()));
    app.get("/", home);
    app.get("/login", form);
    app.post("/login", login);
    app.post("/logout", logout);

    let port = std::env::var("PORT")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(3000);
    app.listen(port, |addr| println!("login example on http://{addr}"))
}
