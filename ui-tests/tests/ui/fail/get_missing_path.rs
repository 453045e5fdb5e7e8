use webfw::prelude::*;

#[get]
fn index(_req: &mut Request, res: &mut Response) -> Result {
    res.send("index")
}

fn main() {}
