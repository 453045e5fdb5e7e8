//! `POST /user/:user_id/pet`: a new pet for a user.

use webfw::App;
use webfw::prelude::*;

use super::super::db::{Db, Pet};
use super::super::message::Message;
use super::{form_name, id_param};

fn create(req: &mut Request, res: &mut Response) -> Result {
    let Some(user_id) = id_param(req, "user_id") else {
        return next_route();
    };
    let name = form_name(req, "pet");
    {
        let mut db = req.state::<Db>()?.lock();
        if user_id >= db.users.len() {
            return next_route();
        }
        let id = db.pets.len();
        db.pets.push(Pet {
            id,
            name: name.clone(),
        });
        db.users[user_id].pets.push(id);
    }
    res.message(req, format!("Added pet {name}"))?;
    res.redirect(&format!("/user/{user_id}"))
}

pub fn app() -> App {
    let mut app = webfw::app();
    app.post("/user/:user_id/pet", create);
    app
}
