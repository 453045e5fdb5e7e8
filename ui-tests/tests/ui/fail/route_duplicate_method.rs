use webfw::prelude::*;

#[route(method = "get", method = "post", path = "/")]
fn two(_req: &mut Request, res: &mut Response) -> Result {
    res.send("two")
}

fn main() {}
