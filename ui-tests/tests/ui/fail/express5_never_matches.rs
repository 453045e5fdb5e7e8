use webfw::prelude::*;

#[webfw::express5::get("users/:id")]
fn handler(_req: &mut Request, res: &mut Response) -> Result {
    res.send("never registered")
}

fn main() {}
