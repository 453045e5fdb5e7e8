use webfw::prelude::*;

#[get("/users/:id(\\d+")]
fn show(_req: &mut Request, res: &mut Response) -> Result {
    res.send("user")
}

fn main() {}
