use webfw::express5::{get, post};
use webfw::prelude::*;

// `post` comes from `webfw::express5` too: its path is an Express 5 path.
#[get("/users/:id")]
#[post("/users/:id?")]
fn handler(_req: &mut Request, res: &mut Response) -> Result {
    res.send("never registered")
}

fn main() {}
