use webfw::prelude::*;

#[route("/search")]
fn search(_req: &mut Request, res: &mut Response) -> Result {
    res.send("found")
}

fn main() {}
