use webfw::prelude::*;

const PATH: &str = "/users";

#[get(PATH)]
fn users(_req: &mut Request, res: &mut Response) -> Result {
    res.send("users")
}

fn main() {}
