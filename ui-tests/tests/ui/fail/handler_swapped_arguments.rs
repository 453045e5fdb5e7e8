use webfw::prelude::*;

#[get("/")]
fn index(res: &mut Response, _req: &mut Request) -> Result {
    res.send("index")
}

fn main() {}
