//! `/users`, `/user/:user_id`, its edit form and its update.

use serde_json::json;
use webfw::App;
use webfw::prelude::*;

use super::super::db::Db;
use super::super::message::Message;
use super::{form_name, id_param};

/// Loads the user named by `:user_id` for the route's handlers; another
/// route answers an unknown id (Express's `next('route')`).
fn before(req: &mut Request, _res: &mut Response) -> Result {
    let user = id_param(req, "user_id").and_then(|id| req.state::<Db>().ok()?.lock().user_view(id));
    match user {
        Some(user) => {
            req.set_local("user", user);
            next()
        }
        None => next_route(),
    }
}

/// The user `before` loaded.
fn user(req: &Request) -> serde_json::Value {
    req.local("user").cloned().unwrap_or_default()
}

async fn list(req: &mut Request, res: &mut Response) -> Result {
    let users = serde_json::to_value(&req.state::<Db>()?.lock().users)?;
    res.render("list", json!({ "users": users })).await
}

async fn edit(req: &mut Request, res: &mut Response) -> Result {
    res.render("edit", json!({ "user": user(req) })).await
}

async fn show(req: &mut Request, res: &mut Response) -> Result {
    res.render("show", json!({ "user": user(req) })).await
}

fn update(req: &mut Request, res: &mut Response) -> Result {
    let id = user(req)["id"].as_u64().unwrap_or_default() as usize;
    let name = form_name(req, "user");
    if let Some(user) = req.state::<Db>()?.lock().users.get_mut(id) {
        user.name = name;
    }
    res.message(req, "Information updated!")?;
    res.redirect(&format!("/user/{id}"))
}

pub fn app() -> App {
    let mut app = webfw::app();
    app.set("views", super::views("user"));
    app.get("/users", list);
    app.get("/user/:user_id/edit", (before, edit));
    app.get("/user/:user_id", (before, show));
    app.put("/user/:user_id", (before, update));
    app
}
