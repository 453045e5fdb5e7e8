use webfw::prelude::*;

#[get("/users)")]
fn users(_req: &mut Request, res: &mut Response) -> Result {
    res.send("users")
}

fn main() {}
