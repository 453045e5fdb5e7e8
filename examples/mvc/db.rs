//! The faux database of Express's example, kept in the app's typed state.

use std::sync::Mutex;

use serde::Serialize;

#[derive(Clone, Serialize)]
pub struct Pet {
    pub id: usize,
    pub name: String,
}

#[derive(Clone, Serialize)]
pub struct User {
    pub id: usize,
    pub name: String,
    /// Ids of the user's pets.
    #[serde(skip)]
    pub pets: Vec<usize>,
}

#[derive(Default)]
pub struct Tables {
    pub pets: Vec<Pet>,
    pub users: Vec<User>,
}

/// `app.state(Db::seeded())`, `req.state::<Db>()?` in the controllers.
pub struct Db(pub Mutex<Tables>);

impl Db {
    /// Express's example data: four pets, three users.
    pub fn seeded() -> Db {
        let pets = ["Tobi", "Loki", "Jane", "Raul"]
            .iter()
            .enumerate()
            .map(|(id, name)| Pet {
                id,
                name: (*name).to_owned(),
            })
            .collect();
        let users = [
            ("TJ", vec![0, 1, 2]),
            ("Guillermo", vec![3]),
            ("Nathan", vec![]),
        ]
        .into_iter()
        .enumerate()
        .map(|(id, (name, pets))| User {
            id,
            name: name.to_owned(),
            pets,
        })
        .collect();
        Db(Mutex::new(Tables { pets, users }))
    }

    pub fn lock(&self) -> std::sync::MutexGuard<'_, Tables> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Tables {
    /// A user with their pets, as the views show them.
    pub fn user_view(&self, id: usize) -> Option<serde_json::Value> {
        let user = self.users.get(id)?;
        let pets: Vec<&Pet> = user.pets.iter().filter_map(|p| self.pets.get(*p)).collect();
        Some(serde_json::json!({ "id": user.id, "name": user.name, "pets": pets }))
    }
}
