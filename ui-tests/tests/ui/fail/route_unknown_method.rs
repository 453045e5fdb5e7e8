use webfw::prelude::*;

#[route(method = "frobnicate", path = "/")]
fn frob(_req: &mut Request, res: &mut Response) -> Result {
    res.send("frobbed")
}

fn main() {}
