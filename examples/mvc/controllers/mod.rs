//! The controllers, each a sub-app with its routes and its own `views`
//! directory, mounted in order (Express's example mounts every folder of
//! `controllers/` the same way, naming routes by convention; here each
//! controller says its routes).

mod main;
mod pet;
mod user;
mod user_pet;

use webfw::App;

/// Every controller's app, in the order they are mounted.
pub fn all() -> Vec<App> {
    vec![main::app(), pet::app(), user::app(), user_pet::app()]
}

/// The `views` directory of the controller `name`.
fn views(name: &str) -> String {
    format!("{}/controllers/{name}/views", super::dir())
}

/// The numeric id in the route parameter `name`, if it is one.
fn id_param(req: &webfw::Request, name: &str) -> Option<usize> {
    req.param(name).and_then(|v| v.parse().ok())
}

/// `req.body[object].name` of a form (`user[name]=…`, read by the extended
/// urlencoded parser), or empty.
fn form_name(req: &webfw::Request, object: &str) -> String {
    req.body()
        .as_value()
        .and_then(|body| body[object]["name"].as_str())
        .unwrap_or_default()
        .to_owned()
}
