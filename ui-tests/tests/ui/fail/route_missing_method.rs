use webfw::prelude::*;

#[route(path = "/search")]
fn search(_req: &mut Request, res: &mut Response) -> Result {
    res.send("found")
}

fn main() {}
