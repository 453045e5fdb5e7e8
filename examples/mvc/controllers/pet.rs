//! `/pet/:pet_id`, its edit form and its update.

use serde_json::json;
use webfw::App;
use webfw::prelude::*;

use super::super::db::Db;
use super::super::message::Message;
use super::{form_name, id_param};

/// Loads the pet named by `:pet_id`, or leaves the route.
fn before(req: &mut Request, _res: &mut Response) -> Result {
    let pet = id_param(req, "pet_id").and_then(|id| {
        let db = req.state::<Db>().ok()?.lock();
        db.pets.get(id).map(|p| json!(p))
    });
    match pet {
        Some(pet) => {
            req.set_local("pet", pet);
            next()
        }
        None => next_route(),
    }
}

fn pet(req: &Request) -> serde_json::Value {
    req.local("pet").cloned().unwrap_or_default()
}

async fn show(req: &mut Request, res: &mut Response) -> Result {
    res.render("show", json!({ "pet": pet(req) })).await
}

async fn edit(req: &mut Request, res: &mut Response) -> Result {
    res.render("edit", json!({ "pet": pet(req) })).await
}

fn update(req: &mut Request, res: &mut Response) -> Result {
    let id = pet(req)["id"].as_u64().unwrap_or_default() as usize;
    let name = form_name(req, "pet");
    if let Some(pet) = req.state::<Db>()?.lock().pets.get_mut(id) {
        pet.name = name;
    }
    res.message(req, "Information updated!")?;
    res.redirect(&format!("/pet/{id}"))
}

pub fn app() -> App {
    let mut app = webfw::app();
    app.set("views", super::views("pet"));
    app.get("/pet/:pet_id", (before, show));
    app.get("/pet/:pet_id/edit", (before, edit));
    app.put("/pet/:pet_id", (before, update));
    app
}
