use webfw::prelude::*;

#[route(method = "all", path = "/")]
fn any(_req: &mut Request, res: &mut Response) -> Result {
    res.send("any")
}

fn main() {}
