use webfw::prelude::*;

#[get("/")]
fn index(_req: &mut Request, mut res: Response) -> Result {
    res.send("index")
}

fn main() {}
