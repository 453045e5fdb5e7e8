use webfw::prelude::*;

#[get("/")]
fn index(res: &mut Response) -> Result {
    res.send("index")
}

fn main() {}
