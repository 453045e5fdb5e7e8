use webfw::prelude::*;

#[route(method = "m-search")]
fn search(_req: &mut Request, res: &mut Response) -> Result {
    res.send("found")
}

fn main() {}
