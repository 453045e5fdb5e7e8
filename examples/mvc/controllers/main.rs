//! `/`: on to the users.

use webfw::App;
use webfw::prelude::*;

fn index(_req: &mut Request, res: &mut Response) -> Result {
    res.redirect("/users")
}

pub fn app() -> App {
    let mut app = webfw::app();
    app.get("/", index);
    app
}
