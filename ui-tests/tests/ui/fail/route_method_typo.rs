use webfw::prelude::*;

#[route(method = "m-serach", path = "/")]
fn discover(_req: &mut Request, res: &mut Response) -> Result {
    res.send("found")
}

fn main() {}
