use webfw::prelude::*;

#[post("users")]
fn create(_req: &mut Request, res: &mut Response) -> Result {
    res.send("created")
}

fn main() {}
