use webfw::prelude::*;

#[route(methd = "get", path = "/")]
fn typo(_req: &mut Request, res: &mut Response) -> Result {
    res.send("typo")
}

fn main() {}
