use webfw::prelude::*;

mod other {
    pub struct Request;
}

#[get("/")]
fn index(_req: &mut other::Request, res: &mut Response) -> Result {
    res.send("index")
}

fn main() {}
