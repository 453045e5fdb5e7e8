use webfw::prelude::*;

#[get("/")]
fn index(_req: &mut String, res: &mut Response) -> Result {
    res.send("index")
}

fn main() {}
