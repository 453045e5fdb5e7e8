use webfw::prelude::*;

#[route(method = GET, path = "/")]
fn search(_req: &mut Request, res: &mut Response) -> Result {
    res.send("found")
}

fn main() {}
